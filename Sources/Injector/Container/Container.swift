import Synchronization

/// A dependency-injection container: it holds registrations and resolves services from them.
///
/// Register a factory per service type (usually a protocol), optionally under a name, then resolve:
///
/// ```swift
/// let container = Container()
/// container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
/// container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
/// try container.finishRegistration()
///
/// let store = try container.resolve(NoteStore.self)
/// ```
///
/// A container is `Sendable`: resolve from any thread or task. Registration is meant for start-up;
/// ``finishRegistration()`` then freezes the registry, after which a lookup takes no lock.
/// ``makeChild()`` makes a container that sees this one's registrations and may shadow them.
public final class Container: Sendable {
    /// The container whose registrations this one falls back to, if any.
    let parent: Container?
    /// Serialises the construction of shared (singleton and weak) instances across a whole tree of
    /// containers; recursive, because a singleton's factory may build further singletons.
    let constructionLock: Locked<Void>

    private struct State {
        var registry = Registry()
        /// Registrations made after `finishRegistration()`, recorded as conflicts.
        var lateProviders: [LookupKey: AnyProvider] = [:]
        var lateOrder: [LookupKey] = []
        /// Late providers replaced by later ones, kept alive as `Registry` keeps its replaced ones.
        var retiredLateProviders: [AnyProvider] = []
    }

    private let state = Locked.make(State())
    private let frozen = PublishedReference<FrozenRegistry>()
    private let hasLateRegistrations = Atomic<Bool>(false)

    /// Creates an empty container.
    public convenience init() {
        self.init(parent: nil)
    }

    private init(parent: Container?) {
        self.parent = parent
        constructionLock = parent?.constructionLock ?? .make((), recursive: true)
    }

    /// Makes a container that sees this container's registrations and may shadow them with its own.
    ///
    /// The child shares this container's singletons and keeps the singletons of its own
    /// registrations to itself. This container never sees the child's registrations. A singleton is
    /// always built by the container that registered it, with that container's dependencies, so a
    /// child's shadow never leaks into a parent's singleton; transient and graph registrations of the
    /// parent resolved through the child do see the child's shadows.
    ///
    /// ```swift
    /// let test = container.makeChild()
    /// test.register(Clock.self) { _ in FixedClock(now: .distantPast) }
    /// let store = try test.resolve(NoteStore.self)   // built with the fixed clock
    /// ```
    public func makeChild() -> Container {
        Container(parent: self)
    }

    /// Whether ``finishRegistration()`` has been called on this container.
    public var isRegistrationFinished: Bool { frozen.load() != nil }
}

// MARK: - Registry access

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
            (state.lateProviders[key] ?? state.registry.provider(for: key)).map(Unmanaged.passUnretained)
        }
    }

    /// This container's registry as it stands.
    var registry: Registry {
        frozen.load()?.registry ?? state.withLock { $0.registry }
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
            let earlier = state.lateProviders[key] ?? frozen.registry.provider(for: key)
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
            if let provider = state.lateProviders[key] ?? frozen.registry.provider(for: key) {
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
            let registry = frozen.load() ?? frozen.publish(FrozenRegistry(state.registry))
            let late = state.lateOrder.compactMap { state.lateProviders[$0] }
            return registry.registry.allProviders.filter { $0.conflict != nil } + late
        }
    }
}
