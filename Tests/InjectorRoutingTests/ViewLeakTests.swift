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

/// Leak checks after a view route's removal, on a manual clock: never by sleeping.
@MainActor
@Suite struct ViewLeakTests {
    let home = HomeScreen()
    let host = RecordingHost()
    let clock = ManualClock()

    /// The leak message of an editor screen kept past its removal.
    private static let editorLeak =
        "EditorScreen of RoutableView<EditorView> is still alive 2.0 seconds after its route was removed: "
        + "something still holds it (a closure capturing it strongly, a delegate, a cache). Fix: hold it weakly, "
        + "or let go of it when the screen goes away."

    /// The leak message of a sign-in screen kept past its scope's close.
    private static let signInLeak =
        "SignInViewScreen of RoutableView<SignInView> is still alive 2.0 seconds after its route was removed and "
        + "its lifetime scope closed: something still holds it (a closure capturing it strongly, a delegate, a "
        + "cache). Fix: hold it weakly, or let go of it when the screen goes away."

    private func makeRouter(leaks: EventLog) -> Router {
        let router = Router(container: Container(), host: host, clock: clock)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        router.register(RoutableView<any PanelView>(), scope: .singleton) { _ in PanelScreen() }
        router.register(RoutableView<any BadgeView>(), scope: .weak) { _ in BadgeScreen() }
        router.leakHandler = { leak in leaks.record(leak.description) }
        return router
    }

    /// Lets the leak check's task run until it sleeps on the clock (or `count` sleepers are waiting).
    private func untilSleeping(_ count: Int = 1) async {
        for _ in 0..<10_000 where clock.sleeperCount < count { await Task.yield() }
    }

    /// Advances the clock through the 2-second grace period: nothing is in `leaks` after the first
    /// second, `expected` after the second.
    private func expectReported(
        _ expected: [String],
        after leaks: EventLog,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await untilSleeping()
        clock.advance(by: .seconds(1))
        await settle()
        #expect(leaks.entries.isEmpty, "reported within the grace period", sourceLocation: sourceLocation)
        clock.advance(by: .seconds(1))
        await settle()
        #expect(leaks.entries == expected, sourceLocation: sourceLocation)
    }

    /// Lets the woken leak check finish.
    private func settle() async {
        for _ in 0..<100 { await Task.yield() }
    }

    @Test func aScreenStillAliveAfterTheGracePeriodIsReportedWithItsRouteAndType() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        let holder = Keeper<any EditorView>()  // something that keeps the screen past its removal
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { holder.keep($0) }
        }
        try route.removeRoute()
        await expectReported([Self.editorLeak], after: leaks)
    }

    @Test func aScreenThatWentAwayIsNotReported() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        try route.removeRoute()
        await untilSleeping()

        clock.advance(by: .seconds(5))
        await settle()

        #expect(leaks.entries.isEmpty)
        #expect(route.destination == nil)
    }

    @Test func aScreenGivenToPerformOnDestinationIsNotKeptByItsRoute() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
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
        await untilSleeping()
        clock.advance(by: .seconds(2))
        await settle()

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

    @Test func singletonAndWeakScreensAreNotChecked() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        let panel = try router.perform(to: RoutableView<any PanelView>(), path: .push(from: home))
        let badge = try router.perform(to: RoutableView<any BadgeView>(), path: .presentModally(from: home))
        let kept = (panel.destination, badge.destination)
        try panel.removeRoute()
        try badge.removeRoute()

        await settle()
        clock.advance(by: .seconds(5))
        await settle()

        #expect(clock.sleeperCount == 0)
        #expect(leaks.entries.isEmpty)
        withExtendedLifetime(kept) {}
    }

    @Test func aScopedScreenItsOpenScopeHoldsIsNotReportedButATransientOneStillIs() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let inSession = router.resolving(in: session)
        let holder = Keeper<any EditorView>()
        let signIn = try inSession.perform(to: RoutableView<any SignInView>(), path: .presentModally(from: home))
        let editor = try inSession.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { holder.keep($0) }
        }
        weak let screen = signIn.destination as? SignInViewScreen
        try signIn.removeRoute()  // the scope keeps the sign-in screen until it closes: no leak
        try editor.removeRoute()  // the holder keeps the transient editor: a leak
        await untilSleeping()

        clock.advance(by: .seconds(2))
        await settle()

        #expect(screen != nil)
        #expect(leaks.entries == [Self.editorLeak])
        try await session.closeAsync()
    }

    @Test func aScreenScopedToATaggedScopeIsNotReportedWhileItsScopeIsOpen() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped(to: "session")) { _ in SignInViewScreen() }
        let session = router.container.makeScope(tag: "session")
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        )
        weak let screen = signIn.destination as? SignInViewScreen
        try signIn.removeRoute()

        await settle()
        clock.advance(by: .seconds(5))
        await settle()

        #expect(clock.sleeperCount == 0)
        #expect(screen != nil)
        #expect(leaks.entries.isEmpty)
        try await session.closeAsync()
    }

    @Test func aScopedScreenStillAliveAfterItsScopeClosedIsReported() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped(to: "session")) { _ in SignInViewScreen() }
        let session = router.container.makeScope(tag: "session")
        let holder = Keeper<any SignInView>()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try signIn.removeRoute()
        await settle()
        #expect(clock.sleeperCount == 0)  // the open scope keeps it on purpose: no check yet

        try await session.closeAsync()
        await expectReported([Self.signInLeak], after: leaks)  // the grace period counted from the close
    }

    @Test func aScopedScreenThatGoesAwayWithItsScopeIsNotReported() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        )
        weak let screen = signIn.destination as? SignInViewScreen
        try signIn.removeRoute()
        #expect(screen != nil)  // its scope holds it

        try await session.closeAsync()
        await untilSleeping()
        clock.advance(by: .seconds(2))
        await settle()

        #expect(screen == nil)
        #expect(leaks.entries.isEmpty)
    }

    @Test func aScopedScreenRemovedAfterItsScopeClosedIsCheckedFromItsRemoval() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let holder = Keeper<any SignInView>()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try await session.closeAsync()  // the screen is still presented: not a leak
        await settle()
        #expect(clock.sleeperCount == 0)

        try signIn.removeRoute()
        await untilSleeping()
        clock.advance(by: .seconds(2))
        await settle()

        #expect(leaks.entries == [Self.signInLeak])
    }

    @Test func aScopedScreenIsNotCheckedWithoutALeakHandler() async throws {
        let router = Router(container: Container(), host: host, clock: clock)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        )
        try signIn.removeRoute()
        try await session.closeAsync()
        await settle()

        #expect(clock.sleeperCount == 0)
    }

    @Test func theGracePeriodCanBeSet() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.leakGracePeriod = .milliseconds(500)
        let holder = Keeper<any EditorView>()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { holder.keep($0) }
        }
        try route.removeRoute()
        await untilSleeping()

        clock.advance(by: .milliseconds(500))
        await settle()

        #expect(leaks.entries.count == 1)
        #expect(leaks.entries.first?.contains("still alive 0.5 seconds after") == true)
    }
    @Test func aScopedScreenPerformedAndRemovedTwiceInItsScopeIsReportedOnce() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let holder = Keeper<any SignInView>()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try signIn.removeRoute()
        try signIn.perform()  // the scope's one screen, shown again
        try signIn.removeRoute()

        try await session.closeAsync()
        await settle()
        await expectReported([Self.signInLeak], after: leaks)  // one screen, one leak
    }

    @Test func aScopedScreenShownByTwoRoutersOfItsScopeIsReportedOnce() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let holder = Keeper<any SignInView>()
        let first = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try first.removeRoute()
        let second = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        )
        try second.removeRoute()

        try await session.closeAsync()
        await settle()
        await expectReported([Self.signInLeak], after: leaks)
    }

    @Test func aScopedScreenShownAgainWhenItsScopeClosesIsNotReported() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        )
        weak let screen = signIn.destination as? SignInViewScreen
        try signIn.removeRoute()
        try signIn.perform()  // shown again: the host holds it, on purpose

        try await session.closeAsync()  // the screen is presented: not a leak
        await settle()
        clock.advance(by: .seconds(5))
        await settle()
        #expect(leaks.entries.isEmpty, "a screen on screen reported as a leak")

        try signIn.removeRoute()  // it goes away now: nothing holds it
        await settle()
        clock.advance(by: .seconds(5))
        await settle()
        #expect(screen == nil)
        #expect(leaks.entries.isEmpty)
    }
    /// A screen given to `perform(onDestination:)` is the caller's, not one the container keeps
    /// (its singleton, weak or scoped instance): it is checked from its removal, as a transient one.
    @Test func aScreenGivenToPerformOnDestinationOfASharedRouteIsCheckedFromItsRemoval() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
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
        await settle()
        clock.advance(by: .seconds(2))
        await settle()

        #expect(leaks.entries.count == 3)
        #expect(leaks.entries.allSatisfy { $0.contains("after its route was removed: ") })
    }
    @Test func aScopedScreenWhoseScopeClosesDuringItsRemovalIsCheckedFromTheRemovalsEnd() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let holder = Keeper<any SignInView>()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        host.completesAtOnce = false
        try signIn.removeRoute()  // in flight until the host completes it
        try await session.closeAsync()
        await settle()
        #expect(clock.sleeperCount == 0)

        host.completePending()
        await expectReported([Self.signInLeak], after: leaks)
    }

    @Test func aScopedScreenOfAChildContainersScopeIsCheckedWhenThatScopeCloses() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeChild().makeScope()
        let holder = Keeper<any SignInView>()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try signIn.removeRoute()
        try await session.closeAsync()
        await expectReported([Self.signInLeak], after: leaks)
    }

    @Test func aScopedScreenIsReportedToTheLeakHandlerSetWhenItsGracePeriodEnds() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let holder = Keeper<any SignInView>()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        ) { config in
            config.successHandler = { holder.keep($0) }
        }
        try signIn.removeRoute()
        router.leakHandler = nil
        let later = EventLog()
        router.leakHandler = { later.record($0.description) }
        router.leakGracePeriod = .seconds(1)
        try await session.closeAsync()
        await settle()
        clock.advance(by: .seconds(1))
        await settle()
        #expect(leaks.entries.isEmpty)
        #expect(later.entries.count == 1)
        #expect(
            later.entries.first?.contains("1.0 seconds after its route was removed and its lifetime scope closed")
                == true
        )
    }

    @Test func aScopedScreenOpenedByURLIsCheckedWhenItsScopeCloses() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
            .url("app://sign-in")
        let session = router.container.makeScope()
        let holder = Keeper<Any>()
        let signIn = try router.resolving(in: session).perform(url: "app://sign-in", path: .presentModally(from: home))
        { config in
            config.successHandler = { holder.keep($0) }
        }
        try signIn.removeRoute()
        await settle()
        #expect(clock.sleeperCount == 0)
        try await session.closeAsync()
        await expectReported(
            [Self.signInLeak.replacing("<SignInView>", with: "<SignInView> for \"app://sign-in\"")],
            after: leaks
        )
    }
    @Test func aScopedScreenTheRemovalsHandlerShowsAgainIsNotReportedWhenItsScopeCloses() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        )
        try signIn.removeRoute { try? signIn.perform() }  // shown again by the removal's own handler
        #expect(signIn.state == .routed)

        try await session.closeAsync()  // the screen is presented: not a leak
        await settle()
        clock.advance(by: .seconds(5))
        await settle()

        #expect(leaks.entries.isEmpty, "a screen on screen reported as a leak")
    }
    @Test func aScopedScreenAnotherRouterShowsWhenItsScopeClosesIsNotReported() async throws {
        let leaks = EventLog()
        let router = makeRouter(leaks: leaks)
        router.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let otherHome = HomeScreen()
        let otherWindow = Router(container: router.container.makeChild(), host: RecordingHost(), clock: clock)
        otherWindow.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        let session = router.container.makeScope()
        let signIn = try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: home)
        )
        try signIn.removeRoute()
        let shownElsewhere = try otherWindow.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: otherHome)
        )
        weak let screen = shownElsewhere.destination as? SignInViewScreen
        #expect(screen != nil)

        try await session.closeAsync()  // the screen is presented in the other window: not a leak
        await settle()
        clock.advance(by: .seconds(5))
        await settle()

        #expect(leaks.entries.isEmpty, "a screen on screen reported as a leak")
    }
}
