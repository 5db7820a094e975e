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

// Routing by protocol: services and modules. Every call here runs the same pipeline
// (Router+Pipeline.swift) and tells the configuration's handlers how it went.

extension Router {
    /// Makes and prepares a destination for `service`, keeping no route.
    ///
    /// ```swift
    /// let time = try router.makeDestination(to: RoutableService<TimeService>())
    /// ```
    ///
    /// - Parameter service: The declared protocol to route to.
    /// - Returns: The prepared destination.
    /// - Throws: `RoutingError`, after the router's `globalErrorHandler` was told.
    @inlinable
    public func makeDestination<Protocol>(to service: RoutableService<Protocol>) throws -> Protocol {
        // A route with nothing to add (no hooks, parameters, adapters or interceptors) is exactly its
        // container registration: resolving it is the whole work, specialised for the caller's type.
        guard let container = containerForPlainRoute(service.key) else {
            return try makeDestination(to: service) { _ in }
        }
        do { return try container.resolve(Protocol.self) } catch {
            throw plainRouteFailed(error, key: service.key)
        }
    }

    /// Makes and prepares a destination for `service` with the caller's preparation and handlers,
    /// keeping no route.
    ///
    /// ```swift
    /// let exporter = try router.makeDestination(to: RoutableService<Exporter>()) { config in
    ///     config.prepareDestination = { $0.format = .pdf }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - service: The declared protocol to route to.
    ///   - configuring: Sets the caller's preparation and handlers for this call.
    /// - Returns: The prepared destination.
    /// - Throws: `RoutingError`, after the configuration's error handlers and the router's
    ///   `globalErrorHandler` were told.
    public func makeDestination<Protocol>(
        to service: RoutableService<Protocol>,
        configuring: (inout RouteConfiguration<Protocol>) -> Void
    ) throws -> Protocol {
        try makeDestination(configuring: configuring) { prepare in
            try route(RouteRequest(key: service.key, action: .makeDestination), preparing: prepare) { _ in
                try source.resolve(Protocol.self)
            }
        }
    }

    /// Performs a route to `service`: makes and prepares its destination, and returns the route to
    /// keep (to perform it again, or remove it).
    ///
    /// ```swift
    /// let route = try router.perform(to: RoutableService<Exporter>()) { config in
    ///     config.prepareDestination = { $0.format = .pdf }
    ///     config.successHandler = { exporter in print("ready") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - service: The declared protocol to route to.
    ///   - configuring: Sets the caller's preparation and handlers, kept for later performs.
    /// - Returns: The route, routed.
    /// - Throws: `RoutingError`, after the handlers were told; the route is then unrouted.
    @discardableResult
    public func perform<Protocol>(
        to service: RoutableService<Protocol>,
        configuring: (inout RouteConfiguration<Protocol>) -> Void = { _ in }
    ) throws -> ServiceRoute<Protocol> {
        let route = serviceRoute(RouteRequest(key: service.key, action: .performRoute), configuring: configuring) {
            [source] _ in try source.resolve(Protocol.self)
        }
        return try route.run(performer: nil)
    }

    /// A route to `service`, unrouted, to perform later.
    ///
    /// ```swift
    /// let route = try router.to(RoutableService<Exporter>())
    /// try route.perform()
    /// ```
    ///
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidProtocol` when no route serves the
    ///   protocol (after the global error handler was told).
    public func to<Protocol>(
        _ service: RoutableService<Protocol>,
        configuring: (inout RouteConfiguration<Protocol>) -> Void = { _ in }
    ) throws -> ServiceRoute<Protocol> {
        try lookUp(service.key)
        return serviceRoute(RouteRequest(key: service.key, action: .performRoute), configuring: configuring) {
            [source] _ in try source.resolve(Protocol.self)
        }
    }

    /// Prepares a destination made elsewhere as a route to `service` would: the caller's
    /// preparation, then the route's preparations and checks. Never runs the factory.
    ///
    /// ```swift
    /// let route = try router.prepare(destination: restoredEditor, for: RoutableService<Editor>())
    /// ```
    ///
    /// - Returns: The route, routed but not removable; its `ServiceRoute/destination` is the
    ///   prepared destination (for a value, the prepared copy).
    /// - Throws: `RoutingError`, after the handlers were told.
    @discardableResult
    public func prepare<Protocol>(
        destination: Protocol,
        for service: RoutableService<Protocol>,
        configuring: (inout RouteConfiguration<Protocol>) -> Void = { _ in }
    ) throws -> ServiceRoute<Protocol> {
        let route = ServiceRoute(router: self, label: service.key.declaration, configuring: configuring) { _ in
            throw RoutingError.performPrepared(service.key.declaration)
        }
        let configuration = route.configuration
        let (prepared, record) = try prepare(
            existing: destination,
            key: service.key,
            preparing: configuration.prepareDestination
        ) { configuration.failed($0, action: .prepareDestination, performer: configuration.performer) }
        route.adopt(prepared, record: record)
        configuration.succeeded(prepared, action: .prepareDestination, performer: configuration.performer)
        return route
    }
}

extension Router {
    /// Makes a destination with a module: the container makes a fresh module configuration, and
    /// `making` passes it the parameters the module declares and returns what it made.
    ///
    /// ```swift
    /// let editor = try router.makeDestination(to: RoutableServiceModule<EditorModule>()) {
    ///     try $0.makeDestinationWith(note, readOnly: true)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - module: The declared module configuration protocol to route to.
    ///   - making: Calls the module's `makeDestinationWith`; `nil` means it made nothing.
    ///   - configuring: Sets the caller's preparation of the destination and the handlers.
    /// - Returns: The destination, prepared.
    /// - Throws: `RoutingError`; `RoutingError/Code/destinationUnavailable` naming the module when
    ///   `making` throws or makes nothing.
    public func makeDestination<Module, Destination>(
        to module: RoutableServiceModule<Module>,
        making: (Module) throws -> Destination?,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> Destination {
        try makeDestination(configuring: configuring) { prepare in
            try route(RouteRequest(key: module.key, action: .makeDestination), preparing: prepare) { _ in
                try made(by: module.key, making: making, action: .makeDestination)
            }
        }
    }

    /// Performs a route to a module: as `makeDestination(to:making:configuring:)`, keeping the route.
    /// Every perform of the route makes a fresh module configuration and calls `making` again.
    @discardableResult
    public func perform<Module, Destination>(
        to module: RoutableServiceModule<Module>,
        making: @escaping @Sendable (Module) throws -> Destination?,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> ServiceRoute<Destination> {
        let route = serviceRoute(RouteRequest(key: module.key, action: .performRoute), configuring: configuring) { _ in
            try self.made(by: module.key, making: making, action: .performRoute)
        }
        return try route.run(performer: nil)
    }

    /// A route to a module, unrouted, to perform later; as `perform(to:making:configuring:)`.
    ///
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidProtocol` when no route serves the
    ///   module.
    public func to<Module, Destination>(
        _ module: RoutableServiceModule<Module>,
        making: @escaping @Sendable (Module) throws -> Destination?,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> ServiceRoute<Destination> {
        try lookUp(module.key)
        return serviceRoute(RouteRequest(key: module.key, action: .performRoute), configuring: configuring) { _ in
            try self.made(by: module.key, making: making, action: .performRoute)
        }
    }

    /// The module pipeline, for service and view modules: a fresh configuration of the module `key`
    /// from the container, then what the caller's `making` makes with it.
    func made<Module, Destination>(
        by key: RouteKey,
        making: (Module) throws -> Destination?,
        action: RouteAction
    ) throws -> Destination {
        let configuration = try source.resolve(Module.self)
        let made: Destination?
        do { made = try making(configuration) } catch {
            throw RoutingError.moduleFailed(error, module: key, action: action)
        }
        guard let made else { throw RoutingError.moduleMadeNothing(key, action: action) }
        return made
    }
}
