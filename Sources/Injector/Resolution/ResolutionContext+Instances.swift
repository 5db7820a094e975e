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
            throw unresolvable(Service.self, arguments: repeat (each Argument).self, key: key, found: nil, from: lookup)
        }
        return try Provider<Service, repeat each Argument>.borrowing(found) { provider in
            guard provider.conflict == nil else {
                throw unresolvable(Service.self, arguments: repeat (each Argument).self, key: key, found: provider, from: lookup)
            }
            return try resolve(provider, from: lookup, arguments: repeat each arguments, configure: configure)
        }
    }

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
            if let box = graphInstance(of: provider, lookup: lookup) {
                guard configure == nil else { throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path) }
                return unsafeDowncast(box, to: InstanceBox<Service>.self).value
            }
            let instance = try construct(
                provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
            storeGraphInstance(InstanceBox(instance), of: provider, lookup: lookup)
            return instance
        case .singleton, .weak:
            guard configure == nil else { throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path) }
            if let instance = provider.sharedInstance { return instance }
            return try constructShared(provider, owner: lookup.owner(of: provider), arguments: repeat each arguments)
        }
    }

    /// Builds a singleton or weak instance under the construction lock of the owner's container tree,
    /// with the owner's registrations. It is published when the resolution completes, after its
    /// preparation; until then, this resolution alone sees it.
    @inlinable
    func constructShared<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        owner: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        let slot = provider.slot!
        if let box = beginSharedConstruction(in: slot, owner: owner) {
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        }
        if let instance = provider.sharedInstance { return instance }  // another thread was first

        let instance = try construct(provider, lookup: owner, arguments: repeat each arguments, configure: nil)
        let box = InstanceBox(instance)
        if let weakSlot = provider.weakSlot {
            guard let object = weakReferenceable(instance) else {
                throw InjectionError.weakScopeNeedsObject(provider.key, madeType: type(of: instance as Any), path: path)
            }
            recordShared(box, in: slot) { weakSlot.publish(object) }
        } else if let singleton = provider.singleton {
            recordShared(box, in: slot) { singleton.publish(box) }
        }
        return instance
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
        try enter(provider)
        let mark = queueMark
        var instance: Service
        do {
            instance = try provider.factory(Resolver(container: lookup, context: self), repeat each arguments)
        } catch {
            defer { leave() }
            discardQueued(since: mark)
            throw InjectionError.factoryFailed(error, path: path)
        }
        leave()
        if let configure {
            do {
                try configure(&instance)
            } catch {
                throw InjectionError.preparationFailed(
                    error, step: "the caller's configure closure", path: path + [provider.key])
            }
        }
        if let preparation = provider.preparation {
            try deferPreparation(
                unsafeDowncast(preparation, to: Preparation<Service>.self), of: instance, provider: provider,
                lookup: lookup)
        }
        return instance
    }

    /// The error for a key that has no usable provider: missing, duplicated or registered late.
    @usableFromInline
    func unresolvable<Service, each Argument>(
        _ service: Service.Type, arguments: repeat (each Argument).Type, key: LookupKey,
        found: AnyProvider?, from lookup: Container
    ) -> InjectionError {
        if let found { return InjectionError.conflict(found, path: path + [found.key]) }
        let asked = ServiceKey(service, arguments: repeat each arguments, name: key.name)
        return InjectionError.missing(asked, path: path, in: lookup)
    }
}

/// The instance as an object a weak reference can hold, or `nil` for a value type.
@usableFromInline
func weakReferenceable(_ instance: Any) -> AnyObject? {
    type(of: instance) is AnyObject.Type ? instance as AnyObject : nil
}
