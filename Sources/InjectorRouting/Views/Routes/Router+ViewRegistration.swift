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
    /// Registers a view route whose destination, a screen or a view, a closure makes: a registration
    /// of the view protocol in the container.
    ///
    /// ```swift
    /// router.register(RoutableView<any EditorView>()) { r in EditorScreen(store: try r.resolve((any NoteStore).self)) }
    /// ```
    ///
    /// The closure runs on the main actor, where a route is performed, so it makes a `@MainActor`
    /// screen (a `UIViewController`) as it is. A resolve of the view protocol off the main actor
    /// throws `InjectionError/Code/mainActorRequired`, and a validation off it lists the route as
    /// unchecked (`ValidationReport/UncheckedRegistration/Reason/needsMainActor`).
    ///
    /// - Parameters:
    ///   - view: The routable view protocol the route provides.
    ///   - scope: How long a destination lives and who shares it; `Scope/transient` by default.
    ///   - supportedPaths: The paths the route may be performed along; every screen transition and
    ///     `makeDestination` by default. A route for subviews says `[.addAsSubview, .makeDestination]`.
    ///   - replacesExisting: Whether this route replaces an earlier registration of the protocol.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    ///   - factory: Makes a destination from a resolver, on the main actor; it must be an object.
    /// - Returns: The route's registration, to add identifiers, URL patterns, hooks and event handlers to.
    @discardableResult
    public func register<Protocol>(
        _ view: RoutableView<Protocol>,
        scope: ServiceScope<Protocol> = .transient,
        supportedPaths: ViewRoutePaths = .screenTransitions,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> Protocol
    ) -> ViewRouteRegistration<Protocol> {
        ViewRouteRegistration(
            registration: add(
                view.key,
                scope: scope,
                replacesExisting: replacesExisting,
                fileID: fileID,
                line: line,
                view: ViewTraits(supportedPaths: supportedPaths, performCustom: nil, removeCustom: nil),
                takesParameters: false,
                factory: { r in try onMainActor(r, factory) }
            )
        )
    }

    /// Registers a view route whose destination a closure makes from the route's parameters (a deep
    /// link's placeholders and query items); as `register(_:scope:supportedPaths:replacesExisting:fileID:line:factory:)`.
    @discardableResult
    public func register<Protocol>(
        _ view: RoutableView<Protocol>,
        scope: ServiceScope<Protocol> = .transient,
        supportedPaths: ViewRoutePaths = .screenTransitions,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver, RouteParameters) throws -> Protocol
    ) -> ViewRouteRegistration<Protocol> {
        ViewRouteRegistration(
            registration: add(
                view.key,
                scope: scope,
                replacesExisting: replacesExisting,
                fileID: fileID,
                line: line,
                view: ViewTraits(supportedPaths: supportedPaths, performCustom: nil, removeCustom: nil),
                factory: { r in try onMainActor(r) { try factory($0, PendingParameters.take(for: view.key)) } }
            )
        )
    }

    /// Registers a view route written as a type: the container makes the destination with the route's
    /// `ViewRouteDefinition/makeDestination(with:resolver:)`, on the main actor; the router runs its
    /// hooks, supports its paths, and performs its own transition for `ViewRoutePath/custom(from:)`.
    @MainActor @discardableResult
    public func register<Protocol, Route: ViewRouteDefinition>(
        _ view: RoutableView<Protocol>,
        route: Route,
        scope: ServiceScope<Protocol> = .transient,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ViewRouteRegistration<Protocol> {
        let traits = ViewTraits(
            supportedPaths: route.supportedPaths,
            performCustom: { destination, source, completion in
                guard let own = destination as? Route.Destination else { return completion() }
                try route.performCustomTransition(own, from: source, completion: completion)
            },
            removeCustom: { destination, source, completion in
                guard let own = destination as? Route.Destination else { return completion() }
                try route.removeCustomTransition(own, from: source, completion: completion)
            }
        )
        let registration: RouteRegistration<Protocol> = registerRoute(
            view.key,
            named: typeName(Route.self),
            scope: scope,
            replacesExisting: replacesExisting,
            fileID: fileID,
            line: line,
            view: traits,
            declaring: ([], route.urlPatterns),
            handleEvents: { route.handleEvents(&$0) },
            make: { parameters, r in try onMainActor(r) { try route.makeDestination(with: parameters, resolver: $0) } }
        )
        ViewRouteRegistration(registration: RouteRegistration<Route.Destination>(router: self, key: view.key))
            .prepare { try route.prepare(&$0, context: $1) }
            .verify { try route.verify($0, context: $1) }
            .onRemove { try route.remove($0, context: $1) }
        return ViewRouteRegistration(registration: registration)
    }

    /// Registers a view module route: the container makes a fresh module configuration for every
    /// perform, and the caller makes the screen with it; as
    /// `register(_:replacesExisting:fileID:line:factory:)` for service modules.
    public func register<Module>(
        _ module: RoutableViewModule<Module>,
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

    /// Serves a view protocol that a consumer requires with the route of one a module provides; as
    /// `adapt(_:to:fileID:line:)` for services.
    public func adapt<Required, Provided>(
        _ required: RoutableView<Required>,
        to provided: RoutableView<Provided>,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        adapt(Required.self, required.key, to: Provided.self, provided.key, fileID: fileID, line: line)
    }
}
