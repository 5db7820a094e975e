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
    /// Registers a factory for a service type, optionally under a name, taking the given arguments
    /// at resolve time.
    ///
    /// The factory, sync or `async`, receives a ``Resolver`` for its own dependencies, then the
    /// resolve-time arguments:
    ///
    /// ```swift
    /// container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
    /// container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
    /// container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
    /// container.register(Editor.self) { (r, note: Note) in
    ///     try NoteEditor(note: note, store: r.resolve(NoteStore.self))
    /// }
    /// ```
    ///
    /// A registration is keyed by the service type, the name and the argument types. Registering a
    /// key twice does not throw here: the duplicate is recorded, and resolving the key,
    /// ``finishRegistration()`` and validation report it with both sites. Pass
    /// `replacesExisting: true` when the second registration is meant to replace the first (a test
    /// swapping in a double). A registration after ``finishRegistration()`` is recorded the same way.
    ///
    /// A factory that takes resolve-time arguments makes a new instance for each resolve: its
    /// registration must keep the ``Scope/transient`` scope. With a scope that shares instances, the
    /// arguments of every resolve after the first would be ignored; such a registration is recorded
    /// as a problem the same way (``InjectionError/Code/sharedScopeWithArguments``).
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type and arguments.
    ///   - scope: How long an instance lives and who shares it; ``Scope/transient`` by default.
    ///     ``ServiceScope/singleton`` and ``ServiceScope/weak`` need a `Sendable` service: the
    ///     compiler refuses to share anything else across threads (see ``ServiceScope``).
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - factory: Makes an instance from a resolver and the resolve-time arguments.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @inlinable @inline(__always)
    public func register<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        register(
            service,
            name: name,
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            origin: nil,
            factory: factory
        )
    }

    /// Registers `factory` as `register(_:name:scope:replacesExisting:fileID:line:factory:)` does,
    /// for a layer built on the container (the router), which says what the registration is
    /// (`origin`), so that the container's messages speak of it in the layer's words.
    @discardableResult
    @inlinable @inline(__always)
    package func register<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString,
        line: UInt,
        origin: RegistrationOrigin?,
        factory: @escaping @Sendable (Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        register(
            ServiceKey(service, arguments: repeat (each Argument).self, name: name),
            scope: scope.scope,
            replacing: replacesExisting,
            at: fileID,
            line,
            origin: origin,
            identifyingArguments: BorrowedValues.identify((repeat each Argument).self),
            resolving: Provider<Service>.specialisedResolve,
            .sync { r, values in try factory(r, repeat each values.read(as: (repeat each Argument).self)) }
        )
    }

    /// Registers an `async` factory: for services that need asynchronous set-up, such as a
    /// connection pool. Resolve it with ``resolveAsync(_:name:arguments:configure:isolation:)``.
    ///
    /// ```swift
    /// container.register(DatabasePool.self, scope: .singleton) { _ in
    ///     try await DatabasePool.connect(to: "postgres://localhost/notes")
    /// }
    /// ```
    ///
    /// Registering is synchronous whatever the factory is, so it keeps one name: `register` takes a
    /// sync factory or an `async` one, and only the resolve differs. Everything else is as with a
    /// sync factory: keys, duplicates, hooks, parameters. The factory may resolve sync services
    /// through its resolver, and async ones with `try await r.resolveAsync(…)`.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type and arguments.
    ///   - scope: How long an instance lives and who shares it; ``Scope/transient`` by default.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - factory: Makes an instance, asynchronously, from a resolver and the resolve-time arguments.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @inlinable @inline(__always)
    public func register<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver, repeat each Argument) async throws -> Service
    ) -> Registration<Service> {
        register(
            ServiceKey(service, arguments: repeat (each Argument).self, name: name),
            scope: scope.scope,
            replacing: replacesExisting,
            at: fileID,
            line,
            identifyingArguments: BorrowedValues.identify((repeat each Argument).self),
            .async { r, values in try await factory(r, repeat each values.read(as: (repeat each Argument).self)) }
        )
    }

    /// Registers a factory with a scope chosen at run time (a ``Scope`` value); as with a
    /// ``ServiceScope``, for a `Sendable` service only, since the scope may share its instance
    /// across threads.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type and arguments.
    ///   - scope: How long an instance lives and who shares it.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - factory: Makes an instance from a resolver and the resolve-time arguments.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func register<Service: Sendable, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        register(
            ServiceKey(service, arguments: repeat (each Argument).self, name: name),
            scope: scope,
            replacing: replacesExisting,
            at: fileID,
            line,
            identifyingArguments: BorrowedValues.identify((repeat each Argument).self),
            resolving: Provider<Service>.specialisedResolve,
            .sync { r, values in try factory(r, repeat each values.read(as: (repeat each Argument).self)) }
        )
    }

    /// Registers an `async` factory with a scope chosen at run time (a ``Scope`` value), for a
    /// `Sendable` service only.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type and arguments.
    ///   - scope: How long an instance lives and who shares it.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - factory: Makes an instance, asynchronously, from a resolver and the resolve-time arguments.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @_disfavoredOverload
    @inlinable @inline(__always)
    public func register<Service: Sendable, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        scope: Scope,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver, repeat each Argument) async throws -> Service
    ) -> Registration<Service> {
        register(
            ServiceKey(service, arguments: repeat (each Argument).self, name: name),
            scope: scope,
            replacing: replacesExisting,
            at: fileID,
            line,
            identifyingArguments: BorrowedValues.identify((repeat each Argument).self),
            .async { r, values in try await factory(r, repeat each values.read(as: (repeat each Argument).self)) }
        )
    }

    /// Adds the provider of `body`, which reads its resolve-time arguments (told apart by
    /// `identifyArguments`) from their address, with `resolveSpecialised` as `Provider` says. The
    /// public overloads, inlined where they are called, make it there from the caller's closure,
    /// for the argument types the caller wrote: made here, generic, it would cost every resolve a
    /// tuple type made at run time.
    @usableFromInline
    func register<Service>(
        _ key: ServiceKey,
        scope: Scope,
        replacing replacesExisting: Bool,
        at fileID: StaticString,
        _ line: UInt,
        origin: RegistrationOrigin? = nil,
        declaring declared: DeclaredDependencies? = nil,
        problem: Conflict? = nil,
        identifyingArguments identifyArguments: BorrowedValues.Identify?,
        resolving resolveSpecialised: Provider<Service>.ResolveFound? = nil,
        _ body: Provider<Service>.Body
    ) -> Registration<Service> {
        let site = RegistrationSite(fileID: fileID, line: line, origin: origin)
        // The registration is made first, so that the provider takes the key as its last use,
        // without a copy.
        let registration = Registration<Service>(container: self, key: key.lookupKey)
        let provider = Provider(
            key: key,
            scope: scope,
            site: site,
            declaring: declared,
            problem: problem,
            identifyingArguments: identifyArguments,
            resolving: resolveSpecialised,
            body
        )
        add(provider, replacing: replacesExisting)
        return registration
    }

    /// Applies modules in the order given: each registers its services into this container.
    ///
    /// ```swift
    /// container.install(StorageModule(), EditingModule())
    /// try container.finishRegistration()
    /// ```
    public func install(_ modules: any Module...) {
        install(modules)
    }

    /// Applies modules in the order of the array: each registers its services into this container.
    ///
    /// - Parameter modules: The modules, applied first to last.
    public func install(_ modules: [any Module]) {
        for module in modules { module.register(into: self) }
    }

    /// Ends registration: freezes the registry, and reports every duplicate registration, and every
    /// other registration problem, recorded so far.
    ///
    /// A registration made after this call is recorded as an error: resolving its key throws
    /// ``InjectionError/Code/registrationAfterFinish``. Calling it again reports the same problems
    /// and any late registrations.
    ///
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/duplicateRegistration`` (or
    ///   ``InjectionError/Code/registrationAfterFinish``, or
    ///   ``InjectionError/Code/sharedScopeWithArguments``, or
    ///   ``InjectionError/Code/argumentTypesMismatch``, when every problem is of that kind)
    ///   listing every problem, each also in ``InjectionError/problems``. The registry is frozen even
    ///   when this throws.
    public func finishRegistration() throws {
        let problems = freeze().map { InjectionError.conflict($0, path: []) }
        if problems.count == 1 { throw problems[0] }
        if !problems.isEmpty { throw InjectionError.conflicts(problems) }
    }
}
