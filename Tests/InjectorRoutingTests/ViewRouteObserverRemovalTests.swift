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
private final class Tracker {
    var events: [String] = []
}

/// View route observers removed through the registration `addObserver` returns: before, after and
/// while observers are told of an event.
@MainActor
@Suite struct ViewRouteObserverRemovalTests {
    let home = HomeScreen()

    private func makeRouter() -> Router {
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
        return router
    }

    /// Performs the editor's route and removes it: willPerform, didPerform, willRemove, didRemove.
    private func performAndRemove(with router: Router) throws {
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        try route.removeRoute()
    }

    @Test func aRemovedObserverIsToldNothingMoreAndTheOthersStillAre() throws {
        let router = makeRouter()
        var log: [String] = []
        router.addObserver(for: (any EditorView).self) { log.append("A \($0.event)") }
        let registration = router.addObserver(for: (any EditorView).self) { log.append("B \($0.event)") }
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))

        registration.remove()
        try route.removeRoute()
        try performAndRemove(with: router)

        #expect(
            log == [
                "A willPerform", "B willPerform", "A didPerform", "B didPerform", "A willRemove", "A didRemove",
                "A willPerform", "A didPerform", "A willRemove", "A didRemove",
            ]
        )
    }

    @Test func removingAnObserverLetsGoOfWhatItsClosureCaptured() {
        let router = makeRouter()
        weak var released: Tracker?
        let registration: ViewRouteObserverRegistration
        do {
            let tracker = Tracker()
            released = tracker
            registration = router.addObserver(for: (any EditorView).self) { tracker.events.append("\($0.event)") }
        }
        #expect(released != nil, "the router keeps an observer's closure until it is removed")

        registration.remove()

        #expect(released == nil)
        withExtendedLifetime(router) {}  // the router, not its end, let go of the closure
    }

    @Test func lettingGoOfTheRegistrationKeepsTheObserver() throws {
        let router = makeRouter()
        var log: [String] = []
        do {
            let registration = router.addObserver(for: (any EditorView).self) { log.append("\($0.event)") }
            _ = registration
        }

        try performAndRemove(with: router)

        #expect(log == ["willPerform", "didPerform", "willRemove", "didRemove"])
    }

    @Test func removingTwiceOrFromACopyOfTheRegistrationRemovesNoOtherObserver() throws {
        let router = makeRouter()
        var log: [String] = []
        router.addObserver(for: (any EditorView).self) { log.append("A \($0.event)") }
        let registration = router.addObserver(for: (any EditorView).self) { log.append("B \($0.event)") }
        router.addObserver(for: (any EditorView).self) { log.append("C \($0.event)") }
        let copy = registration

        registration.remove()
        registration.remove()
        copy.remove()
        try performAndRemove(with: router)

        #expect(
            log == [
                "A willPerform", "C willPerform", "A didPerform", "C didPerform", "A willRemove", "C willRemove",
                "A didRemove", "C didRemove",
            ]
        )
    }

    @Test func aRegistrationKeepsNoRouterAliveAndRemovingItOnceTheRouterIsGoneDoesNothing() {
        weak var releasedRouter: Router?
        weak var releasedTracker: Tracker?
        let registration: ViewRouteObserverRegistration
        do {
            let router = makeRouter()
            let tracker = Tracker()
            releasedRouter = router
            releasedTracker = tracker
            registration = router.addObserver(for: (any EditorView).self) { tracker.events.append("\($0.event)") }
        }
        #expect(releasedRouter == nil, "the registration keeps its router alive")
        #expect(releasedTracker == nil, "the registration keeps its observer alive")

        registration.remove()
        registration.remove()
    }

    // MARK: Removal and addition while observers are told of an event

    @Test func anObserverRemovedByAnEarlierOneIsNotToldTheEventBeingTold() throws {
        let router = makeRouter()
        var log: [String] = []
        var second: ViewRouteObserverRegistration?
        router.addObserver(for: (any EditorView).self) { observation in
            log.append("A \(observation.event)")
            if observation.event == .willPerform { second?.remove() }
        }
        second = router.addObserver(for: (any EditorView).self) { log.append("B \($0.event)") }
        router.addObserver(for: (any EditorView).self) { log.append("C \($0.event)") }

        try performAndRemove(with: router)

        #expect(
            log == [
                "A willPerform", "C willPerform", "A didPerform", "C didPerform", "A willRemove", "C willRemove",
                "A didRemove", "C didRemove",
            ]
        )
    }

    @Test func anObserverRemovedByALaterOneWasToldTheEventBeingToldAndNothingAfter() throws {
        let router = makeRouter()
        var log: [String] = []
        let first = router.addObserver(for: (any EditorView).self) { log.append("A \($0.event)") }
        router.addObserver(for: (any EditorView).self) { log.append("B \($0.event)") }
        router.addObserver(for: (any EditorView).self) { observation in
            log.append("C \(observation.event)")
            if observation.event == .willPerform { first.remove() }
        }

        try performAndRemove(with: router)

        #expect(
            log == [
                "A willPerform", "B willPerform", "C willPerform", "B didPerform", "C didPerform", "B willRemove",
                "C willRemove", "B didRemove", "C didRemove",
            ]
        )
    }

    @Test func anObserverThatRemovesItselfEndsItsTurnAndTheOthersKeepTheirOrder() throws {
        let router = makeRouter()
        var log: [String] = []
        var itself: ViewRouteObserverRegistration?
        router.addObserver(for: (any EditorView).self) { log.append("A \($0.event)") }
        itself = router.addObserver(for: (any EditorView).self) { observation in
            log.append("B \(observation.event)")
            itself?.remove()
            log.append("B still running")
        }
        router.addObserver(for: (any EditorView).self) { log.append("C \($0.event)") }

        try performAndRemove(with: router)

        #expect(
            log == [
                "A willPerform", "B willPerform", "B still running", "C willPerform", "A didPerform", "C didPerform",
                "A willRemove", "C willRemove", "A didRemove", "C didRemove",
            ]
        )
    }

    @Test func anObserverAddedWhileAnEventIsToldIsToldFromTheNextEventAfterTheOthers() throws {
        let router = makeRouter()
        var log: [String] = []
        router.addObserver(for: (any EditorView).self) { [weak router] observation in
            log.append("A \(observation.event)")
            guard observation.event == .willPerform else { return }
            router?.addObserver(for: (any EditorView).self) { log.append("D \($0.event)") }
        }
        router.addObserver(for: (any EditorView).self) { log.append("B \($0.event)") }

        try performAndRemove(with: router)

        #expect(
            log == [
                "A willPerform", "B willPerform", "A didPerform", "B didPerform", "D didPerform", "A willRemove",
                "B willRemove", "D willRemove", "A didRemove", "B didRemove", "D didRemove",
            ]
        )
    }
}
