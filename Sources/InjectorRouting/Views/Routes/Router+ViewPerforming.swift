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

// Performing view routes: by protocol, module, URL, or on a screen made elsewhere. Every call makes
// the destination through the same pipeline as service routes (Router+Pipeline.swift), then shows it
// on the router's navigation host (ViewRoute.swift).

extension Router {
    /// Performs a route to `view` along `path`: makes and prepares the destination, then shows it on
    /// the router's navigation host, and returns the route, to remove it later.
    ///
    /// ```swift
    /// let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
    ///     config.prepareDestination = { $0.note = note }
    ///     config.successHandler = { editor in print("editing", editor.note?.title ?? "") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - view: The declared view protocol to route to.
    ///   - path: Where and how to show the destination.
    ///   - configuring: Sets the caller's preparation and handlers, kept for later performs.
    /// - Returns: The route: routed once the host says the transition has ended (at once for
    ///   `HeadlessNavigationHost`), routing until then.
    /// - Throws: `RoutingError`, after the handlers were told; nothing is shown.
    @MainActor
    @discardableResult
    public func perform<Protocol>(
        to view: RoutableView<Protocol>,
        path: ViewRoutePath,
        configuring: (inout ViewRouteConfiguration<Protocol>) -> Void = { _ in }
    ) throws -> ViewRoute<Protocol> {
        let route = viewRoute(RouteRequest(key: view.key, action: .performRoute), path: path, configuring: configuring)
        {
            [source] _ in try source.resolve(Protocol.self)
        }
        return try route.run(performer: nil)
    }

    /// A route to `view`, unrouted, to perform later along `path`.
    ///
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidProtocol` when no route serves
    ///   the protocol.
    @MainActor
    public func to<Protocol>(
        _ view: RoutableView<Protocol>,
        path: ViewRoutePath,
        configuring: (inout ViewRouteConfiguration<Protocol>) -> Void = { _ in }
    ) throws -> ViewRoute<Protocol> {
        try lookUp(view.key)
        return viewRoute(RouteRequest(key: view.key, action: .performRoute), path: path, configuring: configuring) {
            [source] _ in try source.resolve(Protocol.self)
        }
    }

    /// Makes and prepares a destination for `view` without showing it: no route, no observers.
    ///
    /// ```swift
    /// let preview = try router.makeDestination(to: RoutableView<any EditorView>())
    /// ```
    @MainActor
    public func makeDestination<Protocol>(
        to view: RoutableView<Protocol>,
        configuring: (inout ViewRouteConfiguration<Protocol>) -> Void = { _ in }
    ) throws -> Protocol {
        var configuration = ViewRouteConfiguration<Protocol>()
        configuring(&configuration)
        do {
            let destination = try route(
                RouteRequest(key: view.key, action: .makeDestination),
                preparing: configuration.preparation
            ) { _ in try source.resolve(Protocol.self) }.0
            configuration.succeeded(destination, action: .makeDestination, performer: configuration.performer)
            return destination
        } catch {
            let error = RoutingError.wrapping(error, action: .makeDestination)
            configuration.failed(error, action: .makeDestination, performer: configuration.performer)
            throw reported(error)
        }
    }

    /// Prepares a screen made elsewhere (by a storyboard, say) as a route to `view` would: the
    /// caller's preparation, the route's preparations and checks, at once. Never runs the factory and
    /// shows nothing.
    ///
    /// - Returns: The route: routed, not removable.
    @MainActor
    @discardableResult
    public func prepare<Protocol>(
        destination: Protocol,
        for view: RoutableView<Protocol>,
        configuring: (inout ViewRouteConfiguration<Protocol>) -> Void = { _ in }
    ) throws -> ViewRoute<Protocol> {
        var configuration = ViewRouteConfiguration<Protocol>()
        configuring(&configuration)
        let (prepared, _) = try prepare(existing: destination, key: view.key, preparing: configuration.preparation) {
            configuration.failed($0, action: .prepareDestination, performer: configuration.performer)
        }
        let route = ViewRoute<Protocol>(
            router: self,
            label: view.key.declaration,
            path: .makeDestination,
            configuration: configuration
        ) { _, _ in throw RoutingError.performPrepared(view.key.declaration) }
        route.adopt(prepared)
        configuration.succeeded(prepared, action: .prepareDestination, performer: configuration.performer)
        return route
    }

    /// Shows a screen made elsewhere along `path`, with the full pipeline: interceptors, the
    /// caller's preparation, the route's preparations and checks, observers, the transition. Never
    /// runs the factory.
    @MainActor
    @discardableResult
    public func perform<Protocol>(
        onDestination destination: Protocol,
        for view: RoutableView<Protocol>,
        path: ViewRoutePath,
        configuring: (inout ViewRouteConfiguration<Protocol>) -> Void = { _ in }
    ) throws -> ViewRoute<Protocol> {
        // Held weakly, as the route holds what it shows: the caller and the host keep the screen. A
        // value, which the perform refuses as not an object, is kept as it is, for that refusal.
        let given = HeldDestination(destination)
        let route = viewRoute(
            RouteRequest(key: view.key, action: .performRoute),
            path: path,
            showsGivenScreen: true,
            configuring: configuring
        ) { _ in
            guard let destination = given.value else {
                throw RoutingError.givenDestinationGone(view.key.declaration)
            }
            return destination
        }
        return try route.run(performer: nil)
    }

    /// Performs a route to a view module along `path`: the container makes a fresh module
    /// configuration, `making` passes it the module's parameters and returns the screen, which is
    /// prepared and shown.
    ///
    /// ```swift
    /// try router.perform(to: RoutableViewModule<any EditorModule>(), path: .push(from: home)) {
    ///     $0.makeDestinationWith(note, readOnly: false)
    /// }
    /// ```
    @MainActor
    @discardableResult
    public func perform<Module, Destination>(
        to module: RoutableViewModule<Module>,
        path: ViewRoutePath,
        making: @escaping @Sendable (Module) throws -> Destination?,
        configuring: (inout ViewRouteConfiguration<Destination>) -> Void = { _ in }
    ) throws -> ViewRoute<Destination> {
        let route = viewRoute(
            RouteRequest(key: module.key, action: .performRoute),
            path: path,
            configuring: configuring
        ) { _ in
            try self.made(by: module.key, making: making, action: .performRoute)
        }
        return try route.run(performer: nil)
    }

    /// Opens a deep link: performs the view route whose URL pattern matches `url` along `path`; the
    /// route receives the URL's placeholders and query items as its parameters.
    ///
    /// ```swift
    /// try router.perform(url: "notes://notes/42", path: .push(from: home))
    /// ```
    ///
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidConfiguration`, quoting the URL,
    ///   when it is malformed, matches no pattern, matches two equally specific ones, or matches a
    ///   service route (perform that with `perform(url:configuring:)`); after the handlers were told.
    @MainActor
    @discardableResult
    public func perform(
        url: String,
        path: ViewRoutePath,
        configuring: (inout ViewRouteConfiguration<Any>) -> Void = { _ in }
    ) throws -> ViewRoute<Any> {
        // The configuration first, so that a URL that finds no view route tells its handlers, as a
        // service URL's perform does.
        var configuration = ViewRouteConfiguration<Any>()
        configuring(&configuration)
        let request: RouteRequest
        do {
            request = try self.request(url: url, action: .performRoute)
            guard request.key.kind == .view else { throw RoutingError.serviceURL(url, route: request.key) }
        } catch {
            let error = RoutingError.wrapping(error, action: .performRoute)
            configuration.failed(error, action: .performRoute, performer: configuration.performer)
            throw reported(error)
        }
        return try perform(request, path: path) { $0 = configuration }
    }

    /// Performs the view route `request` found (by URL, an interceptor's redirect, a saved
    /// navigation) along `path`, its destination as `Any`.
    @MainActor
    func perform(
        _ request: RouteRequest,
        path: ViewRoutePath,
        configuring: (inout ViewRouteConfiguration<Any>) -> Void = { _ in }
    ) throws -> ViewRoute<Any> {
        let route = viewRoute(request, path: path, configuring: configuring) { [source] record in
            try record.resolveAny(source)
        }
        return try route.run(performer: nil)
    }

    /// A view route for `request`, unrouted, whose destination `make` makes through the container.
    @MainActor
    private func viewRoute<Destination>(
        _ request: RouteRequest,
        path: ViewRoutePath,
        showsGivenScreen: Bool = false,
        configuring: (inout ViewRouteConfiguration<Destination>) -> Void,
        make: @escaping (RouteRecord) throws -> Destination
    ) -> ViewRoute<Destination> {
        var configuration = ViewRouteConfiguration<Destination>()
        configuring(&configuration)
        let savedRoute: SavedRoute =
            if showsGivenScreen {
                .unsaved(because: "was given to perform(onDestination:for:path:), and restoring cannot make it again")
            } else if request.key.kind == .viewModule {
                .unsaved(because: "was made by the closure given to perform(to:path:making:)")
            } else if configuration.prepareDestination != nil {
                .unsaved(because: "was prepared by the caller's prepareDestination, a closure")
            } else {
                .route(view: request.url == nil ? request.key.description : nil, url: request.url)
            }
        return ViewRoute(
            router: self,
            label: request.description,
            path: path,
            configuration: configuration,
            showsGivenScreen: showsGivenScreen,
            savedRoute: savedRoute
        ) { prepare, path in
            try self.route(
                request.with(.performRoute),
                preparing: prepare,
                showing: { redirect, style in
                    try MainActor.assumeIsolated { try self.show(redirect, style: style, along: path) }
                },
                givesDestination: showsGivenScreen,
                make: make
            )
        }
    }

    /// Shows the view route an interceptor redirected to, from the source of the original path.
    @MainActor
    private func show(_ redirect: RouteRequest, style: ViewTransitionStyle?, along path: ViewRoutePath) throws {
        if let style, case .makeDestination = path.kind {
            throw RoutingError.styleWithoutSource(style, route: redirect.key.declaration)
        }
        storage.views.handOver()
        let route = try perform(redirect, path: style.map { path.with(style: $0) } ?? path)
        storage.views.redirectsShown?.append(route)
    }
}
