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

// Building shared instances: the construction locks a resolution takes and holds until it ends,
// the instances it built and publishes when it completes, and the owner that takes charge of
// what is disposable.

extension ResolutionContext {
    /// Takes `lock` (held until the resolution ends), then returns the shared instance kept under
    /// `key` if this resolution already built it.
    ///
    /// A resolution from a lifetime scope takes the scope's lock before any other, so that two
    /// resolutions from one scope never take a scope's lock and a container's in opposite orders.
    @usableFromInline func beginSharedConstruction(of key: SharedInstanceKey, under lock: Locked<Void>) -> AnyObject? {
        precondition(!isAsync, "an async resolution builds sync shared instances in a nested resolution")
        if let scope { hold(scope.store.constructionLock) }
        hold(lock)
        return unpublishedInstance(of: key)
    }

    /// Takes `lock` for this async resolution (held until it ends; the scope's first, as above),
    /// then returns the shared instance kept under `key` if this resolution already built it.
    func beginSharedConstruction(of key: SharedInstanceKey, under lock: AsyncLock) async -> AnyObject? {
        if let scope { await hold(scope.store.asyncConstructionLock) }
        await hold(lock)
        return unpublishedInstance(of: key)
    }

    fileprivate func hold(_ lock: AsyncLock) async {
        if await lock.lock(for: ObjectIdentifier(self), within: lockAncestors) {
            bookkeeping.heldAsyncLocks.append(lock)
        }
    }

    fileprivate func hold(_ lock: Locked<Void>) {
        let bookkeeping = bookkeeping
        guard let first = bookkeeping.heldLock else {
            lock.lock()
            bookkeeping.heldLock = lock
            return
        }
        guard first.identity != lock.identity,
            !bookkeeping.furtherHeldLocks.contains(where: { $0.identity == lock.identity })
        else { return }
        lock.lock()
        bookkeeping.furtherHeldLocks.append(lock)
    }

    /// The shared instance kept under `key` that this resolution, or one it runs inside, built and
    /// has not published yet.
    func unpublishedInstance(of key: SharedInstanceKey) -> AnyObject? {
        var context: ResolutionContext? = self
        while let current = context {
            if let box = current.storedBookkeeping?.unpublished.last(where: { $0.key == key })?.box { return box }
            if current.outer == nil { return current.inheritedUnpublished[key] }
            context = current.outer
        }
        return nil
    }

    /// The shared instances this resolution built and has not published, with those it inherited.
    var unpublishedInstances: [SharedInstanceKey: AnyObject] {
        guard let own = storedBookkeeping?.unpublished, !own.isEmpty else { return inheritedUnpublished }
        return inheritedUnpublished.merging(own.map { ($0.key, $0.box) }) { _, own in own }
    }

    /// Records a shared instance this resolution built: visible to it at once, published to other
    /// resolutions by `complete()`, after its preparation.
    @usableFromInline func recordShared(_ box: AnyObject, as key: SharedInstanceKey, publish: @escaping () -> Void) {
        let bookkeeping = bookkeeping
        bookkeeping.unpublished.append(Unpublished(key: key, box: box, publish: publish))
    }

    /// Hands a new instance to the owner of what is built now, if it is disposable and not a
    /// singleton or weak instance that a factory merely passed on (under another key): a scope
    /// never takes charge of those.
    @usableFromInline func recordDisposal(of instance: Any, provider: AnyProvider, lookup: Container) {
        guard let owner = disposalOwner, let disposal = DisposalBag.Disposal(of: instance) else { return }
        if let object = weakReferenceable(instance),
            lookup.tree.sharedObjects.contains(object) || sideStore?.sharedObjects?.contains(object) == true
        {
            return
        }
        owner.record(instance, key: provider.key, disposal: disposal)
    }
}
