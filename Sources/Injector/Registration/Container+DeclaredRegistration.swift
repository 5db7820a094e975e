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

// Registrations that declare what they need: the container resolves a plain function's parameters
// by type, so that validation and the dependency graph know the edges without running anything.

extension Container {
    /// Registers a function whose parameters the container resolves by their types, each unnamed,
    /// and hands to it: an initialiser reference, or a closure with typed parameters.
    ///
    /// ```swift
    /// container.register(NoteStore.self, scope: .singleton, FileNoteStore.init)  // init(clock: Clock, db: Database)
    /// container.register(Exporter.self, name: "pdf", PDFExporter.init)
    /// container.register(Editor.self) { (store: NoteStore, clock: Clock) in NoteEditor(store: store, clock: clock) }
    /// ```
    ///
    /// Because the dependencies are declared, ``validate()`` checks this registration from the
    /// declarations alone, without running the function, and ``dependencyGraph()`` shows its edges
    /// before anything is resolved. A parameter of type `Optional<T>` is an optional dependency:
    /// `nil` when nothing is registered for `T` (nor given to the scope), `T` resolved otherwise, its
    /// failures thrown. A parameter of type ``Lazy`` or ``ServiceProvider`` is resolved as a resolver
    /// would resolve it. Name a dependency with
    /// ``register(_:name:scope:replacesExisting:fileID:line:using:make:)``; take a resolve-time
    /// argument first with ``register(_:name:scope:replacesExisting:fileID:line:argument:_:)``, or
    /// several with ``register(_:name:scope:replacesExisting:fileID:line:arguments:_:using:make:)``;
    /// resolve conditionally with a closure registration
    /// (``register(_:name:scope:replacesExisting:fileID:line:factory:)``), whose dependencies are
    /// known by running it. A closure whose first parameter is a ``Resolver`` is always such a
    /// closure registration.
    ///
    /// Keys, duplicates, scopes and hooks are as with a closure registration.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: How long an instance lives and who shares it; ``Scope/transient`` by default.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - make: Makes an instance from its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @_disfavoredOverload
    @inlinable
    public func register<Service, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ make: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> Registration<Service> {
        register(
            service,
            name: name,
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            using: repeat Resolved<each Dependency>(),
            make: make
        )
    }

    /// Registers an `async` function whose parameters the container resolves by their types, as
    /// ``register(_:name:scope:replacesExisting:fileID:line:_:)``
    /// does; resolve it with ``resolveAsync(_:name:arguments:configure:isolation:)``. Its
    /// dependencies are resolved as an async factory's are: async ones included.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: How long an instance lives and who shares it; ``Scope/transient`` by default.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - make: Makes an instance, asynchronously, from its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @_disfavoredOverload
    @inlinable
    public func register<Service, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ make: @escaping @Sendable (repeat each Dependency) async throws -> Service
    ) -> Registration<Service> {
        register(
            service,
            name: name,
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            using: repeat Resolved<each Dependency>(),
            make: make
        )
    }

    /// Registers a function whose parameters the container resolves as `dependencies` say: a type
    /// and, where needed, a name for each parameter, in order.
    ///
    /// ```swift
    /// container.register(
    ///     AuditTrail.self,
    ///     scope: .scoped(to: .request),
    ///     using: Resolved(RequestInfo.self),
    ///     Resolved(Mailer.self, name: "smtp")
    /// ) { info, mailer in AuditTrail(info, mailer) }
    /// ```
    ///
    /// Everything else is as with
    /// ``register(_:name:scope:replacesExisting:fileID:line:_:)``.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: How long an instance lives and who shares it; ``Scope/transient`` by default.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - dependencies: What each parameter of `make` is resolved as.
    ///   - make: Makes an instance from its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @inlinable
    public func register<Service, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        using dependencies: repeat Resolved<each Dependency>,
        make: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> Registration<Service> {
        let parameters = DeclaredParameters(
            of: ServiceKey(service, name: name),
            at: fileID,
            line,
            function: (repeat each Dependency).self,
            naming: repeat each dependencies
        )
        return register(
            parameters,
            scope: scope.scope,
            replacing: replacesExisting,
            resolving: Provider<Service>.specialisedResolve,
            .sync { r, _ in
                var position = 0
                return try make(repeat parameters.resolve((each Dependency).self, at: &position, from: r))
            }
        )
    }

    /// Registers an `async` function whose parameters the container resolves as `dependencies`
    /// say; resolve it with ``resolveAsync(_:name:arguments:configure:isolation:)``.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: How long an instance lives and who shares it; ``Scope/transient`` by default.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - dependencies: What each parameter of `make` is resolved as.
    ///   - make: Makes an instance, asynchronously, from its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @inlinable
    public func register<Service, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        using dependencies: repeat Resolved<each Dependency>,
        make: @escaping @Sendable (repeat each Dependency) async throws -> Service
    ) -> Registration<Service> {
        let parameters = DeclaredParameters(
            of: ServiceKey(service, name: name),
            at: fileID,
            line,
            function: (repeat each Dependency).self,
            naming: repeat each dependencies
        )
        return register(
            parameters,
            scope: scope.scope,
            replacing: replacesExisting,
            .async { r, _ in
                var position = 0
                return try await make(repeat await parameters.resolve((each Dependency).self, at: &position, from: r))
            }
        )
    }

    /// Registers a function that takes a resolve-time argument first and then parameters the
    /// container resolves by their types, each unnamed: ``register(_:name:scope:replacesExisting:fileID:line:_:)``
    /// with an argument, which callers pass as they resolve.
    ///
    /// ```swift
    /// container.register(Preview.self, argument: Note.self, NotePreview.init)  // init(note: Note, store: NoteStore)
    /// let preview = try container.resolve(Preview.self, argument: note)
    /// ```
    ///
    /// ``validate()`` checks its dependencies from the declarations, which a closure registration
    /// with arguments cannot offer: validation has no argument to run it with. A registration with
    /// an argument is transient, as a closure registration with one is.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: ``Scope/transient``, the default; a shared scope is refused when resolved.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - argument: The type of the value callers pass to `resolve(_:argument:)`.
    ///   - make: Makes an instance from the argument and its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @_disfavoredOverload
    @inlinable
    public func register<Service, Argument, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        argument: Argument.Type,
        _ make: @escaping @Sendable (Argument, repeat each Dependency) throws -> Service
    ) -> Registration<Service> {
        register(
            service,
            name: name,
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            argument: argument,
            using: repeat Resolved<each Dependency>(),
            make: make
        )
    }

    /// Registers an `async` function that takes a resolve-time argument first and then parameters
    /// the container resolves by their types, as
    /// ``register(_:name:scope:replacesExisting:fileID:line:argument:_:)`` does; resolve it
    /// with ``resolveAsync(_:name:arguments:configure:isolation:)``.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: ``Scope/transient``, the default; a shared scope is refused when resolved.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - argument: The type of the value callers pass to `resolveAsync(_:arguments:)`.
    ///   - make: Makes an instance, asynchronously, from the argument and its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @_disfavoredOverload
    @inlinable
    public func register<Service, Argument, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        argument: Argument.Type,
        _ make: @escaping @Sendable (Argument, repeat each Dependency) async throws -> Service
    ) -> Registration<Service> {
        register(
            service,
            name: name,
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            argument: argument,
            using: repeat Resolved<each Dependency>(),
            make: make
        )
    }

    /// Registers a function that takes a resolve-time argument first and then parameters the
    /// container resolves as `dependencies` say.
    ///
    /// ```swift
    /// container.register(Preview.self, argument: Note.self, using: Resolved(NoteStore.self, name: "cloud")) {
    ///     note, store in NotePreview(note: note, store: store)
    /// }
    /// ```
    ///
    /// Everything else is as with ``register(_:name:scope:replacesExisting:fileID:line:argument:_:)``.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: ``Scope/transient``, the default; a shared scope is refused when resolved.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - argument: The type of the value callers pass to `resolve(_:argument:)`.
    ///   - dependencies: What each parameter of `make` after the argument is resolved as.
    ///   - make: Makes an instance from the argument and its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @inlinable
    public func register<Service, Argument, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        argument: Argument.Type,
        using dependencies: repeat Resolved<each Dependency>,
        make: @escaping @Sendable (Argument, repeat each Dependency) throws -> Service
    ) -> Registration<Service> {
        let parameters = DeclaredParameters(
            of: ServiceKey(service, arguments: argument, name: name),
            at: fileID,
            line,
            function: (Argument, repeat each Dependency).self,
            naming: repeat each dependencies
        )
        return register(
            parameters,
            scope: scope.scope,
            replacing: replacesExisting,
            identifyingArguments: BorrowedValues.identify(Argument.self),
            .sync { r, values in
                let argument = values.read(as: Argument.self)
                var position = 0
                return try make(argument, repeat parameters.resolve((each Dependency).self, at: &position, from: r))
            }
        )
    }

    /// Registers an `async` function that takes a resolve-time argument first and then parameters
    /// the container resolves as `dependencies` say; resolve it with
    /// ``resolveAsync(_:name:arguments:configure:isolation:)``.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: ``Scope/transient``, the default; a shared scope is refused when resolved.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - argument: The type of the value callers pass to `resolveAsync(_:arguments:)`.
    ///   - dependencies: What each parameter of `make` after the argument is resolved as.
    ///   - make: Makes an instance, asynchronously, from the argument and its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @inlinable
    public func register<Service, Argument, each Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        argument: Argument.Type,
        using dependencies: repeat Resolved<each Dependency>,
        make: @escaping @Sendable (Argument, repeat each Dependency) async throws -> Service
    ) -> Registration<Service> {
        let parameters = DeclaredParameters(
            of: ServiceKey(service, arguments: argument, name: name),
            at: fileID,
            line,
            function: (Argument, repeat each Dependency).self,
            naming: repeat each dependencies
        )
        return register(
            parameters,
            scope: scope.scope,
            replacing: replacesExisting,
            identifyingArguments: BorrowedValues.identify(Argument.self),
            .async { r, values in
                let argument = values.read(as: Argument.self)
                var position = 0
                return try await make(
                    argument,
                    repeat await parameters.resolve((each Dependency).self, at: &position, from: r)
                )
            }
        )
    }

    /// Registers a function that takes the resolve-time arguments `arguments` lists first, and then
    /// parameters the container resolves by their types, or as `using:` says:
    /// ``register(_:name:scope:replacesExisting:fileID:line:argument:_:)`` with any number of
    /// arguments.
    ///
    /// ```swift
    /// // NoteEditor.init(note: Note, readOnly: Bool, store: NoteStore)
    /// container.register(Editor.self, arguments: Note.self, Bool.self, make: NoteEditor.init)
    /// let editor = try container.resolve(Editor.self, arguments: note, true)
    ///
    /// container.register(
    ///     Editor.self,
    ///     name: "cloud",
    ///     arguments: Note.self,
    ///     Bool.self,
    ///     using: Resolved(NoteStore.self, name: "cloud"),
    ///     make: NoteEditor.init
    /// )
    /// ```
    ///
    /// The function's first parameters must be of exactly the types listed, in that order, and
    /// `using:`, if given, lists one ``Resolved`` for each parameter after them, of its type: the
    /// compiler cannot check that here, so a registration that does not match its function is
    /// recorded as a problem, as a duplicate is, and resolving it, ``finishRegistration()`` and
    /// ``validate()`` report it (``InjectionError/Code/argumentTypesMismatch``). A closure needs its
    /// parameters' types written out; with untyped parameters, use
    /// ``register(_:name:scope:replacesExisting:fileID:line:argument:using:make:)`` (one argument)
    /// or a closure registration.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: ``Scope/transient``, the default; a shared scope is refused when resolved.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - first: The type of the first value callers pass to `resolve(_:arguments:)`.
    ///   - more: The types of the values they pass after it, in order.
    ///   - dependencies: What each parameter of `make` after the arguments is resolved as, each
    ///     ``Resolved`` with its type written (`make` cannot tell it here); leave it out to resolve
    ///     each by its type, unnamed.
    ///   - make: Makes an instance from the arguments and then its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @inlinable
    public func register<Service, First, each Argument, each Dependency, each Parameter>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        arguments first: First.Type,
        _ more: repeat (each Argument).Type,
        using dependencies: repeat Resolved<each Dependency>,
        make: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) -> Registration<Service> {
        let parameters = DeclaredParameters(
            of: ServiceKey(service, arguments: first, repeat each more, name: name),
            at: fileID,
            line,
            function: (repeat each Parameter).self,
            naming: repeat each dependencies
        )
        return register(
            parameters,
            scope: scope.scope,
            replacing: replacesExisting,
            identifyingArguments: BorrowedValues.identify((First, repeat each Argument).self),
            .sync { r, values in
                let given = DeclaredParameters.given(values, as: (First, repeat each Argument).self)
                var position = 0
                return try make(repeat parameters.take((each Parameter).self, at: &position, given: given, from: r))
            }
        )
    }

    /// Registers an `async` function that takes the resolve-time arguments `arguments` lists first,
    /// and then parameters the container resolves by their types, as
    /// ``register(_:name:scope:replacesExisting:fileID:line:arguments:_:using:make:)`` does; resolve it
    /// with ``resolveAsync(_:name:arguments:configure:isolation:)``.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - scope: ``Scope/transient``, the default; a shared scope is refused when resolved.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - first: The type of the first value callers pass to `resolveAsync(_:arguments:)`.
    ///   - more: The types of the values they pass after it, in order.
    ///   - dependencies: What each parameter of `make` after the arguments is resolved as, each
    ///     ``Resolved`` with its type written (`make` cannot tell it here); leave it out to resolve
    ///     each by its type, unnamed.
    ///   - make: Makes an instance, asynchronously, from the arguments and then its dependencies.
    /// - Returns: The registration, to which hooks and checks can be added.
    @discardableResult
    @inlinable
    public func register<Service, First, each Argument, each Dependency, each Parameter>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        arguments first: First.Type,
        _ more: repeat (each Argument).Type,
        using dependencies: repeat Resolved<each Dependency>,
        make: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) -> Registration<Service> {
        let parameters = DeclaredParameters(
            of: ServiceKey(service, arguments: first, repeat each more, name: name),
            at: fileID,
            line,
            function: (repeat each Parameter).self,
            naming: repeat each dependencies
        )
        return register(
            parameters,
            scope: scope.scope,
            replacing: replacesExisting,
            identifyingArguments: BorrowedValues.identify((First, repeat each Argument).self),
            .async { r, values in
                let given = DeclaredParameters.given(values, as: (First, repeat each Argument).self)
                var position = 0
                return try await make(
                    repeat await parameters.take((each Parameter).self, at: &position, given: given, from: r)
                )
            }
        )
    }
}
