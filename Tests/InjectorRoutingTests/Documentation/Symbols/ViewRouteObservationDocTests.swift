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

// The swift blocks of the doc comments of `Router/addObserver(for:_:)` and
// `ViewRouteObserverRegistration`, verbatim, and the order the first comment states: observers among
// preparation, state changes and handlers, on a perform and a removal, and nothing told for a
// destination made without a route.

/// The snippet's analytics: it keeps what it logs.
@MainActor
private final class Analytics {
    let lines: EventLog
    init(lines: EventLog) { self.lines = lines }
    func log(_ line: String) { lines.record(line) }
}

@MainActor
struct ViewRouteObservationDocTests {
    let home = HomeScreen()

    @Test func observersAreToldBetweenPreparationStateChangesAndHandlersInTheCommentsOrder() throws {
        let log = EventLog()
        let analytics = Analytics(lines: log)
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
            .prepare { _, _ in log.record("route prepares") }
            .verify { _, _ in log.record("route checks") }
        router.addObserver(for: (any EditorView).self) { observation in
            analytics.log("\(observation.event) \(observation.route)")
        }

        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.prepareDestination = { _ in log.record("caller prepares") }
            config.stateNotifier = { old, new in log.record("\(old) -> \(new)") }
            config.successHandler = { _ in log.record("success") }
        }
        try route.removeRoute(successHandler: { log.record("removed") })

        #expect(
            log.entries == [
                "unrouted -> routing", "caller prepares", "route prepares", "route checks",
                "willPerform RoutableView<EditorView>", "routing -> routed", "didPerform RoutableView<EditorView>",
                "success",
                "routed -> removing", "willRemove RoutableView<EditorView>", "removing -> removed",
                "didRemove RoutableView<EditorView>", "removed",
            ]
        )
    }

    // The swift block of the doc comment of `ViewRouteObserverRegistration`, verbatim, with a
    // perform before the removal and a route removal after it.
    @Test func aRegistrationsRemovalStopsItsObserver() throws {
        let log = EventLog()
        let analytics = Analytics(lines: log)
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
        let registration = router.addObserver(for: (any EditorView).self) { observation in
            analytics.log("\(observation.event) \(observation.route)")
        }
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        // … when the feature that observes goes away:
        registration.remove()
        try route.removeRoute()

        #expect(log.entries == ["willPerform RoutableView<EditorView>", "didPerform RoutableView<EditorView>"])
    }

    @Test func nothingIsToldForADestinationMadeWithoutARoute() throws {
        let log = EventLog()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
        router.addObserver(for: (any EditorView).self) { observation in log.record("\(observation.event)") }

        _ = try router.makeDestination(to: RoutableView<any EditorView>())
        _ = try router.prepare(destination: EditorScreen(), for: RoutableView<any EditorView>())
        #expect(log.entries.isEmpty)
    }
}
