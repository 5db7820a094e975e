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

// Lifetimes in a resolution: which store keeps a scoped instance (refusing captive dependencies),
// where a shared instance is built when the resolution that meets it cannot build it itself (an
// async registration met by a sync resolution, or a sync shared one met by an async resolution),
// and which graph-scoped instances hold a scoped one.

extension ResolutionContext {
    /// Where `provider`'s scoped instance is kept in this resolution: in the scope's store, or,
    /// under test overrides, in a store of theirs for that scope, so that no scoped instance built
    /// with an override outlives them.
    ///
    /// - Throws: ``InjectionError/Code/captiveDependency`` when a singleton or weak service is being
    ///   built (or prepared) around it; ``InjectionError/Code/scopeMismatch`` when the resolution has
    ///   no scope, or one with another tag than the registration names.
    @usableFromInline func owningStore(for provider: AnyProvider) throws -> InstanceStore {
        if let captor = innermostOutlivingScopes() {
            throw InjectionError.captiveDependency(
                captor.provider.key,
                scope: captor.provider.scope,
                captive: provider.key,
                captiveScope: provider.scope,
                path: captor.path + [provider.key]
            )
        }
        guard let scope else {
            throw InjectionError.scopedOutsideScope(provider.key, scope: provider.scope, path: path + [provider.key])
        }
        if let tag = provider.scope.tag {
            let scopeTag = scope.acceptsEveryTag ? adoptedTag ?? tag : scope.tag
            guard scopeTag == tag else {
                throw InjectionError.scopeTagMismatch(
                    provider.key,
                    scope: provider.scope,
                    scopeTag: scopeTag,
                    path: path + [provider.key]
                )
            }
            if scope.acceptsEveryTag { adoptedTag = tag }
        }
        return overrides?.store(for: scope) ?? scope.store
    }

    /// Resolves a singleton or weak instance this resolution cannot build itself.
    @usableFromInline func resolveSharedElsewhere<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        lookup owner: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        guard !provider.isAsync else {
            throw InjectionError.asyncResolutionRequired(provider.key, path: path + [provider.key])
        }
        return try inNestedResolution { nested in
            try nested.constructShared(provider, owner: owner, arguments: repeat each arguments)
        }
    }

    /// Resolves an instance kept in `store` that this resolution cannot build itself.
    @usableFromInline func resolveStoredElsewhere<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        in store: InstanceStore,
        lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        guard !provider.isAsync else {
            throw InjectionError.asyncResolutionRequired(provider.key, path: path + [provider.key])
        }
        return try inNestedResolution { nested in
            try nested.constructStored(provider, in: store, lookup: lookup, arguments: repeat each arguments)
        }
    }

    /// Runs `body` in a sync resolution nested in this async one, completed before this one goes
    /// on: the locks a sync construction takes belong to a thread, and must be released before the
    /// next `await`. The nested resolution sees this one's scope, path and unpublished instances.
    private func inNestedResolution<Result>(_ body: (ResolutionContext) throws -> Result) throws -> Result {
        let nested = ResolutionContext(nestedIn: self)
        defer { nested.end() }
        nested.start(in: scope)
        nested.disposalOwner = disposalOwner
        nested.sharesOuterGraph = true
        return try nested.standingAsThreadResolution {
            let result = try body(nested)
            try nested.complete()
            return result
        }
    }

    /// Counts a scoped instance handed out, so that a graph-scoped instance built around it is
    /// known to hold it.
    @usableFromInline func noteScopedResolution(of provider: AnyProvider) {
        scopedResolutionCount &+= 1
        lastScoped = .passUnretained(provider)
    }

    /// Marks a graph-scoped instance as holding a scoped one (directly or through others).
    @usableFromInline func markScopeBound(_ box: AnyObject) {
        guard let lastScoped else { return }  // set whenever the count moved
        markScopeBound(box, holding: lastScoped)
    }

    private func markScopeBound(_ box: AnyObject, holding scoped: Unmanaged<AnyProvider>) {
        if sharesOuterGraph, let outer { return outer.markScopeBound(box, holding: scoped) }
        bookkeeping.scopeBoundGraphInstances[ObjectIdentifier(box)] = scoped
    }

    /// Refuses to hand a graph-scoped instance that holds a scoped one to a singleton or weak
    /// service being built; otherwise counts it as a scoped resolution, for the graph instances
    /// built around it.
    @usableFromInline func checkScopeBound(_ box: AnyObject, provider: AnyProvider) throws {
        guard let scoped = scopedProvider(heldBy: box) else { return }
        if let captor = innermostOutlivingScopes() {
            throw InjectionError.captiveDependency(
                captor.provider.key,
                scope: captor.provider.scope,
                captive: provider.key,
                captiveScope: provider.scope,
                holding: scoped.takeUnretainedValue().key,
                path: captor.path + [provider.key]
            )
        }
        scopedResolutionCount &+= 1
        lastScoped = scoped
    }

    private func scopedProvider(heldBy box: AnyObject) -> Unmanaged<AnyProvider>? {
        if sharesOuterGraph, let outer { return outer.scopedProvider(heldBy: box) }
        return storedBookkeeping?.scopeBoundGraphInstances[ObjectIdentifier(box)]
    }
}
