// The steps of an async resolution. An async resolution uses one context from start to end, across
// threads; sync registrations it meets are resolved as in a sync resolution, except shared ones,
// which are built in a sync resolution nested in it (see `ResolutionContext+Lifetimes.swift`).

extension ResolutionContext {
    func resolveAsync<Service, each Argument>(
        _ key: LookupKey,
        found: Unmanaged<AnyProvider>?,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) async throws -> Service {
        guard let found else {
            throw unresolvable(Service.self, arguments: repeat (each Argument).self, key: key, found: nil, from: lookup)
        }
        let provider = unsafeDowncast(found.takeUnretainedValue(), to: Provider<Service, repeat each Argument>.self)
        guard provider.conflict == nil else {
            throw unresolvable(Service.self, arguments: repeat (each Argument).self, key: key, found: provider, from: lookup)
        }
        guard provider.isAsync else {
            return try resolve(provider, from: lookup, arguments: repeat each arguments, configure: configure)
        }
        noteDependency(on: provider)
        switch provider.scope.kind {
        case .transient:
            return try await constructAsync(provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
        case .graph:
            if let box = graphInstance(of: provider, lookup: lookup) {
                guard configure == nil else { throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path) }
                return unsafeDowncast(box, to: InstanceBox<Service>.self).value
            }
            let instance = try await constructAsync(
                provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
            storeGraphInstance(InstanceBox(instance), of: provider, lookup: lookup)
            return instance
        case .singleton, .weak:
            guard configure == nil else { throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path) }
            let instance: Service
            if let sideStore {
                instance = try await constructStoredAsync(provider, in: sideStore, lookup: lookup.owner(of: provider), arguments: repeat each arguments)
            } else if let shared = provider.asyncSharedInstance {
                instance = shared
            } else {
                instance = try await constructSharedAsync(provider, owner: lookup.owner(of: provider), arguments: repeat each arguments)
            }
            if disposalOwner != nil { noteOwnedElsewhere(instance) }
            return instance
        case .scoped:
            guard configure == nil else { throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path) }
            return try await constructStoredAsync(provider, in: owningStore(for: provider), lookup: lookup, arguments: repeat each arguments)
        }
    }

    /// Builds an async singleton or weak instance, its factory running once however many tasks ask:
    /// the first takes the tree's async construction lock until its resolution ends (one lock, as
    /// for sync construction, so that two resolutions never wait for each other), the others wait.
    private func constructSharedAsync<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        owner: Container,
        arguments: repeat each Argument
    ) async throws -> Service {
        let key = SharedInstanceKey(slot: provider.slot!, store: nil)
        if let box = await beginSharedConstruction(of: key, under: owner.tree.asyncConstructionLock) {
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        }
        if let instance = provider.asyncSharedInstance { return instance }  // another task was first

        let saved = disposalOwner
        disposalOwner = provider.asyncSingleton == nil ? nil : owner.disposals
        defer { disposalOwner = saved }
        let instance = try await constructAsync(provider, lookup: owner, arguments: repeat each arguments, configure: nil)
        try recordShared(instance, as: key, in: provider.asyncSingleton, or: provider.asyncWeakSlot, provider: provider)
        return instance
    }

    /// Builds an async instance kept in `store`, once per store however many tasks ask.
    private func constructStoredAsync<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        in store: InstanceStore,
        lookup: Container,
        arguments: repeat each Argument
    ) async throws -> Service {
        let record = provider.record
        if let box = store.instance(of: record) { return unsafeDowncast(box, to: InstanceBox<Service>.self).value }
        let key = SharedInstanceKey(slot: record, store: store)
        if let box = await beginSharedConstruction(of: key, under: store.asyncConstructionLock) ?? store.instance(of: record) {
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        }
        let saved = disposalOwner
        disposalOwner = store.disposals
        defer { disposalOwner = saved }
        let instance = try await constructAsync(provider, lookup: lookup, arguments: repeat each arguments, configure: nil)
        if provider.scope.kind == .weak { _ = try weakObject(instance, provider: provider) }
        let box = InstanceBox(instance)
        recordShared(box, as: key) { store.publish(box, of: record) }
        return instance
    }

    /// Runs the async factory with `provider` on the construction stack, then what follows any
    /// factory (see `finishConstruction`).
    private func constructAsync<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) async throws -> Service {
        try enter(provider)
        let mark = queueMark
        var instance: Service
        do {
            instance = try await provider.asyncFactory!(Resolver(container: lookup, context: self), repeat each arguments)
        } catch {
            defer { leave(completed: false) }
            discardQueued(since: mark)
            throw InjectionError.factoryFailed(error, path: path)
        }
        leave(completed: true)
        try finishConstruction(of: &instance, provider: provider, lookup: lookup, configure: configure)
        return instance
    }
}
