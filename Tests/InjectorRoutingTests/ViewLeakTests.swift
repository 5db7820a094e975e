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

/// Leak checks after a view route's removal, on a manual clock: never by sleeping. (Scoped screens:
/// `ScopedViewLeakTests`.)
@MainActor
@Suite struct ViewLeakTests {
    let home = HomeScreen()
    let host = RecordingHost()
    let watch = LeakWatch(clock: ManualClock())

    var clock: ManualClock { watch.clock }
    var leaks: EventLog { watch.leaks }

    /// The leak message of an editor screen kept past its removal.
    private static let editorLeak =
        "EditorScreen of RoutableView<EditorView> is still alive 2.0 seconds after its route was removed: "
        + "something still holds it (a closure capturing it strongly, a delegate, a cache). Fix: hold it weakly, "
        + "or let go of it when the screen goes away."

    private func makeRouter() -> Router {
        let router = Router(container: Container(), host: host, clock: clock)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        router.register(RoutableView<any PanelView>(), scope: .singleton) { _ in PanelScreen() }
        router.register(RoutableView<any BadgeView>(), scope: .weak) { _ in BadgeScreen() }
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        router.leakHandler = { [leaks] leak in leaks.record(leak.description) }
        return router
    }

    @Test func aScreenStillAliveAfterTheGracePeriodIsReportedWithItsRouteAndType() async throws {
        let router = makeRouter()
        let holder = Keeper<any EditorView>()  // something that keeps the screen past its removal
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { holder.keep($0) }
        }
        try route.removeRoute()
        await watch.expectReported([Self.editorLeak])
    }

    @Test func aClockAdvancedRightAfterTheRemovalReportsTheLeakAtTheNextYield() async throws {
        let router = makeRouter()
        let holder = Keeper<any EditorView>()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { holder.keep($0) }
        }

        try route.removeRoute()
        clock.advance(by: .seconds(2))  // before the check's task has run: the period began at the removal
        await watch.settle()

        #expect(leaks.entries == [Self.editorLeak])
    }

    @Test func theLeakHandlerReachesTheScreenStillAliveWithoutKeepingIt() async throws {
        let router = makeRouter()
        let holder = Keeper<any EditorView>()
        let reached = Keeper<AnyObject>()
        router.leakHandler = { leak in if let screen = leak.destination { reached.keep(screen) } }
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { holder.keep($0) }
        }

        try route.removeRoute()
        await watch.untilSleeping()
        clock.advance(by: .seconds(2))
        await watch.settle()

        #expect(reached.kept.count == 1)
        #expect(reached.kept.first === holder.kept.first.map { $0 as AnyObject })
    }

    @Test func aScreenThatWentAwayIsNotReported() async throws {
        let router = makeRouter()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        try route.removeRoute()
        await watch.untilSleeping()

        clock.advance(by: .seconds(5))
        await watch.settle()

        #expect(leaks.entries.isEmpty)
        #expect(route.destination == nil)
    }

    @Test func aScreenGivenToPerformOnDestinationIsNotKeptByItsRoute() async throws {
        let router = makeRouter()
        weak var screen: EditorScreen?
        let route: ViewRoute<any EditorView>
        do {
            let given = EditorScreen(serial: 9)
            screen = given
            route = try router.perform(
                onDestination: given,
                for: RoutableView<any EditorView>(),
                path: .push(from: home)
            )
        }
        try route.removeRoute()
        await watch.untilSleeping()
        clock.advance(by: .seconds(2))
        await watch.settle()

        #expect(screen == nil)
        #expect(leaks.entries.isEmpty)
        let error = try #require(routingError { try route.perform() })
        #expect(error.code == .destinationUnavailable)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be performed again: the screen it was given "
                + "(perform(onDestination:for:path:)) is gone (deallocated), and the route holds it weakly. Fix: "
                + "perform onDestination with the screen to show."
        )
    }

    @Test func aScreenShownAgainWithinTheGracePeriodIsNotReportedWhileShown() async throws {
        let router = makeRouter()
        let editor = EditorScreen(serial: 7)  // the caller's own screen, which it shows twice
        let first = try router.perform(
            onDestination: editor,
            for: RoutableView<any EditorView>(),
            path: .push(from: home)
        )
        try first.removeRoute()
        await watch.untilSleeping()
        let again = try router.perform(
            onDestination: editor,
            for: RoutableView<any EditorView>(),
            path: .push(from: home)
        )

        clock.advance(by: .seconds(2))
        await watch.settle()
        #expect(leaks.entries.isEmpty)  // shown again: the first removal's check is dropped

        try again.removeRoute()  // the caller still holds it
        await watch.expectReported([Self.editorLeak])
    }

    @Test func singletonAndWeakScreensAreNotChecked() async throws {
        let router = makeRouter()
        let panel = try router.perform(to: RoutableView<any PanelView>(), path: .push(from: home))
        let badge = try router.perform(to: RoutableView<any BadgeView>(), path: .presentModally(from: home))
        let kept = (panel.destination, badge.destination)
        try panel.removeRoute()
        try badge.removeRoute()

        await watch.settle()
        clock.advance(by: .seconds(5))
        await watch.settle()

        #expect(clock.sleeperCount == 0)
        #expect(leaks.entries.isEmpty)
        withExtendedLifetime(kept) {}
    }

    @Test func theGracePeriodCanBeSet() async throws {
        let router = makeRouter()
        router.leakGracePeriod = .milliseconds(500)
        let holder = Keeper<any EditorView>()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { holder.keep($0) }
        }
        try route.removeRoute()
        await watch.untilSleeping()

        clock.advance(by: .milliseconds(500))
        await watch.settle()

        #expect(leaks.entries.count == 1)
        #expect(leaks.entries.first?.contains("still alive 0.5 seconds after") == true)
    }

    /// A screen given to `perform(onDestination:)` is the caller's, not one the container keeps
    /// (its singleton, weak or scoped instance): it is checked from its removal, as a transient one.
    @Test func aScreenGivenToPerformOnDestinationOfASharedRouteIsCheckedFromItsRemoval() async throws {
        let router = makeRouter()
        let holder = Keeper<AnyObject>()  // something that keeps the given screens past their removal
        let panel = try router.perform(
            onDestination: PanelScreen(),
            for: RoutableView<any PanelView>(),
            path: .push(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try panel.removeRoute()
        let badge = try router.perform(
            onDestination: BadgeScreen(),
            for: RoutableView<any BadgeView>(),
            path: .push(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try badge.removeRoute()
        let signIn = try router.perform(
            onDestination: SignInViewScreen(),
            for: RoutableView<any SignInView>(),
            path: .push(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try signIn.removeRoute()
        await watch.settle()
        clock.advance(by: .seconds(2))
        await watch.settle()

        #expect(leaks.entries.count == 3)
        #expect(leaks.entries.allSatisfy { $0.contains("after its route was removed: ") })
    }
}
