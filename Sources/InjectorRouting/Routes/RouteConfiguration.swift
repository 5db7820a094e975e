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

/// What a caller says about one perform: how to prepare the destination, and whom to tell how it
/// went.
///
/// ```swift
/// let route = try router.perform(to: RoutableService<Exporter>()) { config in
///     config.prepareDestination = { exporter in exporter.format = .pdf }
///     config.successHandler = { exporter in print("exporter ready") }        // on every perform
///     config.performerSuccessHandler = { exporter in print("first perform") }  // on this one only
///     config.errorHandler = { action, error in print(error.message) }
/// }
/// ```
///
/// Order on success: the route's state becomes `routed`, then successHandler,
/// completionHandler, performerSuccessHandler, each only while the route is still routed by that
/// perform (a handler before it may remove the route). On failure: the state returns to what it was,
/// then errorHandler, completionHandler, performerErrorHandler, and the router's
/// `Router/globalErrorHandler`.
///
/// The configuration is kept by the route, so a route performed again prepares its new destination
/// the same way; the performer handlers fire only for the perform they were given with.
public struct RouteConfiguration<Destination>: Sendable {
    /// The caller's preparation of each new destination: runs first, before the route's own
    /// preparation and checks. Only for routes whose destination is not shared (transient or graph
    /// registrations); for a shared one it fails the perform.
    public var prepareDestination: (@Sendable (inout Destination) throws -> Void)?

    /// Called with the destination after every successful perform of the route.
    public var successHandler: (@Sendable (Destination) -> Void)?

    /// Called with the action and the error after every failed perform of the route.
    public var errorHandler: (@Sendable (RouteAction, RoutingError) -> Void)?

    /// Called after every perform of the route, successful or not, after the success or error handler.
    public var completionHandler: (@Sendable (RouteAction, Result<Destination, RoutingError>) -> Void)?

    /// Called with the destination when this perform succeeds; not on later performs of the route.
    public var performerSuccessHandler: (@Sendable (Destination) -> Void)?

    /// Called when this perform fails; not on later performs of the route.
    public var performerErrorHandler: (@Sendable (RouteAction, RoutingError) -> Void)?

    /// Told every change of the route's state, as `(old, new)`.
    public var stateNotifier: (@Sendable (RouteState, RouteState) -> Void)?

    /// An empty configuration: no preparation, no handlers.
    public init() {}

    /// Tells the handlers that a perform succeeded, in order, each only while `stillRouted` (the
    /// route, if any, was not removed by its state notifier or an earlier handler).
    func succeeded(
        _ destination: Destination,
        action: RouteAction,
        performer: PerformerHandlers<Destination>,
        while stillRouted: () -> Bool = { true }
    ) {
        guard stillRouted() else { return }
        successHandler?(destination)
        guard stillRouted() else { return }
        completionHandler?(action, .success(destination))
        guard stillRouted() else { return }
        performer.success?(destination)
    }

    /// Tells the handlers that a perform failed, in order (the router's global handler comes after).
    func failed(_ error: RoutingError, action: RouteAction, performer: PerformerHandlers<Destination>) {
        errorHandler?(action, error)
        completionHandler?(action, .failure(error))
        performer.error?(action, error)
    }

    /// This configuration's performer handlers, which fire for one perform only.
    var performer: PerformerHandlers<Destination> { (performerSuccessHandler, performerErrorHandler) }
}

/// The handlers given with one perform or removal.
typealias PerformerHandlers<Destination> = (
    success: (@Sendable (Destination) -> Void)?, error: (@Sendable (RouteAction, RoutingError) -> Void)?
)
