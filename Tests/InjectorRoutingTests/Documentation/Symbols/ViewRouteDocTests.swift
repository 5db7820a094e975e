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
import InjectorRouting
import Testing

// The swift block of ViewRoute's doc comment, verbatim, on the fixtures' screens, and what the
// comment says: one view transition at a time per router, routing until the host says it has ended,
// removed before performed again, then a fresh destination along the same path.

@MainActor
struct ViewRouteDocTests {
    let home = HomeScreen()

    private func makeRouter(host: HeadlessNavigationHost) -> Router {
        let made = Counter()
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: made.next()) }
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        return router
    }

    @Test func aRouteThatCanBeRemovedIsRemovedByOneCallThatPopsBackToHome() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = makeRouter(host: host)

        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        // …
        #expect(
            host.description == "HomeScreen (root of a navigation stack)\n└─ EditorScreen #1 (pushed from HomeScreen)"
        )
        if route.canRemove { try route.removeRoute() }  // pops back to home

        #expect(route.state == .removed)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func anotherTransitionOnTheRouterWhileOneIsInFlightIsUnbalancedTransition() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home, completesTransitionsImmediately: false)
        let router = makeRouter(host: host)
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        #expect(route.state == .routing)

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any SignInView>(), path: .presentModally(from: home)) }
        )
        #expect(error.code == .unbalancedTransition)
        #expect(
            error.message
                == "RoutableView<SignInView> cannot be performed while RoutableView<EditorView> is still in flight: "
                + "one view transition at a time per router. Fix: perform or remove it from the other route's success "
                + "handler, once its transition has ended."
        )
        host.completePendingTransitions()
        #expect(route.state == .routed)
    }

    @Test func aShownRouteIsRemovedBeforeItIsPerformedAgainThenShowsAFreshDestinationAlongTheSamePath() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = makeRouter(host: host)
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))

        let error = try #require(routingError { try route.perform() })
        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<EditorView> is shown already (its state is routed). Fix: remove it first "
                + "(removeRoute()), then perform it again."
        )

        try route.removeRoute()
        try route.perform()
        #expect(
            host.description == "HomeScreen (root of a navigation stack)\n└─ EditorScreen #2 (pushed from HomeScreen)"
        )
    }
}
