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
    /// This reads the published snapshot of the registrations without a lock; only the first lookup
    /// after a registration takes the lock, to publish a new one.
    /// While a task runs with overrides (`withOverrides`), an override of `key` comes first.
    func provider(for key: LookupKey) -> Borrowed<AnyProvider>? {
        provider(for: key, mayHaveOverrides: tree.mayHaveOverrides)
    }

    /// `provider(for:)`, with `tree.mayHaveOverrides` read by the caller, which reads it once for
    /// its own use too (a top-level resolve).
    @usableFromInline
    func provider(for key: LookupKey, mayHaveOverrides: Bool) -> Borrowed<AnyProvider>? {
        // The usual lookup (no overrides, the registry published, an unnamed key registered here)
        // is the few instructions of the table's probe, which calls nothing; the rest is one call in
        // tail position, so that the probe saves no registers for it. A miss there has probed this
        // container's table already: it goes on from the parent's.
        if _fastPath(!mayHaveOverrides && key.name == nil), let published = registry.borrowed() {
            if let provider = published.withObject({ $0.unnamedProvider(for: key) }) { return provider }
            return inheritedProvider(for: key)
        }
        return lookUpFully(key)
    }

    /// The provider for `key`, which this container does not register, from the nearest ancestor
    /// that does.
    @inline(never)
    private func inheritedProvider(for key: LookupKey) -> Borrowed<AnyProvider>? {
        parent?.registeredProvider(for: key)
    }

    /// `provider(for:)`, every case.
    @inline(never)
    private func lookUpFully(_ key: LookupKey) -> Borrowed<AnyProvider>? {
        if tree.mayHaveOverrides, let overridden = overriddenProvider(for: key) { return overridden }
        return registeredProvider(for: key)
    }

    /// The provider that the overrides bound to this task give `key`, if any.
    @inline(never)
    private func overriddenProvider(for key: LookupKey) -> Borrowed<AnyProvider>? {
        ActiveOverrides.bound?.running?.provider(for: key, lookup: self)
    }

    /// The provider for `key` registered in this container or the nearest ancestor that has one.
    func registeredProvider(for key: LookupKey) -> Borrowed<AnyProvider>? {
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

    private func localProvider(for key: LookupKey) -> Borrowed<AnyProvider>? {
        (registry.borrowed() ?? publishRegistry()).withObject { $0.provider(for: key) }
    }

    /// The snapshot lookups read, published now if a change replaced it.
    private var currentRegistry: Registry {
        registry.load() ?? publishRegistry().object
    }

    /// Publishes a snapshot of the registrations as they are now, unless one is published.
    @inline(never)
    private func publishRegistry() -> Borrowed<Registry> {
        builder.withLock { builder in
            if let published = registry.borrowed() { return published }
            _ = registry.replace(with: builder.snapshot())
            return registry.borrowed()!
        }
    }

    /// Every registration of this container, current providers in registration order, followed by
    /// those made after `finishRegistration()` (resolving them reports the late registration).
    var providers: [AnyProvider] {
        currentRegistry.providers
    }

    /// This container's registrations of `group` (unnamed and named), in registration order, late
    /// ones included as in `providers`.
    func providers(in group: GroupKey) -> [AnyProvider] {
        currentRegistry.providers(in: group)
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
        sequence(first: self, next: \.parent).reversed()
    }

    /// Adds a provider; after `finishRegistration()` it is recorded as a late registration instead.
    func add(_ provider: AnyProvider, replacing: Bool) {
        changeRegistrations { $0.add(provider, replacing: replacing) }
    }

    /// Replaces the provider for `key` with `transform`'s result; after `finishRegistration()` the
    /// amendment made at `site` is recorded as a late registration of the key.
    func amend(_ key: LookupKey, at site: RegistrationSite, _ transform: @escaping (AnyProvider) -> AnyProvider) {
        changeRegistrations { $0.amend(key, at: site, transform) }
    }

    /// Freezes the registry; returns the conflicts recorded so far, in registration order. Idempotent.
    func freeze() -> [AnyProvider] {
        if !finished.load(ordering: .acquiring) {
            changeRegistrations { builder in
                builder.finish()
                finished.store(true, ordering: .releasing)
            }
        }
        return currentRegistry.conflicts
    }

    /// Changes the registrations under the lock, then withdraws the published snapshot (kept
    /// alive for lookups still reading it). Once registration has finished, the new snapshot is
    /// published at once, so that lookups never take the lock.
    private func changeRegistrations(_ change: (inout RegistryBuilder) -> Void) {
        builder.withLock { builder in
            change(&builder)
            let replacement = builder.isFinished ? builder.snapshot() : nil
            if let replacement, builder.hasDeclaredRegistrations { linkResolvePlans(to: replacement) }
            if let replaced = registry.replace(with: replacement) { builder.retire(replaced) }
        }
    }

    /// Links the resolve plans of the declared registrations in `registry`, a snapshot about to be
    /// published, to its providers: before lookups read it. (Out of line: inlined, it made every
    /// registration's change of the registrations a call of its own.)
    @inline(never)
    private func linkResolvePlans(to registry: Registry) {
        for provider in registry.providers { provider.declaredDependencies?.link(to: registry) }
    }
}
