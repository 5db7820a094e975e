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

// The graph lifetime, sync and async: one instance per top-level resolve, shared by everything
// that resolve builds. The instances themselves are kept in `GraphInstances`; whether one holds a
// scoped instance is tracked in `ResolutionContext+ScopedInstances.swift`.

extension ResolutionContext {
    /// The instance of this resolution's graph: built once, shared by everything it builds.
    @inlinable
    func resolveGraphScoped<Service, each Argument>(
        _ provider: Provider<Service>,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        if let instance: Service = try existingGraphInstance(of: provider, lookup: lookup, configure: configure) {
            return instance
        }
        let scopedBefore = construction.scopedCount
        let instance = try construct(provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
        keepGraphInstance(instance, of: provider, lookup: lookup, scopedBefore: scopedBefore)
        return instance
    }

    /// The instance of this async resolution's graph, built by an async factory.
    func resolveGraphScopedAsync<Service, each Argument>(
        _ provider: Provider<Service>,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        if let instance: Service = try existingGraphInstance(of: provider, lookup: lookup, configure: configure) {
            return instance
        }
        let scopedBefore = construction.scopedCount
        let instance = try await constructAsync(
            provider,
            lookup: lookup,
            arguments: repeat each arguments,
            configure: configure
        )
        keepGraphInstance(instance, of: provider, lookup: lookup, scopedBefore: scopedBefore)
        return instance
    }

    /// The instance of `provider` this resolution's graph already holds, if any. A caller's
    /// `configure` may not reshape it, and one that holds a scoped instance may not go to a
    /// singleton being built. Always inlined: the optimiser otherwise leaves it a call of its own
    /// on every graph resolve.
    @inlinable @inline(__always)
    func existingGraphInstance<Service>(
        of provider: AnyProvider,
        lookup: Container,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service? {
        guard let instance = graphInstance(of: provider, lookup: lookup, as: Service.self) else { return nil }
        guard configure == nil else {
            throw configured(provider)
        }
        if construction.scopedCount != 0 { try checkScopeBound(provider, lookup: lookup) }
        return instance
    }

    /// Keeps a new graph-scoped instance for the rest of the resolution, marked as holding a scoped
    /// one if one was handed out while it was built.
    @inlinable
    func keepGraphInstance<Service>(_ instance: Service, of provider: AnyProvider, lookup: Container, scopedBefore: Int)
    {
        storeGraphInstance(instance, of: provider, lookup: lookup)
        if construction.scopedCount != scopedBefore { markScopeBound(provider, lookup: lookup) }
    }
}
