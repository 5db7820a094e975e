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

/// Resolves a factory's dependencies within the resolution that called the factory.
///
/// Every factory and `onResolved` hook receives one. Resolving through it, rather than through a
/// captured container, keeps the nested resolve in the same graph: ``Scope/graph`` instances are
/// shared, cycles are detected and named, and errors carry the whole path.
///
/// A resolver is valid only while its resolution runs; using one kept for later throws
/// ``InjectionError/Code/resolverOutlivedResolution``. It is not `Sendable`: a sync resolution runs
/// on one thread, an async one in one task. An async factory that resolves dependencies in
/// parallel child tasks resolves through the resolver's ``container`` there
/// (`container.resolveAsync`); those resolutions join the one that called the factory for its
/// cycles and shared instances (see ``container``).
public struct Resolver {
    /// Where lookups start: the container the top-level resolve was called on, or the container that
    /// registered the singleton or weak instance being built.
    ///
    /// Borrowed (every resolving thread shares it), and only touched after `isActive` is checked:
    /// while the resolution is active, its caller holds the container.
    @usableFromInline let lookup: Borrowed<Container>
    @usableFromInline let context: ResolutionContext
    @usableFromInline let generation: UInt

    @usableFromInline init(container: Container, context: ResolutionContext) {
        self.lookup = Borrowed(container)
        self.context = context
        generation = context.generation
    }

    /// Whether the resolution this resolver was handed out by is still running.
    @usableFromInline var isActive: Bool { context.generation == generation }

    /// The container this resolution looks services up from, for the child tasks an async factory
    /// starts (`async let`, a task group), where the resolver, which belongs to the factory's task,
    /// cannot go.
    ///
    /// What they resolve through it, they resolve as the container does, joined to this resolution:
    /// a cycle through them is reported, a shared instance this resolution is building is not built
    /// twice, and test overrides and validation's sandbox apply. They do not see this resolution's
    /// lifetime scope or its ``Scope/graph`` instances: resolve those through the resolver before
    /// starting the tasks, and hand the instances to them.
    ///
    /// ```swift
    /// container.register(Dashboard.self) { r in
    ///     let container = try r.container
    ///     async let notes = container.resolveAsync(NoteStore.self)
    ///     async let stats = container.resolveAsync(Stats.self)
    ///     return try await Dashboard(notes: notes, stats: stats)
    /// }
    /// ```
    ///
    /// Take it from the resolver rather than capture the container in one of its own factories: a
    /// container keeps its factories, so such a factory and the container keep each other, and
    /// neither the container nor its singletons are ever freed, shut down or not.
    ///
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/resolverOutlivedResolution`` once
    ///   the resolution that handed out this resolver has finished.
    public var container: Container {
        get throws {
            guard isActive else { throw InjectionError.resolverOutlivedForContainer() }
            return lookup.object
        }
    }
}

/// A resolver belongs to the thread of its resolution: it must not be sent to another.
@available(*, unavailable)
extension Resolver: Sendable {}

extension Resolver: Resolving {
    /// A resolve within this resolution: ``Resolving/resolve(_:name:arguments:configure:)``.
    @inlinable
    public func _resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        let key = LookupKey(service, arguments: repeat (each Argument).self, name: name)
        guard _fastPath(isActive) else {
            throw InjectionError.resolverOutlived(
                asking: ServiceKey(service, arguments: repeat (each Argument).self, name: name)
            )
        }
        return try lookup.withObject { container in
            try context.resolve(key, from: container, arguments: repeat each arguments, configure: configure)
        }
    }

    /// An async resolve within this resolution:
    /// ``Resolving/resolveAsync(_:name:arguments:configure:isolation:)``.
    public func _resolveAsync<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)?
    ) async throws -> Service {
        let key = LookupKey(service, arguments: repeat (each Argument).self, name: name)
        guard isActive else {
            throw InjectionError.resolverOutlived(
                asking: ServiceKey(service, arguments: repeat (each Argument).self, name: name)
            )
        }
        let container = lookup.object
        guard context.isAsync else {
            // A sync factory or hook cannot wait: it must resolve sync registrations only.
            return try context.resolve(key, from: container, arguments: repeat each arguments, configure: configure)
        }
        return try await context.resolveAsync(
            key,
            from: container,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// Every registration of `service`, resolved within this resolution: ``Resolving/resolveAll(_:)``.
    public func _resolveAll<Service>(_ service: Service.Type) throws -> [Service] {
        guard isActive else {
            throw InjectionError.resolverOutlived(asking: ServiceKey(service, name: nil))
        }
        return try context.resolveAll(service, from: lookup.object)
    }

    /// Every registration of `service`, resolved within this resolution, async factories included:
    /// ``Resolving/resolveAllAsync(_:isolation:)``.
    public func _resolveAllAsync<Service>(
        _ service: Service.Type,
        isolation: isolated (any Actor)?
    ) async throws -> [Service] {
        guard isActive else {
            throw InjectionError.resolverOutlived(asking: ServiceKey(service, name: nil))
        }
        // A sync factory or hook cannot wait: it must resolve sync registrations only.
        guard context.isAsync else { return try context.resolveAll(service, from: lookup.object) }
        return try await context.resolveAllAsync(service, from: lookup.object)
    }

    /// Whether a resolve within this resolution would find a usable registration:
    /// ``Resolving/canResolve(_:name:argumentTypes:)``.
    public func _canResolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        argumentTypes: repeat (each Argument).Type,
        async: Bool
    ) -> Bool {
        guard isActive else { return false }
        // The scope a scoped instance would be kept in, as a deferred resolve finds it.
        let lifetimeScope = context.innermostOutlivingScopes() == nil ? context.environment.lifetimeScope : nil
        return lookup.object.resolves(
            LookupKey(service, arguments: repeat each argumentTypes, name: name),
            as: service,
            in: lifetimeScope,
            adoptedTag: context.environment.adoptedTag,
            async: async && context.isAsync
        )
    }

    /// Resolves the parameter at `position` of a declared registration, whose key was made at
    /// registration and whose provider its resolve plan links: `resolve(_:name:)` without making
    /// the key again or, where the plan holds, looking it up.
    @inlinable
    func resolve<Service>(_ declared: DeclaredDependencies, at position: Int) throws -> Service {
        guard _fastPath(isActive) else { throw InjectionError.resolverOutlived(asking: declared.keys[position]) }
        let (found, ready) = try context.lookUp(declared, at: position, from: lookup)
        if let ready { return ready.withObject { keptInstance($0, as: Service.self) } }
        guard let found else {
            let key = declared.keys[position].lookupKey
            return try lookup.withObject { try context.resolveUnregistered(key, from: $0, configure: nil) }
        }
        return try found.withObject { try $0.resolveFound(as: Service.self, in: context, from: lookup) }
    }
}
