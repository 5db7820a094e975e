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

extension Container {
    /// The dependency graph: a node for each registration visible from this container (its own and
    /// its parents', the nearest for each key), with its lifetime, and an edge for each dependency.
    ///
    /// A declared registration's edges are its declared parameters, known before anything is
    /// resolved. A closure registration's are those its factory or hooks resolved, in any
    /// construction so far: one not yet resolved shows none (``validate()`` resolves them all).
    public func dependencyGraph() -> DependencyGraph {
        DependencyGraph(
            nodes: visibleProviders.map { provider in
                DependencyGraph.Node(
                    key: provider.key,
                    scope: provider.scope,
                    isAsync: provider.isAsync,
                    isDeclared: provider.declaredDependencies != nil,
                    dependencies: (provider.declaredDependencies?.keys ?? provider.record.dependencies).map {
                        resolvedKey(for: $0).key
                    }
                )
            }
        )
    }

    /// The key a resolve of `key` looks up: `key`, or, for one with no registration of its own, the
    /// wrapped type's of an optional type, a ``Lazy`` or a ``ServiceProvider`` (if one of those two,
    /// `deferred`: resolved when used, not built now).
    func resolvedKey(for key: ServiceKey) -> (key: ServiceKey, deferred: (any DeferredResolution.Type)?) {
        guard registeredProvider(for: key.lookupKey) == nil else { return (key, nil) }
        if let deferred = key.serviceType as? any DeferredResolution.Type {
            return (deferred.wrappedKey(name: key.name), deferred)
        }
        guard let optional = key.serviceType as? any OptionalService.Type else { return (key, nil) }
        // An optional of an optional resolves the type inside both, as a resolve unwraps them.
        let wrapped = optional.wrappedKey(of: key.lookupKey)
        return resolvedKey(
            for: ServiceKey(type: wrapped.type, argumentTypes: key.argumentTypes, lookupKey: wrapped.key)
        )
    }
}
