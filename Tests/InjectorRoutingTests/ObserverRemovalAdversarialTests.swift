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

/// Something an observer's closure captures, to see when the router lets go of it.
@MainActor
private final class Capture {
    var events: [String] = []
    var registrations: [ViewRouteObserverRegistration] = []
}

/// Observer removal where the list is shared or the removal comes from an unusual place: routers
/// made for lifetime scopes, a router gone while one made from it lives, an observer that removes
/// every observer, or itself, while it is told.
@MainActor
@Suite struct ObserverRemovalAdversarialTests {
    let home = HomeScreen()

    private func makeRouter(_ container: Container = Container()) -> Router {
        let router = Router(container: container, host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
        return router
    }

    private func performAndRemove(with router: Router) throws {
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        try route.removeRoute()
    }

    /// An observer added through the router for a scope is told of the base router's transitions,
    /// and removing it through its registration removes it for both.
    @Test func observerAddedThroughARouterForAScopeIsRemovedForEveryRouterSharingTheList() throws {
        let container = Container()
        let router = makeRouter(container)
        let scoped = try router.resolving(in: container.makeScope())
        var log: [String] = []
        let registration = scoped.addObserver(for: (any EditorView).self) { log.append("scoped \($0.event)") }
        router.addObserver(for: (any EditorView).self) { log.append("base \($0.event)") }

        try performAndRemove(with: router)
        registration.remove()
        try performAndRemove(with: router)
        try performAndRemove(with: scoped)

        #expect(
            log.filter { $0.hasPrefix("scoped") } == [
                "scoped willPerform", "scoped didPerform", "scoped willRemove", "scoped didRemove",
            ]
        )
        #expect(log.filter { $0.hasPrefix("base") }.count == 12)
    }

    /// The router an observer was added to may go while a router made from it for a scope lives:
    /// the list is theirs, so removing still removes, and lets go of the closure.
    @Test func removalAfterTheBaseRouterWentStillRemovesFromTheRouterForAScope() throws {
        let container = Container()
        let scoped: Router
        let registration: ViewRouteObserverRegistration
        weak var baseRouter: Router?
        weak var released: Capture?
        do {
            let router = makeRouter(container)
            baseRouter = router
            scoped = try router.resolving(in: container.makeScope())
            let capture = Capture()
            released = capture
            registration = router.addObserver(for: (any EditorView).self) { capture.events.append("\($0.event)") }
        }
        try performAndRemove(with: scoped)
        #expect(released?.events == ["willPerform", "didPerform", "willRemove", "didRemove"])

        registration.remove()

        #expect(released == nil, "the router for the scope still held the removed observer's closure")
        try performAndRemove(with: scoped)
        withExtendedLifetime(scoped) {}
        _ = baseRouter
    }

    /// An observer that removes every observer, itself included, ends the event there: those after
    /// it are not told, and an observer added by it is told from the next event on, alone.
    @Test func observerRemovingEveryObserverWhileToldLeavesOnlyThoseAddedAfter() throws {
        let router = makeRouter()
        var log: [String] = []
        let held = Capture()
        held.registrations.append(router.addObserver(for: (any EditorView).self) { log.append("A \($0.event)") })
        held.registrations.append(
            router.addObserver(for: (any EditorView).self) { [weak router] observation in
                log.append("B \(observation.event)")
                for registration in held.registrations { registration.remove() }
                router?.addObserver(for: (any EditorView).self) { log.append("D \($0.event)") }
            }
        )
        held.registrations.append(router.addObserver(for: EditorScreen.self) { log.append("C \($0.event)") })

        try performAndRemove(with: router)

        #expect(log == ["A willPerform", "B willPerform", "D didPerform", "D willRemove", "D didRemove"])
    }

    /// An observer that removes itself while told lets go of what it captured once its turn ends,
    /// though the event is still being told to the others.
    @Test func observerRemovingItselfLetsGoOfItsCapturesWhenItsTurnEnds() throws {
        let router = makeRouter()
        weak var released: Capture?
        var itself: ViewRouteObserverRegistration?
        var releasedBeforeNextObserver: Bool?
        do {
            let capture = Capture()
            released = capture
            itself = router.addObserver(for: (any EditorView).self) { observation in
                capture.events.append("\(observation.event)")
                itself?.remove()
            }
        }
        router.addObserver(for: (any EditorView).self) { _ in
            if releasedBeforeNextObserver == nil { releasedBeforeNextObserver = released == nil }
        }

        try performAndRemove(with: router)

        #expect(releasedBeforeNextObserver == true)
        #expect(released == nil)
        withExtendedLifetime(router) {}
    }
}
