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
    /// An observer lasts until ``ViewRouteObserverRegistration/remove()`` is called on the
    /// registration this returns, or else as long as the router; what it captures strongly (a route,
    /// a screen, the router itself) lives as long too. An observer added by a screen or a feature
    /// that goes away should be removed when it goes, or capture those weakly. Letting go of the
    /// registration does not remove the observer.
    ///
    /// An event is told to the observers there were when it began to be told, except those removed
    /// before their turn: an observer removed by another one (or by itself) while observers are told
    /// of an event is told nothing more, and one added meanwhile is told from the next event on.
    ///
    /// - Parameters:
    ///   - type: The destination type to observe.
    ///   - observe: Called on the main actor with each observation.
    /// - Returns: The registration that removes the observer.
    @MainActor
    @discardableResult
    public func addObserver<Observed>(
        for type: Observed.Type,
        _ observe: @escaping @MainActor (ViewRouteObservation<Observed>) -> Void
    ) -> ViewRouteObserverRegistration {
        let observer = ViewRouteObserver { event, destination, source, route in
            guard let observed = destination as? Observed else { return }
            observe(ViewRouteObservation(event: event, destination: observed, source: source, route: route))
        }
        storage.views.observers.append(observer)
        return ViewRouteObserverRegistration(observer, of: storage.views)
    }
}

/// An observer added with ``Router/addObserver(for:_:)``, which ``remove()`` removes.
///
/// ```swift
/// let registration = router.addObserver(for: (any EditorView).self) { observation in
///     analytics.log("\(observation.event) \(observation.route)")
/// }
/// // … when the feature that observes goes away:
/// registration.remove()
/// ```
///
/// A registration keeps neither the router nor the observer alive: it holds them weakly. Letting go
/// of it does not remove the observer, which is then told until the router goes; so ignore the
/// registration of an observer meant to last as long as the router.
@MainActor
public struct ViewRouteObserverRegistration: Sendable {
    private weak var observer: ViewRouteObserver?
    private weak var views: ViewRoutingState?

    init(_ observer: ViewRouteObserver, of views: ViewRoutingState) {
        self.observer = observer
        self.views = views
    }

    /// Removes the observer: it is told nothing more, even of an event its router is telling
    /// observers of, and the router lets go of its closure and what the closure captures. Removing it
    /// again, or once the router is gone, does nothing.
    public func remove() {
        guard let observer else { return }
        views?.remove(observer)
    }
}

/// An observer, erased to the objects it is told about; `nil` once removed.
@MainActor
final class ViewRouteObserver {
    var tell: (@MainActor (ViewRouteEvent, AnyObject, AnyObject?, String) -> Void)?

    init(_ tell: @escaping @MainActor (ViewRouteEvent, AnyObject, AnyObject?, String) -> Void) { self.tell = tell }
}
