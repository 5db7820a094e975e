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

/// Shared instances kept apart from a container's own: one lifetime scope's scoped instances, or the
/// singletons made under test overrides or by validation. Each is keyed by its registration.
///
/// Instances are published here once the resolution that built them completes, as singletons are,
/// or as soon as they are built when nothing they hold awaits that completion (see
/// `ResolutionContext.publishesAtOnce(_:in:)`). Each one is built behind a gate of its own, held until
/// it is published or the resolution that took it ends. The
/// store keeps the gates of its sync instances itself, under the lock it takes anyway to look an
/// instance up: most are only ever asked for by one thread (a request's scope), and taking one then
/// costs no second lock and no entry in the process-wide table of `InstanceGates`. A thread that
/// finds the gate taken by another moves it to that table, holder and all, and waits there, where
/// every wait is recorded and a wait that could never end is refused (`circularWait`); from then on
/// that gate is the table's. (Async instances are built behind the table's async gates.)
@usableFromInline
final class InstanceStore: LockedBuffer<InstanceStore.Contents> {
    /// The store's fixed part and state, in a struct of its own (see `LockedBuffer`). The state
    /// comes first: a debug build's generic access to it is an access to the contents' start, which
    /// must not be the fixed part, read meanwhile without the lock.
    @usableFromInline struct Contents: LockedBufferContents {
        @usableFromInline var state: State
        let fixed: Fixed

        @usableFromInline init(fixed: Fixed, state: State) {
            self.fixed = fixed
            self.state = state
        }
    }

    /// What the store is given when it is made, read without the lock.
    @usableFromInline struct Fixed {
        /// The store whose records take the disposable instances built here, if not this one's
        /// (a side store for a scope hands them to the scope's).
        let disposalOwner: InstanceStore?
        /// The singleton and weak instances built here, for a side store (overrides' or
        /// validation's), which scopes never take charge of; `nil` for a scope's store.
        let sharedObjects: SharedObjects?
    }

    /// What the store keeps under its lock, with the lock, in one allocation (a request's scope
    /// makes a store).
    @usableFromInline struct State {
        /// The instance (as `keptObject(for:)` keeps it) and the gate of each registration, keyed by
        /// its record.
        fileprivate var entries = Entries()
        /// The disposable instances this store took charge of (see `InstanceStore+Disposal.swift`).
        var records = DisposalBag.Entries()
        /// What waits for a lifetime scope's close, for a scope's store (`LifetimeScope.afterClosing(_:)`).
        var closingActions: [@Sendable () -> Void]?
    }

    /// The store that keeps the records of the disposable instances built here: this one, or the
    /// one it hands them to.
    var disposals: InstanceStore { fixed { $0.disposalOwner } ?? self }

    /// `disposals`, borrowed (this store, or the one it hands its records to, keeps it): what a
    /// construction takes as its disposal owner, without a retain and a release.
    @usableFromInline var borrowedDisposals: Borrowed<InstanceStore> {
        fixed { $0.disposalOwner.map(Borrowed.init) } ?? Borrowed(self)
    }

    /// The singleton and weak instances built here, for a side store; `nil` for a scope's store.
    var sharedObjects: SharedObjects? { fixed { $0.sharedObjects } }

    /// The part of the fixed part `read` reads, without the lock: it never changes after `make`.
    /// Read here, on the concrete contents: read in generic code, through the contents' protocol,
    /// the field is taken from a copy of the whole contents, made without the lock while another
    /// thread may be changing the state.
    private func fixed<Value>(_ read: (Fixed) -> Value) -> Value {
        withUnsafeMutablePointerToHeader { read($0.pointee.fixed) }
    }

    /// One registration's place in the store.
    fileprivate struct Entry {
        /// The registration's record, which keys it.
        let record: ObjectIdentifier
        /// The published instance, as `keptObject(for:)` keeps it.
        var box: AnyObject?
        var gate = Gate.free
    }

    /// The places of the registrations kept here. A store keeps few (a request's scope builds a
    /// handful, often one), so the first sits inline, with no allocation, and the rest in an array
    /// searched linearly, which costs no hashing and no dictionary storage; past `indexedCount` of
    /// them, a dictionary index keeps lookups constant-time. A place, once made, stays: a scope's
    /// close empties it (`takeInstances`), and the store goes with the scope.
    fileprivate struct Entries {
        private static let indexedCount = 16
        /// The record of the first place while it is not made: no registration's.
        private static var vacant: ObjectIdentifier { ObjectIdentifier(Entries.self) }
        private var first = Entry(record: vacant)
        private var more: [Entry] = []
        private var index = [ObjectIdentifier: Int]()  // not `[:]`, a call that builds an empty array
        /// Whether `takeInstances` ran (its scope closed): an instance published later (by a resolution
        /// that completed after the close, such as one an async factory's resolution took over) is
        /// dropped, having been disposed with the scope, rather than kept by a closed scope.
        private(set) var isEmptied = false

        /// The place of `record`, if it has one.
        subscript(record: ObjectIdentifier) -> Entry? {
            if first.record == record { return first }
            return position(inMore: record).map { more[$0] }
        }

        /// Runs `body` on the place of `record`, if it has one.
        mutating func withPlace<Result>(of record: ObjectIdentifier, _ body: (inout Entry) -> Result) -> Result? {
            if first.record == record { return body(&first) }
            guard let position = position(inMore: record) else { return nil }
            return body(&more[position])
        }

        /// Runs `body` on the place of `record`, made at the end if it has none.
        /// (Not inlined into the store's steps, and the places after the first found or made out
        /// of line: each step has a specialisation of its own, and the usual store has one place.)
        @inline(never)
        mutating func withPlace<Result>(making record: ObjectIdentifier, _ body: (inout Entry) -> Result) -> Result {
            if first.record != record {
                guard _fastPath(first.record == Self.vacant) else { return body(&more[positionMaking(record)]) }
                first = Entry(record: record)
            }
            return body(&first)
        }

        /// Where `record`'s place is among those after the first, made at the end if it has none.
        @inline(never)
        private mutating func positionMaking(_ record: ObjectIdentifier) -> Int {
            if let position = position(inMore: record) { return position }
            more.append(Entry(record: record))
            if more.count > Self.indexedCount {
                if index.isEmpty {
                    for (position, entry) in more.enumerated() { index[entry.record] = position }
                } else {
                    index[record] = more.count - 1
                }
            }
            return more.count - 1
        }

        /// Where `record`'s place is among those after the first, if it has one.
        private func position(inMore record: ObjectIdentifier) -> Int? {
            if more.count > Self.indexedCount { return index[record] }
            return more.firstIndex { $0.record == record }
        }

        /// Takes every instance out of its place, for a scope's close, which releases them once it
        /// has unlocked and disposed them: an instance's deinit may use its scope. The places stay,
        /// emptied, with their gates: a gate still held stays with its holder.
        mutating func takeInstances() -> Dropped {
            isEmptied = true
            var dropped = Dropped()
            swap(&dropped.first, &first.box)  // moved out: no retain and release
            if _slowPath(!more.isEmpty) { dropped.more = takeInstancesAfterFirst() }
            return dropped
        }

        /// `takeInstances()` for the places after the first: their instances, in an array the
        /// caller releases.
        @inline(never)
        private mutating func takeInstancesAfterFirst() -> [Entry] {
            let taken = more
            for position in more.indices { more[position].box = nil }
            return taken
        }
    }

    /// The instances a scope's close took out of their places (`Entries.takeInstances()`), held
    /// until it has disposed them, then released with this, unlocked.
    struct Dropped {
        fileprivate var first: AnyObject?
        fileprivate var more: [Entry]?
    }

    /// Who holds the gate of an instance kept here.
    fileprivate enum Gate {
        case free
        /// The thread `thread` holds it, `count` times (a resolution nested in the one building,
        /// through a captured container, takes it again).
        case local(thread: InstanceGates.Owner, count: Int)
        /// `InstanceGates` keeps it: another thread waited for it.
        case global
    }

    /// What taking the gate of an instance gave: the instance if it is published, and whether the
    /// gate was taken (then pair with `leave(_:)`).
    struct Entered {
        let box: AnyObject?
        let taken: Bool
    }

    /// Makes an empty store whose disposable instances go to its own records, or to `owner`'s, so
    /// that disposal keeps the order of completion across both.
    static func make(disposingIn owner: InstanceStore? = nil, isSideStore: Bool = false) -> InstanceStore {
        make(State(), fixed: Fixed(disposalOwner: owner, sharedObjects: isSideStore ? SharedObjects() : nil))
    }

    /// The published instance (as `keptObject(for:)` keeps it) of the registration whose record is
    /// `record`, if any.
    @usableFromInline func instance(of record: ObjectIdentifier) -> AnyObject? {
        withLock { $0.entries[record]?.box }
    }

    /// Publishes `box` as the instance of the registration whose record is `record`.
    func publish(_ box: AnyObject, of record: ObjectIdentifier) {
        withLock { state in
            guard !state.entries.isEmptied else { return }
            state.entries.withPlace(making: record) { $0.box = box }
        }
    }

    /// Returns the published instance of the registration `key` names, or else takes the gate of its
    /// construction for the calling thread, waiting while another thread holds it; then returns the
    /// instance that thread published, if any.
    ///
    /// - Parameters:
    ///   - asked: The service the caller is resolving, for the message of a cycle (worked out only
    ///     for a wait).
    ///   - path: The caller's resolution path, up to and including `asked`.
    ///   - stopsWhenCancelled: Whether the caller stops waiting when its task is cancelled.
    /// - Throws: ``InjectionError/Code/circularWait`` when the holder waits, directly or through
    ///   other threads, for a gate the calling thread holds;
    ///   ``InjectionError/Code/resolutionCancelled`` when the caller stops waiting, cancelled.
    func enter(
        _ key: InstanceGates.Key,
        asking asked: @autoclosure () -> ServiceKey,
        path: () -> [ServiceKey],
        stopsWhenCancelled: Bool
    ) throws -> Entered {
        let thread = InstanceGates.Owner.currentThread
        let entered: Entered? = withLock { state in
            state.entries.withPlace(making: key.slot) { Self.enter(&$0, by: thread, as: key) }
        }
        if let entered { return entered }
        return try enterGlobally(key, asking: asked(), path: path, stopsWhenCancelled: stopsWhenCancelled)
    }

    /// `enter` for a gate another thread holds, which the process-wide table now keeps: waits
    /// there. (Out of line: a request's scope is asked by one thread.)
    @inline(never)
    private func enterGlobally(
        _ key: InstanceGates.Key,
        asking asked: ServiceKey,
        path: () -> [ServiceKey],
        stopsWhenCancelled: Bool
    ) throws -> Entered {
        try InstanceGates.enter(key, asking: asked, path: path, stopsWhenCancelled: stopsWhenCancelled)
        return Entered(box: instance(of: key.slot), taken: true)
    }

    /// Takes `entry`'s gate for `thread` without waiting, unless its instance is published (then
    /// returns it) or another thread holds the gate: then the gate moves to `InstanceGates` (under
    /// this store's lock, so that its holder's `leave` finds it there), and `nil` says to wait
    /// there.
    private static func enter(
        _ entry: inout Entry,
        by thread: InstanceGates.Owner,
        as key: InstanceGates.Key
    ) -> Entered? {
        if let box = entry.box { return Entered(box: box, taken: false) }
        switch entry.gate {
        case .free:
            entry.gate = .local(thread: thread, count: 1)
            return Entered(box: nil, taken: true)
        case .local(thread, let count):
            entry.gate = .local(thread: thread, count: count + 1)
            return Entered(box: nil, taken: true)
        case .local(let holder, let count):
            InstanceGates.adopt(key, heldBy: holder, count: count)
            entry.gate = .global
            return nil
        case .global:
            return nil
        }
    }

    /// Releases the gate of the registration `key` names, which the calling thread took once with
    /// `enter`.
    @usableFromInline func leave(_ key: ResolutionContext.SharedInstanceKey) {
        let isGlobal: Bool = withLock { state in
            state.entries.withPlace(of: key.slot) { Self.leave(&$0) } ?? false
        }
        if isGlobal { InstanceGates.leave(key) }
    }

    /// Publishes `box` as the instance of the registration `key` names and releases its gate,
    /// which the calling thread took once with `enter`, under one lock: a thread waiting for the
    /// gate finds the instance when it gets it.
    @usableFromInline func publish(_ box: AnyObject, leaving key: ResolutionContext.SharedInstanceKey) {
        let isGlobal: Bool = withLock { state in
            let isEmptied = state.entries.isEmptied
            return state.entries.withPlace(making: key.slot) { entry in
                if !isEmptied { entry.box = box }
                return Self.leave(&entry)
            }
        }
        if isGlobal { InstanceGates.leave(key) }
    }

    /// Releases `entry`'s gate once for the thread holding it; `true` when `InstanceGates` keeps the
    /// gate, which must then be left there (outside this store's lock).
    private static func leave(_ entry: inout Entry) -> Bool {
        switch entry.gate {
        case .local(let thread, let count) where count > 1:
            entry.gate = .local(thread: thread, count: count - 1)
        case .local:
            entry.gate = .free
        case .global:
            return true
        case .free:
            break
        }
        return false
    }

    /// Takes, under one lock, what a close of `scope` (whose store this is) disposes and drops: marks
    /// the scope closed, then moves every record into `records` and every instance into `dropped`,
    /// to be disposed, then released, once unlocked. No resolution can record or publish another in
    /// between, and one that publishes later finds the store emptied. `refusingAsyncOnly`, for a
    /// sync close: first refuses an instance only an async disposal can dispose while the scope is
    /// open, before it is marked closed (so that no resolution meanwhile sees it closed). Returns
    /// `false`, taking nothing, when the scope was closed already (or by `withScope`, which left an
    /// async-only instance undisposed).
    ///
    /// Not generic, and nothing crosses the lock but what it moves: as a closure's result, the
    /// records and instances were copied through an optional, with value-witness calls.
    ///
    /// - Throws: ``InjectionError/Code/asyncDisposalRequired`` when refusing an instance only
    ///   ``AsyncDisposable`` while the scope is open; ``InjectionError/Code/scopeInUse`` when a
    ///   resolution from it is running. Nothing is taken then.
    func takeForClosing(
        _ scope: LifetimeScope,
        refusingAsyncOnly: Bool,
        records: inout DisposalBag.Entries,
        dropped: inout Dropped
    ) throws -> Bool {
        var asyncOnly: [ServiceKey] = []
        let taken = try withLock { state in
            if _slowPath(refusingAsyncOnly && state.records.holdsAsyncOnly) {
                // Unless closed by `withScope`, which left these undisposed.
                if !scope.isClosed { asyncOnly = state.records.asyncOnlyKeys }
                return false
            }
            guard try scope.markClosed() else { return false }
            swap(&records, &state.records)  // moved out: no retain and release of each
            dropped = state.entries.takeInstances()
            return true
        }
        // The refusal is made once the lock is let go: resolutions from the scope wait for it.
        if _slowPath(!asyncOnly.isEmpty) { throw scope.asyncOnlyRefusal(of: asyncOnly) }
        return taken
    }
}
