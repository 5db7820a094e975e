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

extension Container {
    /// Shuts the container down: disposes the disposable singletons of its registrations (and what
    /// was built for them), last completed first, each exactly once. Shutting down twice does
    /// nothing the second time.
    ///
    /// Call it when nothing resolves from the container any more: the singletons stay in place,
    /// disposed, and a resolve afterwards would return them; one first built then, by a disposal
    /// among others, is left for a later shutdown. Child containers shut down on their own.
    ///
    /// Unavailable in async code, where ``shutdownAsync()`` disposes every singleton, async ones too.
    ///
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/asyncDisposalRequired`` before
    ///   disposing anything when a singleton is only ``AsyncDisposable``, or
    ///   ``InjectionError/Code/disposalFailed`` listing each disposal that threw, after all ran.
    @available(*, noasync, message: "use try await shutdownAsync()")
    public func shutdown() throws {
        var asyncOnly: [ServiceKey] = []
        let taken = disposals.withLock { state in
            guard !state.records.holdsAsyncOnly else {
                asyncOnly = state.records.asyncOnlyKeys
                return DisposalBag.Entries()
            }
            return state.records.takeAll()
        }
        // The refusal is made once the lock is let go.
        guard asyncOnly.isEmpty else {
            throw InjectionError.asyncDisposalRequired(
                asyncOnly,
                owner: "the container",
                asyncSpelling: "try await container.shutdownAsync()",
                consequence: "Nothing was disposed."
            )
        }
        try DisposalBag.dispose(taken) { "the container" }
    }

    /// Shuts the container down, disposing its disposable singletons asynchronously where they are
    /// ``AsyncDisposable``. Shutting down twice does nothing the second time.
    ///
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/disposalFailed`` listing each
    ///   disposal that threw, after all of them ran.
    public func shutdownAsync() async throws {
        try await disposals.disposeAllAsync(of: "the container")
    }
}
