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

// The lifetime switch, sync and async side by side: a provider found, each lifetime goes to the
// file of its own (`+Construction`, `+GraphInstances`, `+SharedInstances`, `+ScopedInstances`).
// The sync steps are inlinable, so that they are specialised at each call site of `resolve`: no
// generic metadata is instantiated at run time on the resolve path.

extension ResolutionContext {
    /// The step every resolve within a resolution takes (a factory's ``Resolver``, sync or async):
    /// looks `key` up from `lookup`, notes that the service under construction depends on it, and
    /// resolves it.
    @inlinable
    func resolve<Service, each Argument>(
        _ key: LookupKey,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        let (found, ready) = try lookUp(key, from: lookup, isConfigured: configure != nil)
        if let ready { return ready.withObject { keptInstance($0, as: Service.self) } }
        return try resolve(key, found: found, from: lookup, arguments: repeat each arguments, configure: configure)
    }

    /// The first step of a resolve within a resolution: looks `key` up from `lookup`, notes that
    /// the service under construction depends on it, and returns the instance at hand when the
    /// resolve builds nothing: a published singleton, or a value given to the lifetime scope.
    ///
    /// Not generic, so that its code is one copy for every service a factory resolves, where the
    /// rest of a resolve is specialised for each: a request's factories resolve several singletons
    /// and the request's own value, whose resolves then run the same few lines of code rather than
    /// a specialisation each, which a server would fetch back into its caches on every request.
    ///
    /// - Throws: What `givenScopeValue(for:)` throws.
    @usableFromInline func lookUp(
        _ key: LookupKey,
        from lookup: Container,
        isConfigured: Bool
    ) throws -> (provider: Borrowed<AnyProvider>?, ready: Borrowed<any AnyObject & Sendable>?) {
        let found = lookup.provider(for: key)
        return (found, try noteLookup(found: found, isConfigured: isConfigured))
    }

    /// `lookUp(_:from:isConfigured:)` for the parameter at `position` of a declared registration,
    /// whose resolve plan may link its provider without a lookup.
    @usableFromInline func lookUp(
        _ declared: DeclaredDependencies,
        at position: Int,
        from lookup: Borrowed<Container>
    ) throws -> (provider: Borrowed<AnyProvider>?, ready: Borrowed<any AnyObject & Sendable>?) {
        let found = lookup.withObject { declared.provider(at: position, from: $0) }
        return (found, try noteLookup(found: found, isConfigured: false))
    }

    /// What follows a lookup that found `found`: notes the dependency and returns the instance at
    /// hand, if any.
    @inline(__always)
    private func noteLookup(
        found: Borrowed<AnyProvider>?,
        isConfigured: Bool
    ) throws -> Borrowed<any AnyObject & Sendable>? {
        guard let found else { return nil }
        noteDependency(on: found)
        guard !isConfigured else { return nil }  // a configured singleton or scoped one is an error
        // What the lifetime switch in `resolve(_:from:arguments:configure:)` and `resolveScoped`
        // return without building: a singleton's published instance, unless overrides or validation
        // keep singletons in a store of their own, and a scope's value. Not for a registration
        // with a conflict, whose resolve is an error.
        return try found.withObject { provider in
            if environment.sideStore == nil, let singleton = provider.publishedSingleton { return singleton }
            guard provider.conflict == nil, provider.providesScopeValue, let given = try givenScopeValue(for: provider)
            else { return nil }
            noteScopedResolution(of: provider)
            return given
        }
    }

    /// The async form of `resolve(_:from:arguments:configure:)`.
    func resolveAsync<Service, each Argument>(
        _ key: LookupKey,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        let found = lookup.provider(for: key)
        if let found { noteDependency(on: found) }
        return try await resolveAsync(
            key,
            found: found,
            from: lookup,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// Resolves `key`, already looked up as `found`, with lookups starting at `lookup`: what
    /// follows the lookup and the dependency's note. (A top-level resolution looks up before it has
    /// a context, to return a published singleton without one, and notes a dependency only when it
    /// is nested in another.)
    @inlinable
    func resolve<Service, each Argument>(
        _ key: LookupKey,
        found: Borrowed<AnyProvider>?,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        guard _fastPath(found != nil), let found else {
            return try resolveUnregistered(key, from: lookup, arguments: repeat each arguments, configure: configure)
        }
        return try Provider<Service>.borrowing(found) { provider in
            guard _fastPath(provider.conflict == nil) else {
                throw conflicted(provider)
            }
            return try resolve(provider, from: lookup, arguments: repeat each arguments, configure: configure)
        }
    }

    /// The step every resolve takes. Each lifetime's work is a function of its own, so that this
    /// stays small enough for the optimiser to inline where a resolve is called.
    @inlinable
    func resolve<Service, each Argument>(
        _ provider: Provider<Service>,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        switch provider.scope.kind {
        case .transient:
            return try construct(provider, lookup: lookup, arguments: repeat each arguments, configure: configure)
        case .graph:
            return try resolveGraphScoped(
                provider,
                from: lookup,
                arguments: repeat each arguments,
                configure: configure
            )
        case .singleton, .weak:
            guard _fastPath(configure == nil) else {
                throw configured(provider)
            }
            return try resolveShared(provider, from: lookup, arguments: repeat each arguments)
        case .scoped:
            guard _fastPath(configure == nil) else {
                throw configured(provider)
            }
            return try resolveScoped(provider, from: lookup, arguments: repeat each arguments)
        }
    }

    /// Resolves `key`, already looked up as `found`, in an async resolution. An async resolution
    /// uses one context from start to end, across threads; sync registrations it meets are resolved
    /// as in a sync resolution, except shared ones, which are built in a sync resolution nested in
    /// it (see `ResolutionContext+NestedResolution.swift`).
    func resolveAsync<Service, each Argument>(
        _ key: LookupKey,
        found: Borrowed<AnyProvider>?,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        guard let found else {
            // Nothing registered: resolved as in a sync resolution, but for an optional type, whose
            // wrapped registration may have an async factory.
            guard let optional = Service.self as? any OptionalService.Type,
                environment.lifetimeScope?.values.borrowedValue(for: key) == nil
            else {
                return try resolveUnregistered(
                    key,
                    from: lookup,
                    arguments: repeat each arguments,
                    configure: configure
                )
            }
            return try await resolveWrappedAsync(
                optional,
                key,
                from: lookup,
                arguments: repeat each arguments,
                configure: configure
            ) as! Service
        }
        let provider = uncheckedCast(found.object, to: Provider<Service>.self)
        guard provider.conflict == nil else {
            throw conflicted(provider)
        }
        guard provider.asyncFactory != nil else {
            return try resolve(provider, from: lookup, arguments: repeat each arguments, configure: configure)
        }
        switch provider.scope.kind {
        case .transient:
            return try await constructAsync(
                provider,
                lookup: lookup,
                arguments: repeat each arguments,
                configure: configure
            )
        case .graph:
            return try await resolveGraphScopedAsync(
                provider,
                from: lookup,
                arguments: repeat each arguments,
                configure: configure
            )
        case .singleton, .weak:
            guard configure == nil else {
                throw configured(provider)
            }
            return try await resolveSharedAsync(provider, from: lookup, arguments: repeat each arguments)
        case .scoped:
            guard configure == nil else {
                throw configured(provider)
            }
            return try await resolveScopedAsync(provider, from: lookup, arguments: repeat each arguments)
        }
    }

    /// The error of a configured resolve of `provider`, whose instance is shared: `configure` would
    /// change it for everyone. (A function of its own, not generic: inlined, its code would sit in
    /// every specialisation of the lifetime switch, between the instructions a resolve runs.)
    @usableFromInline @inline(never)
    func configured(_ provider: AnyProvider) -> InjectionError {
        InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path)
    }

    /// The error of a resolve of `provider`, whose registration is duplicated or was made late.
    /// (A function of its own, not generic, as `configured(_:)` is.)
    @usableFromInline @inline(never)
    func conflicted(_ provider: AnyProvider) -> InjectionError {
        InjectionError.conflict(provider, path: path + [provider.key])
    }

    /// The error for a key that has no registration.
    func unresolvable<Service, each Argument>(
        _ service: Service.Type,
        arguments: repeat each Argument,
        key: LookupKey,
        from lookup: Container
    ) -> InjectionError {
        let asked = ServiceKey(service, arguments: repeat (each Argument).self, name: key.name)
        noteDependency(on: asked)
        var values: [Any] = []
        repeat values.append(each arguments)
        return InjectionError.missing(asked, path: path, in: lookup, arguments: values)
    }
}
