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

/// An error from routing: what was asked, which route, why it failed, and how to fix it.
///
/// Every failed routing call throws one *and* reports it to the handlers: the route's error
/// handlers, then the router's Router/globalErrorHandler. Switch on code to react to a kind
/// of error; show message (also the error's `description`) to a person. When the container
/// failed underneath, its InjectionError is the underlyingError, with the resolution path.
///
/// ```swift
/// do {
///     let time = try router.makeDestination(to: RoutableService<TimeService>())
/// } catch let error as RoutingError where error.code == .invalidProtocol {
///     print(error.message)   // No route is registered for RoutableService<TimeService>. …
/// }
/// ```
public struct RoutingError: Error, CustomStringConvertible, Sendable {
    /// The kind of a RoutingError.
    ///
    /// A struct rather than an enum, so that new kinds can be added without breaking exhaustive
    /// switches in users' code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// No route is registered for the protocol, identifier or adapter chain asked for.
        public static let invalidProtocol = Code("invalidProtocol")
        /// The caller's configuration or parameters cannot be used: a malformed, unmatched or ambiguous
        /// URL, a missing or mistyped parameter, a preparation for a shared instance, a failed
        /// `verify` check, or a destination that does not conform to the protocol it is routed as.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// The destination could not be made: its factory, a dependency or the module's
        /// `makeDestinationWith` failed or made nothing.
        public static let destinationUnavailable = Code("destinationUnavailable")
        /// The route is not in a state that allows the action, such as removing a route that was never
        /// performed, or a preparation or removal hook threw.
        public static let actionFailed = Code("actionFailed")
        /// A route was performed again while it was still being performed.
        public static let overRoute = Code("overRoute")
        /// Routes, adapters or interceptor redirects lead back to themselves.
        public static let cycle = Code("cycle")
        /// An interceptor sent the call to another route: a view perform's, shown instead; or a call's
        /// that cannot return that route's destination, so nothing was made.
        public static let redirected = Code("redirected")
        /// An interceptor refused the perform.
        public static let refused = Code("refused")
        /// ``Router/validate()`` found problems; each is in ``RoutingError/problems``.
        public static let validationFailed = Code("validationFailed")
        /// A view transition's source is gone (deallocated), not in the hierarchy, or cannot show the
        /// destination that way (a push from outside a navigation stack, a presentation from a screen
        /// that already presents one).
        public static let invalidSource = Code("invalidSource")
        /// A view route was performed with a path it does not support.
        public static let unsupportedPath = Code("unsupportedPath")
        /// A view perform or removal started while another one on the same router was still in flight.
        public static let unbalancedTransition = Code("unbalancedTransition")
        /// The source declares no segue with the identifier asked for.
        public static let segueNotPerformed = Code("segueNotPerformed")
        /// A view route's destination is already shown (elsewhere, or pushed twice).
        public static let destinationAlreadyShown = Code("destinationAlreadyShown")

        /// The code's name, such as `invalidProtocol`.
        public var description: String { name }
    }

    /// The kind of error.
    public let code: Code
    /// What happened and how to fix it, written for a person.
    public let message: String
    /// The action that failed.
    public internal(set) var action: RouteAction
    /// The error underneath: the container's InjectionError (with its resolution path), or the
    /// error a factory, hook or interceptor threw; `nil` when the router itself refused.
    public let underlyingError: (any Error)?
    /// The individual problems, when one error reports several (as ``Router/validate()`` does);
    /// otherwise empty.
    public let problems: [RoutingError]
    /// Set when a route's factory needed a parameter but was resolved without its router (by
    /// `Container/validate()`, say), which had none to give: `Router/validate()` lists such routes as
    /// unchecked rather than failed.
    let isMissingHandedOverParameters: Bool
    /// The route whose own registration threw this error (a missing parameter, a destination of the
    /// wrong type), as opposed to a routing call its factory made: kept as it is when that route fails.
    let failingRoute: RouteKey?
    /// The routers (their storage, which routers made for lifetime scopes share) whose global error
    /// handler was told of this error already, held weakly: see `Router.reported(_:)`.
    var reportedTo: [ReportedRouter] = []

    /// A router told of an error.
    final class ReportedRouter: @unchecked Sendable {  // `storage` is set once, in `init`
        private(set) weak var storage: RouterStorage?
        init(_ storage: RouterStorage) { self.storage = storage }
    }

    /// Whether this error, or one it wraps, was reported to the router whose storage is `storage`.
    func wasReported(to storage: RouterStorage) -> Bool {
        var error: (any Error)? = self
        while let current = error {
            if let routing = current as? RoutingError {
                if routing.reportedTo.contains(where: { $0.storage === storage }) { return true }
                error = routing.underlyingError
            } else if let injection = current as? InjectionError {
                error = injection.underlyingError
            } else {
                return false
            }
        }
        return false
    }

    init(
        _ code: Code,
        _ message: String,
        action: RouteAction,
        underlyingError: (any Error)? = nil,
        problems: [RoutingError] = [],
        isMissingHandedOverParameters: Bool = false,
        failingRoute: RouteKey? = nil
    ) {
        self.code = code
        self.message = message
        self.action = action
        self.underlyingError = underlyingError
        self.problems = problems
        self.isMissingHandedOverParameters = isMissingHandedOverParameters
        self.failingRoute = failingRoute
    }

    /// The container's error underneath, if the container failed.
    public var injectionError: InjectionError? { underlyingError as? InjectionError }

    /// The message.
    public var description: String { message }
}

/// A routing error says how to fix it: a route's failure that quotes one (the container's
/// `factoryFailed`) adds no fix of its own.
extension RoutingError: ErrorWithFix {}
