/// The registrations of one container: a provider per key, and the keys of each group (a service
/// type with its argument types) in registration order, which is the order `resolveAll` returns.
///
/// A provider that is replaced (by `replacesExisting`, an added hook or a recorded conflict) is
/// kept in `retired` for the registry's lifetime, so that lookups may hand providers out
/// unretained even while registration goes on.
struct Registry: Sendable {
    private var providers: [LookupKey: AnyProvider] = [:]
    private var keysByGroup: [GroupKey: [LookupKey]] = [:]
    /// Every key, in the order of its first registration.
    private var keys: [LookupKey] = []
    private var retired: [AnyProvider] = []

    func provider(for key: LookupKey) -> AnyProvider? {
        providers[key]
    }

    /// The providers of `group` (unnamed and named), in registration order.
    func providers(in group: GroupKey) -> [AnyProvider] {
        (keysByGroup[group] ?? []).compactMap { providers[$0] }
    }

    /// Every provider, in the order its key was first registered.
    var allProviders: [AnyProvider] { keys.compactMap { providers[$0] } }

    /// Adds a registration. A second registration of a key replaces the first only when
    /// `replacing` is true; otherwise both sites are recorded as a conflict.
    mutating func add(_ provider: AnyProvider, replacing: Bool) {
        let key = provider.key.lookupKey
        guard let existing = providers[key] else {
            providers[key] = provider
            keysByGroup[key.group, default: []].append(key)
            keys.append(key)
            return
        }
        retired.append(existing)
        providers[key] = replacing ? provider : existing.copy(
            conflict: Conflict(kind: .duplicate, sites: existing.sites + [provider.site]),
            preparation: existing.preparation)
    }

    /// Replaces the provider for `key` with `transform`'s result; does nothing for an unknown key.
    mutating func amend(_ key: LookupKey, _ transform: (AnyProvider) -> AnyProvider) {
        guard let existing = providers[key] else { return }
        retired.append(existing)
        providers[key] = transform(existing)
    }
}

/// A registry that can no longer change, published once registration has finished, with a hash
/// table for lookups on the resolve path.
final class FrozenRegistry: Sendable {
    let registry: Registry
    /// Finds providers on the resolve path; `registry` keeps them alive.
    let table: ProviderTable

    init(_ registry: Registry) {
        self.registry = registry
        table = ProviderTable(registry.allProviders)
    }
}
