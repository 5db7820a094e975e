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

// A top-level resolve, sync or async, from a container or a lifetime scope.

extension ResolutionContext {
    /// Resolves `key` from `container`, in `lifetimeScope` if one is given: one resolution graph.
    @inlinable
    static func resolve<Service, each Argument>(
        _ key: LookupKey,
        from container: Container,
        in lifetimeScope: LifetimeScope?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        let mayHaveOverrides = container.tree.mayHaveOverrides
        let found = container.provider(for: key, mayHaveOverrides: mayHaveOverrides)
        // A published singleton: one atomic load, no lock, no reference count on shared objects.
        if configure == nil, let found, !mayHaveOverrides,
            let published = found.withObject({ $0.publishedSingleton })
        {
            return published.withObject { keptInstance($0, as: Service.self) }
        }
        let context = ResolutionContext.begin()
        defer { context.end() }
        if let lifetimeScope { context.start(in: lifetimeScope) }
        if _slowPath(mayHaveOverrides) { context.applyOverrides(from: container) }
        if _slowPath(context.isNested), let found { context.noteDependency(on: found) }
        let instance: Service = try context.resolve(
            key,
            found: found,
            from: container,
            arguments: repeat each arguments,
            configure: configure
        )
        try context.complete()
        return instance
    }

    /// Resolves `key` from `container`, in `lifetimeScope` if one is given, running async factories.
    static func resolveAsync<Service, each Argument>(
        _ key: LookupKey,
        from container: Container,
        in lifetimeScope: LifetimeScope?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        let context = ResolutionContext(asyncIn: lifetimeScope, from: container)
        defer { context.end() }
        let instance: Service = try await context.resolveAsync(
            key,
            from: container,
            arguments: repeat each arguments,
            configure: configure
        )
        try context.complete()
        return instance
    }
}
