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

/// A lock for async code: waiting for it suspends the task rather than blocking the thread, and it
/// may be released on another thread than the one that took it (a task moves between threads at
/// each `await`).
///
/// It is held by owners, async resolutions, rather than by threads; taking it again for the same
/// owner does not wait. An owner may also take it *within* one of its ancestors, a resolution that
/// holds it and waits for this one (an async factory resolving through a container, or its child
/// tasks doing so): owners nest, and siblings within one ancestor take turns. Waiters are served
/// in the order they came, as soon as the lock may be taken for them.
///
/// A waiter whose task is cancelled stops waiting at once and throws `CancellationError`.
final class AsyncLock: Sendable {
    private struct Waiter {
        let id: UInt64
        let owner: ObjectIdentifier
        let ancestors: [ObjectIdentifier]
        let continuation: WaiterContinuation
    }

    private struct State {
        /// The owners holding the lock, outermost first; each one after the first took it within
        /// the one before it.
        var owners: [ObjectIdentifier] = []
        var waiters: [Waiter] = []
        var lastWaiterID: UInt64 = 0

        func mayTake(within ancestors: [ObjectIdentifier]) -> Bool {
            guard let holder = owners.last else { return true }
            return ancestors.contains(holder)
        }
    }

    private let state = Locked.make(State())

    /// Takes the lock for `owner`, waiting while it is held by an owner that is not one of
    /// `ancestors`.
    ///
    /// - Returns: `true` when it was taken now (pair with `unlock(for:)`); `false` when `owner`
    ///   already held it.
    /// - Throws: `CancellationError` when the task is cancelled while it waits; the lock is not
    ///   taken then.
    func lock(for owner: ObjectIdentifier, within ancestors: [ObjectIdentifier] = []) async throws -> Bool {
        let taken: Bool? = state.withLock { state in
            if state.owners.contains(owner) { return false }
            guard state.mayTake(within: ancestors) else { return nil }
            state.owners.append(owner)
            return true
        }
        if let taken { return taken }
        let id = state.withLock { state in
            state.lastWaiterID &+= 1
            return state.lastWaiterID
        }
        try await state.waitUnlessCancelled { state, continuation in
            if state.mayTake(within: ancestors) {
                state.owners.append(owner)
                return false
            }
            state.waiters.append(Waiter(id: id, owner: owner, ancestors: ancestors, continuation: continuation))
            return true
        } dequeue: { state in
            state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0).continuation }
        }
        return true
    }

    /// Releases the lock `owner` took, handing it to the waiters that may now take it.
    func unlock(for owner: ObjectIdentifier) {
        let granted: [WaiterContinuation] = state.withLock { state in
            state.owners.removeAll { $0 == owner }
            var granted: [WaiterContinuation] = []
            while let next = state.waiters.firstIndex(where: { state.mayTake(within: $0.ancestors) }) {
                let waiter = state.waiters.remove(at: next)
                state.owners.append(waiter.owner)
                granted.append(waiter.continuation)
            }
            return granted
        }
        for continuation in granted { continuation.resume() }
    }
}
