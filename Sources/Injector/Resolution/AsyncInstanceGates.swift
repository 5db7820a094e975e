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

/// The gates of async shared constructions: one per instance slot, as `InstanceGates` has for sync
/// ones, held by async resolutions rather than threads (a task moves between threads at each
/// `await`). Only resolutions that need the same instance wait for each other, suspending rather
/// than blocking; unrelated constructions proceed in parallel.
///
/// Holders nest: a resolution started within an async factory (through a captured container, in
/// the factory's task or a child task) takes a gate that one of its *ancestors*, the resolutions
/// it runs within, holds, without waiting; the family then shares what one of them builds through
/// `ConstructionGates`. Two resolutions of one family that are not each other's ancestors (two
/// child tasks) take turns.
///
/// Every waiting resolution is recorded with the gate, its ancestors and its path. Before waiting,
/// a resolution follows the waits from the gate's holder: the holder is held up by its own wait or
/// by that of a resolution running within it (which it awaits), and so on from each gate reached.
/// If that leads back to the resolution itself or to one of its ancestors (which await it), the
/// wait could never end: it is refused with ``InjectionError/Code/circularWait`` naming each
/// resolution's path. A waiter whose task is cancelled stops waiting at once.
///
/// One table for the whole process, behind one lock held only for bookkeeping, never across an
/// `await` or while a factory runs.
enum AsyncInstanceGates {
    typealias Key = ResolutionContext.SharedInstanceKey

    private struct Wait {
        let owner: ObjectIdentifier
        let ancestors: [ObjectIdentifier]
        let gate: Key
        let asked: ServiceKey
        let path: [ServiceKey]
        let continuation: WaiterContinuation
    }

    private struct State {
        /// The resolutions holding each gate, outermost first; each one after the first took it
        /// within the one before it.
        var holders: [Key: [ObjectIdentifier]] = [:]
        var waits: [UInt64: Wait] = [:]
        var lastWaitID: UInt64 = 0

        func mayTake(_ key: Key, within ancestors: [ObjectIdentifier]) -> Bool {
            guard let holder = holders[key]?.last else { return true }
            return ancestors.contains(holder)
        }
    }

    private static let state = Locked.make(State())

    /// Takes the gate of `key` for `owner`, waiting while a resolution that is not one of
    /// `ancestors` holds it.
    ///
    /// - Parameters:
    ///   - asked: The service the caller is resolving, for the message of a cycle.
    ///   - path: The caller's resolution path, up to and including `asked`.
    /// - Returns: `true` when it was taken now (pair with `leave(_:by:)`); `false` when `owner`
    ///   already held it.
    /// - Throws: ``InjectionError/Code/circularWait`` when the holder waits, directly or through
    ///   other resolutions, for a gate that `owner` or one of its ancestors holds;
    ///   `CancellationError` when the task is cancelled while it waits (the gate is not taken).
    static func enter(
        _ key: Key,
        by owner: ObjectIdentifier,
        within ancestors: [ObjectIdentifier],
        asking asked: ServiceKey,
        path: () -> [ServiceKey]
    ) async throws -> Bool {
        let immediate: Bool? = state.withLock { state in
            if state.holders[key]?.contains(owner) == true { return false }
            guard state.mayTake(key, within: ancestors) else { return nil }
            state.holders[key, default: []].append(owner)
            return true
        }
        if let immediate { return immediate }

        let ownPath = path()
        let id = state.withLock { state in
            state.lastWaitID &+= 1
            return state.lastWaitID
        }
        var cycle: [Wait]?
        try await state.waitUnlessCancelled { state, continuation in
            if state.mayTake(key, within: ancestors) {
                state.holders[key, default: []].append(owner)
                return false
            }
            if let found = Self.cycle(from: state.holders[key]!.last!, back: [owner] + ancestors, in: state) {
                cycle = found
                return false
            }
            state.waits[id] = Wait(
                owner: owner,
                ancestors: ancestors,
                gate: key,
                asked: asked,
                path: ownPath,
                continuation: continuation
            )
            return true
        } dequeue: { state in
            state.waits.removeValue(forKey: id)?.continuation
        }
        if let cycle {
            throw InjectionError.circularWait(
                asked,
                path: ownPath,
                waitingFor: cycle.map { ($0.asked, $0.path) },
                between: "task"
            )
        }
        return true
    }

    /// Releases the gate of `key` that `owner` took, handing it to the waiters that may now take it.
    static func leave(_ key: Key, by owner: ObjectIdentifier) {
        let granted: [WaiterContinuation] = state.withLock { state in
            state.holders[key]?.removeAll { $0 == owner }
            if state.holders[key]?.isEmpty == true { state.holders[key] = nil }
            var granted: [WaiterContinuation] = []
            let waiting = state.waits.filter { $0.value.gate == key }.sorted { $0.key < $1.key }
            for (id, wait) in waiting where state.mayTake(key, within: wait.ancestors) {
                state.holders[key, default: []].append(wait.owner)
                state.waits[id] = nil
                granted.append(wait.continuation)
            }
            return granted
        }
        for continuation in granted { continuation.resume() }
    }

    /// The waits that lead from `holder` back to one of `targets` (each one held up by a wait at a
    /// gate the next one holds, or by the wait of a resolution running within it), or `nil` when
    /// none do: then waiting for `holder` cannot close a cycle.
    private static func cycle(
        from holder: ObjectIdentifier,
        back targets: [ObjectIdentifier],
        in state: State
    )
        -> [Wait]?
    {
        var visited: Set<ObjectIdentifier> = []
        func search(_ current: ObjectIdentifier) -> [Wait]? {
            guard visited.insert(current).inserted else { return nil }
            for wait in state.waits.values where wait.owner == current || wait.ancestors.contains(current) {
                guard let next = state.holders[wait.gate]?.last else { continue }
                if targets.contains(next) { return [wait] }
                if let rest = search(next) { return [wait] + rest }
            }
            return nil
        }
        return search(holder)
    }
}
