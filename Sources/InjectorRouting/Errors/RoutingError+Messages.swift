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

// Every routing error's message: what was asked, which route, why it failed, and how to fix it.

extension RoutingError {
    // MARK: Finding a route

    /// `otherKinds`: routes of the asked protocol as another kind (a service route for a view), the
    /// likeliest mistake, named first.
    static func noRoute(
        for path: [RouteKey],
        otherKinds: [RouteKey],
        nearby: [RouteKey],
        action: RouteAction
    ) -> RoutingError {
        let asked = path[0].declaration
        let end = path[path.count - 1]
        let registration =
            end.kind == .service || end.kind == .view
            ? "router.register(\(end.declaration)(), …)" : "router.register(\(end.declaration)()) { r in … }"
        var message: String
        if path.count == 1 {
            message = "No route is registered for \(asked)."
        } else {
            message =
                "\(asked) is adapted to \(end.declaration) (\(path.map(\.description).joined(separator: " -> "))), "
                + "which has no route."
        }
        if !otherKinds.isEmpty {
            let routes = otherKinds.map(\.declaration).joined(separator: " and ")
            message += " The protocol has a route of another kind: \(routes)."
        }
        if !nearby.isEmpty {
            message += " Registered routes: \(nearby.prefix(8).map(\.declaration).joined(separator: ", "))."
        }
        message +=
            path.count == 1
            ? " Fix: register one with \(registration), or adapt the protocol to one that has a route with "
                + "router.adapt(\(asked)(), to: …)."
            : " Fix: register a route for the chain's end with \(registration), or adapt it to a protocol that "
                + "has one."
        return RoutingError(.invalidProtocol, message, action: action)
    }

    static func scopeOfAnotherContainer() -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "router.resolving(in:) was given a lifetime scope of a container that is neither the router's nor one of "
                + "its children: the router's routes would resolve in a container that does not register them, or "
                + "registers others. Fix: make the scope from the router's container or a child of it, or resolve "
                + "through the router of the scope's container.",
            action: .lookUp
        )
    }

    static func adapterCycle(_ loop: [RouteKey], from path: [RouteKey], action: RouteAction) -> RoutingError {
        let chain = loop.map(\.description).joined(separator: " -> ")
        // The way in is worth printing only when it does not start at the loop.
        let full = (path + loop.suffix(1)).map(\.description).joined(separator: " -> ")
        let asked = full == chain ? path[0].declaration : "\(path[0].declaration): \(full)"
        return RoutingError(
            .cycle,
            "Adapters lead back to themselves: \(chain) (asked for \(asked)). Fix: adapt one of them to a protocol "
                + "that has a route of its own.",
            action: action
        )
    }

    static func unknownIdentifier(_ identifier: String, known: [String], action: RouteAction) -> RoutingError {
        let registered =
            known.isEmpty
            ? "No route registered an identifier."
            : "Registered identifiers: "
                + known.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ") + "."
        return RoutingError(
            .invalidProtocol,
            "No route is registered for the identifier \"\(identifier)\". \(registered) Fix: add "
                + ".identifier(\"\(identifier)\") to the route's registration, or list it in its route type's identifiers.",
            action: action
        )
    }

    static func ambiguousIdentifier(_ identifier: String, routes: [RouteKey], action: RouteAction) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "The identifier \"\(identifier)\" names \(routes.count) routes: "
                + routes.map(\.declaration).joined(separator: ", ")
                + ". Fix: give each route an identifier of its own.",
            action: action
        )
    }

    static func url(_ failure: URLRoutingFailure, action: RouteAction) -> RoutingError {
        RoutingError(.invalidConfiguration, failure.message, action: action, underlyingError: failure)
    }

    static func destinationMismatch(_ made: Any.Type, expected: Any.Type, request: RouteRequest) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "The route for \(request) made \(withArticle(made)), not \(withArticle(expected)) as asked. Fix: ask for "
                + "the route's protocol (as: \(request.key.description).self), or for Any.",
            action: request.action
        )
    }

    // MARK: Making and preparing

    static func containerFailed(
        _ error: any Error,
        route: RouteRecord,
        path: [RouteKey],
        action: RouteAction
    )
        -> RoutingError
    {
        if let routing = error as? RoutingError { return routing.with(action: action) }
        guard let injection = error as? InjectionError else {
            return RoutingError(
                .destinationUnavailable,
                "\(route.label) could not make its destination: \(error)",
                action: action,
                underlyingError: error
            )
        }
        let asked =
            !path.isEmpty
            ? "\(path[0].declaration), adapted to \(route.label),"
            : route.label
        if let routing = injection.underlyingError as? RoutingError {
            if let cycle = cycle(in: routing) { return cycle.with(action: action) }
            // The route's own registration threw it (a missing parameter, a destination of the wrong
            // type): that is the error, with the container's path where it is deeper.
            if let failing = routing.failingRoute, failing == route.key || path.contains(failing) {
                let path = injection.resolutionPath.map(\.description).joined(separator: " -> ")
                let where_ = injection.resolutionPath.count > 1 ? " (resolving \(path))" : ""
                return RoutingError(
                    routing.code,
                    routing.message + where_,
                    action: action,
                    underlyingError: injection,
                    failingRoute: routing.failingRoute
                )
            }
            // A routing call the factory made failed: this route could not be made because of it.
            return RoutingError(
                .destinationUnavailable,
                "\(asked) could not make its destination: \(routing.message)",
                action: action,
                underlyingError: injection
            )
        }
        let (code, failed): (Code, String) =
            switch injection.code {
            case .circularDependency: (.cycle, "cannot be made: its dependencies lead back to themselves.")
            case .duplicateRegistration, .registrationAfterFinish:
                (.invalidConfiguration, "cannot be made: its registration conflicts.")
            default: (.destinationUnavailable, "could not make its destination.")
            }
        return RoutingError(code, "\(asked) \(failed) \(injection.message)", action: action, underlyingError: injection)
    }

    static func nonconforming(_ made: Any.Type, madeBy route: String, for key: RouteKey) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "\(route) made \(withArticle(made)), which does not conform to \(key.description), the protocol it is "
                + "registered for (\(key.declaration)). Fix: make the route's Destination conform: "
                + "extension \(typeName(made)): \(key.description) {}.",
            action: .makeDestination,
            failingRoute: key
        )
    }

    static func notAdaptable(_ made: Any.Type, from provided: RouteKey, to required: RouteKey) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "\(required.declaration) is adapted to \(provided.declaration), whose destination \(typeName(made)) "
                + "does not conform to \(required.description). Fix: add extension \(typeName(made)): "
                + "\(required.description) {} where the adapter is declared.",
            action: .makeDestination,
            failingRoute: required
        )
    }

    static func sharedPreparation(_ route: RouteRecord, asked request: RouteRequest) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "\(request) was given a prepareDestination, but \(route.label) is a \(route.scope) registration: its "
                + "destination is shared with other callers, and one caller's preparation would change it for all. "
                + "Fix: prepare it in the route's own prepare hook, or register the route .transient.",
            action: request.action
        )
    }

    static func sharedParameters(
        _ route: RouteRecord,
        given parameters: RouteParameters,
        action: RouteAction
    )
        -> RoutingError
    {
        RoutingError(
            .invalidConfiguration,
            "\(route.label) was given the parameters \(parameters), but it is a \(route.scope) registration: the "
                + "container shares its destination, which would be built from the first call's parameters and handed "
                + "to every later call, whatever theirs. Fix: register the route .transient (or .graph), or pass it no "
                + "parameters.",
            action: action
        )
    }

    static func callerPreparationFailed(_ error: any Error, request: RouteRequest) -> RoutingError {
        thrown(
            error,
            .actionFailed,
            "The caller's prepareDestination for \(request) threw: \(error)",
            action: request.action
        )
    }

    static func hookFailed(_ error: any Error, hook: String, route: String, action: RouteAction) -> RoutingError {
        thrown(error, .actionFailed, "The \(hook) hook of \(route) threw: \(error)", action: action)
    }

    static func verificationFailed(_ error: any Error, route: String, action: RouteAction) -> RoutingError {
        thrown(
            error,
            .invalidConfiguration,
            "The destination of \(route) is not ready: its verify check threw: \(InjectionError.clause(error)). Fix: give it what the "
                + "check asks for, in the configuration's prepareDestination or the route's prepare hook.",
            action: action
        )
    }

    static func moduleFailed(_ error: any Error, module: RouteKey, action: RouteAction) -> RoutingError {
        thrown(
            error,
            .destinationUnavailable,
            "The module \(module.declaration) could not make its destination: \(error)",
            action: action
        )
    }

    static func moduleMadeNothing(_ module: RouteKey, action: RouteAction) -> RoutingError {
        RoutingError(
            .destinationUnavailable,
            "The module \(module.declaration) made nothing: its makeDestinationWith returned nil. Fix: pass it "
                + "everything the module needs, or check the module's configuration for why it declined.",
            action: action
        )
    }

    // MARK: Route lifecycle

    static func overRoute(_ route: String, action: RouteAction) -> RoutingError {
        RoutingError(
            .overRoute,
            "\(route) is being performed already (its state is routing). Fix: perform it again once that perform has "
                + "finished, or use another route.",
            action: action
        )
    }

    static func performWhileRemoving(_ route: String, action: RouteAction) -> RoutingError {
        RoutingError(
            .actionFailed,
            "\(route) is being removed (its state is removing), so it cannot be performed now. Fix: perform it once "
                + "the removal has finished.",
            action: action
        )
    }

    static func removeNotRouted(_ route: String, state: RouteState) -> RoutingError {
        RoutingError(
            .actionFailed,
            "\(route) cannot be removed: its state is \(state), and only a routed route can be removed. Fix: check "
                + "canRemove before removing.",
            action: .removeRoute
        )
    }

    static func removePrepared(_ route: String) -> RoutingError {
        RoutingError(
            .actionFailed,
            "\(route) prepared a destination made elsewhere (prepare(destination:for:)): it did not make it, so it "
                + "cannot remove it. Fix: remove it where it was made.",
            action: .removeRoute
        )
    }

    static func performPrepared(_ route: String) -> RoutingError {
        RoutingError(
            .actionFailed,
            "\(route) prepared a destination made elsewhere (prepare(destination:for:)), so it has nothing to perform. "
                + "Fix: perform a route of its own with router.perform(to:), or router.to(_:).",
            action: .performRoute
        )
    }

    // MARK: Validation

    static func tiedPatterns(_ entries: [(pattern: URLPattern, route: RouteKey)]) -> RoutingError {
        let listed = entries.map { "\"\($0.pattern.text)\" (\($0.route.declaration))" }.joined(separator: " and ")
        return RoutingError(
            .invalidConfiguration,
            "The URL patterns \(listed) match the same URLs equally, so every such URL would fail as ambiguous. Fix: "
                + "make one of them more specific, or give them different literal segments.",
            action: .lookUp
        )
    }

    static func validationFailed(_ problems: [RoutingError]) -> RoutingError {
        let list = problems.enumerated().map { "\($0.offset + 1). \($0.element.message)" }.joined(separator: "\n")
        return RoutingError(
            .validationFailed,
            "Routing validation found \(problems.count) problem\(problems.count == 1 ? "" : "s"):\n\(list)",
            action: .lookUp,
            problems: problems
        )
    }

    static func containerProblem(_ problem: InjectionError) -> RoutingError {
        RoutingError(
            .invalidConfiguration,
            "\(problem.message) (Reported by container.validate().)",
            action: .lookUp,
            underlyingError: problem
        )
    }

    /// The failure of the user's code (a hook, a preparation, an interceptor, a module) that threw
    /// `error`; a routing cycle it wraps passes on as it is, so that the caller sees the loop, not
    /// the closure it surfaced in.
    static func thrown(_ error: any Error, _ code: Code, _ message: String, action: RouteAction) -> RoutingError {
        cycle(in: error) ?? RoutingError(code, message, action: action, underlyingError: error)
    }

    /// The routing cycle that `error` is, or wraps.
    static func cycle(in error: any Error) -> RoutingError? {
        guard let routing = error as? RoutingError else { return nil }
        if routing.code == .cycle { return routing }
        return routing.underlyingError.flatMap(cycle(in:))
    }

    // MARK: Wrapping

    /// `error` as a routing error of `action`.
    static func wrapping(_ error: any Error, action: RouteAction) -> RoutingError {
        if let routing = error as? RoutingError { return routing.with(action: action) }
        return RoutingError(.actionFailed, "\(action) failed: \(error)", action: action, underlyingError: error)
    }

    /// This error, for `action`.
    func with(action: RouteAction) -> RoutingError {
        guard action != self.action else { return self }
        var error = self
        error.action = action
        return error
    }
}

/// Items as a sentence lists them: `a`, `a and b`, `a, b and c`.
func listed(_ items: [String]) -> String {
    guard let last = items.last, items.count > 1 else { return items.joined() }
    return items.dropLast().joined(separator: ", ") + " and " + last
}

/// A type's name after "a" or "an", as a reader says it: "an Int", "a UUID", "a NoteViewer".
func withArticle(_ type: Any.Type) -> String {
    let name = typeName(type)
    let spelledLetter = name.count > 1 && name.prefix(2).allSatisfy(\.isUppercase)  // "UUID": "a you-you-…"
    let vowel = name.first.map { "AEIOaeio".contains($0) } ?? false
    return (vowel && !spelledLetter ? "an " : "a ") + name
}
