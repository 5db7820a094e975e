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

// The messages of errors interceptors cause: refusals, redirects and their loops.

extension RoutingError {
    // MARK: Interceptors

    static func refused(_ request: RouteRequest, by interceptor: String, reason: String) -> RoutingError {
        RoutingError(
            .refused,
            "The interceptor \"\(interceptor)\" refused \(request): \(reason)",
            action: request.action
        )
    }

    static func interceptorFailed(_ error: any Error, interceptor: String, request: RouteRequest) -> RoutingError {
        thrown(
            error,
            .refused,
            "The interceptor \"\(interceptor)\" threw while deciding on \(request): \(error)",
            action: request.action
        )
    }

    /// A view perform whose redirect was shown, or a call that cannot return the type it was redirected to.
    static func redirected(
        _ request: RouteRequest,
        to target: RouteKey,
        by interceptor: String,
        returns returned: Any.Type? = nil
    ) -> RoutingError {
        let outcome =
            returned.map {
                "whose destination this call cannot return (it returns \(typeName($0))), so nothing was made. Fix: "
                    + "perform \(target.declaration) where this error is caught, or make the call by URL or identifier "
                    + "without a type, which returns the destination of the route redirected to."
            } ?? "which was performed instead."
        return RoutingError(
            .redirected,
            "The interceptor \"\(interceptor)\" redirected \(request) to \(target.declaration), \(outcome)",
            action: request.action
        )
    }

    static func redirectAcrossKinds(
        _ request: RouteRequest,
        to target: RouteKey,
        by interceptor: String
    ) -> RoutingError {
        let (asked, other) =
            request.key.showsScreen ? ("a view route", "a service route") : ("a service route", "a view route")
        let reason =
            request.key.showsScreen
            ? "a view is redirected to another view, which is shown in its place, and a service is not a screen"
            : "a service call has no path to show a view along"
        return RoutingError(
            .invalidConfiguration,
            "The interceptor \"\(interceptor)\" redirected \(request), \(asked), to \(target.declaration), \(other): "
                + "\(reason). Nothing was made. Fix: redirect to \(asked), or refuse the call.",
            action: request.action
        )
    }

    static func redirectFailed(
        _ error: any Error,
        _ request: RouteRequest,
        to target: RouteKey,
        by interceptor: String
    )
        -> RoutingError
    {
        let failure = wrapping(error, action: request.action)
        return RoutingError(
            failure.code,
            "The interceptor \"\(interceptor)\" redirected \(request) to \(target.declaration), which failed: "
                + failure.message,
            action: request.action,
            underlyingError: failure
        )
    }

    static func routingCycle(_ loop: [RouteKey], action: RouteAction) -> RoutingError {
        RoutingError(
            .cycle,
            "Routes make each other: \(loop.map(\.declaration).joined(separator: " -> ")), through their hooks, "
                + "preparations or interceptors, so the making would never end. Fix: let one of them get the other "
                + "later (when it is used), not while it is being made.",
            action: action
        )
    }

    static func redirectCycle(_ chain: [RouteKey], by interceptor: String, action: RouteAction) -> RoutingError {
        RoutingError(
            .cycle,
            "Interceptors redirect in a loop: \(chain.map(\.description).joined(separator: " -> ")) (the last "
                + "redirect by \"\(interceptor)\"). Fix: let an interceptor proceed for the route it redirects to.",
            action: action
        )
    }
}
