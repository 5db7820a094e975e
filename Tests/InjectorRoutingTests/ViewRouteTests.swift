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

/// The router's side of view routing, on a recording host: the lifecycle, handler and observer
/// order, refusals and one transition at a time.
@MainActor
@Suite struct ViewRouteTests {
    let home = HomeScreen()
    let host = RecordingHost()
    let made = Counter()

    private func makeRouter(supportedPaths: ViewRoutePaths = .screenTransitions) -> Router {
        let router = Router(container: Container(), host: host)
        let made = made
        router.register(RoutableView<any EditorView>(), supportedPaths: supportedPaths) { _ in
            EditorScreen(serial: made.next())
        }
        return router
    }

    @Test func theSuccessHandlerSeesTheScreenPreparedAndShownOnTheMainActor() throws {
        let router = makeRouter()
        var seen: [String] = []  // main-actor state, touched by the handlers directly

        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.prepareDestination = { $0.title = "Groceries" }
            config.successHandler = { editor in seen.append("success: \(editor.title), shown: \(self.host.shown.count)")
            }
        }

        #expect(seen == ["success: Groceries, shown: 1"])
        #expect(route.state == .routed)
        #expect(host.log == ["perform push EditorScreen #1 from HomeScreen"])
        #expect(route.destination?.title == "Groceries")
    }

    @Test func aFailedMakeShowsNothingAndLeavesTheRouteUnrouted() throws {
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in throw TestFailure("no editor today") }
        let route = try router.to(RoutableView<any EditorView>(), path: .push(from: home))

        let error = try #require(routingError { try route.perform() })

        #expect(error.code == .destinationUnavailable)
        #expect(error.message.contains("no editor today"))
        #expect(route.state == .unrouted)
        #expect(host.log.isEmpty)
    }

    @Test func afterRemovalAPerformShowsAFreshScreen() throws {
        let router = makeRouter()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))

        try route.removeRoute()
        #expect(route.state == .removed)
        try route.perform()

        #expect(route.state == .routed)
        #expect(
            host.log == [
                "perform push EditorScreen #1 from HomeScreen", "undo push EditorScreen #1 from HomeScreen",
                "perform push EditorScreen #2 from HomeScreen",
            ]
        )
    }

    @Test func performingAShownRouteIsRefusedAndItStaysRouted() throws {
        let router = makeRouter()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))

        let error = try #require(routingError { try route.perform() })

        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<EditorView> is shown already (its state is routed). Fix: remove it first "
                + "(removeRoute()), then perform it again."
        )
        #expect(route.state == .routed)
        #expect(host.log.count == 1)
    }

    @Test func providerHandlersFireOnEveryPerformAndPerformerHandlersOnceAcrossARemoval() throws {
        let router = makeRouter()
        let log = EventLog()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { _ in log.record("provider") }
            config.performerSuccessHandler = { _ in log.record("performer") }
        }
        try route.removeRoute()

        try route.perform()

        #expect(log.entries == ["provider", "performer", "provider"])
    }

    @Test func makingAViewPreparesItWithoutShowingIt() throws {
        let router = makeRouter()
        let observed = EventLog()
        router.addObserver(for: (any EditorView).self) { observed.record("\($0.event)") }

        let editor = try router.makeDestination(to: RoutableView<any EditorView>()) { config in
            config.prepareDestination = { $0.title = "Draft" }
        }
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .makeDestination)

        #expect(editor.title == "Draft")
        #expect(route.state == .routed)
        #expect(!route.canRemove)
        #expect(route.removalRefusal == "it made EditorScreen #2 without showing it (makeDestination)")
        let refused = try #require(routingError { try route.removeRoute() })
        #expect(refused.code == .actionFailed)
        #expect(
            refused.message
                == "RoutableView<EditorView> cannot be removed: it made EditorScreen #2 without showing it (makeDestination)."
        )
        #expect(host.log.isEmpty)
        #expect(observed.entries.isEmpty)
    }

    @Test func observersAreToldInTheFixedSequenceInTheOrderTheyWereAdded() throws {
        let router = makeRouter()
        let log = EventLog()
        let performed = host.performed
        router.addObserver(for: (any EditorView).self) { observation in
            log.record("by protocol: \(observation.event) from \(observation.source.map { "\($0)" } ?? "-")")
        }
        router.addObserver(for: EditorScreen.self) { log.record("by type: \($0.event)") }
        router.addObserver(for: SignInViewScreen.self) { log.record("never: \($0.event)") }

        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.prepareDestination = { _ in log.record("caller preparation") }
            config.stateNotifier = { old, new in log.record("state \(old) -> \(new)") }
            config.successHandler = { _ in log.record("success, host performed \(performed.value)") }
        }
        try route.removeRoute(successHandler: { log.record("removed") })

        #expect(
            log.entries == [
                "state unrouted -> routing", "caller preparation", "by protocol: willPerform from HomeScreen",
                "by type: willPerform", "state routing -> routed", "by protocol: didPerform from HomeScreen",
                "by type: didPerform", "success, host performed 1", "state routed -> removing",
                "by protocol: willRemove from HomeScreen", "by type: willRemove", "state removing -> removed",
                "by protocol: didRemove from HomeScreen", "by type: didRemove", "removed",
            ]
        )
    }

    @Test func theRouteIsRoutingUntilTheHostEndsTheTransitionAndAnotherTransitionMeanwhileIsUnbalanced() throws {
        let router = makeRouter()
        host.completesAtOnce = false
        let log = EventLog()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { _ in log.record("success") }
        }
        #expect(route.state == .routing)
        #expect(log.entries.isEmpty)

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .presentModally(from: home)) }
        )
        #expect(error.code == .unbalancedTransition)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be performed while RoutableView<EditorView> is still in flight: one "
                + "view transition at a time per router. Fix: perform or remove it from the other route's success "
                + "handler, once its transition has ended."
        )

        host.completePending()
        #expect(route.state == .routed)
        #expect(log.entries == ["success"])
        try router.perform(to: RoutableView<any EditorView>(), path: .presentModally(from: home))
    }

    @Test func performingARouteWhoseRemovalIsInFlightFails() throws {
        let router = makeRouter()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        host.completesAtOnce = false
        try route.removeRoute()
        #expect(route.state == .removing)

        let error = try #require(routingError { try route.perform() })

        #expect(error.code == .unbalancedTransition)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be performed while RoutableView<EditorView> is still in flight: one "
                + "view transition at a time per router. Fix: perform or remove it from the other route's success "
                + "handler, once its transition has ended."
        )
        host.completePending()
        #expect(route.state == .removed)
    }

    @Test func aRefusedTransitionChangesNothingAndTellsNoObserver() throws {
        let router = makeRouter()
        let observed = EventLog()
        router.addObserver(for: (any EditorView).self) { observed.record("\($0.event)") }
        host.refuseNextPerform = ViewTransitionRefusal(.noNavigationStack, "HomeScreen is in no navigation stack")
        let route = try router.to(RoutableView<any EditorView>(), path: .push(from: home))

        let error = try #require(routingError { try route.perform() })

        #expect(error.code == .invalidSource)
        #expect(
            error.message
                == "RoutableView<EditorView> could not be performed on the path push(from: HomeScreen): HomeScreen is in no navigation "
                + "stack"
        )
        #expect(route.state == .unrouted)
        #expect(host.log.isEmpty)
        #expect(observed.entries.isEmpty)
    }

    @Test(arguments: [
        (ViewTransitionRefusal.Reason.destinationAlreadyShown, RoutingError.Code.destinationAlreadyShown),
        (.undeclaredSegue, .segueNotPerformed),
        (.alreadyPresenting, .invalidSource),
        (.sourceNotInHierarchy, .invalidSource),
        (.noSplitScreen, .invalidSource),
        (.unsupportedStyle, .actionFailed),
    ])
    func aHostsRefusalBecomesItsRoutingErrorCode(reason: ViewTransitionRefusal.Reason, code: RoutingError.Code) throws {
        let router = makeRouter()
        host.refuseNextPerform = ViewTransitionRefusal(reason, "the host says no")

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .presentModally(from: home)) }
        )

        #expect(error.code == code)
        #expect(
            error.message
                == "RoutableView<EditorView> could not be performed on the path presentModally(from: HomeScreen): the host says no"
        )
    }

    @Test func aSourceThatIsGoneIsInvalidSource() throws {
        let router = makeRouter()
        var source: HomeScreen? = HomeScreen()
        let path = ViewRoutePath.push(from: source!)
        source = nil

        let error = try #require(routingError { try router.perform(to: RoutableView<any EditorView>(), path: path) })

        #expect(error.code == .invalidSource)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be performed on the path push(from: HomeScreen): the source HomeScreen is gone (deallocated). "
                + "Fix: perform from a screen that is alive and shown."
        )
    }

    @Test func aPathTheRouteDoesNotSupportIsRefused() throws {
        let router = makeRouter(supportedPaths: [.push, .makeDestination])

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .presentAsSheet(from: home)) }
        )

        #expect(error.code == .unsupportedPath)
        #expect(
            error.message
                == "RoutableView<EditorView> does not support the path presentAsSheet(from: HomeScreen): it supports "
                + "push and makeDestination. Fix: use one of those, or add .presentAsSheet to the route's supportedPaths."
        )
        #expect(host.log.isEmpty)
    }

    @Test func aRemovalTheHostRefusesSaysWhyAndKeepsTheRouteRouted() throws {
        let router = makeRouter()
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        host.refuseUndo = ViewTransitionRefusal(.notShown, "EditorScreen #1 was popped with the screen below it")

        #expect(!route.canRemove)
        #expect(route.removalRefusal == "EditorScreen #1 was popped with the screen below it")
        let error = try #require(routingError { try route.removeRoute() })

        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be removed: EditorScreen #1 was popped with the screen below it."
        )
        #expect(route.state == .routed)
    }

    @Test func removingARouteNeverShownOrAlreadyRemovedFails() throws {
        let router = makeRouter()
        let route = try router.to(RoutableView<any EditorView>(), path: .push(from: home))

        let never = try #require(routingError { try route.removeRoute() })
        try route.perform()
        try route.removeRoute()
        let twice = try #require(routingError { try route.removeRoute() })

        #expect(never.code == .actionFailed)
        #expect(
            never.message
                == "RoutableView<EditorView> cannot be removed: its state is unrouted, and only a routed route can be "
                + "removed."
        )
        #expect(twice.message.hasSuffix("its state is removed, and only a routed route can be removed."))
    }

    @Test func aRouterWithoutAHostCannotShowAScreen() throws {
        let router = Router(container: Container())
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be performed on the path push(from: HomeScreen): the router has no navigation host. Fix: make "
                + "the router with one, Router(container:host:), such as a HeadlessNavigationHost or your app's UIKit "
                + "host."
        )
    }

    @Test func aScreenMadeElsewhereIsPreparedAtOnceAndShownWithTheFullPipeline() throws {
        let router = makeRouter()
        let log = EventLog()
        router.addObserver(for: (any EditorView).self) { log.record("\($0.event)") }
        let storyboardMade = EditorScreen(serial: 99)

        let prepared = try router.prepare(destination: storyboardMade, for: RoutableView<any EditorView>()) { config in
            config.prepareDestination = { $0.title = "prepared" }
        }
        let shown = try router.perform(
            onDestination: storyboardMade,
            for: RoutableView<any EditorView>(),
            path: .push(from: home)
        )

        #expect(made.value == 0)  // the factory never ran
        #expect(storyboardMade.title == "prepared")
        #expect(prepared.state == .routed && !prepared.canRemove)
        #expect(shown.state == .routed && shown.canRemove)
        #expect(host.log == ["perform push EditorScreen #99 from HomeScreen"])
        #expect(log.entries == ["willPerform", "didPerform"])
    }

    /// The screen given to `perform(onDestination:)` is the caller's own, not the instance a scoped or
    /// singleton registration shares: the caller's preparation is no concern of other callers, as
    /// `prepare(destination:for:)` already allows.
    @Test func aScreenGivenToPerformOnDestinationOfASharedRouteTakesTheCallersPreparation() throws {
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>(), scope: .scoped) { _ in EditorScreen(serial: 1) }
        let storyboardMade = EditorScreen(serial: 99)
        let alsoStoryboardMade = EditorScreen(serial: 98)
        _ = try router.prepare(destination: alsoStoryboardMade, for: RoutableView<any EditorView>()) { config in
            config.prepareDestination = { $0.title = "prepared" }
        }

        let route = try router.perform(
            onDestination: storyboardMade,
            for: RoutableView<any EditorView>(),
            path: .push(from: home)
        ) { config in
            config.prepareDestination = { $0.title = "prepared" }
        }

        #expect(alsoStoryboardMade.title == "prepared")
        #expect(storyboardMade.title == "prepared")
        #expect(route.state == .routed)
    }

    @Test func anInterceptorRedirectShowsTheOtherScreenAlongTheOriginalPath() throws {
        let router = makeRouter()
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        router.addInterceptor(named: "sign-in") { request in
            request.isRouting(to: RoutableView<any EditorView>())
                ? .redirect(to: RoutableView<any SignInView>(), style: .presentModally) : .proceed
        }
        let route = try router.to(RoutableView<any EditorView>(), path: .push(from: home))

        let error = try #require(routingError { try route.perform() })

        #expect(error.code == .redirected)
        #expect(route.state == .unrouted)
        #expect(host.log == ["perform presentModally SignInScreen from HomeScreen"])
        #expect(made.value == 0)
    }

    @Test func aDeepLinkShowsTheRouteItsURLMatchesWithTheURLsParameters() throws {
        let router = makeRouter()
        router.register(RoutableView<any NoteView>()) { (_, parameters: RouteParameters) in
            NoteScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("app://notes/:id")

        let route = try router.perform(url: "app://notes/42", path: .show(from: home))

        #expect((route.destination as? NoteScreen)?.noteID == 42)
        #expect(host.log == ["perform push NoteScreen #42 from HomeScreen"])  // show, performed as a push
        let service = try #require(routingError { _ = try router.makeDestination(url: "app://notes/42", as: Any.self) })
        #expect(service.code == .invalidConfiguration)
        #expect(service.message.hasPrefix("The URL \"app://notes/42\" matches RoutableView<NoteView>, a view route"))
    }

    @Test func aRouteWithItsOwnTransitionPerformsAndRemovesIt() throws {
        let router = Router(container: Container(), host: host)
        let log = EventLog()
        router.register(RoutableView<any EditorView>(), route: TabRoute(log: log))

        let route = try router.perform(to: RoutableView<any EditorView>(), path: .custom(from: home))
        try route.removeRoute()

        #expect(log.entries == ["select EditorScreen #7 from HomeScreen", "deselect EditorScreen #7"])
        #expect(host.log.isEmpty)
        #expect(route.state == .removed)
        let unsupported = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) }
        )
        #expect(unsupported.code == .unsupportedPath)
    }
}

/// A route that shows its screen its own way, as a tab bar would.
private struct TabRoute: ViewRouteDefinition {
    let log: EventLog
    /// The tab bar, which holds the selected screen as a platform's would.
    let tabs = Keeper<AnyObject>()
    var supportedPaths: ViewRoutePaths { [.custom] }

    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> EditorScreen {
        EditorScreen(serial: 7)
    }

    @MainActor func performCustomTransition(
        _ destination: EditorScreen,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        log.record("select \(destination) from \(source)")
        tabs.keep(destination)
        completion()
    }

    @MainActor func removeCustomTransition(
        _ destination: EditorScreen,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        log.record("deselect \(destination)")
        completion()
    }
}
