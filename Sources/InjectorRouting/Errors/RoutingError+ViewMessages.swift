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

// The messages of view routing's errors: the route's protocol, the screens, and how to fix it.

extension RoutingError {
    static func noHost(_ route: String, path: ViewRoutePath) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "\(route) cannot be performed on the path \(path): the router has no navigation host. Fix: make the "
                + "router with one, Router(container:host:), such as a HeadlessNavigationHost or your app's UIKit host.",
            action: .performRoute
        )
    }

    static func notAnObject(_ made: Any.Type, route: String) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "\(route) made a \(typeName(made)), which is not an object: a view route's destination must be a class "
                + "instance (a screen or a view) for a host to show it. Fix: make the destination a class.",
            action: .performRoute
        )
    }

    static func unsupportedPath(_ path: ViewRoutePath, route: String, supported: ViewRoutePaths) -> RoutingError {
        RoutingError(
            .unsupportedPath,
            "\(route) does not support the path \(path). Fix: use one of the paths it supports, or add it to the "
                + "route's supportedPaths.",
            action: .performRoute
        )
    }

    static func sourceGone(_ path: ViewRoutePath, route: String) -> RoutingError {
        RoutingError(
            .invalidSource,
            "\(route) cannot be performed on the path \(path): the source \(path.sourceName) is gone (deallocated). "
                + "Fix: perform from a screen that is alive and shown.",
            action: .performRoute
        )
    }

    static func refused(_ refusal: ViewTransitionRefusal, route: String, path: ViewRoutePath) -> RoutingError {
        let code: Code =
            switch refusal.reason {
            case .destinationAlreadyShown: .destinationAlreadyShown
            case .undeclaredSegue: .segueNotPerformed
            case .notShown, .unsupportedStyle: .actionFailed
            default: .invalidSource
            }
        return RoutingError(
            code,
            "\(route) could not be performed on the path \(path): \(refusal.message)",
            action: .performRoute,
            underlyingError: refusal
        )
    }

    static func unbalancedTransition(_ route: String, inFlight: String, action: RouteAction) -> RoutingError {
        let verb = action == .removeRoute ? "removed" : "performed"
        return RoutingError(
            .unbalancedTransition,
            "\(route) cannot be \(verb) while \(inFlight) is still in flight: one view transition at a time per "
                + "router. Fix: perform or remove it from the other route's success handler, once its transition "
                + "has ended.",
            action: action
        )
    }

    static func alreadyShown(_ route: String) -> RoutingError {
        RoutingError(
            .actionFailed,
            "\(route) is shown already (its state is routed). Fix: remove it first (removeRoute()), then perform it "
                + "again.",
            action: .performRoute
        )
    }

    static func cannotRemove(_ route: String, because reason: String) -> RoutingError {
        RoutingError(.actionFailed, "\(route) cannot be removed: \(reason).", action: .removeRoute)
    }

    static func serviceURL(_ url: String, route: RouteKey) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "The URL \"\(url)\" matches \(route.declaration), which is not a view route: there is nothing to show. "
                + "Fix: perform it with router.perform(url:) or makeDestination(url:), without a path.",
            action: .lookUp
        )
    }

    static func viewURL(_ url: String, route: RouteKey) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "The URL \"\(url)\" matches \(route.declaration), a view route, which needs a path to be shown. Fix: "
                + "perform it with router.perform(url:path:), on the main actor.",
            action: .lookUp
        )
    }

    static func customTransitionFailed(_ error: any Error, route: String, action: RouteAction) -> RoutingError {
        RoutingError(
            .actionFailed,
            "The custom transition of \(route) threw: \(error)",
            action: action,
            underlyingError: error
        )
    }
}
