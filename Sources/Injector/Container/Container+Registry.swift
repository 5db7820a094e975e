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

// How a container finds, adds and freezes its registrations.

extension Container {
    /// The provider for `key`, from this container or the nearest ancestor that has one.
    ///
    /// The provider is returned unretained: no registry ever lets go of a provider (replaced ones are
    /// retired, not released), and the registries of this container's lineage outlive the resolve
    /// call. Once registration has finished, this takes no lock either (unless a late registration,
    /// an error being reported, was recorded).
    /// While a task runs with overrides (`withOverrides`), an override of `key` comes first.
    @usableFromInline
    func provider(for key: LookupKey) -> Unmanaged<AnyProvider>? {
        if tree.mayHaveOverrides, let overridden = ActiveOverrides.bound?.provider(for: key, lookup: self) {
            return overridden
        }
        if let provider = localProvider(for: key) { return provider }
        return parent?.registeredProvider(for: key)
    }

    /// The provider for `key` registered in this container or the nearest ancestor that has one.
    func registeredProvider(for key: LookupKey) -> Unmanaged<AnyProvider>? {
        if let provider = localProvider(for: key) { return provider }
        return parent?.registeredProvider(for: key)
    }

    /// The container, this one or an ancestor, that registered `provider`'s key: the nearest one
    /// with a registration for it, as `provider(for:)` finds. (Found by key rather than by identity,
    /// which a registration amended on another thread meanwhile would change.)
    @usableFromInline
    func owner(of provider: AnyProvider) -> Container {
        var container = self
        while container.localProvider(for: provider.key.lookupKey) == nil, let parent = container.parent {
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

    /// Every registration of this container, current providers in registration order, followed by
    /// those recorded after `finishRegistration()` (resolving them reports the late registration).
    var providers: [AnyProvider] {
        if let frozen = frozen.load(), !hasLateRegistrations.load(ordering: .acquiring) {
            return frozen.allProviders
        }
        return state.withLock { $0.providers }
    }

    /// This container's registrations of `group` (unnamed and named), in registration order, late
    /// ones included as in `providers`. Once registration has finished, an index answers.
    func providers(in group: GroupKey) -> [AnyProvider] {
        if let frozen = frozen.load(), !hasLateRegistrations.load(ordering: .acquiring) {
            return frozen.providers(in: group)
        }
        return providers.filter { $0.key.lookupKey.group == group }
    }

    /// Every registration resolvable from this container: its own and its parents', the nearest
    /// for each key, in the order keys were first registered (the root container's first).
    var visibleProviders: [AnyProvider] {
        var order: [LookupKey] = []
        var nearest: [LookupKey: AnyProvider] = [:]
        for container in lineage {
            for provider in container.providers {
                let key = provider.key.lookupKey
                if nearest.updateValue(provider, forKey: key) == nil { order.append(key) }
            }
        }
        return order.map { nearest[$0]! }
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
            guard let provider = state.lateProviders[key] ?? frozen.provider(for: key) else { return }
            if let conflict = provider.conflict {
                // A key already in conflict (registered twice, or late) keeps that as its problem,
                // with the registrations' sites: a hook is not one more registration.
                recordLate(transform(provider), kind: conflict.kind, sites: conflict.sites, in: &state)
            } else {
                recordLate(transform(provider), kind: .lateAmendment, sites: [provider.site, site], in: &state)
            }
        }
    }

    private func recordLate(
        _ provider: AnyProvider,
        kind: Conflict.Kind,
        sites: [RegistrationSite],
        in state: inout State
    ) {
        let key = provider.key.lookupKey
        if let replaced = state.lateProviders[key] {
            state.retiredLateProviders.append(replaced)
        } else {
            state.lateOrder.append(key)
        }
        state.lateProviders[key] = provider.copy(
            conflict: Conflict(kind: kind, sites: sites),
            preparation: provider.preparation
        )
        hasLateRegistrations.store(true, ordering: .releasing)
    }

    /// Freezes the registry; returns the conflicts recorded so far, in registration order. Idempotent.
    func freeze() -> [AnyProvider] {
        state.withLock { state in
            if frozen.load() == nil { _ = frozen.publish(state.registry) }
            return state.providers.filter { $0.conflict != nil }
        }
    }
}
