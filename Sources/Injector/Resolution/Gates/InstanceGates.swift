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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The gates of shared constructions, sync and async: one per instance slot (a singleton or weak
/// registration's slot, or a registration's place in a store), held while the instance is built
/// and, when it cannot be published at once, until the resolution that built it ends. Only those
/// that need the same instance wait for each other; unrelated constructions proceed in parallel.
///
/// **Who holds a gate.** A sync resolution's gates are held by its thread, which takes one again
/// without waiting (a resolution nested in the one building, through a captured container), and
/// blocks while another thread holds it. An async resolution's are held by the resolution itself
/// (a task moves between threads at each `await`), which suspends while another holds it. Holders
/// nest: a resolution started within an async factory (through a captured container, in the
/// factory's task or a child task) takes a gate that one of its *ancestors*, the resolutions it
/// runs within, holds, without waiting; the family then shares what one of them builds at the
/// family's gate (`ConstructionGates`). Two resolutions of one family that are not each other's
/// ancestors (two child tasks) take turns. A sync and an async resolution never hold the same
/// gate: they build different registrations, and a realm's gate (see `SharedInstanceKey`) is
/// taken by each kind apart.
///
/// **Waits that can never end.** Every wait is recorded with what it waits for. Before it waits, a
/// waiter follows the waits from those it would wait for, and if they lead back to it, the wait
/// could never end: it is refused with ``InjectionError/Code/circularWait`` naming each
/// resolution's path. Two kinds of wait are followed:
/// - at an instance gate, a waiter waits until every holder that is not its ancestor *lets go*
///   (at the end of its resolution, or once the instance is published). A resolution cannot end
///   before the resolutions running within it, so it is held up by their waits as well as its own;
///   and since an ancestor cannot end before this resolution, a chain that reaches one of its
///   ancestors is a cycle too.
/// - at a family gate, a resolution waits until the builder *finishes building* that instance,
///   which only the builder's own waits hold up.
/// A cycle is always closed by a new wait (a waiter that takes a gate waits for nothing at that
/// moment), so checking each wait as it starts finds every cycle. A freed gate goes to the waiters
/// that may take it in the order they came.
///
/// An async waiter whose task is cancelled stops waiting at once; a thread waiting for a sync
/// resolution that is part of an async one stops too, checking every 10 ms, since sync code
/// cannot install a cancellation handler.
///
/// One table for the whole process, behind one lock held only for bookkeeping, never across an
/// `await` or while a factory runs: a wait-for cycle may pass through several containers.
enum InstanceGates {
    typealias Key = ResolutionContext.SharedInstanceKey

    /// Who holds gates and waits: a thread (for sync resolutions) or an async resolution.
    struct Owner: Hashable, Sendable {
        private let bits: UInt

        /// The async resolution `resolution` identifies.
        init(_ resolution: ObjectIdentifier) {
            bits = UInt(bitPattern: resolution)
        }

        private init(thread: UInt) {
            bits = thread
        }

        /// The calling thread.
        static var currentThread: Owner {
            #if canImport(Darwin)
            Owner(thread: UInt(bitPattern: pthread_self()))
            #else
            Owner(thread: UInt(pthread_self()))
            #endif
        }
    }

    /// A waiter about to wait: who it is, the resolutions it runs within, and what it asks for with
    /// its path, for the message of a cycle.
    struct Waiter {
        let owner: Owner
        let ancestors: [Owner]
        let asked: ServiceKey
        let path: [ServiceKey]
        /// Whether the waiter is a thread, for the message of a cycle.
        var isThread = false
    }

    /// A gate's place in the table: a sync resolution's gates are apart from an async one's.
    private struct Gate: Hashable {
        let key: Key
        let isSync: Bool
    }

    /// An instance gate of a family: `ConstructionGates`' key of `key` in `family`.
    private struct FamilyKey: Hashable {
        let family: ObjectIdentifier
        let key: Key
    }

    private struct FamilyGate {
        let builder: Owner
        var built: AnyObject?
    }

    private enum Blocker: Equatable {
        case gate(Gate)
        case family(FamilyKey)

        /// Whether this is the gate of a whole realm (see `SharedInstanceKey`).
        var isRealm: Bool {
            if case .gate(let gate) = self { gate.key.isRealm } else { false }
        }
    }

    /// How a waiter is woken: a blocked thread, or a suspended task.
    private enum Wake {
        case thread(ThreadSignal)
        case task(CheckedContinuation<Void, any Error>)

        func resume(throwing error: InjectionError? = nil) {
            switch (self, error) {
            case (.thread(let signal), _): signal.signal()  // never with an error: see `refuseClosedCycles`
            case (.task(let continuation), nil): continuation.resume()
            case (.task(let continuation), let error?): continuation.resume(throwing: error)
            }
        }
    }

    private struct Wait {
        let waiter: Waiter
        let blocker: Blocker
        let wake: Wake
    }

    private struct State {
        /// The holders of each gate, outermost first; each one after the first took it within the
        /// one before it. A thread that takes its gate again is listed again.
        var holders: [Gate: [Owner]] = [:]
        var familyGates: [FamilyKey: FamilyGate] = [:]
        var waits: [UInt64: Wait] = [:]
        var lastWaitID: UInt64 = 0
        /// The async waits whose task was cancelled before they were recorded.
        var cancelledEarly: Set<UInt64> = []

        mutating func nextWaitID() -> UInt64 {
            lastWaitID &+= 1
            return lastWaitID
        }

        /// Removes the waits at `blocker`, returning them to be woken.
        mutating func removeWaits(at blocker: Blocker) -> [Wake] {
            let ids = waits.filter { $0.value.blocker == blocker }.map(\.key)
            return ids.compactMap { waits.removeValue(forKey: $0)?.wake }
        }

        /// Lets the waiters at `gate` that may now take it take it, in the order they came,
        /// returning them to be woken.
        mutating func grant(_ gate: Gate) -> [Wake] {
            var granted: [Wake] = []
            let waiting = waits.filter { $0.value.blocker == .gate(gate) }.sorted { $0.key < $1.key }
            for (id, wait) in waiting where mayTake(gate, by: wait.waiter.owner, within: wait.waiter.ancestors) {
                holders[gate, default: []].append(wait.waiter.owner)
                waits[id] = nil
                granted.append(wait.wake)
            }
            return granted
        }

        /// Removes the waits at `blocker` that now close a cycle (its holders changed without a
        /// new wait: see `hand`), returning them to be woken with the error that says so.
        mutating func refuseClosedCycles(at blocker: Blocker) -> [(Wake, InjectionError)] {
            var refused: [(Wake, InjectionError)] = []
            let waiting = waits.filter { $0.value.blocker == blocker }.sorted { $0.key < $1.key }
            for (id, wait) in waiting where !wait.waiter.isThread {  // only async gates are handed on
                guard let cycle = cycle(for: wait.waiter, at: blocker) else { continue }
                waits[id] = nil
                refused.append((wait.wake, InstanceGates.circularWait(of: wait.waiter, at: blocker, cycle)))
            }
            return refused
        }

        /// Whether `owner`, running within `ancestors`, may take `gate` now: it is free, or its
        /// innermost holder is `owner` itself or one of those it runs within.
        func mayTake(_ gate: Gate, by owner: Owner, within ancestors: [Owner]) -> Bool {
            guard let holder = holders[gate]?.last else { return true }
            return holder == owner || ancestors.contains(holder)
        }

        /// What a wait at `blocker` by a waiter running within `ancestors` waits for, and whether
        /// for them to let go of a gate (or only to finish building).
        func awaited(by blocker: Blocker, within ancestors: [Owner]) -> (owners: [Owner], untilEnd: Bool) {
            switch blocker {
            case .gate(let gate):
                return ((holders[gate] ?? []).filter { !ancestors.contains($0) }, true)
            case .family(let familyKey):
                return (familyGates[familyKey].map { [$0.builder] } ?? [], false)
            }
        }

        /// The waits that lead from the owners `blocker` waits for back to `waiter` (or to one of
        /// its ancestors, through a wait for one to end), or `nil` when none do: then waiting
        /// cannot close a cycle.
        func cycle(for waiter: Waiter, at blocker: Blocker) -> [Wait]? {
            var visited: Set<Owner> = []
            func closes(_ owner: Owner, untilEnd: Bool) -> Bool {
                owner == waiter.owner || (untilEnd && waiter.ancestors.contains(owner))
            }
            func search(from owner: Owner, untilEnd: Bool) -> [Wait]? {
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

    // MARK: A thread's gates

    /// Takes the gate of `key` for the calling thread, waiting while another thread holds it.
    ///
    /// - Parameters:
    ///   - asked: The service the caller is resolving, for the message of a cycle.
    ///   - path: The caller's resolution path, up to and including `asked`.
    ///   - stopsWhenCancelled: Whether the caller stops waiting when its task is cancelled (a sync
    ///     resolution that is part of an async one).
    /// - Throws: ``InjectionError/Code/circularWait`` when the holder waits, directly or through
    ///   other threads, for a gate the calling thread holds;
    ///   ``InjectionError/Code/resolutionCancelled`` when the caller stops waiting when cancelled,
    ///   and its task is cancelled before the gate is free.
    static func enter(
        _ key: Key,
        asking asked: ServiceKey,
        path: () -> [ServiceKey],
        stopsWhenCancelled: Bool
    ) throws {
        let gate = Gate(key: key, isSync: true)
        let thread = Owner.currentThread
        var waiter: Waiter?
        let outcome: (id: UInt64, signal: ThreadSignal?, cycle: [Wait]?)? = state.withLock { state in
            if state.mayTake(gate, by: thread, within: []) {
                state.holders[gate, default: []].append(thread)
                return nil
            }
            let wanting = Waiter(owner: thread, ancestors: [], asked: asked, path: path(), isThread: true)
            waiter = wanting
            if let cycle = state.cycle(for: wanting, at: .gate(gate)) { return (0, nil, cycle) }
            let id = state.nextWaitID()
            let signal = ThreadSignal()
            state.waits[id] = Wait(waiter: wanting, blocker: .gate(gate), wake: .thread(signal))
            return (id, signal, nil)
        }
        guard let outcome, let waiter else { return }
        guard let signal = outcome.signal else { throw circularWait(of: waiter, at: .gate(gate), outcome.cycle!) }
        // Woken holding the gate: it is granted to the waiter before it is woken.
        guard stopsWhenCancelled else { return signal.wait() }
        while !Task.isCancelled {
            if signal.wait(nanoseconds: 10_000_000) { return }
        }
        // Cancelled: the wait is taken back, unless the gate was granted meanwhile.
        let granted = state.withLock { state in state.waits.removeValue(forKey: outcome.id) == nil }
        if granted { return }
        throw InjectionError.resolutionCancelled(
            asked,
            path: waiter.path,
            at: key.isRealm ? .awaitingTurn : .whileAnotherBuilds
        )
    }

    /// Records that `holder` holds the gate of `key`, taken `count` times, for a gate an
    /// `InstanceStore` kept until another thread came to wait at it: from now on, this table keeps
    /// it (see `InstanceStore.enter`), so that the wait is recorded and searched for cycles.
    static func adopt(_ key: Key, heldBy holder: Owner, count: Int) {
        state.withLock { state in
            let gate = Gate(key: key, isSync: true)
            precondition(state.holders[gate] == nil, "a store's gate is adopted once, while no one else holds it")
            state.holders[gate] = Array(repeating: holder, count: count)
        }
    }

    /// Releases the gate of `key` the calling thread took once, handing it on when it is free.
    static func leave(_ key: Key) {
        leave(Gate(key: key, isSync: true), by: .currentThread)
    }

    /// What each thread now waiting at a gate that `holder` holds asked for; empty when none waits.
    ///
    /// For tests only, which poll it to let a factory go on only once another thread waits at its
    /// gate (a store's gate is here only once a second thread came to wait at it): no resolution
    /// calls it, so it costs them nothing.
    static func waits(forGatesHeldBy holder: Owner) -> [ServiceKey] {
        state.withLock { state in
            state.waits.values.filter { wait in
                guard case .gate(let gate) = wait.blocker else { return false }
                return state.holders[gate]?.contains(holder) == true
            }.map(\.waiter.asked)
        }
    }

    // MARK: An async resolution's gates

    /// Takes the gate of `key` for `owner`, an async resolution, waiting while a resolution that is
    /// not one of its ancestors holds it.
    ///
    /// - Returns: `true` when it was taken now (pair with `leave(_:by:)`); `false` when the
    ///   resolution already held it.
    /// - Throws: ``InjectionError/Code/circularWait`` when a holder waits, directly or through
    ///   other resolutions, for this one; `CancellationError` when the task is cancelled while it
    ///   waits (the gate is not taken).
    static func enter(
        _ key: Key,
        by owner: Owner,
        within ancestors: [Owner],
        waiting waiter: () -> Waiter,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Bool {
        let gate = Gate(key: key, isSync: false)
        let immediate: Bool? = state.withLock { state in
            if state.holders[gate]?.contains(owner) == true { return false }
            guard state.mayTake(gate, by: owner, within: ancestors) else { return nil }
            state.holders[gate, default: []].append(owner)
            return true
        }
        if let immediate { return immediate }
        try await wait(at: .gate(gate), by: waiter()) { state in
            guard state.mayTake(gate, by: owner, within: ancestors) else { return false }
            state.holders[gate, default: []].append(owner)
            return true
        }
        return true
    }

    /// Releases the gate of `key` that `owner`, an async resolution, took, handing it on.
    static func leave(_ key: Key, by owner: Owner) {
        leave(Gate(key: key, isSync: false), by: owner)
    }

    /// Releases `gate` once for `owner`, handing it to the waiters that may now take it.
    private static func leave(_ gate: Gate, by owner: Owner) {
        let granted: [Wake] = state.withLock { state in
            guard var holders = state.holders[gate], let index = holders.lastIndex(of: owner) else { return [] }
            holders.remove(at: index)
            state.holders[gate] = holders.isEmpty ? nil : holders
            return state.grant(gate)
        }
        for wake in granted { wake.resume() }
    }

    /// Hands the async gates of `keys` that `owner` holds to `heir`, one of its ancestors, which
    /// then holds them until it ends (see `RunningAsyncFactory.takeOver`). Waiters that run within
    /// `heir` but not within `owner` may now take them.
    ///
    /// The others now wait for `heir` to end, which the resolutions running within it hold up: one
    /// of those may already wait, directly or through others, for such a waiter. No new wait closes
    /// that cycle, so it is looked for here, and the waiter that now waits for `heir` is refused
    /// with ``InjectionError/Code/circularWait``.
    static func hand(_ keys: [Key], from owner: Owner, to heir: Owner) {
        guard !keys.isEmpty else { return }
        let (granted, refused): ([Wake], [(Wake, InjectionError)]) = state.withLock { state in
            var granted: [Wake] = []
            var refused: [(Wake, InjectionError)] = []
            for gate in keys.map({ Gate(key: $0, isSync: false) }) {
                guard var holders = state.holders[gate], let index = holders.firstIndex(of: owner) else { continue }
                if holders.contains(heir) { holders.remove(at: index) } else { holders[index] = heir }
                state.holders[gate] = holders
                granted += state.grant(gate)
                refused += state.refuseClosedCycles(at: .gate(gate))
            }
            return (granted, refused)
        }
        for wake in granted { wake.resume() }
        for (wake, error) in refused { wake.resume(throwing: error) }
    }

    // MARK: Family gates (see `ConstructionGates`)

    /// The instance kept under `key` in `family` once a resolution other than `waiter` built it,
    /// waiting while it builds; or `nil` when `waiter` is to build it (it claims the gate: pair with
    /// `open(_:of:by:with:)`).
    ///
    /// - Throws: ``InjectionError/Code/circularWait`` when the builder waits, directly or through
    ///   others, for `waiter`; `CancellationError` when the task is cancelled while it waits.
    static func pass(_ key: Key, of family: ConstructionGates, by waiter: Waiter) async throws -> AnyObject? {
        let familyKey = FamilyKey(family: ObjectIdentifier(family), key: key)
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
    /// with none when it failed (the next one to ask builds it).
    static func open(_ key: Key, of family: ConstructionGates, by builder: Owner, with built: AnyObject?) {
        let familyKey = FamilyKey(family: ObjectIdentifier(family), key: key)
        let woken: [Wake] = state.withLock { state in
            guard let gate = state.familyGates[familyKey], gate.builder == builder, gate.built == nil else { return [] }
            state.familyGates[familyKey] = built.map { FamilyGate(builder: builder, built: $0) }
            return state.removeWaits(at: .family(familyKey))
        }
        for wake in woken { wake.resume() }
    }

    /// Empties the gate of `key` in `family` if it holds `discarded`, an instance whose construction
    /// failed after it was built, so that the family builds it again rather than share it.
    static func discard(_ key: Key, of family: ConstructionGates, holding discarded: AnyObject) {
        state.withLock { state in
            let familyKey = FamilyKey(family: ObjectIdentifier(family), key: key)
            if state.familyGates[familyKey]?.built === discarded { state.familyGates[familyKey] = nil }
        }
    }

    /// The instances the resolutions of `family` built and have not discarded.
    static func builtInstances(of family: ConstructionGates) -> [AnyObject] {
        let family = ObjectIdentifier(family)
        return state.withLock { state in
            state.familyGates.compactMap { $0.key.family == family ? $0.value.built : nil }
        }
    }

    /// Removes the gates of a family whose resolutions have all ended.
    static func removeFamily(_ family: ObjectIdentifier) {
        state.withLock { state in
            guard !state.familyGates.isEmpty else { return }
            state.familyGates = state.familyGates.filter { $0.key.family != family }
        }
    }

    // MARK: Waiting

    /// What each waiter now waiting at a gate (an instance gate or a family's) asked for.
    ///
    /// For tests only, which poll it to act only once a resolution waits (say, to cancel it while it
    /// waits): no resolution calls it, so it costs them nothing.
    static func waits() -> [ServiceKey] {
        state.withLock { state in state.waits.values.map(\.waiter.asked) }
    }

    /// Suspends at `blocker` until `proceed` (run under the lock, when the wait starts and whenever
    /// the blocker changes) returns `true`, unless the wait would close a cycle.
    ///
    /// - Throws: `CancellationError` at once when the task is cancelled before it may go on, even
    ///   before its wait is recorded (the cancellation handler then leaves its mark in the table).
    private static func wait(
        at blocker: Blocker,
        by waiter: Waiter,
        until proceed: (inout State) -> Bool
    ) async throws {
        let id = state.withLock { state in state.nextWaitID() }
        defer { state.withLock { state in _ = state.cancelledEarly.remove(id) } }
        var cycle: [Wait]?
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let queued: Bool? = state.withLock { state in
                    if state.cancelledEarly.contains(id) { return nil }
                    if proceed(&state) { return false }
                    if let found = state.cycle(for: waiter, at: blocker) {
                        cycle = found
                        return false
                    }
                    state.waits[id] = Wait(waiter: waiter, blocker: blocker, wake: .task(continuation))
                    return true
                }
                switch queued {
                case true?: break
                case false?: continuation.resume()
                case nil: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiting: Wake? = state.withLock { state in
                if let wait = state.waits.removeValue(forKey: id) { return wait.wake }
                state.cancelledEarly.insert(id)  // not recorded yet (or woken already: then unread)
                return nil
            }
            if case .task(let continuation)? = waiting { continuation.resume(throwing: CancellationError()) }
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
            between: waiter.isThread ? "thread" : "task"
        )
    }
}
