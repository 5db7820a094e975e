/// The registrations of one container: a provider per key, and the keys of each service type in
/// registration order (what `resolveAll` walks).
struct Registry: Sendable {
    private(set) var providers: [LookupKey: AnyProvider] = [:]
    private(set) var keysByService: [ObjectIdentifier: [LookupKey]] = [:]
    private(set) var keysInOrder: [LookupKey] = []

    /// Adds a registration. A second registration of a key replaces the first only when
    /// `replacing` is true; otherwise both sites are recorded as a conflict.
    mutating func add(_ provider: AnyProvider, replacing: Bool) {
        let key = provider.key.lookupKey
        guard let existing = providers[key] else {
            providers[key] = provider
            keysByService[key.service, default: []].append(key)
            keysInOrder.append(key)
            return
        }
        if replacing {
            providers[key] = provider
        } else {
            let sites = (existing.conflict?.sites ?? [existing.site]) + [provider.site]
            providers[key] = existing.copy(
                conflict: Conflict(sites: sites, isLate: false), preparation: existing.preparation)
        }
    }

    /// Replaces the provider for `key` with `transform`'s result; does nothing for an unknown key.
    mutating func amend(_ key: LookupKey, _ transform: (AnyProvider) -> AnyProvider) {
        if let provider = providers[key] { providers[key] = transform(provider) }
    }

    /// The providers with a recorded conflict, in the order their keys were first registered.
    var conflictedProviders: [AnyProvider] {
        keysInOrder.compactMap { providers[$0] }.filter { $0.conflict != nil }
    }
}

/// A registry that can no longer change, published once registration has finished.
final class FrozenRegistry: Sendable {
    let registry: Registry
    init(_ registry: Registry) { self.registry = registry }
}
