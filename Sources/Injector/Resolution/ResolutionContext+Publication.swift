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

// Gates and publication, sync and async side by side: how a shared instance (singleton, weak, or
// kept in a store) is built once however many resolutions ask. A resolution takes the instance's
// gate (the gates themselves are in `Gates/`). It publishes the instance and releases the gate as
// soon as the construction is complete when nothing it may hold awaits the resolution's end
// (`publishesAtOnce(_:)`); otherwise it holds the gate until it ends, and the instance stays
// unpublished, seen by it alone, until it completes and publishes it (`complete()`, below).

extension ResolutionContext {
    /// A shared instance built and not yet published, and how to publish it.
    struct Unpublished {
        let key: SharedInstanceKey
        let box: AnyObject
        let publish: () -> Void
    }

    /// Where a shared instance is kept: a registration's slot, or a registration's place in a store.
    @usableFromInline struct SharedInstanceKey: Hashable, Sendable {
        let slot: ObjectIdentifier
        let store: ObjectIdentifier?

        /// The key of the singleton or weak instance kept in `slot`, a registration's.
        init(slot: AnyObject) {
            self.slot = ObjectIdentifier(slot)
            store = nil
        }

        /// The key of the instance that `store` keeps for the registration whose record is `record`.
        @usableFromInline init(record: ObjectIdentifier, store: InstanceStore) {
            slot = record
            self.store = ObjectIdentifier(store)
        }

        /// The key of a whole realm of shared instances (a container tree, or a store): its gate
        /// is taken before that of an instance whose registration has preparation steps.
        init(realm: AnyObject) {
            slot = ObjectIdentifier(realm)
            store = slot
        }

        /// Whether this is the key of a whole realm rather than of one instance.
        var isRealm: Bool { slot == store }
    }

    /// How much preparation and publication is queued: taken before a factory runs, so that what
    /// its construction queued can be dropped if it fails.
    @usableFromInline struct QueueMark: Equatable {
        let pending: Int
        let unpublished: Int
    }

    @usableFromInline var queueMark: QueueMark {
        guard let bookkeeping = activeBookkeeping else { return QueueMark(pending: 0, unpublished: 0) }
        return QueueMark(pending: bookkeeping.pending.count, unpublished: bookkeeping.unpublished.count)
    }

    /// Drops the preparations and shared instances queued since `mark`, by a construction that
    /// failed: a factory that catches the error and goes on must not see hooks run on, or
    /// singletons published from, a graph it discarded.
    func discardQueued(since mark: QueueMark) {
        guard let bookkeeping = activeBookkeeping else { return }
        // Copied out, and released once the books no longer list them: the last reference to an
        // instance may go with its entry, and its deinit may resolve through a captured container,
        // nesting in this resolution, which writes to these books.
        let discarded = (
            Array(bookkeeping.pending[mark.pending...]), Array(bookkeeping.unpublished[mark.unpublished...])
        )
        bookkeeping.pending.removeSubrange(mark.pending...)
        discardUnpublished(bookkeeping.unpublished[mark.unpublished...])
        bookkeeping.unpublished.removeSubrange(mark.unpublished...)
        withExtendedLifetime(discarded) {}
    }

    /// Takes shared instances that will not be published (their construction failed) out of the
    /// family's gates, where the rest of an async family would otherwise share them.
    func discardUnpublished(_ discarded: ArraySlice<Unpublished>) {
        guard let gates = family.gates, !discarded.isEmpty else { return }
        for entry in discarded { InstanceGates.discard(entry.key, of: gates, holding: entry.box) }
    }

    /// Runs the deferred preparations in completion order (including those of instances the hooks
    /// build), then publishes the shared instances this resolution built.
    ///
    /// A resolution nested in a sync one (a factory resolving through a captured container) hands
    /// its shared instances, and the gates it holds for them, to that one instead: they may be
    /// built around the outer resolution's unpublished instances, so they are published when it
    /// completes, and dropped with them if it fails. So does an async resolution started within an
    /// async factory that is still running, to the resolution running it (see
    /// `RunningAsyncFactory`), if it shared an instance another of its family built: what it built
    /// may hold it, and that one may not be published yet.
    @usableFromInline func complete() throws {
        guard _slowPath(usesBookkeeping), let bookkeeping = storedBookkeeping else { return }
        if !bookkeeping.pending.isEmpty {
            // In an async resolution, standing as the thread's, so that a hook resolving through a
            // captured container nests in it, as a sync factory's resolve does.
            if isAsync {
                try standingAsThreadResolution { try runPendingPreparations(of: bookkeeping) }
            } else {
                try runPendingPreparations(of: bookkeeping)
            }
        }
        // Again if a deinit (see `publishUnpublished`) handed over what it resolved meanwhile.
        while !bookkeeping.unpublished.isEmpty { publishUnpublished(of: bookkeeping) }
    }

    /// Publishes the shared instances `bookkeeping` lists, or hands them on (see `complete()`), then
    /// releases the entries once the books no longer list them: the last reference to a weak
    /// instance may go with its entry, and its deinit may resolve through a captured container,
    /// nesting in this resolution, which hands what it built to these books.
    private func publishUnpublished(of bookkeeping: Bookkeeping) {
        var unpublished: [Unpublished] = []
        swap(&unpublished, &bookkeeping.unpublished)
        if let outer = nesting.outer, !outer.isAsync {
            let outerBookkeeping = outer.bookkeeping
            outerBookkeeping.unpublished += unpublished
            outerBookkeeping.heldGates += bookkeeping.heldGates
            bookkeeping.heldGates.removeAll()
            outerBookkeeping.heldStoreGates += bookkeeping.heldStoreGates
            bookkeeping.heldStoreGates.removeAll()
        } else if bookkeeping.sharesFamilyInstances, let factory = family.factory,
            factory.takeOver(unpublished, gates: bookkeeping.heldAsyncGates, from: gateOwner)
        {
            bookkeeping.heldAsyncGates.removeAll()
        } else {
            for entry in unpublished { entry.publish() }
        }
        unpublished.removeAll(keepingCapacity: true)  // deinits may run: the books are consistent
        if bookkeeping.unpublished.capacity == 0 { swap(&unpublished, &bookkeeping.unpublished) }  // its storage back
    }

    /// Ends the run of the async factory this resolution called: what resolutions within it handed
    /// over (see `RunningAsyncFactory`) becomes this resolution's, published when it completes, or
    /// dropped with what the factory built if it failed.
    func endRun(of factory: RunningAsyncFactory) {
        let handedOver = factory.end()
        guard !handedOver.instances.isEmpty || !handedOver.gates.isEmpty else { return }
        let bookkeeping = bookkeeping
        bookkeeping.sharesFamilyInstances = true  // what was handed over may hold what the family shares
        bookkeeping.unpublished += handedOver.instances
        for gate in handedOver.gates where !bookkeeping.heldAsyncGates.contains(gate) {
            bookkeeping.heldAsyncGates.append(gate)
        }
    }

    /// Takes the gate of `key` (held until the resolution ends; see `InstanceGates`), waiting while
    /// another thread builds that instance, then returns the shared instance kept under `key` if
    /// this resolution, or one it runs inside, already built it.
    ///
    /// A registration with preparation steps (`onResolved`, `verify`) first takes the gate of its
    /// whole `realm` (the container tree, or the store): its hooks run once the whole graph is
    /// built, and typically close a cycle of properties between shared instances, whose halves two
    /// threads building at once would each wait for; the realm's gate lets one build both.
    ///
    /// - Throws: ``InjectionError/Code/circularWait`` when the resolution building it waits,
    ///   directly or through others, for an instance this one is building.
    ///
    /// An instance kept in a store (`store`, whose key `key` is) is behind a gate the store keeps
    /// (see `InstanceStore`); this then also returns the instance published there.
    @usableFromInline func beginSharedConstruction(
        of key: SharedInstanceKey,
        for provider: AnyProvider,
        realm: AnyObject,
        in store: InstanceStore? = nil
    ) throws -> AnyObject? {
        precondition(!isAsync, "an async resolution builds sync shared instances in a nested resolution")
        // Built already by this resolution or one it runs within: no gate is needed to share it.
        if let box = unpublishedInstance(of: key) { return box }
        if provider.preparation != nil { try hold(SharedInstanceKey(realm: realm), for: provider) }
        if let store {
            if let box = try hold(key, for: provider, in: store) { return box }
        } else {
            try hold(key, for: provider)
        }
        return unpublishedInstance(of: key)
    }

    private func hold(_ gate: SharedInstanceKey, for provider: AnyProvider) throws {
        let bookkeeping = bookkeeping
        guard !bookkeeping.heldGates.contains(gate) else { return }
        try InstanceGates.enter(
            gate,
            asking: provider.key,
            path: { path + [provider.key] },
            stopsWhenCancelled: stopsWaitingWhenCancelled
        )
        bookkeeping.heldGates.append(gate)
    }

    /// Takes the gate `store` keeps for `provider`'s instance (`gate`), held until this resolution
    /// ends, unless the instance is published there: then returns it.
    private func hold(
        _ gate: SharedInstanceKey,
        for provider: AnyProvider,
        in store: InstanceStore
    ) throws -> AnyObject? {
        let bookkeeping = bookkeeping
        guard !bookkeeping.heldStoreGates.contains(where: { $0.key == gate }) else {
            return store.instance(of: gate.slot)
        }
        let entered = try enter(gate, of: provider, in: store)
        if entered.taken { bookkeeping.heldStoreGates.append(StoreGate(store: store, key: gate)) }
        return entered.box
    }

    /// Whether `provider`'s instance in `store` can be published as soon as it is built, rather
    /// than when the resolution completes (see `constructPublishingAtOnce`, and
    /// `constructStoredAsync`): a scoped registration without preparation steps, in a lifetime
    /// scope's own store, built by a resolution that runs inside no other (nor within an async
    /// factory: its resolution may build shared instances this one shares while it runs, and
    /// drop them, so what was unpublished when the factory was called does not tell) and has no
    /// shared instance unpublished. Whatever else holds an instance until completion (hooks queued
    /// by its dependencies, shared instances built around it, a resolution it runs inside) keeps it
    /// to the general path.
    @usableFromInline func publishesAtOnce(_ provider: AnyProvider, in store: InstanceStore) -> Bool {
        provider.scope.kind == .scoped && store.sharedObjects == nil && publishesAtOnce(provider)
    }

    /// Whether `provider`'s shared instance, built now, can be published as soon as its
    /// construction queues nothing (compare `queueMark` before and after): it has no preparation
    /// steps, and this resolution runs inside no other, has no side store, and holds nothing
    /// awaiting its completion (an unpublished instance, or hooks not yet run on an instance the
    /// new one may hold). A singleton published so is there for a thread its factory's caller
    /// waits for, and stays published if that caller fails later.
    func publishesAtOnce(_ provider: AnyProvider) -> Bool {
        provider.preparation == nil && nesting.outer == nil && environment.sideStore == nil
            && family.ancestors.isEmpty
            && activeBookkeeping.map { $0.unpublished.isEmpty && $0.pending.isEmpty } != false
    }

    /// Releases the gate `gate`, held by this sync resolution, before it ends: its instance is
    /// published.
    func leaveHeldGate(_ gate: SharedInstanceKey) {
        guard let bookkeeping = activeBookkeeping, let index = bookkeeping.heldGates.lastIndex(of: gate) else {
            return
        }
        bookkeeping.heldGates.remove(at: index)
        InstanceGates.leave(gate)
    }

    /// Returns the instance published in `store` for `key`, or else takes its gate for this
    /// thread, waiting while another thread holds it, without recording it among the gates this
    /// resolution holds until it ends: the caller releases it (the store's `publish(_:leaving:)`,
    /// or `leave(_:)` on failure), or hands it to the resolution with `holdEnteredGate(_:in:)`.
    ///
    /// - Throws: ``InjectionError/Code/circularWait`` when the holder waits, directly or through
    ///   other threads, for a gate this thread holds.
    @usableFromInline func enterGate(
        _ key: SharedInstanceKey,
        of provider: AnyProvider,
        in store: InstanceStore
    ) throws -> AnyObject? {
        let entered = try enter(key, of: provider, in: store)
        if entered.box != nil, entered.taken { store.leave(key) }
        return entered.box
    }

    /// Returns the instance published in `store` for `key`, or else takes its gate for this
    /// thread, waiting while another thread holds it (see `InstanceStore.enter`).
    private func enter(
        _ key: SharedInstanceKey,
        of provider: AnyProvider,
        in store: InstanceStore
    ) throws -> InstanceStore.Entered {
        try store.enter(
            key,
            asking: provider.key,
            path: { path + [provider.key] },
            stopsWhenCancelled: stopsWaitingWhenCancelled
        )
    }

    /// Records a gate taken with `enterGate` as held by this resolution, released when it ends.
    @usableFromInline func holdEnteredGate(_ key: SharedInstanceKey, in store: InstanceStore) {
        bookkeeping.heldStoreGates.append(StoreGate(store: store, key: key))
    }

    /// A gate a store keeps (see `InstanceStore`), held by a resolution.
    struct StoreGate {
        let store: InstanceStore
        let key: SharedInstanceKey
    }

    /// How an async shared construction starts: with the instance already built, or with this
    /// resolution to build it, having claimed its family's gate for it (or not, in a cycle).
    enum AsyncSharedConstructionStart {
        case built(AnyObject)
        case claimed(ConstructionGates)
        case unclaimed
    }

    /// Takes the async gate of `key` for this resolution (held until it ends; see
    /// `InstanceGates`, and the realm's first for a registration with preparation steps, as
    /// above), then returns the shared instance kept under `key` if this resolution, or one of its
    /// family (see `ConstructionGates`), built it, waiting while one of the family builds it.
    ///
    /// - Throws: ``InjectionError/Code/circularWait`` when the resolution building it waits,
    ///   directly or through others, for an instance this one is building;
    ///   ``InjectionError/Code/resolutionCancelled`` when the task is cancelled while it waits, or
    ///   before it would start the factory: a cancelled task builds no shared instance.
    func beginSharedConstruction(
        of key: SharedInstanceKey,
        for provider: AnyProvider,
        realm: AnyObject,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> AsyncSharedConstructionStart {
        do {
            // Built already by this resolution or one it runs within: taking the gate would keep
            // siblings waiting until this resolution ends, for an instance it does not build.
            if let box = unpublishedInstance(of: key) { return .built(sharing(box, of: key)) }
            if provider.preparation != nil {
                do { try await hold(SharedInstanceKey(realm: realm), for: provider) } catch is CancellationError {
                    throw InjectionError.resolutionCancelled(
                        provider.key,
                        path: path + [provider.key],
                        at: .awaitingTurn
                    )
                }
            }
            let taken = try await hold(key, for: provider)
            if let box = unpublishedInstance(of: key) { return .built(sharing(box, of: key)) }
            if isConstructing(provider) { return .unclaimed }  // a cycle, which `enter` reports
            let gates = constructionGates
            if let box = try await InstanceGates.pass(key, of: gates, by: waiter(asking: provider)) {
                // Built by another of the family, within whose hold this one took the gate: keeping
                // it would hold up siblings until this resolution ends, for nothing it builds.
                if taken { release(key) }
                bookkeeping.sharesFamilyInstances = true
                return .built(box)
            }
            guard !Task.isCancelled else {
                InstanceGates.open(key, of: gates, by: gateOwner, with: nil)
                throw InjectionError.resolutionCancelled(provider.key, path: path + [provider.key], at: .beforeBuilding)
            }
            return .claimed(gates)
        } catch let error as InjectionError {
            throw error
        } catch {  // a wait at a gate, cancelled: `CancellationError`
            throw InjectionError.resolutionCancelled(provider.key, path: path + [provider.key], at: .whileAnotherBuilds)
        }
    }

    /// `box`, the unpublished instance kept under `key`, noting whether another resolution of this
    /// one's async family built it (see `complete()`).
    private func sharing(_ box: AnyObject, of key: SharedInstanceKey) -> AnyObject {
        if storedBookkeeping?.unpublished.contains(where: { $0.key == key }) != true {
            bookkeeping.sharesFamilyInstances = true
        }
        return box
    }

    /// Takes the async gate `gate`, held until this resolution ends; whether it was taken now.
    @discardableResult
    private func hold(
        _ gate: SharedInstanceKey,
        for provider: AnyProvider,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Bool {
        let taken = try await InstanceGates.enter(gate, by: gateOwner, within: family.ancestors) {
            waiter(asking: provider)
        }
        if taken { bookkeeping.heldAsyncGates.append(gate) }
        return taken
    }

    /// Releases the async gate `gate` before this resolution ends.
    func release(_ gate: SharedInstanceKey) {
        let bookkeeping = bookkeeping
        guard let index = bookkeeping.heldAsyncGates.lastIndex(of: gate) else { return }
        bookkeeping.heldAsyncGates.remove(at: index)
        InstanceGates.leave(gate, by: gateOwner)
    }

    /// This resolution as a waiter at an async gate, asking for `provider`'s service.
    private func waiter(asking provider: AnyProvider) -> InstanceGates.Waiter {
        InstanceGates.Waiter(
            owner: gateOwner,
            ancestors: family.ancestors,
            asked: provider.key,
            path: path + [provider.key]
        )
    }

    /// The shared instance kept under `key` that this resolution, or one it runs inside, built and
    /// has not published yet.
    func unpublishedInstance(of key: SharedInstanceKey) -> AnyObject? {
        var context: ResolutionContext? = self
        while let current = context {
            if let box = current.storedBookkeeping?.unpublished.last(where: { $0.key == key })?.box { return box }
            if current.nesting.outer == nil { return current.family.unpublished[key] }
            context = current.nesting.outer
        }
        return nil
    }

    /// The shared instances this resolution built and has not published, with those it inherited.
    var unpublishedInstances: [SharedInstanceKey: AnyObject] {
        guard let own = storedBookkeeping?.unpublished, !own.isEmpty else { return family.unpublished }
        return family.unpublished.merging(own.map { ($0.key, $0.box) }) { _, own in own }
    }

    /// Keeps a shared instance this resolution built unpublished: visible to it at once, published to other
    /// resolutions by `complete()`, after its preparation.
    func keepUnpublished(_ box: AnyObject, as key: SharedInstanceKey, publish: @escaping () -> Void) {
        let bookkeeping = bookkeeping
        bookkeeping.unpublished.append(Unpublished(key: key, box: box, publish: publish))
    }
}
