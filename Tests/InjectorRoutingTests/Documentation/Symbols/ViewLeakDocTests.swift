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

// The swift block of the doc comment of `Router/leakHandler`, verbatim, on a manual clock, with
// what the comment says: a screen still alive 2 seconds (the default grace period) after its route
// was removed is reported; a singleton's is not. The snippet's `assertionFailure` is this file's,
// which records the message instead of stopping the tests.

/// What the snippet's `assertionFailure` was called with, in this file.
@MainActor private var failures: [String] = []
@MainActor private func assertionFailure(_ message: String) { failures.append(message) }

@MainActor
@Suite(.serialized)
struct ViewLeakDocTests {
    let home = HomeScreen()
    let clock = ManualClock()

    /// Lets the leak check run until it sleeps on the clock, then past its wake-up, however late it
    /// runs (see `ManualClock.untilIdle()`).
    private func advancePastTheGracePeriod() async {
        await clock.untilIdle()
        clock.advance(by: .seconds(2))
        await clock.untilIdle()
    }

    @Test func aScreenStillAliveTwoSecondsAfterItsRouteWasRemovedIsReported() async throws {
        failures = []
        let router = Router(
            container: Container(),
            host: HeadlessNavigationHost(navigationStackWith: home),
            clock: clock
        )
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        router.leakHandler = { leak in assertionFailure(leak.description) }
        #expect(router.leakGracePeriod == .seconds(2))

        var kept: (any EditorView)?  // something that keeps the screen past its removal
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { kept = $0 }
        }
        try route.removeRoute()
        await advancePastTheGracePeriod()

        #expect(kept != nil)
        #expect(
            failures == [
                "EditorScreen of RoutableView<EditorView> is still alive 2.0 seconds after its route was removed: "
                    + "something still holds it (a closure capturing it strongly, a delegate, a cache). Fix: hold it "
                    + "weakly, or let go of it when the screen goes away."
            ]
        )
    }

    @Test func aWeakRegistrationsScreenIsNeverReported() async throws {
        failures = []
        let router = Router(
            container: Container(),
            host: HeadlessNavigationHost(navigationStackWith: home),
            clock: clock
        )
        router.register(RoutableView<any BadgeView>(), scope: .weak) { _ in BadgeScreen() }
        router.leakHandler = { leak in assertionFailure(leak.description) }

        var kept: (any BadgeView)?
        let route = try router.perform(to: RoutableView<any BadgeView>(), path: .push(from: home)) { config in
            config.successHandler = { kept = $0 }
        }
        try route.removeRoute()
        await clock.untilIdle()
        clock.advance(by: .seconds(2))
        await clock.untilIdle()

        #expect(kept != nil)
        #expect(clock.sleeperCount == 0)
        #expect(failures.isEmpty)
    }

    @Test func aSingletonScreenIsNeverReported() async throws {
        failures = []
        let router = Router(
            container: Container(),
            host: HeadlessNavigationHost(navigationStackWith: home),
            clock: clock
        )
        router.register(RoutableView<any PanelView>(), scope: .singleton) { _ in PanelScreen() }
        router.leakHandler = { leak in assertionFailure(leak.description) }

        let route = try router.perform(to: RoutableView<any PanelView>(), path: .push(from: home))
        try route.removeRoute()
        await clock.untilIdle()
        clock.advance(by: .seconds(2))
        await clock.untilIdle()

        #expect(clock.sleeperCount == 0)
        #expect(failures.isEmpty)
    }
}
