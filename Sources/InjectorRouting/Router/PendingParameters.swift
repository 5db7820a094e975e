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

/// One routing call's making of a route, under way until it returns: the task-local values below name
/// it. A task started meanwhile (a `Task {}` a factory, hook or screen starts) copies them, but
/// runs on after the making, which they no longer describe: it ignores those of an ended making.
/// A task awaited during the making (by a factory that blocks on it) still sees them, as it should.
final class RouteMaking: Sendable {
    /// Whether the making returned, and the routes whose own factory ran during it.
    private let state = Locked.make((ended: false, ranFactories: Set<RouteKey>()))

    /// Whether the making has not returned yet.
    var isUnderWay: Bool { !state.withLock { $0.ended } }

    /// Marks the making ended: the call returned.
    func end() { state.withLock { $0.ended = true } }

    /// Notes that `route`'s own factory ran: not an override's.
    func ranFactory(of route: RouteKey) { state.withLock { _ = $0.ranFactories.insert(route) } }

    /// Whether `route`'s own factory ran during the making.
    func didRunFactory(of route: RouteKey) -> Bool { state.withLock { $0.ranFactories.contains(route) } }
}

/// The routes being made on this thread or task, outermost first: a route asked for again while it
/// is being made (through hooks, preparations or interceptors, which the container does not see) is
/// a cycle.
enum RoutingStack {
    @TaskLocal static var entries: [(route: RouteKey, making: RouteMaking)] = []

    /// The entries whose making is under way: all of them, but in a task that outlived some.
    static var active: [(route: RouteKey, making: RouteMaking)] { entries.filter { $0.making.isUnderWay } }
}

/// The parameters of the perform under way, for the factory of the route they are meant for: the
/// container's factories receive only a resolver, so the router hands them over in a task-local value
/// that names the route, which a factory further down the resolution (another route's) leaves alone,
/// and the making, which a task that outlives it leaves alone.
enum PendingParameters {
    @TaskLocal static var current: (route: RouteKey, parameters: RouteParameters, making: RouteMaking)?

    /// The parameters handed over for `route`; when none were (the route's registration was resolved
    /// without its router: directly from the container, or by `Container/validate()`, or in a task
    /// that outlived the call), empty parameters that say so, so that a missing parameter's message
    /// can tell why.
    static func take(for route: RouteKey) -> RouteParameters {
        var parameters = RouteParameters(notHandedOver: ())
        if let current, current.route == route, current.making.isUnderWay { parameters = current.parameters }
        parameters.route = route
        return parameters
    }
}
