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

// The scoped lifetime, sync and async: an instance kept in a store (the lifetime scope's, or, under
// test overrides or in validation's sandbox, a store of theirs; singleton and weak instances go to
// that side store too), built once per store behind its gate and published there when the
// resolution completes. Also here: which store owns a scoped instance, refusing a captive
// dependency or a scope of another tag, and which graph-scoped instances hold a scoped one.

extension ResolutionContext {
    /// The instance of the lifetime scope that owns this resolution.
    @inlinable
    func resolveScoped<Service, each Argument>(
        _ provider: Provider<Service>,
        from lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        if provider.providesScopeValue, let given = try givenScopeValue(for: provider) {
            noteScopedResolution(of: provider)
            return given.withObject { keptInstance($0, as: Service.self) }
        }
        // Borrowed: the resolution's lifetime scope (or its overrides) keeps the store.
        let instance = try owningStore(for: provider).withObject { store in
            try constructStored(provider, in: store, lookup: lookup, arguments: repeat each arguments)
        }
        noteScopedResolution(of: provider)
        return instance
    }

    /// The async instance of the lifetime scope that owns this resolution.
    func resolveScopedAsync<Service, each Argument>(
        _ provider: Provider<Service>,
        from lookup: Container,
        arguments: repeat each Argument,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        let instance = try await constructStoredAsync(
            provider,
            in: owningStore(for: provider).object,
            lookup: lookup,
            arguments: repeat each arguments
        )
        noteScopedResolution(of: provider)
        return instance
    }

    /// Builds the instance of `provider` kept in `store` (a lifetime scope's, or the side store of
    /// overrides or validation), behind the gate of its place in the store; published to the store when
    /// the resolution completes, or as soon as it is built when nothing it holds awaits the
    /// resolution's completion (see `publishesAtOnce(_:in:)`). The store takes charge of disposing it.
    @inlinable
    func constructStored<Service, each Argument>(
        _ provider: Provider<Service>,
        in store: InstanceStore,
        lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        guard _fastPath(!provider.isAsync && !isAsync) else {
            if !provider.isAsync, let box = store.instance(of: provider.recordIdentity) {
                return keptInstance(box, as: Service.self)
            }
            return try resolveStoredInNestedResolution(
                provider,
                in: store,
                lookup: lookup,
                arguments: repeat each arguments
            )
        }
        let key = SharedInstanceKey(record: provider.recordIdentity, store: store)
        if _fastPath(publishesAtOnce(provider, in: store)) {
            return try constructPublishingAtOnce(
                provider,
                in: store,
                as: key,
                lookup: lookup,
                arguments: repeat each arguments
            )
        }
        // The instance published, the one this resolution built, or the gate to build it.
        if let box = try beginSharedConstruction(of: key, for: provider, realm: store, in: store) {
            return keptInstance(box, as: Service.self)
        }
        try refuseToBuildIfCancelled(provider)
        let instance = try store.borrowedDisposals.withObject { owner in
            try withDisposalOwner(owner) {
                try construct(provider, lookup: lookup, arguments: repeat each arguments, configure: nil)
            }
        }
        try keepUnpublishedStored(instance, of: provider, in: store, as: key)
        return instance
    }

    /// Builds the instance of `provider` kept in `store` behind the gate of its place there, held
    /// while its factory runs, and publishes it as soon as it is built, releasing the gate in the
    /// same step, unless its construction built a shared instance or queued a preparation (then it
    /// is published with them, when the resolution completes). The path of a request's scoped
    /// service: one lock to find it or take its gate, one to publish it.
    @inlinable
    func constructPublishingAtOnce<Service, each Argument>(
        _ provider: Provider<Service>,
        in store: InstanceStore,
        as key: SharedInstanceKey,
        lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        if let box = try enterGate(key, of: provider, in: store) {
            return keptInstance(box, as: Service.self)
        }
        let mark = queueMark
        let instance: Service
        do {
            instance = try store.borrowedDisposals.withObject { owner in
                try withDisposalOwner(owner) {
                    try construct(provider, lookup: lookup, arguments: repeat each arguments, configure: nil)
                }
            }
        } catch {
            store.leave(key)
            throw error
        }
        if _fastPath(queueMark == mark) {
            store.publish(keptObject(for: instance), leaving: key)
        } else {
            holdEnteredGate(key, in: store)
            try keepUnpublishedStored(instance, of: provider, in: store, as: key)
        }
        return instance
    }

    /// Builds an async instance kept in `store`, once per store however many tasks ask. Published
    /// as soon as it is built, and its gate released, when nothing it holds awaits the resolution's
    /// completion (see `publishesAtOnce(_:in:)`), as a sync resolve publishes it; otherwise when the
    /// resolution completes.
    func constructStoredAsync<Service, each Argument>(
        _ provider: Provider<Service>,
        in store: InstanceStore,
        lookup: Container,
        arguments: repeat each Argument,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        let key = SharedInstanceKey(record: provider.recordIdentity, store: store)
        if let box = store.instance(of: key.slot) { return keptInstance(box, as: Service.self) }
        let start = try await beginSharedConstruction(of: key, for: provider, realm: store)
        if case .built(let box) = start { return keptInstance(box, as: Service.self) }
        var built: AnyObject?
        defer { if case .claimed(let gates) = start { InstanceGates.open(key, of: gates, by: gateOwner, with: built) } }
        if let box = store.instance(of: key.slot) { return keptInstance(box, as: Service.self) }
        let atOnce = publishesAtOnce(provider, in: store)
        let mark = queueMark
        let instance = try await withDisposalOwnerAsync(store.disposals) {
            try await constructAsync(provider, lookup: lookup, arguments: repeat each arguments, configure: nil)
        }
        if atOnce, queueMark == mark {
            let box = keptObject(for: instance)
            store.publish(box, of: key.slot)
            release(key)
            built = box
            return instance
        }
        try keepUnpublishedStored(instance, of: provider, in: store, as: key)
        built = unpublishedInstance(of: key)
        return instance
    }

    /// Keeps a new instance for `store` unpublished, to be published there when the resolution
    /// completes. (Not inlinable: a request's scoped instance is published at once.)
    @usableFromInline
    func keepUnpublishedStored<Service>(
        _ instance: Service,
        of provider: AnyProvider,
        in store: InstanceStore,
        as key: SharedInstanceKey
    ) throws {
        if provider.scope.kind == .weak { _ = try weakObject(instance, provider: provider) }
        let box = keptObject(for: instance)
        let scope = provider.scope
        keepUnpublished(box, as: key) {
            store.sharedObjects?.insert(instance, scope: scope)
            store.publish(box, of: key.slot)
        }
    }

    /// Where `provider`'s scoped instance is kept in this resolution: in the lifetime scope's store,
    /// or, under test overrides, in a store of theirs for that lifetime scope, so that no scoped instance built
    /// with an override outlives them.
    ///
    /// - Throws: ``InjectionError/Code/captiveDependency`` when a singleton or weak service is being
    ///   built (or prepared) around it; ``InjectionError/Code/scopeMismatch`` when the resolution has
    ///   no lifetime scope, or one with another tag than the registration names.
    @usableFromInline func owningStore(for provider: AnyProvider) throws -> Borrowed<InstanceStore> {
        try checkScopedResolution(of: provider).withObject { lifetimeScope in
            guard let overrides = environment.overrides else { return Borrowed(lifetimeScope.store) }
            return Borrowed(overrides.store(for: lifetimeScope))  // which the overrides keep
        }
    }

    /// The lifetime scope that owns `provider`'s scoped instance in this resolution, once checked
    /// that it may: what `owningStore(for:)` checks, for a value given to the scope, which no store
    /// keeps.
    func checkScopedResolution(of provider: AnyProvider) throws -> Borrowed<LifetimeScope> {
        // The usual answer first, every other case in a function of its own: inlined here, their
        // errors' code would sit between the few instructions a request runs (CONTRIBUTING.md,
        // "The request path's code"). Borrowed: the resolution keeps its lifetime scope.
        if let lifetimeScope = environment.borrowedLifetimeScope,
            lifetimeScope.withObject({ !$0.acceptsEveryTag && provider.scope.admits($0.tag) }),
            _fastPath(innermostOutlivingScopes() == nil)
        {
            return lifetimeScope
        }
        return try Borrowed(checkScopedResolutionFully(of: provider))
    }

    /// `checkScopedResolution(of:)`, every case.
    @inline(never)
    private func checkScopedResolutionFully(of provider: AnyProvider) throws -> LifetimeScope {
        if let error = captiveDependency(provider.key, scope: provider.scope) { throw error }
        guard let lifetimeScope = environment.lifetimeScope else {
            throw InjectionError.scopedOutsideScope(
                provider.key,
                scope: provider.scope,
                valueSite: provider.providesScopeValue ? provider.site : nil,
                path: path + [provider.key]
            )
        }
        if lifetimeScope.acceptsEveryTag || !provider.scope.admits(lifetimeScope.tag), let tag = provider.scope.tag {
            let lifetimeScopeTag = lifetimeScope.acceptsEveryTag ? environment.adoptedTag ?? tag : lifetimeScope.tag
            guard lifetimeScopeTag == tag else {
                throw InjectionError.scopeTagMismatch(
                    provider.key,
                    scope: provider.scope,
                    valueSite: provider.providesScopeValue ? provider.site : nil,
                    scopeTag: lifetimeScopeTag,
                    path: path + [provider.key]
                )
            }
            if lifetimeScope.acceptsEveryTag { environment.adoptedTag = tag }
        }
        return lifetimeScope
    }

    /// Counts a scoped instance handed out, so that a graph-scoped instance built around it is
    /// known to hold it.
    @usableFromInline func noteScopedResolution(of provider: AnyProvider) {
        construction.scopedCount &+= 1
        construction.lastScoped = Borrowed(provider)
    }

    /// Marks the graph-scoped instance of `provider` for lookups from `lookup` as holding a scoped
    /// one (directly or through others). Marked by its key, not by the object that keeps it: a
    /// class instance is kept as itself, which another graph registration may hand out too.
    @usableFromInline func markScopeBound(_ provider: AnyProvider, lookup: Container) {
        guard let lastScoped = construction.lastScoped else { return }  // set whenever the count moved
        markScopeBound(GraphInstances.Key(provider: provider, lookup: lookup), holding: lastScoped)
    }

    private func markScopeBound(_ key: GraphInstances.Key, holding scoped: Borrowed<AnyProvider>) {
        if nesting.sharesOuterGraph, let outer = nesting.outer { return outer.markScopeBound(key, holding: scoped) }
        bookkeeping.scopeBoundGraphInstances[key] = scoped
    }

    /// Refuses to hand a graph-scoped instance that holds a scoped one to a singleton or weak
    /// service being built; otherwise counts it as a scoped resolution, for the graph instances
    /// built around it.
    @usableFromInline func checkScopeBound(_ provider: AnyProvider, lookup: Container) throws {
        let key = GraphInstances.Key(provider: provider, lookup: lookup)
        guard let scoped = scopedProvider(heldBy: key) else { return }
        if let error = captiveDependency(provider.key, scope: provider.scope, holding: scoped.object.key) {
            throw error
        }
        construction.scopedCount &+= 1
        construction.lastScoped = scoped
    }

    private func scopedProvider(heldBy key: GraphInstances.Key) -> Borrowed<AnyProvider>? {
        if nesting.sharesOuterGraph, let outer = nesting.outer { return outer.scopedProvider(heldBy: key) }
        return storedBookkeeping?.scopeBoundGraphInstances[key]
    }
}
