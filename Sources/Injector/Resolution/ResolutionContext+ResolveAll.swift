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

// `resolveAll`: one instance per registration of a service taking no arguments, named or not, each
// resolved as its own `resolve` would be, within one resolution. Entered from `Container`,
// `LifetimeScope` (the static form, a top-level resolution) and `Resolver` (within the caller's).

extension ResolutionContext {
    /// Resolves every registration of `service` without arguments from `container`, in `lifetimeScope`.
    static func resolveAll<Service>(
        _ service: Service.Type,
        from container: Container,
        in lifetimeScope: LifetimeScope?
    ) throws -> [Service] {
        let context = ResolutionContext.begin()
        defer { context.end() }
        context.start(in: lifetimeScope)
        if container.tree.mayHaveOverrides { context.applyOverrides(from: container) }
        let instances = try context.resolveAll(service, from: container)
        try context.complete()
        return instances
    }

    /// Resolves every registration of `service` without arguments from `container`, in
    /// `lifetimeScope`, running async factories.
    static func resolveAllAsync<Service>(
        _ service: Service.Type,
        from container: Container,
        in lifetimeScope: LifetimeScope?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> [Service] {
        let context = ResolutionContext(asyncIn: lifetimeScope, from: container)
        defer { context.end() }
        let instances = try await context.resolveAllAsync(service, from: container)
        try context.complete()
        return instances
    }

    /// Resolves every registration of `service` without arguments visible from `lookup`. One with an
    /// async factory is an error that says to resolve them all asynchronously.
    func resolveAll<Service>(_ service: Service.Type, from lookup: Container) throws -> [Service] {
        try keysOfAll(service, from: lookup).map { key in
            do {
                return try resolve(key.lookupKey, from: lookup, configure: nil) as Service
            } catch let error as InjectionError
                where error.code == .asyncResolutionRequired && error.resolutionPath.last == key
            {
                throw InjectionError.asyncResolutionRequired(key, path: error.resolutionPath, by: .resolveAll)
            }
        }
    }

    /// The async form of `resolveAll(_:from:)`.
    func resolveAllAsync<Service>(
        _ service: Service.Type,
        from lookup: Container,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> [Service] {
        var instances: [Service] = []
        for key in keysOfAll(service, from: lookup) {
            instances.append(try await resolveAsync(key.lookupKey, from: lookup, configure: nil))
        }
        return instances
    }

    /// The keys of every registration of `service` without arguments visible from `lookup`, in the
    /// order `resolveAll` returns their instances.
    private func keysOfAll<Service>(_ service: Service.Type, from lookup: Container) -> [ServiceKey] {
        let group = LookupKey(service, name: nil).group
        var seen: Set<LookupKey> = []
        var keys: [ServiceKey] = []
        // Registrations that exist only as test overrides come last.
        for container in lookup.lineage + (environment.overrides?.registrations(reaching: lookup) ?? []) {
            for provider in container.providers(in: group) where seen.insert(provider.key.lookupKey).inserted {
                keys.append(provider.key)
            }
        }
        return keys
    }
}
