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

/// Scopes that cannot be left open: the work runs in a closure, and the scope closes on every exit
/// path. The sync and async forms side by side.
extension Container {
    /// Runs `operation` in a new lifetime scope and closes the scope when `operation` returns or
    /// throws: the way to run a unit of work, such as a request, in sync code.
    ///
    /// ```swift
    /// let saved = try container.withScope(tag: .request) { request in
    ///     try request.resolve(NoteHandler.self).handle(body)   // its RequestContext is the request's
    /// }                                                        // disposed here, in reverse completion order
    /// ```
    ///
    /// Closing disposes what the scope created, as ``LifetimeScope/close()`` does. An instance that
    /// only ``AsyncDisposable`` can dispose does not keep the scope open here: the others are
    /// disposed, it is dropped undisposed, the scope is closed, and the call throws
    /// ``InjectionError/Code/asyncDisposalRequired``. Use
    /// ``withScopeAsync(tag:providing:operation:isolation:)`` for such instances; in async code the sync form
    /// is unavailable.
    ///
    /// **Errors.** When `operation` throws, its error is the one thrown, and the scope is closed all
    /// the same; a failure to close it then (a disposal that threw, an async-only instance) is not
    /// lost: it goes to the container's diagnostics handler (``setDiagnosticsHandler(_:)``), its
    /// message saying which error of the work it followed. When `operation` returns, a failure to
    /// close is thrown.
    ///
    /// Keep the scope inside `operation`: resolving from it after the call throws
    /// ``InjectionError/Code/scopeClosed``.
    ///
    /// - Parameters:
    ///   - tag: What kind of scope this is, as for ``makeScope(tag:)``.
    ///   - values: Gives the scope its values (see ``ScopeValues``); none by default.
    ///   - operation: The work, given the scope to resolve from.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws; otherwise ``InjectionError`` with code
    ///   ``InjectionError/Code/disposalFailed`` listing each disposal that threw,
    ///   ``InjectionError/Code/asyncDisposalRequired`` naming the instances dropped undisposed, or
    ///   ``InjectionError/Code/scopeInUse`` when a resolution started by `operation` is still
    ///   running (the scope then stays open).
    @available(*, noasync, message: "use try await withScopeAsync, which disposes AsyncDisposable instances too")
    public func withScope<Result>(
        tag: ScopeTag? = nil,
        providing values: (inout ScopeValues) -> Void = { _ in },
        operation: (LifetimeScope) throws -> Result
    ) throws -> Result {
        let scope = makeScope(tag: tag, providing: values)
        let outcome = Swift.Result { try operation(scope) }
        do {
            try scope.closeDroppingAsyncOnly()
        } catch {
            return try settle(outcome, closing: scope, failure: error)
        }
        return try outcome.get()
    }

    /// Runs the async `operation` in a new lifetime scope and closes the scope asynchronously when
    /// `operation` returns, throws or is cancelled: the way to run a request in a server.
    ///
    /// ```swift
    /// func handle(_ request: Request) async throws -> Response {
    ///     try await container.withScopeAsync(tag: .request) { $0.provide(RequestInfo.self, info) } operation: { scope in
    ///         try await scope.resolve(NoteHandler.self).handle(request)
    ///     }
    /// }
    /// ```
    ///
    /// Closing disposes what the scope created, as ``LifetimeScope/closeAsync()`` does,
    /// ``AsyncDisposable`` instances included. Their async disposals run in a task of their own,
    /// which a cancellation of this task, before the close or during it, does not reach: a disposal
    /// that checks for cancellation (a flush over the network) runs to its end.
    ///
    /// **Errors.** When `operation` throws, its error is the one thrown (a `CancellationError`, for
    /// one), and the scope is closed all the same; a failure to close it then is not lost: it goes
    /// to the container's diagnostics handler (``setDiagnosticsHandler(_:)``), its message saying
    /// which error of the work it followed. When `operation` returns, a failure to close is thrown.
    ///
    /// The scope must not outlive `operation`: a response body streamed after the call returns
    /// cannot resolve from it. Resolve what the streaming needs inside `operation`, or, when the
    /// scope must stay open until the stream ends, make it with ``makeScope(tag:providing:)`` and
    /// close it with ``LifetimeScope/closeAsync()`` on every path.
    ///
    /// - Parameters:
    ///   - tag: What kind of scope this is, as for ``makeScope(tag:)``.
    ///   - values: Gives the scope its values (see ``ScopeValues``); none by default.
    ///   - operation: The async work, given the scope to resolve from.
    ///   - isolation: Where `operation` runs: the caller's actor, by default, so that main-actor
    ///     code passes a closure that uses its own state.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws; otherwise ``InjectionError`` with code
    ///   ``InjectionError/Code/disposalFailed`` listing each disposal that threw, or
    ///   ``InjectionError/Code/scopeInUse`` when a resolution started by `operation` is still
    ///   running (the scope then stays open).
    public func withScopeAsync<Result>(
        tag: ScopeTag? = nil,
        providing values: (inout ScopeValues) -> Void = { _ in },
        operation: (LifetimeScope) async throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Result {
        let scope = makeScope(tag: tag, providing: values)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await operation(scope))
        } catch {
            outcome = .failure(error)
        }
        do {
            // No cancellation of this task reaches a disposal (a server's client gone before or
            // during the close): a cancelled task closes in a task of its own, and an uncancelled one
            // runs its async disposals in one.
            if Task.isCancelled {
                try await Task { try await scope.closeAsync() }.value
            } else if let taken = try scope.closeUnlessDisposingAsynchronously() {
                try await Task {
                    var taken = taken
                    try await scope.finishClosingAsync(&taken)
                }.value
            }
        } catch {
            return try settle(outcome, closing: scope, failure: error)
        }
        return try outcome.get()
    }

    /// What a scoped call ends with when closing `scope` failed with `failure`: the failure, when
    /// the work succeeded; otherwise the work's error, after reporting the failure.
    private func settle<Result>(
        _ outcome: Swift.Result<Result, any Error>,
        closing scope: LifetimeScope,
        failure: any Error
    ) throws -> Result {
        guard case .failure(let workError) = outcome else { throw failure }
        report(.closeFailed(failure, of: scope.name, after: workError))
        throw workError
    }
}
