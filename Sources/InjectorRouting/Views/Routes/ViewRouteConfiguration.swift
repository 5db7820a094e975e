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

/// What a caller says about one view perform: how to prepare the screen, and whom to tell how it
/// went; every closure runs on the main actor, as the code that shows screens does.
///
/// ```swift
/// try router.perform(to: RoutableView<any EditorView>(), path: .push(from: self)) { config in
///     config.prepareDestination = { $0.note = note }
///     config.successHandler = { editor in self.currentEditor = editor }   // a main-actor view controller
/// }
/// ```
///
/// The same fields and order as `RouteConfiguration` (service routes): on success the route becomes
/// `RouteState/routed`, then `successHandler`, `completionHandler`, `performerSuccessHandler`; on
/// failure the state returns to what it was, then `errorHandler`, `completionHandler`,
/// `performerErrorHandler` and the router's `Router/globalErrorHandler`. The success handlers run
/// once the host says the transition has ended, after the `ViewRouteEvent/didPerform` observers.
///
/// A success handler runs only while the route still shows what its perform showed: when a
/// `ViewRouteEvent/didPerform` observer, or a success handler before it, removes the route, the
/// perform's remaining success handlers (`completionHandler` included) are not called, since the
/// screen they would be handed is no longer shown. The removal tells its own success handler and the
/// `ViewRouteEvent/didRemove` observers, and `stateNotifier` sees the route become removed.
@MainActor
public struct ViewRouteConfiguration<Destination> {
    /// The caller's preparation of each new screen: runs first, before the route's own preparation
    /// and checks. Only for routes whose screen is not shared (transient or graph registrations), and
    /// for a screen given to `Router/perform(onDestination:for:path:configuring:)`, the caller's own.
    public var prepareDestination: (@MainActor (inout Destination) throws -> Void)?

    /// Called with the screen after every successful perform of the route, once it is shown.
    public var successHandler: (@MainActor (Destination) -> Void)?

    /// Called with the action and the error after every failed perform or removal of the route.
    public var errorHandler: (@MainActor (RouteAction, RoutingError) -> Void)?

    /// Called after every perform of the route, successful or not (unless the route was removed
    /// before its perform's success handlers ran; see above), and after every failed removal.
    public var completionHandler: (@MainActor (RouteAction, Result<Destination, RoutingError>) -> Void)?

    /// Called with the screen when this perform succeeds; not on later performs of the route.
    public var performerSuccessHandler: (@MainActor (Destination) -> Void)?

    /// Called when this perform fails; not on later performs of the route.
    public var performerErrorHandler: (@MainActor (RouteAction, RoutingError) -> Void)?

    /// Told every change of the route's state, as `(old, new)`.
    public var stateNotifier: (@MainActor (RouteState, RouteState) -> Void)?

    /// An empty configuration: no preparation, no handlers.
    public init() {}

    /// This configuration's performer handlers, which fire for one perform only.
    var performer: ViewPerformer<Destination> { (performerSuccessHandler, performerErrorHandler) }

    /// Tells the handlers that a perform succeeded, in order, each only while `stillShown` (the
    /// route was not removed by an observer or an earlier handler).
    func succeeded(
        _ destination: Destination,
        action: RouteAction,
        performer: ViewPerformer<Destination>,
        while stillShown: () -> Bool = { true }
    ) {
        guard stillShown() else { return }
        successHandler?(destination)
        guard stillShown() else { return }
        completionHandler?(action, .success(destination))
        guard stillShown() else { return }
        performer.success?(destination)
    }

    /// Tells the handlers that a perform failed, in order (the router's global handler comes after).
    func failed(_ error: RoutingError, action: RouteAction, performer: ViewPerformer<Destination>) {
        errorHandler?(action, error)
        completionHandler?(action, .failure(error))
        performer.error?(action, error)
    }

    /// The caller's preparation, for the routing pipeline, which runs it on this (the main) actor.
    var preparation: ((inout Destination) throws -> Void)? {
        guard let prepareDestination else { return nil }
        return { destination in try MainActor.assumeIsolated { try prepareDestination(&destination) } }
    }
}

/// The handlers given with one view perform, called on the main actor.
typealias ViewPerformer<Destination> = (
    success: (@MainActor (Destination) -> Void)?, error: (@MainActor (RouteAction, RoutingError) -> Void)?
)
