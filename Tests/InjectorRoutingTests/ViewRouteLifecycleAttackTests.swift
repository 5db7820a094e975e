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

// A view route's lifecycle under attack (session 62): what its state notifier sees, a host that
// completes twice or never, a custom transition that completes then throws, a refused perform's
// path, and a deep link that matches nothing.

/// Holds a route for its own state notifier, which the configuration is given before the route exists.
@MainActor final class LifecycleRouteHolder {
    var route: ViewRoute<any EditorView>?
}

@Suite("A view route's lifecycle, attacked")
@MainActor
struct ViewRouteLifecycleAttackTests {
    // MARK: - The state notifier is told once the route's bookkeeping is done

    @Test func aStateNotifierToldRoutedSeesTheRouteShownAndRemovable() throws {
        let home = HomeScreen()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        let held = LifecycleRouteHolder()
        var seen: [String] = []
        let route = try router.to(RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.stateNotifier = { _, new in
                guard new == .routed, let route = held.route else { return }
                seen.append("destination: \(route.destination != nil), refusal: \(route.removalRefusal ?? "none")")
            }
        }
        held.route = route
        try route.perform()
        #expect(seen == ["destination: true, refusal: none"])
    }

    @Test func aStateNotifierToldRemovedSeesTheRouteGone() throws {
        let home = HomeScreen()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        let held = LifecycleRouteHolder()
        var seen: [String] = []
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.stateNotifier = { _, new in
                guard new == .removed, let route = held.route else { return }
                seen.append("destination: \(route.destination != nil), refusal: \(route.removalRefusal ?? "none")")
            }
        }
        held.route = route
        try route.removeRoute()
        #expect(seen == ["destination: false, refusal: its state is removed, and only a routed route can be removed"])
    }

    @Test func aStateNotifierToldRoutedCanShowTheNextScreen() throws {
        let home = HomeScreen()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        let outcome = try notifierOutcome(router, told: .routed, showing: home) { _ in }
        #expect(outcome == "shown")
        #expect(host.presentedScreen(of: home) is SignInViewScreen)
    }

    @Test func aStateNotifierToldRemovedCanShowAnotherScreen() throws {
        let home = HomeScreen()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        let outcome = try notifierOutcome(router, told: .removed, showing: home) { try $0?.removeRoute() }
        #expect(outcome == "shown")
        #expect(host.presentedScreen(of: home) is SignInViewScreen)
    }

    @Test func aStateNotifierToldAPerformFailedCanShowAnotherScreen() throws {
        let home = HomeScreen()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in throw TestFailure("no editor today") }
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        let outcome = try notifierOutcome(router, told: .unrouted, showing: home) { _ in }
        #expect(outcome == "shown")
        #expect(host.presentedScreen(of: home) is SignInViewScreen)
    }

    /// Performs an editor along a push from `home` (then `then` with its route), its state notifier,
    /// once told `state`, presenting sign-in from `home`: what that presentation came to.
    private func notifierOutcome(
        _ router: Router,
        told state: RouteState,
        showing home: HomeScreen,
        then: (ViewRoute<any EditorView>?) throws -> Void
    ) throws -> String {
        var outcome = "not told"
        let route = try? router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.stateNotifier = { _, new in
                guard new == state else { return }
                do {
                    try router.perform(to: RoutableView<any SignInView>(), path: .presentModally(from: home))
                    outcome = "shown"
                } catch let error as RoutingError {
                    outcome = "\(error.code): \(error.message)"
                } catch {
                    outcome = "\(error)"
                }
            }
        }
        try then(route)
        return outcome
    }
}

/// A host that calls a transition's completion twice, as a UIKit host whose animation completion and
/// coordinator completion both fire would.
@MainActor final class TwiceCompletingHost: NavigationHost {
    let inner: HeadlessNavigationHost
    init(_ inner: HeadlessNavigationHost) { self.inner = inner }
    func refusal(toPerform transition: ViewTransition) -> ViewTransitionRefusal? {
        inner.refusal(toPerform: transition)
    }
    func perform(_ transition: ViewTransition, completion: @escaping @MainActor (ViewTransition) -> Void) {
        inner.perform(transition) { performed in
            completion(performed)
            completion(performed)
        }
    }
    func refusal(toUndo transition: ViewTransition) -> ViewTransitionRefusal? { inner.refusal(toUndo: transition) }
    func undo(_ transition: ViewTransition, completion: @escaping @MainActor () -> Void) {
        inner.undo(transition) {
            completion()
            completion()
        }
    }
}

extension ViewRouteLifecycleAttackTests {
    // MARK: - A host that completes a transition twice

    @Test func aHostCompletingATransitionTwiceDoesNotTellTheRouteTwice() throws {
        let home = HomeScreen()
        let router = Router(
            container: Container(),
            host: TwiceCompletingHost(HeadlessNavigationHost(navigationStackWith: home))
        )
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        var events: [String] = []
        router.addObserver(for: (any EditorView).self) { observation in events.append("\(observation.event)") }
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { _ in events.append("success") }
            config.stateNotifier = { _, new in events.append("\(new)") }
        }
        try route.removeRoute(successHandler: { events.append("removed") })
        #expect(
            events == [
                "routing", "willPerform", "routed", "didPerform", "success",
                "removing", "willRemove", "removed", "didRemove", "removed",
            ]
        )
    }
}

extension ViewRouteLifecycleAttackTests {
    // MARK: - A refused perform keeps the route's path

    @Test func aRefusedPerformLeavesTheRoutesPathAsItWas() throws {
        let home = HomeScreen()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        // Refused: the screen is shown. Nothing was performed along the modal path.
        let refused = try #require(routingError { try route.perform(path: .presentModally(from: home)) })
        #expect(refused.code == .actionFailed)
        #expect(
            refused.message
                == "RoutableView<EditorView> is shown already (its state is routed). Fix: remove it first "
                + "(removeRoute()), then perform it again."
        )
        try route.removeRoute()
        try route.perform()  // "along the path it was last performed along": the push
        let screen = try #require(route.destination)
        #expect(host.navigationStack(containing: home)?.contains { $0 === screen } == true)
        #expect(host.presentedScreen(of: home) == nil)
    }

    @Test func aPerformTheHostRefusedLeavesTheRoutesPathAsItWas() throws {
        let home = HomeScreen()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        try route.removeRoute()
        // Refused by the host: the stranger is in none of its hierarchies.
        let stranger = HomeScreen()
        let refused = try #require(routingError { try route.perform(path: .push(from: stranger)) })
        #expect(refused.code == .invalidSource)
        #expect(
            refused.message
                == "RoutableView<EditorView> could not be performed on the path push(from: HomeScreen): HomeScreen is "
                + "not in the hierarchy, so EditorScreen #1 cannot be pushed from it: perform the transition from a "
                + "screen that is shown."
        )
        try route.perform()
        let screen = try #require(route.destination)
        #expect(host.navigationStack(containing: home)?.contains { $0 === screen } == true)
    }
}

/// A route with its own transition (a tab switch) that shows the screen, calls its completion, then
/// throws (the tab bar's badge update failed after the switch).
@MainActor struct BadgeFailingTabRoute: ViewRouteDefinition {
    var throwsAfterPerforming = false
    var throwsAfterRemoving = false
    var supportedPaths: ViewRoutePaths { [.custom, .makeDestination] }
    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> BadgeFailingTab {
        BadgeFailingTab()
    }
    func performCustomTransition(
        _ destination: BadgeFailingTab,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        BadgeFailingTab.shown.append(destination)
        completion()
        if throwsAfterPerforming { throw TestFailure("badge update failed") }
    }
    func removeCustomTransition(
        _ destination: BadgeFailingTab,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        BadgeFailingTab.shown.removeAll { $0 === destination }
        completion()
        if throwsAfterRemoving { throw TestFailure("badge update failed") }
    }
}
protocol BadgeFailingTabView: AnyObject {}
final class BadgeFailingTab: BadgeFailingTabView {
    /// The tabs shown, which keep their screens as a tab bar does.
    @MainActor static var shown: [BadgeFailingTab] = []
}
extension RoutableView where Protocol == any BadgeFailingTabView {
    init() { self.init(declaredProtocol: Protocol.self) }
}

extension ViewRouteLifecycleAttackTests {
    // MARK: - A custom transition that completes, then throws

    @Test func aCustomTransitionThatCompletedThenThrewIsPerformedAndTheErrorReportedToTheGlobalHandler() throws {
        let home = HomeScreen()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(
            RoutableView<any BadgeFailingTabView>(),
            route: BadgeFailingTabRoute(throwsAfterPerforming: true)
        )
        let told = EventLog()
        router.globalErrorHandler = { action, error in told.record("global \(action) \(error.code): \(error.message)") }
        let route = try router.to(RoutableView<any BadgeFailingTabView>(), path: .custom(from: home)) { config in
            config.successHandler = { _ in told.record("success") }
            config.errorHandler = { _, _ in told.record("error") }
        }
        try route.perform()
        #expect(
            told.entries == [
                "success",
                "global performRoute actionFailed: The custom transition of RoutableView<BadgeFailingTabView> threw: "
                    + "badge update failed",
            ]
        )
        #expect(route.state == .routed)
        let tab = try #require(route.destination)
        #expect(BadgeFailingTab.shown.contains { $0 === tab })
        #expect(route.canRemove)
        try route.removeRoute()
        #expect(!BadgeFailingTab.shown.contains { $0 === tab })
    }

    @Test func aCustomRemovalThatCompletedThenThrewIsRemovedAndTheErrorReportedToTheGlobalHandler() throws {
        let home = HomeScreen()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any BadgeFailingTabView>(), route: BadgeFailingTabRoute(throwsAfterRemoving: true))
        let told = EventLog()
        router.globalErrorHandler = { action, error in told.record("global \(action) \(error.code): \(error.message)") }
        router.addObserver(for: (any BadgeFailingTabView).self) { told.record("\($0.event)") }
        let route = try router.perform(to: RoutableView<any BadgeFailingTabView>(), path: .custom(from: home))
        let tab = try #require(route.destination)
        try route.removeRoute(
            successHandler: { told.record("removed") },
            errorHandler: { _, _ in told.record("error") }
        )
        #expect(
            told.entries == [
                "willPerform", "didPerform", "willRemove", "didRemove", "removed",
                "global removeRoute actionFailed: The removal hook of RoutableView<BadgeFailingTabView> threw: "
                    + "badge update failed",
            ]
        )
        #expect(route.state == .removed)
        #expect(!BadgeFailingTab.shown.contains { $0 === tab })
        // Performed again, along the same path: a fresh tab.
        try route.perform()
        #expect(route.state == .routed)
        BadgeFailingTab.shown.removeAll()
    }
}

/// A host whose transition never completes and which lets go of the completion: UIKit's
/// `present(_:animated:completion:)` on a screen that left the window calls no completion.
@MainActor final class CompletionDroppingHost: NavigationHost {
    let inner: HeadlessNavigationHost
    var drops = true
    init(_ inner: HeadlessNavigationHost) { self.inner = inner }
    func refusal(toPerform transition: ViewTransition) -> ViewTransitionRefusal? {
        inner.refusal(toPerform: transition)
    }
    func perform(_ transition: ViewTransition, completion: @escaping @MainActor (ViewTransition) -> Void) {
        if drops { return }  // the completion is dropped, never called
        inner.perform(transition, completion: completion)
    }
    func refusal(toUndo transition: ViewTransition) -> ViewTransitionRefusal? { inner.refusal(toUndo: transition) }
    func undo(_ transition: ViewTransition, completion: @escaping @MainActor () -> Void) {
        inner.undo(transition, completion: completion)
    }
}

extension ViewRouteLifecycleAttackTests {
    // MARK: - A transition whose completion the host dropped

    @Test func aTransitionWhoseCompletionTheHostDroppedDoesNotBlockTheRouterForever() throws {
        let home = HomeScreen()
        let host = CompletionDroppingHost(HeadlessNavigationHost(navigationStackWith: home))
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        var route: ViewRoute<any EditorView>? = try router.perform(
            to: RoutableView<any EditorView>(),
            path: .push(from: home)
        )
        host.drops = false
        // While the route is alive, its transition may still end: another one is refused.
        let refused = try #require(
            routingError { try router.perform(to: RoutableView<any SignInView>(), path: .presentModally(from: home)) }
        )
        #expect(refused.code == .unbalancedTransition)
        #expect(
            refused.message
                == "RoutableView<SignInView> cannot be performed while RoutableView<EditorView> is still in flight: "
                + "one view transition at a time per router. Fix: perform or remove it from the other route's "
                + "success handler, once its transition has ended."
        )
        // Nothing holds the route any more (the host let go of its completion): it can never end.
        weak let lost = route
        route = nil
        #expect(lost == nil)
        try router.perform(to: RoutableView<any SignInView>(), path: .presentModally(from: home))
        #expect(host.inner.presentedScreen(of: home) is SignInViewScreen)
    }
}

extension ViewRouteLifecycleAttackTests {
    // MARK: - A deep link that matches nothing tells the caller's handlers, as a service URL's does

    @Test func aDeepLinkThatMatchesNoRouteTellsTheCallersErrorHandlers() throws {
        let home = HomeScreen()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any NoteView>()) { (_, parameters: RouteParameters) in
            NoteScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("lifecycle://notes/:id")
        let told = EventLog()
        router.globalErrorHandler = { action, error in told.record("global \(action) \(error.code): \(error.message)") }
        let error = try #require(
            routingError {
                try router.perform(url: "lifecycle://nowhere/1", path: .push(from: home)) { config in
                    config.errorHandler = { action, error in told.record("error \(action) \(error.code)") }
                    config.completionHandler = { _, _ in told.record("completion") }
                    config.performerErrorHandler = { _, _ in told.record("performer error") }
                }
            }
        )
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "No URL pattern matches the URL \"lifecycle://nowhere/1\". Fix: register a pattern that matches it, "
                + "or correct the URL."
        )
        #expect(
            told.entries == [
                "error performRoute invalidConfiguration", "completion", "performer error",
                "global performRoute invalidConfiguration: \(error.message)",
            ]
        )
    }

    @Test func aDeepLinkToAServiceRouteTellsTheCallersErrorHandlers() throws {
        let home = HomeScreen()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }.url("lifecycle://log")
        let told = EventLog()
        router.globalErrorHandler = { action, _ in told.record("global \(action)") }
        let error = try #require(
            routingError {
                try router.perform(url: "lifecycle://log", path: .push(from: home)) { config in
                    config.errorHandler = { action, _ in told.record("error \(action)") }
                }
            }
        )
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The URL \"lifecycle://log\" matches RoutableService<Logger>, which is not a view route: there is "
                + "nothing to show. Fix: perform it with router.perform(url:) or makeDestination(url:as:), without a "
                + "path."
        )
        #expect(told.entries == ["error performRoute", "global performRoute"])
    }
}
