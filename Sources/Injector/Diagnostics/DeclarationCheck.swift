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

/// Validation's check of declared registrations from their declarations alone, running no factory:
/// a walk of the dependency graph from each, which finds what a resolve would find — missing
/// registrations, cycles, captive dependencies, scopes of two tags in one resolve, async
/// registrations a sync function needs — with the same errors and paths.
///
/// The walk goes on through a closure registration by the edges its resolves so far recorded
/// (validation's sandbox has run it by then), so that a singleton declared above a closure
/// registration that needs a scoped service is still a captive dependency.
struct DeclarationCheck {
    private let container: Container
    private(set) var problems: [InjectionError] = []
    /// The walks made: a registration under a holder and a scope tag is walked once.
    private var walked: Set<Walk> = []

    private struct Walk: Hashable {
        let record: ObjectIdentifier
        let holder: ObjectIdentifier?
        let tag: ScopeTag?
    }

    /// What a walk carries down: the registrations from the top (each with the key it was asked
    /// for), the innermost one that outlives lifetime scopes, and the tag of the scope the resolve
    /// would run in (the first one a scoped registration names).
    private struct Position {
        var path: [AnyProvider]
        var holder: AnyProvider?
        var tag: ScopeTag?

        var keys: [ServiceKey] { path.map(\.key) }
    }

    init(of container: Container) {
        self.container = container
    }

    /// Walks the graph from `provider`, a declared registration.
    mutating func check(_ provider: AnyProvider) {
        let holder = provider.outlivesLifetimeScopes ? provider : nil
        walk(provider, at: Position(path: [provider], holder: holder, tag: provider.scope.tag))
    }

    private mutating func walk(_ provider: AnyProvider, at position: Position) {
        let record = provider.record
        guard
            walked.insert(
                Walk(
                    record: ObjectIdentifier(record),
                    holder: position.holder.map(ObjectIdentifier.init),
                    tag: position.tag
                )
            )
            .inserted
        else { return }
        let declared = provider.declaredDependencies
        for (index, key) in (declared ?? record.dependencies).enumerated() {
            let key = container.resolvedKey(for: key)
            guard let dependency = container.registeredProvider(for: key.lookupKey)?.object else {
                if declared != nil, !(key.serviceType is any DeferredResolution.Type) {
                    problems.append(
                        InjectionError.missing(key, path: position.keys, in: container)
                            .declared(parameter: index, of: provider.key, at: provider.site, asking: key)
                    )
                }
                continue
            }
            var next = position
            next.path.append(dependency)
            if let problem = problem(reaching: dependency, from: provider, isDeclared: declared != nil, at: &next) {
                problems.append(problem)
            } else if !position.path.contains(where: { $0.record === dependency.record }) {
                walk(dependency, at: next)
            }
        }
    }

    /// The problem of resolving `dependency` from `provider` (whose edge to it is declared or
    /// recorded), at `position` (whose path ends with `dependency`); or `nil`, and the position's
    /// holder and tag updated for the walk below it.
    private func problem(
        reaching dependency: AnyProvider,
        from provider: AnyProvider,
        isDeclared: Bool,
        at position: inout Position
    ) -> InjectionError? {
        let keys = position.keys
        if dependency.conflict != nil { return InjectionError.conflict(dependency, path: keys) }
        // A recorded edge may come from a hook, which runs after construction: a loop through one
        // is property injection, and the sandbox's run reported it if it was not.
        if isDeclared, !dependency.takesArguments,
            let start = position.path.dropLast().firstIndex(where: { $0.record === dependency.record })
        {
            return InjectionError.cycle(Array(keys[start...]), path: keys)
        }
        if isDeclared, !provider.isAsync, dependency.isAsync {
            return InjectionError.asyncResolutionRequired(dependency.key, path: keys)
        }
        if dependency.outlivesLifetimeScopes { position.holder = dependency }
        guard dependency.scope.kind == .scoped else { return nil }
        if let holder = position.holder {
            return InjectionError.captiveDependency(
                holder.key,
                scope: holder.scope,
                captive: dependency.key,
                captiveScope: dependency.scope,
                path: keys
            )
        }
        guard let tag = dependency.scope.tag else { return nil }
        if let scopeTag = position.tag, scopeTag != tag {
            return InjectionError.scopeTagMismatch(
                dependency.key,
                scope: dependency.scope,
                valueSite: dependency.providesScopeValue ? dependency.site : nil,
                scopeTag: scopeTag,
                path: keys
            )
        }
        position.tag = tag
        return nil
    }
}
