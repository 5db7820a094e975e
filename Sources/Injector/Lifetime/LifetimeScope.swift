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
    @usableFromInline nonisolated(unsafe) let store = InstanceStore.make()
    /// Whether this scope stands for every tag: validation's sandbox scope.
    let acceptsEveryTag: Bool
    /// The values the scope was given when it was made.
    let values: ScopeValues
    /// What runs once the scope has closed (`afterClosing(_:)`), made when first asked for: most
    /// scopes have none. Its allocation keeps `state` beside it: one for the scope's atomics.
    let closingActions = PublishedReference<ClosingActions>(wordsBeside: 1)
    /// Bit 0: closed. Bit 1: the close has finished (`markFinishedClosing()`). The rest: four times
    /// the number of resolutions running from this scope.
    private var state: AtomicWord<Int> { closingActions.wordBeside(0) }

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
        let previous = state.add(4, ordering: .acquiringAndReleasing)
        if _slowPath(previous & 1 == 1) { throw refuseResolution(asking: key()) }
    }

    /// Undoes a resolution's start counted on a closed scope, and returns the error that refuses
    /// it. (A function of its own: every resolve from a scope runs `beginResolution`.)
    @inline(never)
    private func refuseResolution(asking key: ServiceKey) -> InjectionError {
        state.subtract(4, ordering: .releasing)
        return InjectionError.scopeClosed(asking: key, tag: tag)
    }

    @usableFromInline func endResolution() {
        state.subtract(4, ordering: .releasing)
    }

    /// Marks the scope closed, unless a resolution from it is running or it was closed already.
    ///
    /// - Returns: `false` when the scope was already closed.
    @usableFromInline func markClosed() throws -> Bool {
        let (exchanged, current) = state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing)
        if _fastPath(exchanged) { return true }
        if current & 1 == 1 { return false }
        throw inUse(resolutions: current / 4)
    }

    /// The error of a close refused because `resolutions` resolutions from the scope are running.
    /// (A function of its own: a close's code stays the few instructions it runs.)
    @inline(never)
    private func inUse(resolutions: Int) -> InjectionError {
        InjectionError.scopeInUse(tag: tag, resolutions: resolutions)
    }

    /// Marks the close finished: its disposals done, its instances dropped. Sequentially consistent,
    /// with `hasFinishedClosing`'s read, for `afterClosing(_:)`'s protocol.
    func markFinishedClosing() {
        state.bitwiseOr(2, ordering: .sequentiallyConsistent)
    }

    /// Whether `markFinishedClosing()` has run.
    var hasFinishedClosing: Bool { state.load(ordering: .sequentiallyConsistent) & 2 == 2 }

    /// A description for messages: `the scope "request"`, or `the untagged scope`.
    @usableFromInline var name: String { tag.map { "the scope \"\($0)\"" } ?? "the untagged scope" }
}
