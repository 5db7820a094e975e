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

/// The overrides a task resolves with: registrations that take precedence over a container's (and
/// its children's and scopes') for the length of a `withOverrides` call, in that task and the tasks
/// it starts.
final class ActiveOverrides: Sendable {
    /// The overrides in effect for the current task, if any. Read only when the tree resolved
    /// from has overrides running (`ContainerTree.mayHaveOverrides`).
    @TaskLocal static var bound: ActiveOverrides?

    /// The container the overrides apply to, with its children and scopes.
    let target: Container
    /// The override registrations.
    let registrations: Container
    /// The singletons and weak instances resolved while the overrides are in effect: built afresh,
    /// so that each sees the overrides and none outlives them. (`nonisolated(unsafe)`: a
    /// `LockedBuffer`, reached under its lock.)
    nonisolated(unsafe) let store = InstanceStore.make(isSideStore: true)
    /// The scoped instances built while the overrides are in effect, a store per scope, so that
    /// none is resolved after the call. The scope still owns them: its close disposes them.
    private let scopeStores = Locked.make([ObjectIdentifier: ScopeStore]())
    /// `sharesContainerInstance(of:lookup:)`'s answers, by registration.
    private let sharing = Locked.make([ObjectIdentifier: Bool]())

    private struct ScopeStore {
        /// Tells a scope from a later one at the same address.
        weak var lifetimeScope: LifetimeScope?
        let store: InstanceStore
    }
    /// Overrides in effect around these ones, which they extend.
    private let outer: ActiveOverrides?
    /// Set when the call that made these overrides returns (see `end()`).
    private var ended: AtomicWord<Bool> { atomics.word(0) }
    /// The word of `ended`.
    private let atomics = AtomicWords(count: 1)

    init(target: Container, registrations: Container, outer: ActiveOverrides?) {
        self.target = target
        self.registrations = registrations
        self.outer = outer
    }

    /// Throws ``InjectionError/Code/unmatchedOverride`` for the first plain override (no name, no
    /// arguments) that replaces nothing the target (with its parents) or an override around this
    /// one registers, while the target registers its type under names or with arguments: a double
    /// that no resolve of those keys would get. Any other may add a registration (a plugin for
    /// `resolveAll`).
    func refuseUnmatched() throws {
        let around = outer?.running?.registrations(reaching: target) ?? []
        for key in registrations.providers.map(\.key) where key.name == nil && key.argumentTypes.isEmpty {
            let asked = key.lookupKey
            guard target.registeredProvider(for: asked) == nil,
                !around.contains(where: { $0.registeredProvider(for: asked) != nil })
            else { continue }
            let nearMisses = target.registeredKeys(near: key)
            if !nearMisses.isEmpty { throw InjectionError.unmatchedOverride(key, nearMisses: nearMisses) }
        }
    }

    /// Ends these overrides, when their call returns. A task started inside the call that outlives
    /// it (an unstructured `Task`) still has them bound, as task-local values are inherited: from
    /// now on, it resolves without them, as every other task does.
    func end() {
        ended.store(true, ordering: .releasing)
    }

    /// These overrides while their call runs; once it has returned, the innermost running ones
    /// around them, if any.
    var running: ActiveOverrides? {
        ended.load(ordering: .acquiring) ? outer?.running : self
    }

    /// The innermost running overrides of this chain that reach `container`, if any.
    func applying(to container: Container) -> ActiveOverrides? {
        guard let running else { return nil }
        return container.descends(from: running.target) ? running : running.outer?.applying(to: container)
    }

    /// Whether these overrides, or those around them, were given `instance`
    /// (`register(_:instance:ownedBy:)`): no scope takes charge of it.
    func wereGiven(_ instance: Any, object: AnyObject?) -> Bool {
        registrations.tree.sharedObjects.contains(instance, object: object)
            || outer?.wereGiven(instance, object: object) == true
    }

    /// The override for `key` when looking up from `lookup`, if there is one.
    func provider(for key: LookupKey, lookup: Container) -> Borrowed<AnyProvider>? {
        if lookup.descends(from: target), let provider = registrations.registeredProvider(for: key) { return provider }
        return outer?.running?.provider(for: key, lookup: lookup)
    }

    /// The override registrations that reach `lookup`, outermost first.
    func registrations(reaching lookup: Container) -> [Container] {
        let outer = outer?.running?.registrations(reaching: lookup) ?? []
        return lookup.descends(from: target) ? outer + [registrations] : outer
    }

    /// Whether a resolve under these overrides may take `provider`'s singleton from its container
    /// (resolving from `lookup`) rather than build one for the call: whether the container has
    /// published one, built before without overrides, whose construction, by the edges it recorded,
    /// resolved nothing these overrides replace. One not built yet is built for the call: built
    /// into the container under the overrides, it would keep them after the call.
    func sharesContainerInstance(of provider: AnyProvider, lookup: Container) -> Bool {
        guard provider.publishedSingleton != nil else { return false }
        let memo = ObjectIdentifier(provider.record)
        if let known = sharing.withLock({ $0[memo] }) { return known }
        let shares = !dependsOnOverride(provider, owner: lookup.owner(of: provider))
        sharing.withLock { $0[memo] = shares }
        return shares
    }

    /// Whether the construction of `provider`'s published instance, by `owner`'s registrations, may
    /// have resolved an overridden key, at any depth: a walk of the edges recorded (and declared),
    /// with a stack of its own, so that a chain thousands deep costs what a short one does.
    private func dependsOnOverride(_ provider: AnyProvider, owner: Container) -> Bool {
        var pending = [(provider, owner)]
        var visited: Set<ObjectIdentifier> = []
        while let (current, lookup) = pending.popLast() {
            guard visited.insert(ObjectIdentifier(current.record)).inserted else { continue }
            let overrides = registrations(reaching: lookup)
            for asked in current.record.dependencies + (current.declaredDependencies?.keys ?? []) {
                let key = lookup.resolvedKey(for: asked).key
                if overrides.contains(where: {
                    $0.registeredProvider(for: asked.lookupKey) != nil
                        || $0.registeredProvider(for: key.lookupKey) != nil
                }) {
                    return true
                }
                guard let dependency = lookup.registeredProvider(for: key.lookupKey)?.object else { continue }
                pending.append((dependency, dependency.outlivesLifetimeScopes ? lookup.owner(of: dependency) : lookup))
            }
        }
        return false
    }

    /// Where the scoped instances of `lifetimeScope` built under these overrides are kept.
    func store(for lifetimeScope: LifetimeScope) -> InstanceStore {
        scopeStores.withLock { stores in
            if let entry = stores[ObjectIdentifier(lifetimeScope)], entry.lifetimeScope === lifetimeScope {
                return entry.store
            }
            stores = stores.filter { $0.value.lifetimeScope != nil }  // forget the scopes that are gone
            let scopeStore = InstanceStore.make(disposingIn: lifetimeScope.store.disposals)
            stores[ObjectIdentifier(lifetimeScope)] = ScopeStore(lifetimeScope: lifetimeScope, store: scopeStore)
            return scopeStore
        }
    }
}

extension Container {
    /// Whether this container is `ancestor` or one of its children, at any depth.
    func descends(from ancestor: Container) -> Bool {
        sequence(first: self, next: \.parent).contains { $0 === ancestor }
    }
}
