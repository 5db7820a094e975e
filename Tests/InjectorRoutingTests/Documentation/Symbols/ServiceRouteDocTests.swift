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

// The swift block of ServiceRoute's doc comment, verbatim, with the states its comments name, and
// what the comment says of performing again (the replaced destination is removed), of a route being performed or removed, and of a failed
// perform. The fixtures' `Exporter` and `FileExporter` serve as the comment's.

struct ServiceRouteDocTests {
    @Test func aRouteGoesThroughItsStatesIsPerformedAgainWithAFreshDestinationAndIsRemoved() throws {
        let states = EventLog()
        let made = Counter()
        let kept = EventLog()
        let container = Container()
        let router = Router(container: container)
        router.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: made.next()) }
            .onRemove { exporter, _ in kept.record("removed #\((exporter as? FileExporter)?.serial ?? 0)") }
        let holder = Holder()

        let route = try router.to(RoutableService<Exporter>())
        let observed = try router.to(RoutableService<any Exporter>()) { config in
            config.stateNotifier = { old, new in states.record("\(old) -> \(new)") }
            config.successHandler = { holder.exporter = $0 }  // keeps the weakly held destination alive
        }
        #expect(route.state == .unrouted)
        try route.perform()  // unrouted -> routing -> routed
        try route.perform()  // routed again, with a fresh destination
        try route.removeRoute()  // routed -> removing -> removed
        #expect(route.state == .removed)
        #expect(made.value == 2)

        try observed.perform()
        let first = try #require(observed.destination as? FileExporter)
        try observed.perform()
        let second = try #require(observed.destination as? FileExporter)
        #expect(first !== second)
        try observed.removeRoute()
        #expect(observed.destination == nil)
        #expect(
            states.entries == [
                "unrouted -> routing", "routing -> routed", "routed -> routing", "routing -> routed",
                "routed -> removing", "removing -> removed",
            ]
        )
        #expect(kept.entries == ["removed #3", "removed #4"])  // the replaced one, then the last
    }

    @Test func performingARouteThatIsBeingPerformedIsOverRoute() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let inner = Box()
        let route = try router.to(RoutableService<any Exporter>()) { config in
            config.prepareDestination = { _ in inner.error = routingError { try inner.route?.perform() } }
        }
        inner.route = route
        try route.perform()
        let error = try #require(inner.error)
        #expect(error.code == .overRoute)
        #expect(
            error.message
                == "RoutableService<Exporter> is being performed already (its state is routing). Fix: perform it "
                + "again once that perform has finished, or use another route."
        )
        #expect(route.state == .routed)
    }

    @Test func performingARouteThatIsBeingRemovedIsActionFailed() throws {
        let router = Router(container: Container())
        let inner = Box()
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .onRemove { _, _ in inner.error = routingError { try inner.route?.perform() } }
        let route = try router.to(RoutableService<any Exporter>())
        inner.route = route
        let holder = Holder()
        try route.perform(successHandler: { holder.exporter = $0 })
        try route.removeRoute()
        let error = try #require(inner.error)
        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableService<Exporter> is being removed (its state is removing), so it cannot be performed "
                + "now. Fix: perform it once the removal has finished."
        )
        #expect(route.state == .removed)
    }

    @Test func performingASingletonsRouteAgainGivesTheSharedDestination() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), scope: .singleton) { _ in FileExporter() }
        let route = try router.to(RoutableService<any Exporter>())
        try route.perform()
        let first = try #require(route.destination)
        try route.perform()
        #expect(route.destination === first)
    }

    @Test func aValueDestinationIsKeptAsACopyAndAnObjectOnlyWhileSomethingElseKeepsIt() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hello") }
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }

        let greeting = try router.perform(to: RoutableService<any Greeting>())
        #expect(greeting.destination?.text == "hello")
        let exporter = try router.perform(to: RoutableService<any Exporter>())
        #expect(exporter.destination == nil)  // nothing else keeps it
        try greeting.removeRoute()
        #expect(greeting.destination == nil)
    }

    @Test func aFailedPerformLeavesTheRouteInTheStateItWasIn() throws {
        let router = Router(container: Container())
        let fails = Counter()
        let line = #line + 1
        router.register(RoutableService<any Exporter>()) { _ in
            if fails.value > 0 { throw TestFailure("no exporter") }
            return FileExporter()
        }
        let route = try router.to(RoutableService<any Exporter>())
        #expect(routingError { try route.perform() } == nil)
        fails.next()
        let error = routingError { try route.perform() }
        #expect(error?.code == .destinationUnavailable)
        #expect(
            error?.message
                == "RoutableService<Exporter> (the route registered at "
                + "InjectorRoutingTests/ServiceRouteDocTests.swift:\(line)) could not make its destination. The "
                + "factory of Exporter threw: no exporter. The error is the underlyingError; fix the factory or what "
                + "it depends on."
        )
        #expect(route.state == .routed)
    }
}

/// Keeps a destination alive, as a caller would, while a route holds it weakly.
private final class Holder: @unchecked Sendable {
    var exporter: (any Exporter)?
}

/// Lets a route's own hook perform it again, and keeps what that says.
private final class Box: @unchecked Sendable {
    var route: ServiceRoute<any Exporter>?
    var error: RoutingError?
}
