//===----------------------------------------------------------------------===//
//
// This source file is part of the Injector open source project
//
// Copyright (c) 2026 the Injector project authors
// Licensed under Apache License v2.0
//
// See LICENSE.txt for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A service resolved on first use, once: what a service holds instead of the service itself when
/// it may not need it, or must not build it before it is used.
///
/// Nothing registers it: resolve `Lazy<Service>` (or let a factory's resolver infer it) wherever
/// `Service` is registered.
///
/// ```swift
/// container.register(NoteHandler.self) { r in NoteHandler(exporter: try r.resolve(Lazy<Exporter>.self)) }
/// // later, in the handler:
/// let pdf = try exporter.value   // resolved now; the same instance on every later use
/// ```
///
/// It resolves from where it came from: the lifetime scope its resolution ran in (and fails with
/// ``InjectionError/Code/scopeClosed`` once that scope is closed), or the container. Handed to a
/// singleton or weak service, it resolves from the container, never from one request's scope. It
/// keeps neither alive: once they are released it fails too.
///
/// Its value is read synchronously, so a `Lazy` of a service with an async factory is refused when
/// it is resolved (``InjectionError/Code/asyncResolutionRequired``): hold a ``ServiceProvider``
/// and call its ``ServiceProvider/resolveAsync()`` instead.
public final class Lazy<Service> {
    private let source: ResolutionSource
    private let name: String?
    private let resolved = Locked.make(Service?.none)

    init(source: ResolutionSource, name: String?) {
        self.source = source
        self.name = name
    }

    /// The service: resolved on the first access, the same afterwards. Threads that race for the
    /// first access wait for the one that resolves it. A failed resolve is not kept: the next
    /// access tries again.
    ///
    /// - Throws: ``InjectionError`` when the service cannot be resolved, or its scope is closed;
    ///   ``InjectionError/Code/circularWait`` when the thread resolving it waits, through the
    ///   container, for this thread; ``InjectionError/Code/resolutionCancelled`` when this task is
    ///   cancelled while another thread resolves it.
    public var value: Service {
        get throws {
            if let value = resolved.withLock({ $0 }) { return value }
            // One first resolve at a time, behind a gate like a shared instance's, whose waits are
            // searched for cycles; held while the factory runs, as no lock is.
            let key = ResolutionContext.SharedInstanceKey(slot: self)
            let asked = ServiceKey(Service.self, name: name)
            do {
                try InstanceGates.enter(
                    key,
                    asking: asked,
                    path: { ResolutionContext.threadPath + [asked] },
                    stopsWhenCancelled: true
                )
            } catch let error as InjectionError where error.code == .resolutionCancelled {
                let path = error.resolutionPath
                throw InjectionError.resolutionCancelled(asked, path: path, at: .whileAnotherResolvesLazy)
            }
            defer { InstanceGates.leave(key) }
            if let value = resolved.withLock({ $0 }) { return value }  // another thread was first
            do {
                let value: Service = try source.resolve(name: name)
                resolved.withLock { $0 = value }
                return value
            } catch let error as InjectionError
                where error.code == .asyncResolutionRequired && error.resolutionPath.last == asked
            {
                throw InjectionError.asyncResolutionRequired(asked, path: error.resolutionPath, by: .lazy(of: asked))
            }
        }
    }
}

extension Lazy: @unchecked Sendable where Service: Sendable {}

/// A handle that resolves a service each time it is asked: what a longer-lived service holds to get
/// a new transient instance whenever it needs one.
///
/// ```swift
/// container.register(Mailer.self, scope: .singleton) { r in
///     Mailer(transactions: try r.resolve(ServiceProvider<Transaction>.self))
/// }
/// // later, in the mailer:
/// let transaction = try transactions.resolve()
/// ```
///
/// Nothing registers it; it resolves from where it came from, as ``Lazy`` does. So a singleton's
/// handle resolves from the container and cannot reach a scoped service: a singleton or weak
/// service that asks for a handle to one is refused as a ``InjectionError/Code/captiveDependency``.
/// Pass the scoped service to the singleton's method that uses it instead.
public struct ServiceProvider<Service>: Sendable {
    private let source: ResolutionSource
    private let name: String?

    init(source: ResolutionSource, name: String?) {
        self.source = source
        self.name = name
    }

    /// Resolves the service now: what its registration's scope gives for a resolve.
    ///
    /// - Throws: ``InjectionError`` when the service cannot be resolved, or its scope is closed.
    public func resolve() throws -> Service {
        try source.resolve(name: name)
    }

    /// Resolves the service now, running async factories.
    public func resolveAsync() async throws -> Service {
        try await source.resolveAsync(name: name)
    }
}
