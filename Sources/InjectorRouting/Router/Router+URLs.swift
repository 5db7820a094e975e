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

// Routing by URL and by identifier: the route is found first, then performed by the same pipeline
// as a route asked for by protocol, with the URL's parameters.

extension Router {
    /// Makes and prepares the destination of the route whose URL pattern matches `url`.
    ///
    /// ```swift
    /// let viewer = try router.makeDestination(url: "app://notes/42?tab=info", as: NoteViewer.self)
    /// ```
    ///
    /// The route receives the URL's placeholders and query items (percent-decoded) as its
    /// `RouteParameters`.
    ///
    /// - Parameters:
    ///   - url: The URL to open.
    ///   - type: The type to return the destination as; a destination of another type fails with
    ///     `RoutingError/Code/invalidConfiguration`.
    ///   - configuring: Sets the caller's preparation and handlers for this call.
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidConfiguration`, quoting the URL,
    ///   when it is malformed, matches no pattern, or matches two equally specific ones.
    public func makeDestination<Destination>(
        url: String,
        as type: Destination.Type,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> Destination {
        try makeDestination(configuring: configuring) { prepare in
            try destination(for: serviceRequest(request(url: url, action: .makeDestination)), preparing: prepare)
        }
    }

    /// Performs the route whose URL pattern matches `url`, and returns it.
    ///
    /// - Parameters:
    ///   - url: The URL to open.
    ///   - type: The type of the route's destination; `Any` by default.
    ///   - configuring: Sets the caller's preparation and handlers, kept for later performs.
    /// - Throws: `RoutingError`, as `makeDestination(url:as:configuring:)`.
    @discardableResult
    public func perform<Destination>(
        url: String,
        as type: Destination.Type,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> ServiceRoute<Destination> {
        try performFound(configuring: configuring) { try serviceRequest(request(url: url, action: .performRoute)) }
    }

    /// The route whose URL pattern matches `url`, unrouted, to perform later.
    ///
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidConfiguration` when the URL is
    ///   malformed, unmatched or ambiguous (after the global error handler was told).
    public func to<Destination>(
        url: String,
        as type: Destination.Type,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> ServiceRoute<Destination> {
        serviceRoute(try lookUp { try serviceRequest(request(url: url, action: .lookUp)) }, configuring: configuring)
    }

    /// Makes and prepares the destination of the route registered under `identifier`.
    ///
    /// ```swift
    /// let viewer = try router.makeDestination(identifier: "note-viewer", parameters: ["id": "42"], as: NoteViewer.self)
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: The identifier the route registered.
    ///   - parameters: The route's parameters, read as typed values by the route.
    ///   - type: The type to return the destination as.
    ///   - configuring: Sets the caller's preparation and handlers for this call.
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidProtocol` when no route has the
    ///   identifier, `RoutingError/Code/invalidConfiguration` when two have it.
    public func makeDestination<Destination>(
        identifier: String,
        parameters: RouteParameters = RouteParameters(),
        as type: Destination.Type,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> Destination {
        try makeDestination(configuring: configuring) { prepare in
            let request = try request(identifier: identifier, parameters: parameters, action: .makeDestination)
            return try destination(for: serviceRequest(request), preparing: prepare)
        }
    }

    /// Performs the route registered under `identifier`, and returns it.
    @discardableResult
    public func perform<Destination>(
        identifier: String,
        parameters: RouteParameters = RouteParameters(),
        as type: Destination.Type,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> ServiceRoute<Destination> {
        try performFound(configuring: configuring) {
            try serviceRequest(request(identifier: identifier, parameters: parameters, action: .performRoute))
        }
    }

    /// The route registered under `identifier`, unrouted, to perform later.
    public func to<Destination>(
        identifier: String,
        parameters: RouteParameters = RouteParameters(),
        as type: Destination.Type,
        configuring: (inout RouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> ServiceRoute<Destination> {
        serviceRoute(
            try lookUp { try serviceRequest(request(identifier: identifier, parameters: parameters, action: .lookUp)) },
            configuring: configuring
        )
    }

    // MARK: - Without a type: deep links, performed without knowing the destination's type

    /// Performs the route whose URL pattern matches `url`; as `perform(url:as:configuring:)`.
    @discardableResult
    public func perform(
        url: String,
        configuring: (inout RouteConfiguration<Any>) -> Void = { _ in }
    ) throws -> ServiceRoute<Any> {
        try perform(url: url, as: Any.self, configuring: configuring)
    }

    /// Performs the route registered under `identifier`; as `perform(identifier:parameters:as:configuring:)`.
    @discardableResult
    public func perform(
        identifier: String,
        parameters: RouteParameters = RouteParameters(),
        configuring: (inout RouteConfiguration<Any>) -> Void = { _ in }
    ) throws -> ServiceRoute<Any> {
        try perform(identifier: identifier, parameters: parameters, as: Any.self, configuring: configuring)
    }

    // MARK: - Finding the route

    /// The request for the route whose pattern matches `url`, with the URL's parameters.
    func request(url: String, action: RouteAction) throws -> RouteRequest {
        let match: URLMatch<RouteKey>
        do throws(URLRoutingFailure) { match = try storage.table.urls.match(url) } catch {
            throw RoutingError.url(error, action: action)
        }
        return RouteRequest(
            key: match.value,
            action: action,
            url: url,
            parameters: RouteParameters(match.parameters, source: url)
        )
    }

    /// The request for the route registered under `identifier`.
    private func request(identifier: String, parameters: RouteParameters, action: RouteAction) throws -> RouteRequest {
        let routes = storage.table.identifiers[identifier] ?? []
        guard let key = routes.first else {
            throw RoutingError.unknownIdentifier(
                identifier,
                known: storage.table.identifiers.keys.sorted(),
                action: action
            )
        }
        guard routes.count == 1 else {
            throw RoutingError.ambiguousIdentifier(identifier, routes: routes, action: action)
        }
        let parameters = parameters.source == nil ? RouteParameters(parameters.values, source: identifier) : parameters
        return RouteRequest(key: key, action: action, identifier: identifier, parameters: parameters)
    }

    /// `request`, unless its URL found a view route, which these calls cannot show. (An identifier
    /// finds only service routes: view routes have none.)
    private func serviceRequest(_ request: RouteRequest) throws -> RouteRequest {
        guard request.key.showsScreen, let url = request.url else { return request }
        throw RoutingError.viewURL(url, route: request.key)
    }

    // MARK: - Performing the route found

    /// Performs the route `lookUp` finds; a failed lookup tells the configuration's handlers too, as
    /// any failed perform does.
    private func performFound<Destination>(
        configuring: (inout RouteConfiguration<Destination>) -> Void,
        lookUp: () throws -> RouteRequest
    ) throws -> ServiceRoute<Destination> {
        var configuration = RouteConfiguration<Destination>()
        configuring(&configuration)
        let request: RouteRequest
        do { request = try lookUp() } catch {
            let error = RoutingError.wrapping(error, action: .performRoute)
            configuration.failed(error, action: .performRoute, performer: configuration.performer)
            throw reported(error)
        }
        let route = serviceRoute(request, configuring: { $0 = configuration })
        return try route.run(performer: nil)
    }

    /// A service route for `request`, unrouted, whose destination `make` makes through the container;
    /// without `make`, the route's own registration's, as the caller's type (`destination(for:preparing:)`).
    func serviceRoute<Destination>(
        _ request: RouteRequest,
        configuring: (inout RouteConfiguration<Destination>) -> Void,
        make: (@Sendable (RouteRecord) throws -> Destination)? = nil
    ) -> ServiceRoute<Destination> {
        let request = request.with(.performRoute)
        let label = request.description
        return ServiceRoute(router: self, label: label, parameters: request.parameters, configuring: configuring) {
            prepare in
            guard let make else { return try self.destination(for: request, preparing: prepare) }
            return try self.route(request, preparing: prepare, make: make)
        }
    }

    /// The pipeline for a route found by URL or identifier, or redirected to, as the caller's type.
    func destination<Destination>(
        for request: RouteRequest,
        preparing: ((inout Destination) throws -> Void)?
    ) throws -> (Destination, RouteRecord) {
        try route(request, preparing: preparing) { record in
            let made = try record.resolveAny(source)
            guard let destination = made as? Destination else {
                throw RoutingError.destinationMismatch(
                    Swift.type(of: made),
                    expected: Destination.self,
                    request: request
                )
            }
            return destination
        }
    }
}
