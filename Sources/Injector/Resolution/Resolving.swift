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

/// What services are resolved from: a ``Container``, a ``LifetimeScope``, or the ``Resolver`` a
/// factory is given. The resolve API is written once, here, for all three.
///
/// Each resolves as its own kind says:
/// - a container starts a resolution of its own: one resolution graph, whose ``Scope/graph``
///   instances are shared by everything it builds and dropped when it returns;
/// - a lifetime scope starts one in the scope, which owns its ``Scope/scoped`` instances;
/// - a resolver resolves within the resolution that called its factory: the same graph, cycles
///   detected and named, errors carrying the whole path.
///
/// A helper written against `Resolving` serves all three:
///
/// ```swift
/// extension Resolving {
///     func editor(for note: Note) throws -> Editor {
///         try resolve(Editor.self, argument: note)
///     }
/// }
/// let editor = try container.editor(for: note)
/// container.register(Window.self) { r in try Window(editor: r.editor(for: .welcome)) }
/// ```
///
/// Only Injector's types conform: the requirements, whose names start with an underscore, are
/// the entries of its resolve core.
public protocol Resolving {
    /// Injector's entry to ``resolve(_:name:arguments:configure:)``: call that instead.
    func _resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service

    /// Injector's entry to ``resolveAsync(_:name:arguments:configure:isolation:)``: call that instead.
    func _resolveAsync<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)?
    ) async throws -> Service

    /// Injector's entry to ``resolveAll(_:)``: call that instead.
    func _resolveAll<Service>(_ service: Service.Type) throws -> [Service]

    /// Injector's entry to ``resolveAllAsync(_:isolation:)``: call that instead.
    func _resolveAllAsync<Service>(
        _ service: Service.Type,
        isolation: isolated (any Actor)?
    ) async throws -> [Service]

    /// Injector's entry to ``canResolve(_:name:argumentTypes:)`` and
    /// ``canResolveAsync(_:name:argumentTypes:)``: call those instead.
    func _canResolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        argumentTypes: repeat (each Argument).Type,
        async: Bool
    ) -> Bool
}

// The sync spellings are transparent: inlined even in a debug build, they cost a deep chain no
// stack frame of their own for each level it resolves.
extension Resolving {
    /// Resolves an instance of `service`, registered under `name` with the given argument types.
    ///
    /// ```swift
    /// let store  = try container.resolve(NoteStore.self)
    /// let pdf    = try container.resolve(Exporter.self, name: "pdf")
    /// let editor = try container.resolve(Editor.self, arguments: note, readOnly)   // dynamic injection
    /// let draft  = try container.resolve(Editor.self) { $0.title = "Draft" }     // caller's configure
    /// ```
    ///
    /// From a container, each call is one resolution graph, and a published singleton is returned
    /// without a lock. From a lifetime scope, a ``Scope/scoped`` registration gives the scope's
    /// instance. From a factory's resolver, the resolve joins the resolution that called the
    /// factory:
    ///
    /// ```swift
    /// container.register(Editor.self) { r in
    ///     try NoteEditor(store: r.resolve(NoteStore.self), exporter: r.resolve(Exporter.self, name: "pdf"))
    /// }
    /// ```
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
    ///   asked, the path that led there, what is registered nearby, and how to fix it. From a
    ///   closed lifetime scope, code ``InjectionError/Code/scopeClosed``; from a resolver kept past
    ///   its resolution, ``InjectionError/Code/resolverOutlivedResolution``.
    @_transparent
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)? = nil
    ) throws -> Service {
        try _resolve(service, name: name, arguments: repeat each arguments, configure: configure)
    }

    /// Resolves an instance of `service` whose factory takes one resolve-time argument.
    ///
    /// The same as ``resolve(_:name:arguments:configure:)`` with one argument; it reads better at
    /// the call site: `try container.resolve(Editor.self, argument: note)`.
    @_transparent
    public func resolve<Service, Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument,
        configure: ((inout Service) throws -> Void)? = nil
    ) throws -> Service {
        try _resolve(service, name: name, arguments: argument, configure: configure)
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
    @inlinable
    public func resolveAsync<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        try await _resolveAsync(
            service,
            name: name,
            arguments: repeat each arguments,
            configure: configure,
            isolation: isolation
        )
    }

    /// Resolves an instance of `service` whose async factory takes one resolve-time argument.
    ///
    /// The same as ``resolveAsync(_:name:arguments:configure:isolation:)`` with one argument:
    /// `try await r.resolveAsync(Report.self, argument: month)`.
    @inlinable
    public func resolveAsync<Service, Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument,
        configure: ((inout Service) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        try await _resolveAsync(service, name: name, arguments: argument, configure: configure, isolation: isolation)
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
    /// - Throws: ``InjectionError`` when one of the registrations cannot be resolved; code
    ///   ``InjectionError/Code/asyncResolutionRequired`` when one has an async factory, which
    ///   ``resolveAllAsync(_:isolation:)`` runs.
    @inlinable
    public func resolveAll<Service>(_ service: Service.Type = Service.self) throws -> [Service] {
        try _resolveAll(service)
    }

    /// Resolves one instance per registration of `service` taking no arguments, as
    /// ``resolveAll(_:)`` does, running the async factories among them.
    ///
    /// ```swift
    /// container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
    /// container.register(Exporter.self, name: "cloud") { _ async throws in try await CloudExporter.connect() }
    /// let exporters = try await container.resolveAllAsync(Exporter.self)   // [PDFExporter, CloudExporter]
    /// ```
    ///
    /// Within a sync factory, whose resolver cannot wait, it resolves them as ``resolveAll(_:)``.
    ///
    /// - Parameters:
    ///   - service: The type to resolve; may be left out where the result's type says it.
    ///   - isolation: The caller's actor, which the async factories are called from (the default,
    ///     `#isolation`, is the caller's actor).
    /// - Returns: The instances, or an empty array when there is no registration.
    /// - Throws: ``InjectionError`` when one of the registrations cannot be resolved.
    @inlinable
    public func resolveAllAsync<Service>(
        _ service: Service.Type = Service.self,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> [Service] {
        try await _resolveAllAsync(service, isolation: isolation)
    }

    /// Whether ``resolve(_:name:arguments:configure:)`` from here would find a usable registration
    /// of `service` under `name`, taking arguments of the given types. Nothing is built.
    ///
    /// `true` when the registration is visible from here (see
    /// ``Container/isRegistered(_:name:argumentTypes:)``), is not recorded as a problem (a
    /// duplicate, a late registration, a shared scope with arguments, a declared function that does
    /// not take its arguments first), has a sync factory (an async
    /// one needs ``resolveAsync(_:name:arguments:configure:isolation:)``: ask
    /// ``canResolveAsync(_:name:argumentTypes:)``), and, if ``Scope/scoped``, may be owned by the
    /// lifetime scope the resolve would run in: a container has none; a scope owns it untagged or
    /// tagged with its tag; a resolver has its resolution's scope, unless it builds a singleton or
    /// weak instance, which must not hold a scoped one. `false` from a closed scope, or from a
    /// resolver kept past its resolution. As a resolve does, a value given to the scope counts as
    /// registered; an optional type, a ``Lazy`` or a ``ServiceProvider`` with no registration of
    /// its own answers for the type it wraps; and a type that a registration
    /// ``Registration/implements(_:name:fileID:line:)`` answers for that registration.
    ///
    /// ```swift
    /// let exports = container.canResolve(Exporter.self, name: "pdf")
    /// container.register(Editor.self) { r in
    ///     let spelling = r.canResolve(SpellChecker.self) ? try r.resolve(SpellChecker.self) : nil
    ///     return try NoteEditor(store: r.resolve(NoteStore.self), spelling: spelling)
    /// }
    /// ```
    ///
    /// Whether the factory and its dependencies then succeed is known only by building them:
    /// ``Container/validate()`` does that for the whole graph.
    @inlinable
    public func canResolve<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        argumentTypes: repeat (each Argument).Type
    ) -> Bool {
        _canResolve(service, name: name, argumentTypes: repeat each argumentTypes, async: false)
    }

    /// Whether ``resolveAsync(_:name:arguments:configure:isolation:)`` from here would find a
    /// usable registration, sync or async, of `service` under `name`, taking arguments of the given
    /// types; otherwise as ``canResolve(_:name:argumentTypes:)``. Nothing is built, and nothing is
    /// awaited.
    @inlinable
    public func canResolveAsync<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        argumentTypes: repeat (each Argument).Type
    ) -> Bool {
        _canResolve(service, name: name, argumentTypes: repeat each argumentTypes, async: true)
    }
}
