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

/// Finds the module that provides a protocol, makes its destination through the container, and
/// prepares it: a thin routing layer over one Container.
///
/// ```swift
/// let container = Container()
/// let router = Router(container: container)
/// router.register(RoutableService<TimeService>(), scope: .singleton) { r in
///     SystemTime(clock: try r.resolve(Clock.self))
/// }
///
/// let time = try router.makeDestination(to: RoutableService<TimeService>())
/// ```
///
/// Every route is a registration of its protocol in the container, so scopes, overrides
/// (`withOverrides`), cycle detection, `validate()` and the dependency graph apply to routed
/// modules as to any service. The router keeps only what routing adds: the routes' hooks,
/// adapters, identifiers, URL patterns, interceptors, event handlers and a global error handler.
/// There is no global router: make one per container, so that tests route in parallel.
///
/// A router is `Sendable`: routes may be performed from any thread or task.
public final class Router: Sendable {
    /// The container that makes every destination.
    public let container: Container
    /// The navigation host view routes perform their transitions on; `nil` for a router that routes
    /// services only.
    ///
    /// The router holds its host strongly, and a host holds the screens it shows: a shown screen
    /// that keeps its router keeps the router, the host and every screen it shows alive until that
    /// screen leaves the host. Where a host may be discarded with its screens still shown (a closed
    /// window), have those screens hold their router weakly.
    public let host: (any NavigationHost)?
    /// The clock leak checks wait on after a view route is removed.
    public let clock: any Clock<Duration>
    let source: ResolutionSource
    let storage: RouterStorage

    /// A router over `container` that also performs the routes of the first router made over its
    /// nearest parent container that has one, those registered there later too, as a child container
    /// sees its parent's registrations; a route registered here for one of their protocols replaces it.
    ///
    /// - Parameters:
    ///   - container: The container that makes every destination.
    ///   - host: The navigation host that shows view routes' destinations (`HeadlessNavigationHost` on
    ///     Linux and in tests, a UIKit or AppKit host in an app); service routing needs none.
    ///   - clock: The clock that leak checks wait on after a removal; tests pass a manual clock.
    public init(
        container: Container,
        host: (any NavigationHost)? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.container = container
        self.host = host
        self.clock = clock
        source = .container(container)
        storage = RouterStorage(over: container)
    }

    private init(sharing router: Router, in scope: LifetimeScope) {
        container = router.container  // registrations through either router go to one container
        host = router.host
        clock = router.clock
        source = .scope(scope)
        storage = router.storage
    }

    /// A router with the same routes that makes destinations in `scope`: scoped registrations
    /// resolve to that scope's instances, and the scope owns the disposable destinations it makes.
    ///
    /// ```swift
    /// try await container.withScopeAsync(tag: .request) { request in
    ///     let session = try router.resolving(in: request).makeDestination(to: RoutableService<Session>())
    ///     try await session.start()
    /// }
    /// ```
    ///
    /// Routes registered through either router are seen by both, and registered in this router's
    /// container.
    ///
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidConfiguration` when `scope` belongs
    ///   to neither this router's container nor one of its children: its routes would resolve in a
    ///   container that does not have them, or has others.
    public func resolving(in scope: LifetimeScope) throws -> Router {
        var owner: Container? = scope.container
        while let current = owner, current !== container { owner = current.parent }
        guard owner != nil else { throw reported(.scopeOfAnotherContainer()) }
        return Router(sharing: self, in: scope)
    }

    /// Called with every routing error of this router, after the route's own error handlers:
    /// failed performs, makes and removals, and lookups that found no route.
    ///
    /// ```swift
    /// router.globalErrorHandler = { action, error in logger.error("\(action): \(error.message)") }
    /// ```
    public var globalErrorHandler: (@Sendable (RouteAction, RoutingError) -> Void)? {
        get { storage.globalErrorHandler }
        set { storage.globalErrorHandler = newValue }
    }

    /// Tells the global error handler, then returns the error to throw, marked as told. A failure is
    /// told to each router once: an error that wraps one this router was told of already (a routing
    /// call made inside another route's making failed) is not told again, and one that only another
    /// router was told of is told here too.
    func reported(_ error: RoutingError) -> RoutingError {
        guard !error.wasReported(to: storage) else { return error }
        storage.globalErrorHandler?(error.action, error)
        var told = error
        told.reportedTo.append(RoutingError.ReportedRouter(storage))
        return told
    }
}
