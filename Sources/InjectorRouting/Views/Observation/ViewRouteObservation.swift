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

/// A moment in a view route's transition that observers are told of.
///
/// A struct rather than an enum, so that routers can tell observers of new moments without
/// breaking exhaustive switches in users' code: compare with `==`, or switch with a `default`.
public struct ViewRouteEvent: Sendable, Hashable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }

    /// The destination is prepared and about to be shown.
    public static let willPerform = ViewRouteEvent("willPerform")
    /// The destination is shown and its route is routed.
    public static let didPerform = ViewRouteEvent("didPerform")
    /// The route is removing and its destination about to be taken away.
    public static let willRemove = ViewRouteEvent("willRemove")
    /// The destination was taken away and its route is removed.
    public static let didRemove = ViewRouteEvent("didRemove")

    /// The event's name, such as `willPerform`.
    public var description: String { name }
}

/// What an observer is told: the event, the destination, where it was shown from, and by which route.
public struct ViewRouteObservation<Observed> {
    /// The moment.
    public let event: ViewRouteEvent
    /// The destination, as the type the observer registered for.
    public let destination: Observed
    /// The screen the transition started from, if it is still alive.
    public let source: AnyObject?
    /// The route, as messages name it: `RoutableView<EditorView>`.
    public let route: String
}

extension Router {
    /// Tells `observe` about every view transition of this router whose destination is an
    /// `Observed`: a protocol the destination conforms to, or its concrete type (or a superclass).
    ///
    /// ```swift
    /// router.addObserver(for: (any EditorView).self) { observation in
    ///     analytics.log("\(observation.event) \(observation.route)")
    /// }
    /// ```
    ///
    /// Observers are told in the order they were added, in this sequence: the destination is
    /// prepared (caller, route, checks), `ViewRouteEvent/willPerform`, the transition, the route
    /// becomes routed, `ViewRouteEvent/didPerform`, the success handlers; on removal: the route
    /// becomes removing, `ViewRouteEvent/willRemove`, the transition, the route becomes removed,
    /// `ViewRouteEvent/didRemove`, the success handler. An observer that removes the route at
    /// `ViewRouteEvent/didPerform` ends that perform there: its success handlers are not called,
    /// since its screen is no longer shown. An observer that changes the hierarchy at
    /// `ViewRouteEvent/willPerform` or `ViewRouteEvent/willRemove` so that the host can no longer
    /// perform the transition fails the call, with no did-event. Nothing is told for
    /// `ViewRoutePath/makeDestination`, `makeDestination(to:configuring:)`, a prepared destination, or
    /// service routes.
    ///
    /// An observer lasts as long as the router: none is removed. What it captures strongly (a
    /// route, a screen, the router itself) lives as long too, so capture those weakly.
    ///
    /// - Parameters:
    ///   - type: The destination type to observe.
    ///   - observe: Called on the main actor with each observation.
    @MainActor
    public func addObserver<Observed>(
        for type: Observed.Type,
        _ observe: @escaping @MainActor (ViewRouteObservation<Observed>) -> Void
    ) {
        storage.views.observers.append(
            ViewRouteObserver { event, destination, source, route in
                guard let observed = destination as? Observed else { return }
                observe(ViewRouteObservation(event: event, destination: observed, source: source, route: route))
            }
        )
    }
}

/// An observer, erased to the objects it is told about.
struct ViewRouteObserver {
    let tell: @MainActor (ViewRouteEvent, AnyObject, AnyObject?, String) -> Void
}
