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
/// registration that needs a scoped service is still a captive dependency. Under a singleton or
/// weak registration it goes on behind a handle (`Lazy`, `ServiceProvider`), which resolves from the
/// container: there it looks only for a scoped service, which the container cannot resolve.
struct DeclarationCheck {
    private let container: Container
    /// The sample values validation's scope was given (`validate(providing:)`), which stand for the
    /// values lifetime scopes are given, registered or not.
    private let samples: ScopeValues
    private(set) var problems: [InjectionError] = []
    /// The walks made: a registration under a holder and a scope tag, behind a handle or not, is
    /// walked once.
    private var walked: Set<Walk> = []

    private struct Walk: Hashable {
        let record: ObjectIdentifier
        let holder: ObjectIdentifier?
        let tag: ScopeTag?
        let behindHandle: Bool
    }

    /// A registration on the walk's path: what it was reached with, and its edges still to walk.
    private struct Frame {
        let provider: AnyProvider
        /// Where its dependencies are looked up: the container resolved from, or, for a singleton
        /// or weak instance, the container that registered it (it is built with its registrations).
        let lookup: Container
        /// The innermost registration on the path that outlives lifetime scopes.
        let holder: AnyProvider?
        /// The tag of the scope the resolve would run in (the first one a scoped registration names).
        let tag: ScopeTag?
        let edges: [ServiceKey]
        let isDeclared: Bool
        /// The handle the walk went behind, held under `holder`, if it did.
        let handle: String?
        var next = 0
    }

    init(of container: Container, samples: ScopeValues) {
        self.container = container
        self.samples = samples
    }

    /// Walks the graph from `root`, a declared registration, depth first, with the path on a stack
    /// of its own (a chain thousands deep is walked as a short one is).
    mutating func check(_ root: AnyProvider) {
        guard let first = frame(for: root, lookup: container, holder: nil, tag: nil, handle: nil) else { return }
        var frames = [first]
        while let frame = frames.last {
            guard frame.next < frame.edges.count else {
                frames.removeLast()
                continue
            }
            frames[frames.count - 1].next += 1
            let asked = frame.edges[frame.next]
            let (key, deferred) = frame.lookup.resolvedKey(for: asked)
            // `error`, met at this edge, naming the declared parameter that asked for `key`.
            func declared(_ error: InjectionError) -> InjectionError {
                error.declared(
                    parameter: frame.next,
                    of: frame.provider.key,
                    at: frame.provider.site,
                    asking: key,
                    declaredAs: asked.serviceType
                )
            }
            guard let dependency = frame.lookup.registeredProvider(for: key.lookupKey)?.object else {
                // An optional parameter whose type nothing registers is `nil`: not a problem. (An
                // optional `Lazy` is not `nil`, and fails when read, as a `Lazy` does.) Behind a
                // handle, only a value given to scopes is (what is missing is its own registration's).
                if frame.isDeclared || frame.handle != nil,
                    deferred != nil || !(asked.serviceType is any OptionalService.Type),
                    let problem = unregistered(
                        key,
                        path: frames.map(\.provider.key),
                        holder: frame.holder,
                        through: frame.handle ?? deferred.map { typeName($0) },
                        reportingMissing: frame.handle == nil,
                        in: frame.lookup
                    )
                {
                    problems.append(frame.isDeclared ? declared(problem) : problem)
                }
                continue
            }
            // A `Lazy` or `ServiceProvider` resolves its service when used, not now: that the handle
            // can resolve it is checked (see `checkDeferred`), and, under a holder, what it resolves
            // from the container.
            if let deferred {
                let (built, passed) = frame.lookup.builtRegistration(of: dependency)
                let path = frames.map(\.provider.key) + passed + [built.key]
                if frame.handle == nil, deferred.resolvesSynchronously, built.isAsync {
                    problems.append(
                        declared(.asyncResolutionRequired(built.key, path: path, by: .lazy(of: dependency.key)))
                    )
                } else if frame.holder != nil {
                    let onPath = frames.contains { $0.provider.record === built.record }
                    let (problem, next) = behind(frame.handle ?? typeName(deferred), built, path, from: frame, onPath)
                    if let problem { problems.append(frame.isDeclared ? declared(problem) : problem) }
                    if let next { frames.append(next) }
                }
                continue
            }
            let onPath = frames.contains { $0.provider.record === dependency.record }
            if let handle = frame.handle {
                let path = frames.map(\.provider.key) + [dependency.key]
                let (problem, next) = behind(handle, dependency, path, from: frame, onPath)
                if let problem { problems.append(problem) }
                if let next { frames.append(next) }
                continue
            }
            var holder = frame.holder
            var tag = frame.tag
            if let problem = problem(
                reaching: dependency,
                from: frame,
                onPath: onPath,
                path: { frames.map(\.provider.key) + [dependency.key] },
                holder: &holder,
                tag: &tag
            ) {
                // A conflict is reported once, as the registry's, not once a declared edge to it.
                problems.append(frame.isDeclared && dependency.conflict == nil ? declared(problem) : problem)
            } else if !onPath,
                let next = self.frame(for: dependency, lookup: frame.lookup, holder: holder, tag: tag, handle: nil)
            {
                frames.append(next)
            }
        }
    }

    /// The walk behind `handle`, held under `frame`'s holder, which resolves from the container, to
    /// `dependency` at the end of `path`: a scoped service there is a captive dependency of the
    /// holder (the container cannot resolve it); below anything else but a registration on the path
    /// or one that outlives scopes (walked as a holder of its own), the walk goes on.
    private mutating func behind(
        _ handle: String,
        _ dependency: AnyProvider,
        _ path: [ServiceKey],
        from frame: Frame,
        _ onPath: Bool
    ) -> (InjectionError?, Frame?) {
        guard let holder = frame.holder else { return (nil, nil) }
        if dependency.scope.kind == .scoped {
            let captive = InjectionError.captiveDependency(
                holder.key,
                scope: holder.scope,
                captive: dependency.key,
                captiveScope: dependency.scope,
                through: handle,
                path: path
            )
            return (captive, nil)
        }
        guard !onPath, !dependency.outlivesLifetimeScopes else { return (nil, nil) }
        return (nil, self.frame(for: dependency, lookup: frame.lookup, holder: holder, tag: nil, handle: handle))
    }

    /// The problem of an edge at the end of `path` to `key`, which nothing registers: missing, if
    /// `reportingMissing`, unless it is among the samples (a value scopes are given), which
    /// `holder`, a singleton or weak registration, cannot depend on: held, it would keep it past its
    /// scope, and through `handle` it would be resolved from the container, which has none.
    private func unregistered(
        _ key: ServiceKey,
        path: [ServiceKey],
        holder: AnyProvider?,
        through handle: String?,
        reportingMissing: Bool,
        in lookup: Container
    ) -> InjectionError? {
        guard samples.borrowedValue(for: key.lookupKey) != nil else {
            return reportingMissing ? .missing(key, path: path, in: lookup) : nil
        }
        guard let holder else { return nil }
        return .captiveDependency(
            holder.key,
            scope: holder.scope,
            captive: key,
            captiveScope: .scoped,
            through: handle,
            path: path + [key]
        )
    }

    /// The frame of `provider` reached with `holder` and `tag`, or `nil` if it was walked so before.
    private mutating func frame(
        for provider: AnyProvider,
        lookup: Container,
        holder: AnyProvider?,
        tag: ScopeTag?,
        handle: String?
    ) -> Frame? {
        let record = provider.record
        let holder = provider.outlivesLifetimeScopes ? provider : holder
        let tag = tag ?? provider.scope.tag
        guard
            walked.insert(
                Walk(
                    record: ObjectIdentifier(record),
                    holder: holder.map(ObjectIdentifier.init),
                    tag: tag,
                    behindHandle: handle != nil
                )
            ).inserted
        else { return nil }
        return Frame(
            provider: provider,
            lookup: provider.outlivesLifetimeScopes ? lookup.owner(of: provider) : lookup,
            holder: holder,
            tag: tag,
            edges: provider.declaredDependencies?.keys ?? record.dependencies,
            isDeclared: provider.declaredDependencies != nil,
            handle: handle
        )
    }

    /// The problem of resolving `dependency` from `frame`'s registration (whose edge to it is
    /// declared or recorded), at `path` (which ends with `dependency`); or `nil`, and the holder and
    /// tag updated for the walk below it.
    private func problem(
        reaching dependency: AnyProvider,
        from frame: Frame,
        onPath: Bool,
        path: () -> [ServiceKey],
        holder: inout AnyProvider?,
        tag: inout ScopeTag?
    ) -> InjectionError? {
        if dependency.conflict != nil { return InjectionError.conflict(dependency, path: path()) }
        // A recorded edge may come from a hook, which runs after construction: a loop through one
        // is property injection, and the sandbox's run reported it if it was not.
        if frame.isDeclared, onPath, !dependency.takesArguments {
            let keys = path()
            let start = keys.dropLast().firstIndex(of: dependency.key) ?? 0
            return InjectionError.cycle(Array(keys[start...]), path: keys)
        }
        if frame.isDeclared, !frame.provider.isAsync, dependency.isAsync {
            return InjectionError.asyncResolutionRequired(
                dependency.key,
                path: path(),
                neededByDeclared: frame.provider.key
            )
        }
        guard dependency.scope.kind == .scoped else { return nil }
        if let holder {
            return InjectionError.captiveDependency(
                holder.key,
                scope: holder.scope,
                captive: dependency.key,
                captiveScope: dependency.scope,
                path: path()
            )
        }
        guard let dependencyTag = dependency.scope.tag else { return nil }
        if let scopeTag = tag, scopeTag != dependencyTag {
            return InjectionError.scopeTagMismatch(
                dependency.key,
                scope: dependency.scope,
                valueSite: dependency.providesScopeValue ? dependency.site : nil,
                scopeTag: scopeTag,
                path: path()
            )
        }
        tag = dependencyTag
        return nil
    }
}
