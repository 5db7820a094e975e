// How a container finds, adds and freezes its registrations.

extension Container {
    /// The provider for `key`, from this container or the nearest ancestor that has one.
    ///
    /// The provider is returned unretained: no registry ever lets go of a provider (replaced ones are
    /// retired, not released), and the registries of this container's lineage outlive the resolve
    /// call. Once registration has finished, this takes no lock either (unless a late registration,
    /// an error being reported, was recorded).
    @usableFromInline
    func provider(for key: LookupKey) -> Unmanaged<AnyProvider>? {
        if let provider = localProvider(for: key) { return provider }
        return parent?.provider(for: key)
    }

    /// The container, this one or an ancestor, whose registry holds `provider`.
    @usableFromInline
    func owner(of provider: AnyProvider) -> Container {
        var container = self
        while container.localProvider(for: provider.key.lookupKey)?.takeUnretainedValue() !== provider,
            let parent = container.parent
        {
            container = parent
        }
        return container
    }

    private func localProvider(for key: LookupKey) -> Unmanaged<AnyProvider>? {
        if !hasLateRegistrations.load(ordering: .acquiring), let frozen = frozen.unretained() {
            return frozen._withUnsafeGuaranteedRef { $0.table.provider(for: key) }
        }
        return state.withLock { state in
            state.lateProviders[key].map(Unmanaged.passUnretained) ?? state.registry.table.provider(for: key)
        }
    }

    /// Calls `body` with this container's registry, and whether it is frozen: under the lock while
    /// registration goes on, without it once frozen.
    func withRegistry<Result>(_ body: (Registry, _ isFrozen: Bool) -> Result) -> Result {
        if let frozen = frozen.load() { return body(frozen, true) }
        return state.withLock { body($0.registry, false) }
    }

    /// The containers from the root down to this one.
    var lineage: [Container] {
        var chain: [Container] = []
        var current: Container? = self
        while let container = current {
            chain.append(container)
            current = container.parent
        }
        return chain.reversed()
    }

    /// Adds a provider; after `finishRegistration()` it is recorded as a late registration instead.
    func add(_ provider: AnyProvider, replacing: Bool) {
        state.withLock { state in
            guard let frozen = frozen.load() else {
                state.registry.add(provider, replacing: replacing)
                return
            }
            let key = provider.key.lookupKey
            let earlier = state.lateProviders[key] ?? frozen.provider(for: key)
            recordLate(provider, kind: .lateRegistration, sites: (earlier?.sites ?? []) + [provider.site], in: &state)
        }
    }

    /// Replaces the provider for `key` with `transform`'s result; after `finishRegistration()` the
    /// amendment made at `site` is recorded as a late registration of the key.
    func amend(_ key: LookupKey, at site: RegistrationSite, _ transform: @escaping (AnyProvider) -> AnyProvider) {
        state.withLock { state in
            guard let frozen = frozen.load() else {
                state.registry.amend(key, transform)
                return
            }
            if let provider = state.lateProviders[key] ?? frozen.provider(for: key) {
                recordLate(transform(provider), kind: .lateAmendment, sites: provider.sites + [site], in: &state)
            }
        }
    }

    private func recordLate(_ provider: AnyProvider, kind: Conflict.Kind, sites: [RegistrationSite], in state: inout State) {
        let key = provider.key.lookupKey
        if let replaced = state.lateProviders[key] {
            state.retiredLateProviders.append(replaced)
        } else {
            state.lateOrder.append(key)
        }
        state.lateProviders[key] = provider.copy(conflict: Conflict(kind: kind, sites: sites), preparation: provider.preparation)
        hasLateRegistrations.store(true, ordering: .releasing)
    }

    /// Freezes the registry; returns the conflicts recorded so far, in registration order. Idempotent.
    func freeze() -> [AnyProvider] {
        state.withLock { state in
            let registry = frozen.load() ?? frozen.publish(state.registry)
            let late = state.lateOrder.compactMap { state.lateProviders[$0] }
            return registry.allProviders.filter { $0.conflict != nil } + late
        }
    }
}
