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

/// A lifetime scope: a unit of work, such as a request, that owns its ``Scope/scoped`` instances and
/// disposes them, with the other disposable instances it created, when it closes.
///
/// Run each request in one, with ``Container/withScope(tag:providing:operation:)`` or
/// ``Container/withScopeAsync(tag:providing:operation:isolation:)``, which close it on every exit path:
///
/// ```swift
/// try await container.withScopeAsync(tag: .request) { request in
///     let handler = try request.resolve(NoteHandler.self)   // its RequestContext is the request's
///     try await handler.handle(body)
/// }                                                         // disposes in reverse completion order
/// ```
///
/// A scope made with ``Container/makeScope(tag:)`` is closed by its maker, with ``close()`` or
/// ``closeAsync()``, on every path.
///
/// Within one scope, a scoped registration has one instance; singletons stay shared with the whole
/// container, transients stay new. The scope owns the disposable instances it created: its scoped
/// ones and the transient and graph ones resolved through it (those built for a singleton belong
/// to the container). A scope is `Sendable`: tasks working for one request may share it.
public final class LifetimeScope: Sendable {
    /// The container the scope resolves from.
    public let container: Container
    /// The scope's tag, which ``Scope/scoped(to:)`` registrations ask for; `nil` when untagged.
    public let tag: ScopeTag?
    /// The scoped instances, and the disposables the scope took charge of. (`nonisolated(unsafe)`:
    /// a `LockedBuffer`, reached under its lock.)
    nonisolated(unsafe) let store = InstanceStore.make()
    /// Whether this scope stands for every tag: validation's sandbox scope.
    let acceptsEveryTag: Bool
    /// The values the scope was given when it was made.
    let values: ScopeValues
    /// Bit 0: closed. Bit 1: the close has finished. Bit 2: actions wait for it (`afterClosing(_:)`).
    /// The rest: eight times the number of resolutions running from this scope. The word beside
    /// the store's mutex, in the store's allocation.
    var state: AtomicWord<Int> { store.word }

    init(container: Container, tag: ScopeTag?, acceptsEveryTag: Bool = false, values: ScopeValues = ScopeValues()) {
        self.container = container
        self.tag = tag
        self.acceptsEveryTag = acceptsEveryTag
        self.values = values
    }

    deinit {
        if _slowPath(!isClosed) { reportIfNotClosed() }
    }

    /// Whether ``close()`` or ``closeAsync()`` has run: resolving from the scope now throws.
    public var isClosed: Bool { state.load(ordering: .acquiring) & 1 == 1 }

    /// Counts a resolution from this scope, refusing it once the scope is closed; pair with
    /// `endResolution()`.
    @usableFromInline func beginResolution(asking key: @autoclosure () -> ServiceKey) throws {
        let previous = state.add(8, ordering: .acquiringAndReleasing)
        if _slowPath(previous & 1 == 1) { throw refuseResolution(asking: key()) }
    }

    /// Undoes a resolution's start counted on a closed scope, and returns the error that refuses
    /// it. (A function of its own: every resolve from a scope runs `beginResolution`.)
    @inline(never)
    private func refuseResolution(asking key: ServiceKey) -> InjectionError {
        state.subtract(8, ordering: .releasing)
        return InjectionError.scopeClosed(asking: key, tag: tag)
    }

    @usableFromInline func endResolution() {
        state.subtract(8, ordering: .releasing)
    }

    /// Marks the scope closed, unless a resolution from it is running or it was closed already.
    ///
    /// - Returns: `false` when the scope was already closed.
    func markClosed() throws -> Bool {
        let (exchanged, current) = state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing)
        return try _fastPath(exchanged) || markClosed(from: current)
    }

    /// `markClosed()` from `current`, a state other than a scope open, idle and without actions.
    /// (A function of its own: a close's code stays the few instructions it runs.)
    @inline(never)
    private func markClosed(from current: Int) throws -> Bool {
        var current = current
        while true {
            if current & 1 == 1 { return false }
            if current >= 8 { throw InjectionError.scopeInUse(tag: tag, resolutions: current / 8) }
            let exchanged: Bool
            (exchanged, current) = state.compareExchange(
                expected: current,
                desired: current | 1,
                ordering: .acquiringAndReleasing
            )
            if exchanged { return true }
        }
    }

    /// A description for messages: `the scope "request"`, or `the untagged scope`.
    var name: String { tag.map { "the scope \"\($0)\"" } ?? "the untagged scope" }
}
