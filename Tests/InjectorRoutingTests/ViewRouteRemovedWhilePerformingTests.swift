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

/// A view route removed before its perform told its success handlers (by a didPerform observer, or
/// by one of those handlers): the handlers still to come are not handed a screen no longer shown.
@MainActor
@Suite struct ViewRouteRemovedWhilePerformingTests {
    let home = HomeScreen()
    let host = RecordingHost()
    let log = EventLog()
    let router: Router

    init() {
        router = Router(container: Container(), host: host)
        let made = Counter()
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: made.next()) }
    }

    /// A route whose handlers write to the log.
    private func loggedRoute() throws -> ViewRoute<any EditorView> {
        let log = log
        return try router.to(RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { log.record("success \($0.title)") }
            config.completionHandler = { action, result in
                log.record("completion of \(action): \((try? result.get()).map { _ in "success" } ?? "failure")")
            }
            config.performerSuccessHandler = { _ in log.record("performer success") }
            config.stateNotifier = { old, new in log.record("\(old) -> \(new)") }
        }
    }

    @Test func aRouteADidPerformObserverRemovesDoesNotTellThatPerformsSuccessHandlers() throws {
        let route = try loggedRoute()
        var removeOnce = true
        router.addObserver(for: (any EditorView).self) { observation in
            self.log.record("\(observation.event)")
            guard observation.event == .didPerform, removeOnce else { return }
            removeOnce = false
            try? route.removeRoute { self.log.record("removed") }
        }

        try route.perform()

        #expect(
            log.entries == [
                "unrouted -> routing", "willPerform", "routing -> routed", "didPerform", "routed -> removing",
                "willRemove", "removing -> removed", "didRemove", "removed",
            ]
        )
        #expect(route.state == .removed)
        #expect(route.destination == nil)
        #expect(host.shown.isEmpty)
    }

    @Test func theNextPerformOfARouteRemovedWhilePerformingTellsItsHandlers() throws {
        let route = try loggedRoute()
        var removeOnce = true
        router.addObserver(for: (any EditorView).self) { observation in
            guard observation.event == .didPerform, removeOnce else { return }
            removeOnce = false
            try? route.removeRoute()
        }
        try route.perform()
        let first = log.entries.count

        try route.perform()

        #expect(
            Array(log.entries.dropFirst(first)) == [
                "removed -> routing", "routing -> routed", "success untitled", "completion of performRoute: success",
            ]
        )
        #expect(route.state == .routed)
    }

    @Test func aSuccessHandlerThatRemovesTheRouteEndsThatPerformsHandlers() throws {
        let log = log
        var route: ViewRoute<any EditorView>?
        route = try router.to(RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { _ in
                log.record("success")
                try? route?.removeRoute()
            }
            config.completionHandler = { action, _ in log.record("completion of \(action)") }
            config.performerSuccessHandler = { _ in log.record("performer success") }
        }

        try route?.perform()

        #expect(log.entries == ["success"])
        #expect(route?.state == .removed)
        #expect(host.shown.isEmpty)
    }
}
