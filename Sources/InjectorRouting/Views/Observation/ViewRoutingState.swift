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

/// What one router keeps for view routing, on the main actor: the transition in flight, the
/// observers, and the leak handler with its grace period.
@MainActor
final class ViewRoutingState {
    /// The view route whose perform or removal is under way, from its start (preparation included)
    /// until its transition has ended: another view perform or removal meanwhile is unbalanced.
    private var transition: (route: ObjectIdentifier, label: String)?
    var observers: [ViewRouteObserver] = []
    var leakHandler: (@MainActor (ViewLeak) -> Void)?
    var leakGracePeriod: Duration = .seconds(2)

    nonisolated init() {}

    /// The route whose transition is in flight, as messages name it.
    var inFlight: String? { transition?.label }

    /// Marks `route`'s transition in flight.
    func begin(_ route: AnyObject, label: String) { transition = (ObjectIdentifier(route), label) }

    /// Lets a route an interceptor redirected to take over the transition of the route it was
    /// redirected from.
    func handOver() { transition = nil }

    /// Marks `route`'s transition ended, unless another route's began since (one an interceptor
    /// redirected to, say).
    func end(_ route: AnyObject) {
        if transition?.route == ObjectIdentifier(route) { transition = nil }
    }

    /// Tells every observer whose type `destination` is, in the order they were added.
    func tell(_ event: ViewRouteEvent, destination: AnyObject, source: AnyObject?, route: String) {
        for observer in observers { observer.tell(event, destination, source, route) }
    }
}
