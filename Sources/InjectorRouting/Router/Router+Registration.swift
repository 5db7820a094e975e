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

import Injector

extension Router {
    /// Registers a route for `service` whose destination a closure makes: a registration of the
    /// protocol in the container.
    ///
    /// ```swift
    /// router.register(RoutableService<TimeService>(), scope: .singleton) { r in
    ///     SystemTime(clock: try r.resolve(Clock.self))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - service: The routable protocol the route provides.
    ///   - scope: How long a destination lives and who shares it, as for any registration;
    ///     `transient` by default. `singleton` and `weak` share it across threads, so they take only a
    ///     `Sendable` protocol, as the container's `register` does.
    ///   - replacesExisting: Whether this route replaces an earlier registration of the protocol.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - factory: Makes a destination from a resolver.
    /// - Returns: The route's registration, to add identifiers, URL patterns, hooks and event handlers to.
    @discardableResult
    public func register<Protocol>(
        _ service: RoutableService<Protocol>,
        scope: ServiceScope<Protocol> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> Protocol
    ) -> RouteRegistration<Protocol> {
        add(
            service.key,
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            takesParameters: false,
            factory: factory
        )
    }

    /// Registers a route for `service` whose destination a closure makes from the route's
    /// parameters: a URL's placeholders and query items, or the values given with an identifier.
    ///
    /// ```swift
    /// router.register(RoutableService<NoteViewer>()) { (r, parameters: RouteParameters) in
    ///     NoteViewer(id: try parameters.value("id", as: Int.self), store: try r.resolve(NoteStore.self))
    /// }
    /// .url("app://notes/:id")
    /// ```
    ///
    /// Performed by protocol, the route receives empty parameters. The other parameters are as in
    /// `register(_:scope:replacesExisting:fileID:line:factory:)`.
    @discardableResult
    public func register<Protocol>(
        _ service: RoutableService<Protocol>,
        scope: ServiceScope<Protocol> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver, RouteParameters) throws -> Protocol
    ) -> RouteRegistration<Protocol> {
        add(service.key, scope: scope, replacesExisting: replacesExisting, fileID: fileID, line: line) { r in
            try factory(r, PendingParameters.take(for: service.key))
        }
    }

    /// Registers a route written as a type, for the protocol `service`: the container makes the
    /// destination with the route's `RouteDefinition/makeDestination(with:resolver:)`, and the
    /// router runs its hooks and takes its identifiers, URL patterns and event handlers.
    ///
    /// ```swift
    /// router.register(RoutableService<Editor>(), route: EditorRoute())
    /// ```
    ///
    /// The route's destination must conform to `Protocol`; one that does not fails each perform
    /// with `RoutingError/Code/invalidConfiguration`, and `Container/validate()` reports it.
    /// The other parameters are as in `register(_:scope:replacesExisting:fileID:line:factory:)`.
    @discardableResult
    public func register<Protocol, Route: RouteDefinition>(
        _ service: RoutableService<Protocol>,
        route: Route,
        scope: ServiceScope<Protocol> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> RouteRegistration<Protocol> {
        let registration: RouteRegistration<Protocol> = registerRoute(
            service.key,
            named: typeName(Route.self),
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            declaring: (route.identifiers, route.urlPatterns),
            handleEvents: route.handleEvents,
            make: route.makeDestination(with:resolver:)
        )
        RouteRegistration<Route.Destination>(router: self, key: service.key)
            .prepare { try route.prepare(&$0, context: $1) }
            .verify { try route.verify($0, context: $1) }
            .onRemove { try route.remove($0, context: $1) }
        return registration
    }

    /// Registers a module route: the container makes a fresh module configuration for every perform,
    /// and the caller makes the destination with it, passing the parameters the module declares.
    ///
    /// ```swift
    /// router.register(RoutableServiceModule<EditorModule>()) { r in
    ///     EditorModuleConfiguration(store: try r.resolve(NoteStore.self))
    /// }
    /// let editor = try router.makeDestination(to: RoutableServiceModule<EditorModule>()) {
    ///     try $0.makeDestinationWith(note, readOnly: true)
    /// }
    /// ```
    ///
    /// The configuration is always transient: one per perform, never shared.
    ///
    /// - Parameters:
    ///   - module: The routable module configuration protocol.
    ///   - replacesExisting: Whether this route replaces an earlier registration of the protocol.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - factory: Makes the module's configuration from a resolver.
    public func register<Module>(
        _ module: RoutableServiceModule<Module>,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> Module
    ) {
        add(
            module.key,
            scope: .transient,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            takesParameters: false,
            factory: factory
        )
    }

    /// Serves a protocol that a consumer requires with the route of a protocol a module provides:
    /// the provided destination, which must also conform to the required protocol.
    ///
    /// ```swift
    /// extension ConsoleLogger: NoteLogging {}
    /// router.adapt(RoutableService<NoteLogging>(), to: RoutableService<Logger>())
    /// let logging = try router.makeDestination(to: RoutableService<NoteLogging>())
    /// ```
    ///
    /// Adapters chain (a required protocol may be adapted to one that is adapted in turn). An adapter
    /// is a registration of the required protocol in the container, so `Container/validate()`
    /// reports a chain that ends at no route, and a cycle; a lookup through a cycle fails with
    /// `RoutingError/Code/cycle`, naming the loop. Adapting a protocol that has a route of its
    /// own is a duplicate registration, reported with both sites.
    ///
    /// - Parameters:
    ///   - required: The protocol the consumer asks for.
    ///   - provided: The protocol whose route serves it.
    ///   - fileID: The file of the adapter, named in error messages; leave the default.
    ///   - line: The line of the adapter, named in error messages; leave the default.
    public func adapt<Required, Provided>(
        _ required: RoutableService<Required>,
        to provided: RoutableService<Provided>,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        adapt(Required.self, required.key, to: Provided.self, provided.key, fileID: fileID, line: line)
    }

    /// Serves a module configuration protocol that a consumer requires with a module route of a
    /// protocol a module provides; as `adapt(_:to:fileID:line:)` for services.
    public func adapt<Required, Provided>(
        _ required: RoutableServiceModule<Required>,
        to provided: RoutableServiceModule<Provided>,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        adapt(Required.self, required.key, to: Provided.self, provided.key, fileID: fileID, line: line)
    }

    func adapt<Required, Provided>(
        _: Required.Type,
        _ required: RouteKey,
        to _: Provided.Type,
        _ provided: RouteKey,
        fileID: StaticString,
        line: UInt
    ) {
        container.register(Required.self, fileID: fileID, line: line, origin: .adapter) { r in
            let destination = try r.resolve(Provided.self)
            guard let adapted = destination as? Required else {
                throw RoutingError.notAdaptable(type(of: destination as Any), from: provided, to: required)
            }
            return adapted
        }
        storage.amend { $0.adapters[required] = provided }
    }

    // MARK: - Shared by service and view routes

    /// Registers a route type: its factory, `make`, in the container, checked to make a `Protocol`;
    /// the identifiers, URL patterns and event handlers it declares in the table. The caller adds the
    /// route's hooks through the registration of its kind, to the route's own destinations only: a
    /// double that an override swapped in is not the route's type, and is left as the override made it.
    func registerRoute<Protocol, Destination>(
        _ key: RouteKey,
        named name: String,
        scope: ServiceScope<Protocol>,
        replacesExisting: Bool,
        fileID: StaticString,
        line: UInt,
        view: ViewTraits? = nil,
        declaring declared: (identifiers: [String], urlPatterns: [String]),
        handleEvents: (inout RouteEventHandlers) -> Void,
        make: @escaping @Sendable (RouteParameters, Resolver) throws -> Destination
    ) -> RouteRegistration<Protocol> {
        let registration = add(
            key,
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            view: view,
            name: name
        ) { r in
            let made = try make(PendingParameters.take(for: key), r)
            guard let destination = made as? Protocol else {
                throw RoutingError.nonconforming(type(of: made as Any), madeBy: name, for: key)
            }
            return destination
        }
        for identifier in declared.identifiers { registration.identifier(identifier) }
        for pattern in declared.urlPatterns { registration.url(pattern) }
        var events = RouteEventHandlers()
        handleEvents(&events)
        add(events, for: key)
        return registration
    }

    /// Registers a route of any kind: `factory` for the route's protocol in the container, and the
    /// route's record in the table. `view` is what a view route adds; `name`, a route type's name;
    /// `takesParameters`, whether `factory` reads the perform's parameters (`PendingParameters`).
    @discardableResult
    func add<Protocol>(
        _ key: RouteKey,
        scope: ServiceScope<Protocol>,
        replacesExisting: Bool,
        fileID: StaticString,
        line: UInt,
        view: ViewTraits? = nil,
        name: String? = nil,
        takesParameters: Bool = true,
        factory: @escaping @Sendable (Resolver) throws -> Protocol
    ) -> RouteRegistration<Protocol> {
        container.register(
            Protocol.self,
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            origin: name.map(RegistrationOrigin.route(named:)) ?? .route,
            // For a view route's leak check: a destination its factory did not make, an override did.
            factory: view == nil
                ? factory
                : { r in
                    RoutingStack.entries.last?.making.ranFactory(of: key)
                    return try factory(r)
                }
        )
        let record = RouteRecord(
            key: key,
            scope: scope.scope,
            typeName: name,
            fileID: fileID,
            line: line,
            takesParameters: takesParameters,
            view: view,
            resolveAny: { try $0.resolve(Protocol.self) }
        )
        storage.amend { table in
            // A route registered again (replacing the earlier one, or as a duplicate the container
            // reports) starts afresh: the earlier one's identifiers, patterns and events go.
            if table.records[key] != nil { table.forget(key) }
            table.records[key] = record
        }
        return RouteRegistration(router: self, key: key)
    }
}
