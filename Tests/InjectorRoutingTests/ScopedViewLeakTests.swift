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
import Testing

@testable import InjectorRouting

/// Leak checks of scoped screens, which their lifetime scope keeps on purpose until it closes: a
/// scoped screen is checked once its route was removed and its scope closed, once however often it
/// was removed, and not while a route shows it again.
@MainActor
@Suite struct ScopedViewLeakTests {
    let home = HomeScreen()
    let host = RecordingHost()
    let watch = LeakWatch(clock: ManualClock())
    /// Keeps the screens handed to it past their removal: a leak once their scope closed.
    let holder = Keeper<any SignInView>()

    var clock: ManualClock { watch.clock }

    /// The leak message of a sign-in screen kept past its scope's close.
    static let signInLeak =
        "SignInViewScreen of RoutableView<SignInView> is still alive 2.0 seconds after its route was removed and "
        + "its lifetime scope closed: something still holds it (a closure capturing it strongly, a delegate, a "
        + "cache). Fix: hold it weakly, or let go of it when the screen goes away."

    /// A router whose sign-in screen (also at `app://sign-in`) is scoped as `scope` says, and whose
    /// editor is transient, with a scope tagged `tag` to resolve them in.
    private func makeSession(
        scope: ServiceScope<any SignInView> = .scoped,
        tag: ScopeTag? = nil,
        in container: Container = Container()
    ) -> (router: Router, session: LifetimeScope) {
        let router = Router(container: container, host: host, clock: clock)
        router.register(RoutableView<any SignInView>(), scope: scope) { _ in SignInViewScreen() }
            .url("app://sign-in")
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        router.leakHandler = { [leaks = watch.leaks] leak in leaks.record(leak.description) }
        return (router, container.makeScope(tag: tag))
    }

    /// Presents the sign-in screen of `session` through `router`; the holder keeps it if `kept`.
    private func presentSignIn(
        _ router: Router,
        in session: LifetimeScope,
        kept: Bool = false,
        from source: HomeScreen? = nil
    ) throws -> ViewRoute<any SignInView> {
        try router.resolving(in: session).perform(
            to: RoutableView<any SignInView>(),
            path: .presentModally(from: source ?? home)
        ) { [holder] config in
            if kept { config.successHandler = { holder.keep($0) } }
        }
    }

    @Test(arguments: [nil, "session"] as [ScopeTag?])
    func aScopedScreenStillAliveAfterItsScopeClosedIsReported(tag: ScopeTag?) async throws {
        let (router, session) = makeSession(scope: tag.map { .scoped(to: $0) } ?? .scoped, tag: tag)
        let signIn = try presentSignIn(router, in: session, kept: true)
        try signIn.removeRoute()
        await watch.expectNothingReported()
        #expect(clock.sleeperCount == 0)  // the open scope keeps it on purpose: no check yet

        try await session.closeAsync()

        await watch.expectReported([Self.signInLeak])  // the grace period counted from the close
    }

    @Test func aScopedScreenItsOpenScopeHoldsIsNotReportedButATransientOneStillIs() async throws {
        let (router, session) = makeSession()
        let signIn = try presentSignIn(router, in: session)
        let editors = Keeper<any EditorView>()
        let editor = try router.resolving(in: session).perform(
            to: RoutableView<any EditorView>(),
            path: .push(from: home)
        ) { config in
            config.successHandler = { editors.keep($0) }
        }
        weak let screen = signIn.destination as? SignInViewScreen
        try signIn.removeRoute()  // the scope keeps the sign-in screen until it closes: no leak
        try editor.removeRoute()  // the holder keeps the transient editor: a leak

        await watch.expectReported([
            "EditorScreen of RoutableView<EditorView> is still alive 2.0 seconds after its route was removed: "
                + "something still holds it (a closure capturing it strongly, a delegate, a cache). Fix: hold it "
                + "weakly, or let go of it when the screen goes away."
        ])
        #expect(screen != nil)
        try await session.closeAsync()
    }

    @Test func aScopedScreenThatGoesAwayWithItsScopeIsNotReported() async throws {
        let (router, session) = makeSession()
        let signIn = try presentSignIn(router, in: session)
        weak let screen = signIn.destination as? SignInViewScreen
        try signIn.removeRoute()
        #expect(screen != nil)  // its scope holds it

        try await session.closeAsync()
        await watch.untilSleeping()
        await watch.expectNothingReported()

        #expect(screen == nil)
    }

    @Test func checksWaitingForScopesDroppedUnclosedAreForgottenOnceTheirScreensAreGone() throws {
        // Takes each dead screen's memory, so that the next screen is not at the same address,
        // whose check would replace the last one (checks are by screen), as in an app.
        var fillers: [SignInViewScreen] = []
        for _ in 0..<300 {
            do {
                let (router, session) = makeSession()
                let signIn = try presentSignIn(router, in: session)
                try signIn.removeRoute()  // its check waits for `session` to close, which never comes
            }  // the session dropped unclosed, and its screen with it
            fillers.append(SignInViewScreen())
        }
        // Without the sweep, 300 checks would wait for ever (other tests' checks may add a few).
        #expect(ViewRoutingState.pendingLeakChecks < 150)
    }

    @Test func aScopedScreenRemovedAfterItsScopeClosedIsCheckedFromItsRemoval() async throws {
        let (router, session) = makeSession()
        let signIn = try presentSignIn(router, in: session, kept: true)
        try await session.closeAsync()  // the screen is still presented: not a leak
        await watch.settle()
        #expect(clock.sleeperCount == 0)

        try signIn.removeRoute()

        await watch.expectReported([Self.signInLeak])
    }

    @Test func aScopedScreenIsNotCheckedWithoutALeakHandler() async throws {
        let (router, session) = makeSession()
        router.leakHandler = nil
        let signIn = try presentSignIn(router, in: session, kept: true)
        try signIn.removeRoute()
        try await session.closeAsync()
        await watch.settle()

        #expect(clock.sleeperCount == 0)
    }

    @Test func aScopedScreenPerformedAndRemovedTwiceInItsScopeIsReportedOnce() async throws {
        let (router, session) = makeSession()
        let signIn = try presentSignIn(router, in: session, kept: true)
        try signIn.removeRoute()
        try signIn.perform()  // the scope's one screen, shown again
        try signIn.removeRoute()

        try await session.closeAsync()

        await watch.expectReported([Self.signInLeak])  // one screen, one leak
    }

    @Test func aScopedScreenShownByTwoRoutersOfItsScopeIsReportedOnce() async throws {
        let (router, session) = makeSession()
        try presentSignIn(router, in: session, kept: true).removeRoute()
        try presentSignIn(router, in: session).removeRoute()  // a second router over the scope: the same screen

        try await session.closeAsync()

        await watch.expectReported([Self.signInLeak])
    }

    @Test func aScopedScreenShownAgainWhenItsScopeClosesIsNotReportedWhileShown() async throws {
        let (router, session) = makeSession()
        let signIn = try presentSignIn(router, in: session)
        weak let screen = signIn.destination as? SignInViewScreen
        try signIn.removeRoute()
        try signIn.perform()  // shown again: the host holds it, on purpose

        try await session.closeAsync()
        await watch.expectNothingReported("a screen on screen reported as a leak")

        try signIn.removeRoute()  // it goes away now: nothing holds it
        await watch.expectNothingReported()
        #expect(screen == nil)
    }

    @Test func aScopedScreenTheRemovalsHandlerShowsAgainIsNotReportedWhenItsScopeCloses() async throws {
        let (router, session) = makeSession()
        let signIn = try presentSignIn(router, in: session)
        try signIn.removeRoute { try? signIn.perform() }  // shown again by the removal's own handler
        #expect(signIn.state == .routed)

        try await session.closeAsync()

        await watch.expectNothingReported("a screen on screen reported as a leak")
    }

    @Test func aScopedScreenAnotherRouterShowsWhenItsScopeClosesIsNotReported() async throws {
        let (router, _) = makeSession()
        // The other window's container is a child: a scope of it serves both routers.
        let otherContainer = router.container.makeChild()
        let session = otherContainer.makeScope()
        let otherWindow = Router(container: otherContainer, host: RecordingHost(), clock: clock)
        otherWindow.register(RoutableView<any SignInView>(), scope: .scoped) { _ in SignInViewScreen() }
        try presentSignIn(router, in: session).removeRoute()
        let shownElsewhere = try presentSignIn(otherWindow, in: session, from: HomeScreen())
        #expect(shownElsewhere.destination != nil)

        try await session.closeAsync()  // the screen is presented in the other window: not a leak

        await watch.expectNothingReported("a screen on screen reported as a leak")
    }

    @Test func aScopedScreenWhoseScopeClosesDuringItsRemovalIsCheckedFromTheRemovalsEnd() async throws {
        let (router, session) = makeSession()
        let signIn = try presentSignIn(router, in: session, kept: true)
        host.completesAtOnce = false
        try signIn.removeRoute()  // in flight until the host completes it
        try await session.closeAsync()
        await watch.settle()
        #expect(clock.sleeperCount == 0)

        host.completePending()

        await watch.expectReported([Self.signInLeak])
    }

    @Test func aScopedScreenOfAChildContainersScopeIsCheckedWhenThatScopeCloses() async throws {
        let parent = Container()
        let (router, _) = makeSession(in: parent)
        let session = parent.makeChild().makeScope()
        try presentSignIn(router, in: session, kept: true).removeRoute()

        try await session.closeAsync()

        await watch.expectReported([Self.signInLeak])
    }

    @Test func aScopedScreenIsReportedToTheLeakHandlerAndGracePeriodSetWhenItsScopeCloses() async throws {
        let (router, session) = makeSession()
        try presentSignIn(router, in: session, kept: true).removeRoute()
        let later = EventLog()
        router.leakHandler = { later.record($0.description) }
        router.leakGracePeriod = .seconds(1)

        try await session.closeAsync()
        await watch.untilSleeping()
        clock.advance(by: .seconds(1))
        await watch.settle()

        #expect(watch.leaks.entries.isEmpty)
        #expect(later.entries == [Self.signInLeak.replacing("2.0 seconds", with: "1.0 seconds")])
    }

    @Test func aScopedScreenOpenedByURLIsCheckedWhenItsScopeCloses() async throws {
        let (router, session) = makeSession()
        let kept = Keeper<Any>()
        try router.resolving(in: session).perform(url: "app://sign-in", path: .presentModally(from: home)) { config in
            config.successHandler = { kept.keep($0) }
        }.removeRoute()
        await watch.settle()
        #expect(clock.sleeperCount == 0)

        try await session.closeAsync()

        await watch.expectReported([
            Self.signInLeak.replacing("<SignInView>", with: "<SignInView> for \"app://sign-in\"")
        ])
    }
}
