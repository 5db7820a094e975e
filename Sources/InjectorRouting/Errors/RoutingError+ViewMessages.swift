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
        let names = supported.names
        let supports =
            switch names.count {
            case 0: "it supports none"
            case 1: "it supports only \(names[0])"
            default: "it supports " + listed(names)
            }
        let member = path.member.names.first ?? "\(path)"
        return RoutingError(
            .unsupportedPath,
            "\(route) does not support the path \(path): \(supports). Fix: use one of those, or add .\(member) to "
                + "the route's supportedPaths.",
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

    /// An interceptor's redirect asked for a transition style on a perform whose path has no source.
    static func styleWithoutSource(_ style: ViewTransitionStyle, route: String) -> RoutingError {
        RoutingError(
            .invalidSource,
            "\(route) cannot be shown with the style \(style): the perform's path, makeDestination, has no source "
                + "screen to show it from. Fix: redirect without a style (the destination is then made, not shown), or "
                + "perform along a path from a screen.",
            action: .performRoute
        )
    }

    /// The host refused the transition; `afterObservers` when it had allowed it before the `willPerform`
    /// observers ran, one of which changed the hierarchy.
    static func refused(
        _ refusal: ViewTransitionRefusal,
        route: String,
        path: ViewRoutePath,
        afterObservers: Bool = false
    ) -> RoutingError {
        let code: Code =
            switch refusal.reason {
            case .destinationAlreadyShown: .destinationAlreadyShown
            case .undeclaredSegue: .segueNotPerformed
            case .notShown, .unsupportedStyle: .actionFailed
            default: .invalidSource
            }
        return RoutingError(
            code,
            "\(route) could not be performed on the path \(path): \(refusal.message)"
                + (afterObservers ? sentence(afterChecks: "a willPerform observer", outcome: "Nothing was shown") : ""),
            action: .performRoute,
            underlyingError: refusal
        )
    }

    /// The host refused to undo a transition it had allowed before the `willRemove` observers and
    /// the route's removal hooks ran: one of them changed the hierarchy.
    static func hierarchyChanged(_ refusal: ViewTransitionRefusal, removing route: String) -> RoutingError {
        RoutingError(
            .actionFailed,
            "\(route) could not be removed: \(refusal.message)"
                + sentence(
                    afterChecks: "a willRemove observer or a removal hook",
                    outcome: "Nothing was undone, and the route stays routed"
                ),
            action: .removeRoute,
            underlyingError: refusal
        )
    }

    private static func sentence(afterChecks changer: String, outcome: String) -> String {
        " The host allowed it when the route checked, before \(changer) changed the hierarchy. \(outcome). Fix: "
            + "let observers and hooks watch, and change the hierarchy once the route's transition has ended (from "
            + "its success handler)."
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

    static func givenDestinationGone(_ route: String) -> RoutingError {
        RoutingError(
            .destinationUnavailable,
            "\(route) cannot be performed again: the screen it was given (perform(onDestination:for:path:)) is gone "
                + "(deallocated), and the route holds it weakly. Fix: perform onDestination with the screen to show.",
            action: .performRoute
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
        RoutingError(
            .actionFailed,
            "\(route) cannot be removed: \(reason)" + (reason.hasSuffix(".") ? "" : "."),
            action: .removeRoute
        )
    }

    static func serviceURL(_ url: String, route: RouteKey) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "The URL \"\(url)\" matches \(route.declaration), which is not a view route: there is nothing to show. "
                + "Fix: perform it with router.perform(url:) or makeDestination(url:as:), without a path.",
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

    // Saving and restoring a headless host's navigation: every screen or route at fault, in one error.

    /// Screens no route can show again, each `Name (how it got there) why`.
    static func unsavedScreens(_ screens: [String]) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "The navigation cannot be saved: \(screens.joined(separator: "; ")). Fix: show the screens to save with "
                + "view routes performed by protocol or URL, without a preparation of the caller's (a URL's "
                + "parameters can carry what it set).",
            action: .lookUp
        )
    }

    /// Saved routes the router has no single view route for.
    static func unregisteredRoutes(_ routes: [String]) -> RoutingError {
        RoutingError(
            .invalidProtocol,
            "The saved navigation cannot be restored: the router has no view route for \(listed(routes)). Nothing was "
                + "shown. Fix: register a view route for each (one per protocol name), or discard the saved "
                + "navigation.",
            action: .lookUp
        )
    }

    /// A saved screen shown from one the restoring host does not have.
    static func restoredThroughAnotherHost(_ host: (any NavigationHost)?) -> RoutingError {
        let hosts = host.map { "another host (\(type(of: $0)))" } ?? "no host"
        return RoutingError(
            .invalidConfiguration,
            "A saved navigation is restored through a router whose host is \(hosts), which would show its screens "
                + "there. Nothing was shown. Fix: restore it through a router made with this host: "
                + "Router(container:host:).",
            action: .lookUp
        )
    }

    static func savedNavigationMisfit(_ route: String, source: Int) -> RoutingError {
        let from = source == 1 ? "the split screen's detail" : "screen \(source) of the saved navigation"
        return RoutingError(
            .invalidConfiguration,
            "The saved navigation does not fit this host: \(route) is shown from \(from), which this host does not "
                + "have. Nothing was shown. Fix: restore it on a host made as the one that saved it.",
            action: .lookUp
        )
    }
}
