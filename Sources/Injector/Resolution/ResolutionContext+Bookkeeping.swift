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

// What a resolution keeps beyond its construction stack, made on first need (`bookkeeping`), and
// emptied rather than dropped when it ends, so that the thread's next resolution reuses its storage
// (see `ResolutionContext+Reuse.swift`).

extension ResolutionContext {
    /// What a resolution keeps beyond its construction stack. Its properties opt out of dynamic
    /// exclusivity checks, as the context's do: it belongs to one resolution, on one thread.
    final class Bookkeeping {
        /// Shared instances built by this resolution, in the order they were built, published when
        /// it completes. A resolution builds few, so a list searched linearly serves.
        @exclusivity(unchecked) var unpublished: [Unpublished] = []
        @exclusivity(unchecked) var pending: [PendingPreparation] = []
        /// The providers whose hooks led to the hook now running, for transient hook cycles.
        @exclusivity(unchecked) var hookChain: ProviderChain?
        /// What holds the instance whose hooks are running, if anything outlives lifetime scopes.
        @exclusivity(unchecked) var preparingCaptor: Captor?
        /// The graph-scoped instances that hold a scoped one, by their provider and lookup, with the
        /// scoped one's provider.
        @exclusivity(unchecked) var scopeBoundGraphInstances: [GraphInstances.Key: Borrowed<AnyProvider>] = [:]
        /// The gates of the sync shared instances this resolution builds (see `InstanceGates`),
        /// held until it ends, and the async gates it took.
        @exclusivity(unchecked) var heldGates: [SharedInstanceKey] = []
        @exclusivity(unchecked) var heldAsyncGates: [SharedInstanceKey] = []
        /// The gates of the sync instances kept in stores that this resolution builds, which the
        /// stores keep (see `InstanceStore`), held until it ends.
        @exclusivity(unchecked) var heldStoreGates: [StoreGate] = []
        /// Whether this async resolution shared an instance that another resolution of its family
        /// built, unpublished then: it then hands what it built to the resolution running the
        /// factory it runs within, when it completes (see `complete()`).
        @exclusivity(unchecked) var sharesFamilyInstances = false
    }
}

extension ResolutionContext.Bookkeeping {
    /// What the books of a resolution that failed held of its instances when it ended: the shared
    /// instances it built and did not publish, and the hooks it queued and did not run, which hold
    /// theirs. Released by `end()` once the context is free (an instance's deinit may resolve).
    typealias Leftovers = (
        unpublished: [ResolutionContext.Unpublished], pending: [ResolutionContext.PendingPreparation]
    )

    /// Forgets everything, keeping the arrays' storage for the next resolution on this context: a
    /// request's resolve builds its scoped instances, and so allocates bookkeeping, every time.
    /// Called by `end()`, once the gates are released. Returns the instances the books held, for
    /// the caller to release: a resolution that completed left none.
    func empty() -> Leftovers {
        // Each emptied only if it holds anything: emptying an empty array still costs a call.
        var leftovers: Leftovers = ([], [])
        if !unpublished.isEmpty { swap(&leftovers.unpublished, &unpublished) }
        if !pending.isEmpty { swap(&leftovers.pending, &pending) }
        hookChain = nil
        preparingCaptor = nil
        if !scopeBoundGraphInstances.isEmpty { scopeBoundGraphInstances.removeAll(keepingCapacity: true) }
        if !heldGates.isEmpty { heldGates.removeAll(keepingCapacity: true) }
        if !heldAsyncGates.isEmpty { heldAsyncGates.removeAll(keepingCapacity: true) }
        if !heldStoreGates.isEmpty { heldStoreGates.removeAll(keepingCapacity: true) }
        sharesFamilyInstances = false
        return leftovers
    }
}
