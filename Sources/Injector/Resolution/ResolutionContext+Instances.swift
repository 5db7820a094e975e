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

// The generic steps of resolution: find the provider, return a shared instance or construct one.
// Inlinable, so that they are specialised at each call site of `resolve`: no generic metadata is
// instantiated at run time on the resolve path.

extension ResolutionContext {
    /// Resolves `key`, already looked up as `found`, with lookups starting at `lookup`.
    ///
    /// The provider is borrowed, never retained: providers are shared by every resolving thread,
    /// and a retain would write to their reference count, a cache line all of them read.
    @inlinable
    func resolve<Service, each Argument>(
        _ key: LookupKey,
        found: Unmanaged<AnyProvider>?,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        guard let found else {
            return try resolveUnregistered(key, from: lookup, arguments: repeat each arguments, configure: configure)
        }
        return try Provider<Service, repeat each Argument>.borrowing(found) { provider in
            guard provider.conflict == nil else {
                throw unresolvable(
                    Service.self,
                    arguments: repeat (each Argument).self,
                    key: key,
                    found: provider,
                    from: lookup
                )
            }
            return try resolve(provider, from: lookup, arguments: repeat each arguments, configure: configure)
        }
    }

    /// The step every resolve takes. Each scope's work is a function of its own, so that this
    /// stays small enough for the optimiser to inline where a resolve is called.
    @inlinable
    func resolve<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        switch provider.scope.kind {
        case .transient:
            return try construct(provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
        case .graph:
            return try resolveGraphScoped(
                provider,
                from: lookup,
                arguments: repeat each arguments,
                configure: configure
            )
        case .singleton, .weak:
            guard configure == nil else {
                throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path)
            }
            if sideStore == nil, let instance = provider.sharedInstance { return instance }
            return try resolveShared(provider, from: lookup, arguments: repeat each arguments)
        case .scoped:
            guard configure == nil else {
                throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path)
            }
            return try resolveScoped(provider, from: lookup, arguments: repeat each arguments)
        }
    }

    /// The instance of this resolution's graph: built once, shared by everything it builds.
    @inlinable
    func resolveGraphScoped<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        if let instance: Service = try existingGraphInstance(of: provider, lookup: lookup, configure: configure) {
            return instance
        }
        let scopedBefore = scopedResolutionCount
        let instance = try construct(provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
        keepGraphInstance(instance, of: provider, lookup: lookup, scopedBefore: scopedBefore)
        return instance
    }

    /// The instance of `provider` this resolution's graph already holds, if any. A caller's
    /// `configure` may not reshape it, and one that holds a scoped instance may not go to a
    /// singleton being built.
    @inlinable
    func existingGraphInstance<Service>(
        of provider: AnyProvider,
        lookup: Container,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service? {
        guard let box = graphInstance(of: provider, lookup: lookup) else { return nil }
        guard configure == nil else {
            throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path)
        }
        if scopedResolutionCount != 0 { try checkScopeBound(box, provider: provider) }
        return unsafeDowncast(box, to: InstanceBox<Service>.self).value
    }

    /// Keeps a new graph-scoped instance for the rest of the resolution, marked as holding a scoped
    /// one if one was handed out while it was built.
    @inlinable
    func keepGraphInstance<Service>(_ instance: Service, of provider: AnyProvider, lookup: Container, scopedBefore: Int)
    {
        let box = InstanceBox(instance)
        storeGraphInstance(box, of: provider, lookup: lookup)
        if scopedResolutionCount != scopedBefore { markScopeBound(box) }
    }

    /// A singleton or weak instance not yet published (or one kept in a side store).
    @inlinable
    func resolveShared<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        from lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        if let sideStore {
            return try constructStored(
                provider,
                in: sideStore,
                lookup: lookup.owner(of: provider),
                arguments: repeat each arguments
            )
        }
        return try constructShared(provider, owner: lookup.owner(of: provider), arguments: repeat each arguments)
    }

    /// The instance of the lifetime scope that owns this resolution.
    @inlinable
    func resolveScoped<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        from lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        let instance = try constructStored(
            provider,
            in: owningStore(for: provider),
            lookup: lookup,
            arguments: repeat each arguments
        )
        noteScopedResolution(of: provider)
        return instance
    }

    /// Builds a singleton or weak instance behind its gate (see `InstanceGates`), with the owner's
    /// registrations. It is published when the resolution completes, after its
    /// preparation; until then, this resolution alone sees it.
    @inlinable
    func constructShared<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        owner: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        guard let slot = provider.slot, !isAsync else {
            // An async registration (its slot is the async one), or a sync one met in an async
            // resolution: either way, not built here.
            return try resolveSharedElsewhere(provider, lookup: owner, arguments: repeat each arguments)
        }
        let key = SharedInstanceKey(slot: slot, store: nil)
        if let box = try beginSharedConstruction(of: key, for: provider, realm: owner.tree) {
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        }
        if let instance = provider.sharedInstance { return instance }  // another thread was first

        let instance = try withDisposalOwner(provider.singleton == nil ? nil : owner.disposals) {
            try construct(provider, lookup: owner, arguments: repeat each arguments, configure: nil)
        }
        try recordShared(
            instance,
            as: key,
            in: provider.singleton,
            or: provider.weakSlot,
            provider: provider,
            sharedObjects: owner.tree.sharedObjects
        )
        return instance
    }

    /// Records a new singleton or weak instance, to be published to its slot, and remembered in
    /// `sharedObjects`, when the resolution completes.
    @inlinable
    func recordShared<Service>(
        _ instance: Service,
        as key: SharedInstanceKey,
        in singleton: SingletonSlot<Service>?,
        or weakSlot: WeakSlot?,
        provider: AnyProvider,
        sharedObjects: SharedObjects
    ) throws {
        let box = InstanceBox(instance)
        if let weakSlot {
            let object = try weakObject(instance, provider: provider)
            recordShared(box, as: key) {
                sharedObjects.insert(object, scope: .weak)
                weakSlot.publish(object)
            }
        } else if let singleton {
            recordShared(box, as: key) {
                sharedObjects.insert(instance, scope: .singleton)
                singleton.publish(box)
            }
        }
    }

    /// Builds the instance of `provider` kept in `store` (a lifetime scope's, or the side store of
    /// overrides or validation), behind the gate of its place in the store; published to the store when
    /// the resolution completes. The store takes charge of disposing it.
    @inlinable
    func constructStored<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        in store: InstanceStore,
        lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        if !provider.isAsync, let box = store.instance(of: provider.record) {
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        }
        guard !provider.isAsync, !isAsync else {
            return try resolveStoredElsewhere(provider, in: store, lookup: lookup, arguments: repeat each arguments)
        }
        let key = SharedInstanceKey(slot: provider.record, store: store)
        if let box = try beginSharedConstruction(of: key, for: provider, realm: store)
            ?? store.instance(of: provider.record)
        {
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        }
        let instance = try withDisposalOwner(store.disposals) {
            try construct(provider, lookup: lookup, arguments: repeat each arguments, configure: nil)
        }
        try recordStored(instance, of: provider, in: store, as: key)
        return instance
    }

    /// Records a new instance kept in `store`, to be published there when the resolution completes.
    @inlinable
    func recordStored<Service>(
        _ instance: Service,
        of provider: AnyProvider,
        in store: InstanceStore,
        as key: SharedInstanceKey
    ) throws {
        if provider.scope.kind == .weak { _ = try weakObject(instance, provider: provider) }
        let box = InstanceBox(instance)
        let record = provider.record
        let scope = provider.scope
        recordShared(box, as: key) {
            store.sharedObjects?.insert(instance, scope: scope)
            store.publish(box, of: record)
        }
    }

    /// Runs the factory with `provider` on the construction stack, then the caller's `configure`,
    /// and defers the registration's own preparation until the whole graph is built.
    @inlinable
    func construct<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        try enter(provider, arguments: repeat each arguments)
        let mark = queueMark
        var instance: Service
        do {
            instance = try provider.factory(Resolver(container: lookup, context: self), repeat each arguments)
        } catch {
            defer { leave(completed: false) }
            discardQueued(since: mark)
            throw InjectionError.factoryFailed(error, path: path)
        }
        leave(completed: true)
        try finishConstruction(of: &instance, provider: provider, lookup: lookup, configure: configure)
        return instance
    }

    /// What follows a factory: the caller's `configure`, taking charge of disposal, and deferring
    /// the registration's own preparation. (`inout`, so that the instance is not copied.)
    @inlinable
    func finishConstruction<Service>(
        of instance: inout Service,
        provider: AnyProvider,
        lookup: Container,
        configure: ((inout Service) throws -> Void)?
    ) throws {
        if let configure {
            do {
                try configure(&instance)
            } catch {
                throw InjectionError.preparationFailed(
                    error,
                    step: "the caller's configure closure",
                    path: path + [provider.key]
                )
            }
        }
        if disposalOwner != nil, !provider.handsOnInstances {
            recordDisposal(of: instance, provider: provider, lookup: lookup)
        }
        if let preparation = provider.preparation {
            try deferPreparation(
                unsafeDowncast(preparation, to: Preparation<Service>.self),
                of: instance,
                provider: provider,
                lookup: lookup
            )
        }
    }

    /// Runs `body` with `owner` taking charge of what is disposable, then restores the owner.
    @inlinable
    func withDisposalOwner<Result>(_ owner: DisposalBag?, _ body: () throws -> Result) rethrows -> Result {
        let saved = disposalOwner
        disposalOwner = owner
        defer { disposalOwner = saved }
        return try body()
    }

    /// The instance as an object for a weak slot, or the error saying it is a value.
    @inlinable
    func weakObject<Service>(_ instance: Service, provider: AnyProvider) throws -> AnyObject {
        guard let object = weakReferenceable(instance) else {
            throw InjectionError.weakScopeNeedsObject(provider.key, madeType: type(of: instance as Any), path: path)
        }
        return object
    }

    /// The error for a key that has no usable provider: missing, duplicated or registered late.
    @usableFromInline
    func unresolvable<Service, each Argument>(
        _ service: Service.Type,
        arguments: repeat (each Argument).Type,
        key: LookupKey,
        found: AnyProvider?,
        from lookup: Container
    ) -> InjectionError {
        if let found { return InjectionError.conflict(found, path: path + [found.key]) }
        let asked = ServiceKey(service, arguments: repeat each arguments, name: key.name)
        noteDependency(on: asked)
        return InjectionError.missing(asked, path: path, in: lookup)
    }
}

/// The instance as an object a weak reference can hold, or `nil` for a value type.
@usableFromInline
func weakReferenceable(_ instance: Any) -> AnyObject? {
    type(of: instance) is AnyObject.Type ? instance as AnyObject : nil
}
