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

// The singleton and weak lifetimes, sync and async: an instance shared by every resolution, built
// once behind its gate and published to its registration's slot as soon as its construction is
// complete, or, when something it holds awaits the end of the resolution (hooks, instances built
// around it), when the resolution that built it completes (see `ResolutionContext+Publication.swift`). Under test overrides or in validation's
// sandbox, the instance goes to a side store instead (see `ResolutionContext+ScopedInstances.swift`).

extension ResolutionContext {
    /// A singleton or weak instance: published, not yet published, or one kept in a side store.
    /// (Not inlined into the lifetime switch: in code not specialised for `Service`, asking for
    /// `sharedInstance` fetches the metadata of `Service?`, which no other lifetime needs.)
    @inlinable @inline(never)
    func resolveShared<Service, each Argument>(
        _ provider: Provider<Service>,
        from lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        if let sideStore = environment.sideStore, !sharesContainerInstance(of: provider, lookup: lookup) {
            return try constructStored(
                provider,
                in: sideStore,
                lookup: lookup.owner(of: provider),
                arguments: repeat each arguments
            )
        }
        if let instance = provider.sharedInstance { return instance }
        return try constructShared(provider, owner: lookup.owner(of: provider), arguments: repeat each arguments)
    }

    /// An async singleton or weak instance: published, not yet published, or one kept in a side
    /// store.
    func resolveSharedAsync<Service, each Argument>(
        _ provider: Provider<Service>,
        from lookup: Container,
        arguments: repeat each Argument,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        if let sideStore = environment.sideStore, !sharesContainerInstance(of: provider, lookup: lookup) {
            return try await constructStoredAsync(
                provider,
                in: sideStore,
                lookup: lookup.owner(of: provider),
                arguments: repeat each arguments
            )
        }
        if let instance = provider.asyncSharedInstance { return instance }
        return try await constructSharedAsync(
            provider,
            owner: lookup.owner(of: provider),
            arguments: repeat each arguments
        )
    }

    /// Whether the test overrides this resolution runs under leave `provider`'s singleton the
    /// container's own (see `ActiveOverrides.sharesContainerInstance(of:lookup:)`).
    @usableFromInline func sharesContainerInstance(of provider: AnyProvider, lookup: Container) -> Bool {
        environment.overrides?.sharesContainerInstance(of: provider, lookup: lookup) == true
    }

    /// Builds a singleton or weak instance behind its gate (see `InstanceGates`), with the owner's
    /// registrations. It is published when the resolution completes, after its
    /// preparation; until then, this resolution alone sees it. (Not inlinable: it runs once for each
    /// instance, and a resolve that finds one published goes no further than `resolveShared`.)
    @usableFromInline
    func constructShared<Service, each Argument>(
        _ provider: Provider<Service>,
        owner: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        guard let slot = provider.slot, !isAsync else {
            // An async registration (its slot is the async one), or a sync one met in an async
            // resolution: either way, not built here.
            return try inNestedResolution(building: provider) { nested in
                try nested.constructShared(provider, owner: owner, arguments: repeat each arguments)
            }
        }
        let key = SharedInstanceKey(slot: slot)
        if let box = try beginSharedConstruction(of: key, for: provider, realm: owner.tree) {
            return keptInstance(box, as: Service.self)
        }
        if let instance = provider.sharedInstance { return instance }  // another thread was first
        try refuseToBuildIfCancelled(provider)

        let atOnce = publishesAtOnce(provider)
        let mark = queueMark
        let instance = try withDisposalOwner(provider.singleton == nil ? nil : owner.disposals) {
            try construct(provider, lookup: owner, arguments: repeat each arguments, configure: nil)
        }
        let publishesNow = atOnce && queueMark == mark
        try keepShared(instance, as: key, of: provider, owner: owner, publishingNow: publishesNow)
        if publishesNow { leaveHeldGate(key) }
        return instance
    }

    /// Refuses to start `provider`'s shared factory in a sync resolution that runs as part of an
    /// async one (see `inNestedResolution`) whose task is cancelled, as the async path refuses: a
    /// cancelled task starts no shared factory.
    @usableFromInline func refuseToBuildIfCancelled(_ provider: AnyProvider) throws {
        guard stopsWaitingWhenCancelled, Task.isCancelled else { return }
        throw InjectionError.resolutionCancelled(provider.key, path: path + [provider.key], at: .beforeBuilding)
    }

    /// Whether this resolution stops when its task is cancelled, at a gate or before a shared
    /// factory: a sync resolution that is part of an async one does, as the async one does, and so
    /// does one nested in it (a sync factory of that part resolving through a captured container),
    /// which the async resolve waits for just the same. (A sync resolve, whose caller cannot
    /// await, goes on.)
    var stopsWaitingWhenCancelled: Bool { nesting.sharesOuterGraph || nesting.withinAsyncPart }

    /// Builds an async singleton or weak instance, its factory running once however many tasks ask:
    /// the first takes the instance's gate until its resolution ends, the others wait at it.
    private func constructSharedAsync<Service, each Argument>(
        _ provider: Provider<Service>,
        owner: Container,
        arguments: repeat each Argument,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        let key = SharedInstanceKey(slot: provider.slot!)
        let start = try await beginSharedConstruction(of: key, for: provider, realm: owner.tree)
        if case .built(let box) = start { return keptInstance(box, as: Service.self) }
        var built: AnyObject?
        defer { if case .claimed(let gates) = start { InstanceGates.open(key, of: gates, by: gateOwner, with: built) } }
        if let instance = provider.asyncSharedInstance { return instance }  // another task was first

        let atOnce = publishesAtOnce(provider)
        let mark = queueMark
        let instance = try await withDisposalOwnerAsync(provider.asyncSingleton == nil ? nil : owner.disposals) {
            try await constructAsync(provider, lookup: owner, arguments: repeat each arguments, configure: nil)
        }
        let publishesNow = atOnce && queueMark == mark
        built = try keepShared(instance, as: key, of: provider, owner: owner, publishingNow: publishesNow)
        if publishesNow { release(key) }
        return instance
    }

    /// Publishes a new singleton or weak instance of `provider` to its slot, remembered in the
    /// shared objects of `owner`'s tree (for `owner`, if it is a child container): now, when its
    /// construction is complete (`publishingNow`, see `publishesAtOnce(_:)`), or else when the
    /// resolution completes, unpublished until then. Returns the instance as kept.
    @discardableResult
    func keepShared<Service>(
        _ instance: Service,
        as key: SharedInstanceKey,
        of provider: Provider<Service>,
        owner: Container,
        publishingNow: Bool
    ) throws -> AnyObject {
        // A registration has the slots of its kind, sync or async: one of each pair is `nil`.
        let singleton = provider.singleton ?? provider.asyncSingleton
        let weakSlot = provider.weakSlot ?? provider.asyncWeakSlot
        let (sharedObjects, child) = (owner.tree.sharedObjects, owner.childIdentity)
        let box = keptObject(for: instance)
        let publish: () -> Void
        if let weakSlot {
            let object = try weakObject(instance, provider: provider)
            publish = {
                sharedObjects.insert(object, scope: .weak, for: child)
                weakSlot.publish(object)
            }
        } else if let singleton {
            publish = {
                sharedObjects.insert(instance, scope: .singleton, for: child)
                singleton.publish(box)
            }
        } else {
            return box
        }
        if publishingNow { publish() } else { keepUnpublished(box, as: key, publish: publish) }
        return box
    }

    /// The instance as an object for a weak slot, or the error saying it is a value.
    func weakObject<Service>(_ instance: Service, provider: AnyProvider) throws -> AnyObject {
        guard let object = weakReferenceable(instance) else {
            throw InjectionError.weakScopeNeedsObject(provider.key, madeType: type(of: instance as Any), path: path)
        }
        return object
    }
}

/// The object that is the instance, or `nil` for a value type: what `objectInside` gives, without
/// a runtime cast when `Instance` is a class type (an instance of which is one reference), and with
/// none at all in code specialised for one. (Not `instance as AnyObject`, which in unspecialised
/// code is the runtime's bridging of any value to an object.)
@inlinable
func objectIdentity<Instance>(of instance: Instance) -> AnyObject? {
    if Instance.self is AnyObject.Type { return unsafeBitCast(instance, to: AnyObject.self) }
    return objectInside(instance)
}

/// The object that is the instance, or that an optional instance wraps; `nil` for a value type or
/// `nil`: what tells one instance from another where two keys may hand out the same object, wrapped
/// by one and not by the other (a value given to a scope as `Ledger?` and handed on as `Ledger`, a
/// singleton, a disposable recorded twice).
@usableFromInline
func objectInside(_ instance: Any) -> AnyObject? {
    if let object = weakReferenceable(instance) { return object }
    guard let optional = instance as? any OptionalService else { return nil }
    return optional.wrappedValue.flatMap(objectInside)
}

/// The instance, or what an optional instance wraps (inside any number of optionals); `nil` for
/// `nil`: what a value's identity is compared on, as `objectInside` gives an object's.
func valueInside(_ instance: Any) -> Any? {
    guard let optional = instance as? any OptionalService else { return instance }
    return optional.wrappedValue.flatMap(valueInside)
}

/// The instance as an object a weak reference can hold, or `nil` for a value type.
///
/// A checked cast rather than `instance as AnyObject`, which goes through the runtime's bridging of
/// any value to an object, on the path of every disposable instance a scope takes charge of.
func weakReferenceable(_ instance: Any) -> AnyObject? {
    guard type(of: instance) is AnyObject.Type else { return nil }
    // A cast to a type parameter, which the type checker does not fold into a coercion.
    func cast<Object>(to _: Object.Type) -> Object? { instance as? Object }
    return cast(to: AnyObject.self)
}
