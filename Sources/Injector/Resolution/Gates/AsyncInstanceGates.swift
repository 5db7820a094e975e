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
/// than blocking; unrelated constructions proceed in parallel. The gates at which a family of
/// resolutions shares what one of them builds (`ConstructionGates`) live here too.
///
/// Holders nest: a resolution started within an async factory (through a captured container, in
/// the factory's task or a child task) takes a gate that one of its *ancestors*, the resolutions
/// it runs within, holds, without waiting; the family then shares what one of them builds at the
/// family's gate. Two resolutions of one family that are not each other's ancestors (two child
/// tasks) take turns.
///
/// **Waits that can never end.** Every waiting resolution is recorded with what it waits for.
/// Before it waits, a resolution follows the waits from those it would wait for, and if they lead
/// back to it, the wait could never end: it is refused with ``InjectionError/Code/circularWait``
/// naming each resolution's path. Two kinds of wait are followed:
/// - at an instance gate, a resolution waits until every holder that is not its ancestor *ends*
///   (gates are released at the end of a resolution). A resolution cannot end before the
///   resolutions running within it, so it is held up by their waits as well as its own; and since
///   an ancestor cannot end before this resolution, a chain that reaches one of its ancestors is a
///   cycle too.
/// - at a family gate, a resolution waits until the builder *finishes building* that instance,
///   which only the builder's own waits hold up.
/// A cycle is always closed by a new wait (a resolution that takes a gate waits for nothing at that
/// moment), so checking each wait as it starts finds every cycle. A waiter whose task is
/// cancelled stops waiting at once.
///
/// One table for the whole process, behind one lock held only for bookkeeping, never across an
/// `await` or while a factory runs.
enum AsyncInstanceGates {
    typealias Key = ResolutionContext.SharedInstanceKey

    /// A resolution about to wait: who it is, the resolutions it runs within, and what it asks for
    /// with its path, for the message of a cycle.
    struct Waiter {
        let owner: ObjectIdentifier
        let ancestors: [ObjectIdentifier]
        let asked: ServiceKey
        let path: [ServiceKey]
    }

    /// An instance gate of a family: `ConstructionGates`' key of `key` in `family`.
    private struct FamilyKey: Hashable {
        let family: ObjectIdentifier
        let key: Key
    }

    private struct FamilyGate {
        let builder: ObjectIdentifier
        var built: AnyObject?
    }

    private enum Blocker: Equatable {
        case gate(Key)
        case family(FamilyKey)

        /// Whether this is the gate of a whole realm (see `InstanceGates`).
        var isRealm: Bool {
            if case .gate(let key) = self { key.isRealm } else { false }
        }
    }

    private struct Wait {
        let waiter: Waiter
        let blocker: Blocker
        let continuation: WaiterContinuation
    }

    private struct State {
        /// The resolutions holding each gate, outermost first; each one after the first took it
        /// within the one before it.
        var holders: [Key: [ObjectIdentifier]] = [:]
        var familyGates: [FamilyKey: FamilyGate] = [:]
        var waits: [UInt64: Wait] = [:]
        var lastWaitID: UInt64 = 0

        /// Removes the waits at `blocker`, returning them to be resumed.
        mutating func removeWaits(at blocker: Blocker) -> [WaiterContinuation] {
            let ids = waits.filter { $0.value.blocker == blocker }.map(\.key)
            return ids.compactMap { waits.removeValue(forKey: $0)?.continuation }
        }

        /// Lets the resolutions waiting at the gate of `key` that may now take it take it, in the
        /// order they came, returning them to be resumed.
        mutating func grant(_ key: Key) -> [WaiterContinuation] {
            var granted: [WaiterContinuation] = []
            let waiting = waits.filter { $0.value.blocker == .gate(key) }.sorted { $0.key < $1.key }
            for (id, wait) in waiting where mayTake(key, within: wait.waiter.ancestors) {
                holders[key, default: []].append(wait.waiter.owner)
                waits[id] = nil
                granted.append(wait.continuation)
            }
            return granted
        }

        /// Removes the waits at `blocker` that now close a cycle (its holders changed without a
        /// new wait: see `hand`), returning them to be resumed with the error that says so.
        mutating func refuseClosedCycles(at blocker: Blocker) -> [(WaiterContinuation, InjectionError)] {
            var refused: [(WaiterContinuation, InjectionError)] = []
            let waiting = waits.filter { $0.value.blocker == blocker }.sorted { $0.key < $1.key }
            for (id, wait) in waiting {
                guard let cycle = cycle(for: wait.waiter, at: blocker) else { continue }
                waits[id] = nil
                let error = AsyncInstanceGates.circularWait(of: wait.waiter, at: blocker, cycle)
                refused.append((wait.continuation, error))
            }
            return refused
        }

        func mayTake(_ key: Key, within ancestors: [ObjectIdentifier]) -> Bool {
            guard let holder = holders[key]?.last else { return true }
            return ancestors.contains(holder)
        }

        /// What a wait at `blocker` by a resolution running within `ancestors` waits for, and
        /// whether for them to end (or only to finish building).
        func awaited(
            by blocker: Blocker,
            within ancestors: [ObjectIdentifier]
        ) -> (owners: [ObjectIdentifier], untilEnd: Bool) {
            switch blocker {
            case .gate(let key):
                return ((holders[key] ?? []).filter { !ancestors.contains($0) }, true)
            case .family(let familyKey):
                return (familyGates[familyKey].map { [$0.builder] } ?? [], false)
            }
        }

        /// The waits that lead from the owners `blocker` waits for back to `waiter` (or to one of
        /// its ancestors, through a wait for one to end), or `nil` when none do: then waiting
        /// cannot close a cycle.
        func cycle(for waiter: Waiter, at blocker: Blocker) -> [Wait]? {
            var visited: Set<ObjectIdentifier> = []
            func closes(_ owner: ObjectIdentifier, untilEnd: Bool) -> Bool {
                owner == waiter.owner || (untilEnd && waiter.ancestors.contains(owner))
            }
            func search(from owner: ObjectIdentifier, untilEnd: Bool) -> [Wait]? {
                guard visited.insert(owner).inserted else { return nil }
                for wait in waits.values
                where wait.waiter.owner == owner || (untilEnd && wait.waiter.ancestors.contains(owner)) {
                    let next = awaited(by: wait.blocker, within: wait.waiter.ancestors)
                    for other in next.owners {
                        if closes(other, untilEnd: next.untilEnd) { return [wait] }
                        if let rest = search(from: other, untilEnd: next.untilEnd) { return [wait] + rest }
                    }
                }
                return nil
            }
            let first = awaited(by: blocker, within: waiter.ancestors)
            for owner in first.owners {
                if let found = search(from: owner, untilEnd: first.untilEnd) { return found }
            }
            return nil
        }
    }

    private static let state = Locked.make(State())

    // MARK: Instance gates

    /// Takes the gate of `key` for `waiter`, waiting while a resolution that is not one of its
    /// ancestors holds it.
    ///
    /// - Returns: `true` when it was taken now (pair with `leave(_:by:)`); `false` when the
    ///   resolution already held it.
    /// - Throws: ``InjectionError/Code/circularWait`` when a holder waits, directly or through
    ///   other resolutions, for this one; `CancellationError` when the task is cancelled while it
    ///   waits (the gate is not taken).
    static func enter(
        _ key: Key,
        by owner: ObjectIdentifier,
        within ancestors: [ObjectIdentifier],
        waiting waiter: () -> Waiter,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Bool {
        let immediate: Bool? = state.withLock { state in
            if state.holders[key]?.contains(owner) == true { return false }
            guard state.mayTake(key, within: ancestors) else { return nil }
            state.holders[key, default: []].append(owner)
            return true
        }
        if let immediate { return immediate }
        try await wait(at: .gate(key), by: waiter()) { state in
            guard state.mayTake(key, within: ancestors) else { return false }
            state.holders[key, default: []].append(owner)
            return true
        }
        return true
    }

    /// Releases the gate of `key` that `owner` took, handing it to the waiters that may now take it.
    static func leave(_ key: Key, by owner: ObjectIdentifier) {
        let granted: [WaiterContinuation] = state.withLock { state in
            state.holders[key]?.removeAll { $0 == owner }
            if state.holders[key]?.isEmpty == true { state.holders[key] = nil }
            return state.grant(key)
        }
        for continuation in granted { continuation.resume() }
    }

    /// Hands the gates of `keys` that `owner` holds to `heir`, one of its ancestors, which then
    /// holds them until it ends (see `RunningAsyncFactory.takeOver`). Waiters that run within
    /// `heir` but not within `owner` may now take them.
    ///
    /// The others now wait for `heir` to end, which the resolutions running within it hold up: one
    /// of those may already wait, directly or through others, for such a waiter. No new wait closes
    /// that cycle, so it is looked for here, and the waiter that now waits for `heir` is refused
    /// with ``InjectionError/Code/circularWait``.
    static func hand(_ keys: [Key], from owner: ObjectIdentifier, to heir: ObjectIdentifier) {
        guard !keys.isEmpty else { return }
        let (granted, refused): ([WaiterContinuation], [(WaiterContinuation, InjectionError)]) = state.withLock {
            state in
            var granted: [WaiterContinuation] = []
            var refused: [(WaiterContinuation, InjectionError)] = []
            for key in keys {
                guard var holders = state.holders[key], let index = holders.firstIndex(of: owner) else { continue }
                if holders.contains(heir) { holders.remove(at: index) } else { holders[index] = heir }
                state.holders[key] = holders
                granted += state.grant(key)
                refused += state.refuseClosedCycles(at: .gate(key))
            }
            return (granted, refused)
        }
        for continuation in granted { continuation.resume() }
        for (continuation, error) in refused { continuation.resume(throwing: error) }
    }

    // MARK: Family gates (see `ConstructionGates`)

    /// The instance kept under `key` in `family` once a resolution other than `waiter` built it,
    /// waiting while it builds; or `nil` when `waiter` is to build it (it claims the gate).
    static func pass(_ key: Key, of family: ObjectIdentifier, by waiter: Waiter) async throws -> AnyObject? {
        let familyKey = FamilyKey(family: family, key: key)
        while true {
            let outcome: AnyObject?? = state.withLock { state in
                guard let gate = state.familyGates[familyKey] else {
                    state.familyGates[familyKey] = FamilyGate(builder: waiter.owner)
                    return .some(nil)
                }
                // An open gate, or this resolution's own (a cycle, which the caller reports).
                if gate.built != nil || gate.builder == waiter.owner { return .some(gate.built) }
                return nil
            }
            if let outcome { return outcome }
            try await wait(at: .family(familyKey), by: waiter) { state in
                guard let gate = state.familyGates[familyKey] else { return true }
                return gate.built != nil
            }
        }
    }

    /// Opens the gate of `key` in `family` that `builder` claimed: with the instance it built, or
    /// with none (the next one to ask builds it).
    static func open(_ key: Key, of family: ObjectIdentifier, by builder: ObjectIdentifier, with built: AnyObject?) {
        let familyKey = FamilyKey(family: family, key: key)
        let woken: [WaiterContinuation] = state.withLock { state in
            guard let gate = state.familyGates[familyKey], gate.builder == builder, gate.built == nil else { return [] }
            state.familyGates[familyKey] = built.map { FamilyGate(builder: builder, built: $0) }
            return state.removeWaits(at: .family(familyKey))
        }
        for continuation in woken { continuation.resume() }
    }

    /// Empties the gate of `key` in `family` if it holds `discarded`.
    static func discard(_ key: Key, of family: ObjectIdentifier, holding discarded: AnyObject) {
        state.withLock { state in
            let familyKey = FamilyKey(family: family, key: key)
            if state.familyGates[familyKey]?.built === discarded { state.familyGates[familyKey] = nil }
        }
    }

    /// The instances the resolutions of `family` built and have not discarded.
    static func builtInstances(of family: ObjectIdentifier) -> [AnyObject] {
        state.withLock { state in state.familyGates.compactMap { $0.key.family == family ? $0.value.built : nil } }
    }

    /// Removes the gates of a family whose resolutions have all ended.
    static func removeFamily(_ family: ObjectIdentifier) {
        state.withLock { state in
            guard !state.familyGates.isEmpty else { return }
            state.familyGates = state.familyGates.filter { $0.key.family != family }
        }
    }

    // MARK: Waiting

    /// What each resolution now waiting at a gate (an instance gate or a family's) asked for.
    ///
    /// For tests only, which poll it to act only once a resolution waits (say, to cancel it while it
    /// waits): no resolution calls it, so it costs them nothing.
    static func waits() -> [ServiceKey] {
        state.withLock { state in state.waits.values.map(\.waiter.asked) }
    }

    /// Waits at `blocker` until `proceed` (run under the lock, when the wait starts and whenever the
    /// blocker changes) returns `true`, unless the wait would close a cycle.
    private static func wait(
        at blocker: Blocker,
        by waiter: Waiter,
        until proceed: (inout State) -> Bool
    ) async throws {
        let id = state.withLock { state in
            state.lastWaitID &+= 1
            return state.lastWaitID
        }
        var cycle: [Wait]?
        try await state.waitUnlessCancelled { state, continuation in
            if proceed(&state) { return false }
            if let found = state.cycle(for: waiter, at: blocker) {
                cycle = found
                return false
            }
            state.waits[id] = Wait(waiter: waiter, blocker: blocker, continuation: continuation)
            return true
        } dequeue: { state in
            state.waits.removeValue(forKey: id)?.continuation
        }
        if let cycle { throw circularWait(of: waiter, at: blocker, cycle) }
    }

    /// The error refusing `waiter`'s wait at `blocker`, which would close `cycle`.
    private static func circularWait(of waiter: Waiter, at blocker: Blocker, _ cycle: [Wait]) -> InjectionError {
        InjectionError.circularWait(
            waiter.asked,
            path: waiter.path,
            atRealm: blocker.isRealm,
            waitingFor: cycle.map { ($0.waiter.asked, $0.waiter.path, $0.blocker.isRealm) },
            between: "task"
        )
    }
}
