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
    var inFlight: String?
    var observers: [ViewRouteObserver] = []
    var leakHandler: (@MainActor (ViewLeak) -> Void)?
    var leakGracePeriod: Duration = .seconds(2)

    nonisolated init() {}

    /// Tells every observer whose type `destination` is, in the order they were added.
    func tell(_ event: ViewRouteEvent, destination: AnyObject, source: AnyObject?, route: String) {
        for observer in observers { observer.tell(event, destination, source, route) }
    }
}
