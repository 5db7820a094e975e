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

// The resolution path: what is under construction in this resolution, the ones it runs inside and
// the async ones it inherits from, for error paths, cycles between constructions with arguments,
// and the captive-dependency check.

extension ResolutionContext {
    /// The keys under construction, outermost first, including those of the resolutions this one
    /// runs inside: the resolution path.
    @usableFromInline var path: [ServiceKey] { underConstruction.map(\.key) }

    /// The providers under construction, outermost first, including the outer resolutions'.
    var underConstruction: [AnyProvider] {
        // Iterative, as every walk over the outer resolutions: a chain of resolutions nested through
        // captured containers can be thousands deep, and a recursive walk would overflow the stack
        // the guard keeps in reserve for the error path.
        var chain: [ResolutionContext] = []
        var context: ResolutionContext? = self
        while let current = context {
            chain.append(current)
            context = current.nesting.outer
        }
        var providers = chain.last!.inheritedPath?.providers ?? []
        for context in chain.reversed() { providers += context.construction.stack.providers }
        return providers
    }

    /// How many entries of the path are inherited from the async resolutions this one runs within.
    var inheritedDepth: Int { outermost.inheritedPath?.count ?? 0 }

    /// On the outermost resolution, what the async resolutions it runs within were constructing:
    /// an async resolution's family's path, or, for a sync one started by an async factory through
    /// a container, the path of the resolution running that factory.
    private var inheritedPath: ProviderChain? {
        if isAsync { return family.path }
        guard let running = Self.runningAsyncFactory, running.isRunning else { return nil }
        return running.path
    }

    /// The outermost of the resolutions this one runs inside (itself, for a top-level resolution).
    var outermost: ResolutionContext {
        var context = self
        while let outer = context.nesting.outer { context = outer }
        return context
    }

    /// The innermost service under construction, or holding the instance being prepared, that
    /// outlives lifetime scopes: a singleton or weak one, which would hold a scoped instance
    /// captive. The path leads from the resolution's start (or the captor) to what is resolved now.
    func innermostOutlivingScopes() -> Captor? {
        // Most resolutions have none: find that out without building paths, or retaining anything.
        var current = Borrowed(self)
        while true {
            let (found, outer) = current.withObject { context in
                (
                    context.construction.stack.holdsOutlivingProvider || context.isPreparingUnderCaptor,
                    context.nesting.outer.map(Borrowed.init)
                )
            }
            if found { return innermostOutlivingScopesWithPath() }
            guard let outer else { return nil }
            current = outer
        }
    }

    /// The error refusing `captive` (of `scope`, built with the scoped `holding` if it is a graph
    /// instance holding one) to the singleton or weak service being built or prepared around it,
    /// if one is.
    func captiveDependency(
        _ captive: ServiceKey,
        scope: Scope,
        holding: ServiceKey? = nil,
        through handle: String? = nil
    ) -> InjectionError? {
        guard let captor = innermostOutlivingScopes() else { return nil }
        return InjectionError.captiveDependency(
            captor.provider.key,
            scope: captor.provider.scope,
            captive: captive,
            captiveScope: scope,
            holding: holding,
            through: handle,
            path: captor.path + [captive]
        )
    }

    /// Whether the hooks now running prepare an instance that a singleton or weak service holds.
    private var isPreparingUnderCaptor: Bool {
        guard let bookkeeping = storedBookkeeping.map(Borrowed.init) else { return false }
        return bookkeeping.withObject { $0.preparingCaptor != nil }
    }

    private func innermostOutlivingScopesWithPath() -> Captor? {
        // The walk goes out through the resolutions this one runs inside; the keys of those passed
        // on the way (innermost last) follow the captor's path.
        var passed: [[ServiceKey]] = []
        var context: ResolutionContext? = self
        while let current = context {
            if let captor = current.construction.stack.last(where: \.outlivesLifetimeScopes) {
                return Captor(provider: captor, path: current.path + passed.reversed().joined())
            }
            if let captor = current.storedBookkeeping?.preparingCaptor {
                let keys = current.construction.stack.providers.map(\.key)
                return Captor(provider: captor.provider, path: captor.path + keys + passed.reversed().joined())
            }
            passed.append(current.construction.stack.providers.map(\.key))
            context = current.nesting.outer
        }
        return nil
    }
}
