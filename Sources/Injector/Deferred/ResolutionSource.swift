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

/// Where a deferred resolution (``Lazy``, ``ServiceProvider``) resolves from: the lifetime scope
/// of the resolution that made it, or the container. Held weakly, so that a scoped service holding
/// one does not keep its own scope alive, nor a singleton its container.
struct ResolutionSource: Sendable {
    private weak var container: Container?
    private weak var lifetimeScope: LifetimeScope?
    private let fromScope: Bool
    private let tag: ScopeTag?

    init(container: Container, lifetimeScope: LifetimeScope?) {
        self.container = container
        self.lifetimeScope = lifetimeScope
        fromScope = lifetimeScope != nil
        tag = lifetimeScope?.tag
    }

    func resolve<Service>(name: String?) throws -> Service {
        do {
            return try source(asking: Service.self, name: name).resolve(Service.self, name: name)
        } catch let error as InjectionError where error.code == .scopeClosed {
            throw closed(error, asking: ServiceKey(Service.self, name: name))
        }
    }

    func resolveAsync<Service>(name: String?) async throws -> Service {
        do {
            return try await source(asking: Service.self, name: name).resolveAsync(Service.self, name: name)
        } catch let error as InjectionError where error.code == .scopeClosed {
            throw closed(error, asking: ServiceKey(Service.self, name: name))
        }
    }

    /// `error`, a scope's refusal to resolve once closed, as the handle's when it is its own
    /// scope's refusal of the handle's service (not that of another scope a factory resolved from).
    private func closed(_ error: InjectionError, asking key: ServiceKey) -> InjectionError {
        guard fromScope, lifetimeScope?.isClosed != false, error.resolutionPath == [key] else { return error }
        return .scopeClosed(asking: key, tag: tag, byHandle: true)
    }

    /// What a resolve of `service` under `name` starts from, if it is still there.
    private func source<Service>(asking service: Service.Type, name: String?) throws -> any Resolving {
        let source: (any Resolving)? = fromScope ? lifetimeScope : container
        guard let source else { throw gone(service, name: name) }
        return source
    }

    private func gone<Service>(_ service: Service.Type, name: String?) -> InjectionError {
        let key = ServiceKey(service, name: name)
        return fromScope ? .scopeClosed(asking: key, tag: tag, byHandle: true) : .containerReleased(asking: key)
    }
}

/// `Lazy` and `ServiceProvider`, which a resolve makes rather than a registration.
protocol DeferredResolution {
    associatedtype Service
    /// Whether it resolves its service synchronously only, so that it cannot be one of a service
    /// with an async factory.
    static var resolvesSynchronously: Bool { get }
    init(source: ResolutionSource, name: String?)
}

extension DeferredResolution {
    /// The handle for resolving the wrapped service under `name` from where `context` resolves;
    /// refused if it could never resolve its service (see `checkDeferred`).
    static func make(name: String?, in context: ResolutionContext, from lookup: Container) throws -> Any {
        try context.checkDeferred(Self.self, of: Service.self, name: name, from: lookup)
        return Self(source: context.deferredSource(from: lookup), name: name)
    }

    /// The key of the wrapped service under `name`.
    static func wrappedKey(name: String?) -> ServiceKey { ServiceKey(Service.self, name: name) }
}

extension ResolutionContext {
    /// The source of a deferred resolution made now: the lifetime scope this resolution runs in,
    /// unless the handle would be held by a singleton or weak service (then the container, whose
    /// resolves outlive lifetime scopes).
    func deferredSource(from lookup: Container) -> ResolutionSource {
        let lifetimeScope = innermostOutlivingScopes() == nil ? environment.lifetimeScope : nil
        return ResolutionSource(
            container: lookup,
            lifetimeScope: lifetimeScope?.acceptsEveryTag == true ? nil : lifetimeScope
        )
    }

    /// Refuses a deferred handle that could never resolve its service: a `Lazy` of a service with
    /// an async factory; one a singleton or weak service holds, of a scoped service (it resolves
    /// from the container); and, in validation's sandbox, one of a service that is not registered.
    /// Validation resolves that registration on its own. (Resolving it here would report a cycle
    /// that the handle breaks: a service holding `Lazy<B>` whose B needs the service.)
    func checkDeferred<Handle: DeferredResolution, Service>(
        _ handle: Handle.Type,
        of service: Service.Type,
        name: String?,
        from lookup: Container
    ) throws {
        // The service an optional stands for: a handle of one resolves it, or `nil` when it is missing.
        let given = ServiceKey(service, name: name)
        let asked = service is any OptionalService.Type ? lookup.resolvedKey(for: given).key : given
        let key = asked.lookupKey
        let validating = environment.lifetimeScope?.acceptsEveryTag == true
        guard let found = lookup.provider(for: key) else {
            // A value given to the scope, held through a handle that resolves from the container.
            if environment.lifetimeScope?.values.borrowedValue(for: key) != nil,
                let error = captiveDependency(asked, scope: .scoped, through: typeName(handle))
            {
                throw error
            }
            if validating, !(service is any OptionalService.Type),
                !lookup.resolves(key, as: service, in: environment.lifetimeScope, async: true)
            {
                throw unresolvable(service, key: key, from: lookup)
            }
            return
        }
        let (provider, passed) = lookup.builtRegistration(of: found.object)
        if handle.resolvesSynchronously, provider.isAsync {
            let path = path + passed + [provider.key]
            throw InjectionError.asyncResolutionRequired(provider.key, path: path, by: .lazy(of: found.object.key))
        }
        if provider.scope.kind == .scoped,
            let error = captiveDependency(provider.key, scope: provider.scope, through: typeName(handle))
        {
            throw error
        }
        // Noted as the handle, so that validation walks on behind it (see `DeclarationCheck`).
        if validating { noteDependency(on: ServiceKey(handle, name: name)) }
    }
}

extension Lazy: DeferredResolution {
    static var resolvesSynchronously: Bool { true }
}

extension ServiceProvider: DeferredResolution {
    static var resolvesSynchronously: Bool { false }
}
