/// The state of one top-level resolve: the services under construction (for cycle detection and
/// error paths), the graph-scoped instances, shared instances built but not yet published, and the
/// preparations deferred until the whole graph is built.
///
/// A context lives for one call of `Container.resolve`; the ``Resolver`` handed to factories
/// carries it. It is not `Sendable`: one resolution runs on one thread.
final class ResolutionContext {
    /// Services under construction, outermost first.
    private var stack: [AnyProvider] = []
    private var graphInstances: [GraphKey: AnyObject] = [:]
    /// Shared instances built by this resolution, keyed by their slot, published when it completes.
    private var unpublished: [ObjectIdentifier: AnyObject] = [:]
    private var publications: [() -> Void] = []
    private var pending: [PendingPreparation] = []
    /// The providers whose hooks led to the hook now running, for transient hook cycles.
    private var hookChain: [AnyProvider] = []
    private var heldConstructionLock: Locked<Void>?
    private var stackGuard = StackGuard()
    private(set) var isFinished = false

    private struct GraphKey: Hashable {
        let provider: ObjectIdentifier
        let lookup: ObjectIdentifier
    }

    private struct PendingPreparation {
        let chain: [AnyProvider]
        let run: (ResolutionContext) throws -> Void
    }

    /// The keys under construction, outermost first: the resolution path.
    var path: [ServiceKey] { stack.map(\.key) }

    // MARK: Resolving

    /// Resolves `key`, already looked up as `found`, with lookups starting at `lookup`.
    func resolve<Service, each Argument>(
        _ key: LookupKey,
        found: (provider: AnyProvider, owner: Container)?,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        guard let found else {
            let asked = ServiceKey(Service.self, arguments: repeat (each Argument).self, name: key.name)
            throw InjectionError.missing(asked, path: path, in: lookup)
        }
        if found.provider.conflict != nil {
            throw InjectionError.conflict(found.provider, path: path + [found.provider.key])
        }
        // The key holds the service and argument types, so the provider is of exactly this type.
        let provider = unsafeDowncast(found.provider, to: Provider<Service, repeat each Argument>.self)
        return try instance(
            of: provider, owner: found.owner, lookup: lookup, arguments: repeat each arguments,
            configure: configure)
    }

    private func instance<Service, each Argument>(
        of provider: Provider<Service, repeat each Argument>,
        owner: Container,
        lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        switch provider.scope.kind {
        case .transient:
            return try construct(provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
        case .graph:
            let graphKey = GraphKey(provider: ObjectIdentifier(provider), lookup: ObjectIdentifier(lookup))
            if let box = graphInstances[graphKey] {
                guard configure == nil else { throw InjectionError.sharedInstanceConfigured(provider.key, path: path) }
                return unsafeDowncast(box, to: InstanceBox<Service>.self).value
            }
            let instance = try construct(
                provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
            graphInstances[graphKey] = InstanceBox(instance)
            return instance
        case .singleton, .weak:
            guard configure == nil else { throw InjectionError.sharedInstanceConfigured(provider.key, path: path) }
            if let instance = provider.sharedInstance { return instance }
            return try constructShared(provider, owner: owner, arguments: repeat each arguments)
        }
    }

    /// Builds a singleton or weak instance under the construction lock of the owner's container tree,
    /// with the owner's registrations. It is published when the resolution completes, after its
    /// preparation; until then, this resolution finds it in `unpublished`.
    private func constructShared<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        owner: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        holdConstructionLock(of: owner)
        if let instance = provider.sharedInstance { return instance }  // another thread was first
        let slot = provider.slotIdentity
        if let box = unpublished[slot] { return unsafeDowncast(box, to: InstanceBox<Service>.self).value }

        let instance = try construct(provider, lookup: owner, arguments: repeat each arguments, configure: nil)
        let box = InstanceBox(instance)
        if let weakSlot = provider.weakSlot {
            guard type(of: instance as Any) is AnyObject.Type else {
                throw InjectionError.weakScopeNeedsObject(provider.key, madeType: type(of: instance as Any), path: path)
            }
            let object = instance as AnyObject
            publications.append { weakSlot.publish(object) }
        } else if let singleton = provider.singleton {
            publications.append { singleton.publish(box) }
        }
        unpublished[slot] = box
        return instance
    }

    private func construct<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        try enter(provider)
        var instance: Service
        do {
            instance = try provider.factory(Resolver(container: lookup, context: self), repeat each arguments)
        } catch {
            defer { stack.removeLast() }
            throw InjectionError.factoryFailed(error, path: path)
        }
        stack.removeLast()
        if let configure {
            do {
                try configure(&instance)
            } catch {
                throw InjectionError.preparationFailed(error, step: "the caller's configure closure", path: path + [provider.key])
            }
        }
        if let preparation = provider.typedPreparation {
            try deferPreparation(preparation, of: instance, provider: provider, lookup: lookup)
        }
        return instance
    }

    /// Pushes `provider` on the construction stack, refusing a cycle or a stack about to overflow.
    private func enter(_ provider: AnyProvider) throws {
        if let start = stack.firstIndex(where: { $0 === provider }) {
            throw InjectionError.cycle(stack[start...].map(\.key) + [provider.key], path: path + [provider.key])
        }
        if !stackGuard.hasRoom(atDepth: stack.count) {
            throw InjectionError.resolutionTooDeep(path: path + [provider.key])
        }
        stack.append(provider)
    }

    private func holdConstructionLock(of owner: Container) {
        guard heldConstructionLock == nil else { return }
        owner.constructionLock.lock()
        heldConstructionLock = owner.constructionLock
    }

    // MARK: Deferred preparation

    private func deferPreparation<Service>(
        _ preparation: Preparation<Service>, of instance: Service, provider: AnyProvider, lookup: Container
    ) throws {
        if let start = hookChain.firstIndex(where: { $0 === provider }) {
            throw InjectionError.hookCycle(hookChain[start...].map(\.key) + [provider.key])
        }
        let key = provider.key
        pending.append(PendingPreparation(chain: hookChain + [provider]) { context in
            let resolver = Resolver(container: lookup, context: context)
            for hook in preparation.hooks {
                do { try hook(resolver, instance) } catch {
                    throw InjectionError.preparationFailed(error, step: "an onResolved hook", path: [key])
                }
            }
            for check in preparation.checks {
                do { try check(instance) } catch {
                    throw InjectionError.preparationFailed(error, step: "a verify check", path: [key])
                }
            }
        })
    }

    /// Runs the deferred preparations in completion order (including those of instances the hooks
    /// build), then publishes the shared instances this resolution built.
    func complete() throws {
        var index = 0
        while index < pending.count {
            let preparation = pending[index]
            index += 1
            hookChain = preparation.chain
            try preparation.run(self)
        }
        pending.removeAll()
        hookChain.removeAll()
        for publish in publications { publish() }
        publications.removeAll()
    }

    /// Ends the resolution, whether it succeeded or not: releases the construction lock, and makes
    /// any resolver that outlives it fail.
    func end() {
        isFinished = true
        heldConstructionLock?.unlock()
        heldConstructionLock = nil
    }
}

extension Provider {
    /// The published singleton or weak instance, if there is one.
    var sharedInstance: Service? {
        if let singleton { return singleton.instance }
        return weakSlot?.object.map { $0 as! Service }
    }

    /// Identifies the instance storage, which copies of this provider share.
    var slotIdentity: ObjectIdentifier {
        if let singleton { return ObjectIdentifier(singleton) }
        return ObjectIdentifier(weakSlot!)
    }
}
