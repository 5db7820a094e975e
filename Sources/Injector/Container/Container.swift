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
    }

    private let state = Locked.make(State())
    private let frozen = AtomicLazyReference<FrozenRegistry>()
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
    /// The provider for `key` and the container that registered it, searching this container, then
    /// its ancestors. Takes no lock once registration has finished (unless a late registration
    /// was recorded, which is an error being reported anyway).
    func provider(for key: LookupKey) -> (provider: AnyProvider, owner: Container)? {
        var container = self
        while true {
            if let provider = container.localProvider(for: key) { return (provider, container) }
            guard let parent = container.parent else { return nil }
            container = parent
        }
    }

    private func localProvider(for key: LookupKey) -> AnyProvider? {
        guard let frozen = frozen.load() else {
            return state.withLock { $0.registry.providers[key] }
        }
        if hasLateRegistrations.load(ordering: .acquiring),
            let late = state.withLock({ $0.lateProviders[key] })
        {
            return late
        }
        return frozen.registry.providers[key]
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
            recordLate(provider, frozen: frozen, in: &state)
        }
    }

    /// Replaces the provider for `key` with `transform`'s result; after `finishRegistration()` the
    /// amendment is recorded as a late registration of the key.
    func amend(_ key: LookupKey, _ transform: @escaping (AnyProvider) -> AnyProvider) {
        state.withLock { state in
            guard let frozen = frozen.load() else {
                state.registry.amend(key, transform)
                return
            }
            if let provider = state.lateProviders[key] ?? frozen.registry.providers[key] {
                recordLate(transform(provider), frozen: frozen, in: &state)
            }
        }
    }

    private func recordLate(_ provider: AnyProvider, frozen: FrozenRegistry, in state: inout State) {
        let key = provider.key.lookupKey
        let earlier = state.lateProviders[key] ?? frozen.registry.providers[key]
        let sites = (earlier.map { $0.conflict?.sites ?? [$0.site] } ?? []) + [provider.site]
        state.lateProviders[key] = provider.copy(
            conflict: Conflict(sites: sites, isLate: true), preparation: provider.preparation)
        hasLateRegistrations.store(true, ordering: .releasing)
    }

    /// Freezes the registry; returns the conflicts recorded so far. Idempotent.
    func freeze() -> [AnyProvider] {
        state.withLock { state in
            let registry = frozen.load() ?? frozen.storeIfNil(FrozenRegistry(state.registry))
            return registry.registry.conflictedProviders + state.lateProviders.values
        }
    }
}
