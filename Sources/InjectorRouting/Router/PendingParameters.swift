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

/// The routes being made on this thread or task, outermost first: a route asked for again while it
/// is being made (through hooks, preparations or interceptors, which the container does not see) is
/// a cycle.
enum RoutingStack {
    @TaskLocal static var routes: [RouteKey] = []
}

/// The parameters of the perform under way, for the factory of the route they are meant for: the
/// container's factories receive only a resolver, so the router hands them over in a task-local value
/// that names the route, which a factory further down the resolution (another route's) leaves alone.
enum PendingParameters {
    @TaskLocal static var current: (route: RouteKey, parameters: RouteParameters)?

    /// The parameters handed over for `route`; when none were (the route's registration was resolved
    /// without its router: directly from the container, or by `Container/validate()`), empty parameters
    /// that say so, so that a missing parameter's message can tell why.
    static func take(for route: RouteKey) -> RouteParameters {
        var parameters = RouteParameters(notHandedOver: ())
        if let current, current.route == route { parameters = current.parameters }
        parameters.route = route
        return parameters
    }
}
