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

// The messages of errors about route parameters: which parameter, of which route, from which URL.

extension RoutingError {
    // MARK: Parameters

    static func missingParameter(_ name: String, of type: Any.Type, in parameters: RouteParameters) -> RoutingError {
        let route = parameters.route.map(\.declaration) ?? "The route"
        let needs = "\(route) needs the parameter \"\(name)\" (\(withArticle(type)))"
        // A view route's parameters come only from a URL: no view call takes parameters or an identifier.
        let isView = parameters.route?.showsScreen == true
        let message: String
        if parameters.isHandedOver {
            let source = parameters.source.map { " \"\($0)\"" } ?? ""
            let given = parameters.isEmpty ? "none" : parameters.values.keys.sorted().joined(separator: ", ")
            let fix =
                switch (parameters.source == nil, isView) {
                case (true, false):
                    "Fix: perform it by URL or identifier with the parameter, or give the route a default for it."
                case (true, true):
                    "Fix: open it by a URL that gives the parameter, with router.perform(url:path:), or give the "
                        + "route a default for it."
                case (false, false):
                    "Fix: add it to the URL (a :\(name) placeholder or ?\(name)=…) or to the parameters."
                case (false, true): "Fix: add it to the URL (a :\(name) placeholder or ?\(name)=…)."
                }
            message = "\(needs), which\(source.isEmpty ? " the call" : source) does not give; given: \(given). \(fix)"
        } else {
            let fix =
                isView
                ? "show it through the router (router.perform(url:path:), on the main actor)"
                : "make it through the router (router.makeDestination(url:as:) or perform(identifier:parameters:))"
            message =
                "\(needs), but its registration was resolved without its router (directly from the container, or by "
                + "the container's validate()), which has no parameters to give. Fix: \(fix), and validate with "
                + "router.validate(), which lists such routes as needing parameters."
        }
        return RoutingError(
            .invalidConfiguration,
            message,
            action: .makeDestination,
            isMissingHandedOverParameters: !parameters.isHandedOver,
            failingRoute: parameters.route
        )
    }

    static func mistypedParameter(
        _ name: String,
        _ text: String,
        as type: Any.Type,
        in parameters: RouteParameters
    )
        -> RoutingError
    {
        let source = parameters.source.map { " of \"\($0)\"" } ?? ""
        return RoutingError(
            .invalidConfiguration,
            "The parameter \"\(name)\"\(source) is \"\(text)\", which is not \(withArticle(type)). Fix: pass "
                + "\(withArticle(type)) there.",
            action: .makeDestination,
            failingRoute: parameters.route
        )
    }
}
