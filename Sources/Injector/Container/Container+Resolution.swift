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
    /// Resolves an instance of `service`, registered under `name` with the given argument types.
    ///
    /// ```swift
    /// let store  = try container.resolve(NoteStore.self)
    /// let pdf    = try container.resolve(Exporter.self, name: "pdf")
    /// let editor = try container.resolve(Editor.self, arguments: note, readOnly)   // dynamic injection
    /// let draft  = try container.resolve(Editor.self) { $0.title = "Draft" }     // caller's configure
    /// ```
    ///
    /// Each call is one resolution graph: ``Scope/graph`` instances are shared by everything it
    /// builds, and dropped when it returns. A published singleton is returned without a lock.
    ///
    /// - Parameters:
    ///   - service: The type to resolve; may be left out where the result's type says it.
    ///   - name: The name it was registered under, if any.
    ///   - arguments: Values for the factory's resolve-time parameters, in order.
    ///   - configure: Shapes the new instance before the registration's own hooks run (dynamic
    ///     injection). Only for ``Scope/transient`` and ``Scope/graph`` registrations: on a shared
    ///     instance it throws ``InjectionError/Code/sharedInstanceConfigured``.
    /// - Returns: The instance, made or shared as the registration's scope says.
    /// - Throws: ``InjectionError`` when the service cannot be resolved; its message says what was
    ///   asked, the path that led there, what is registered nearby, and how to fix it.
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)? = nil
    ) throws -> Service {
        try ResolutionContext.resolve(
            LookupKey(service, arguments: repeat (each Argument).self, name: name),
            from: self,
            in: nil,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// Resolves an instance of `service` whose factory takes one resolve-time argument.
    ///
    /// The same as ``resolve(_:name:arguments:configure:)`` with one argument; it reads better at
    /// the call site: `try container.resolve(Editor.self, argument: note)`.
    @inlinable
    public func resolve<Service, Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument,
        configure: ((inout Service) throws -> Void)? = nil
    ) throws -> Service {
        try resolve(service, name: name, arguments: argument, configure: configure)
    }

    /// Resolves one instance per registration of `service` taking no arguments, named or not: the
    /// root container's registrations first, then each child's, each in registration order.
    ///
    /// All of them are built in one resolution graph. A key a child shadows keeps its place and
    /// resolves to the child's registration.
    ///
    /// ```swift
    /// container.register(Plugin.self, name: "spelling") { _ in SpellingPlugin() }
    /// container.register(Plugin.self, name: "word count") { _ in WordCountPlugin() }
    /// let plugins = try container.resolveAll(Plugin.self)   // [SpellingPlugin, WordCountPlugin]
    /// ```
    ///
    /// - Returns: The instances, or an empty array when there is no registration.
    /// - Throws: ``InjectionError`` when one of the registrations cannot be resolved.
    public func resolveAll<Service>(_ service: Service.Type = Service.self) throws -> [Service] {
        try ResolutionContext.resolveAll(service, from: self, in: nil)
    }

    /// Resolves an instance of `service`, running async factories: the async spelling of
    /// ``resolve(_:name:arguments:configure:)``, with its own name so that a sync resolve keeps
    /// reading `try container.resolve(…)` in async code.
    ///
    /// ```swift
    /// container.register(DatabasePool.self, scope: .singleton) { _ in try await DatabasePool.connect() }
    /// let pool = try await container.resolveAsync(DatabasePool.self)
    /// ```
    ///
    /// Sync registrations resolve through it too. An async ``Scope/singleton``'s factory runs once,
    /// however many tasks ask at the same moment. A sync resolve of an async registration throws
    /// ``InjectionError/Code/asyncResolutionRequired``.
    ///
    /// Called from an async factory (in its task, or in child tasks it awaits, such as `async let`,
    /// on the container its resolver gives: ``Resolver/container``), the resolution joins the one
    /// that called the factory: a cycle through it is reported, and it may build shared instances
    /// while the outer resolution holds the construction lock. It does not see that resolution's
    /// lifetime scope or its ``Scope/graph`` instances (see ``Resolver/container``).
    ///
    /// The resolution runs in the caller's isolation (`isolation`, the caller's actor by default), so
    /// that main-actor code passes a `configure` that uses its own state; sync factories run there
    /// too, and an async factory runs where its closure is isolated (for a plain closure, off the
    /// caller's actor).
    ///
    /// - Throws: ``InjectionError`` when the service cannot be resolved.
    public func resolveAsync<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        try await ResolutionContext.resolveAsync(
            LookupKey(service, arguments: repeat (each Argument).self, name: name),
            from: self,
            in: nil,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// Resolves an instance of `service` whose async factory takes one resolve-time argument.
    public func resolveAsync<Service, Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument,
        configure: ((inout Service) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        try await resolveAsync(service, name: name, arguments: argument, configure: configure)
    }
}
