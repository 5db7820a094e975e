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

private struct NotesDidSync: RouteEvent { let changed: [Int] }
private struct UserSignedOut: RouteEvent {}

private struct SyncingRoute: RouteDefinition {
    let log: EventLog
    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> FileExporter { FileExporter() }
    func handleEvents(_ events: inout RouteEventHandlers) {
        events.on(NotesDidSync.self) { event in log.record("exporter route: synced \(event.changed)") }
        events.on(UserSignedOut.self) { _ in log.record("exporter route: signed out") }
    }
}

@Suite struct RouteEventTests {
    @Test func anEventReachesEveryRouteThatHandlesItsTypeOnceEachInRegistrationOrder() throws {
        let log = EventLog()
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), route: SyncingRoute(log: log))
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
            .onEvent(NotesDidSync.self) { event in log.record("logger route: synced \(event.changed)") }
        router.register(RoutableService<any Clock>()) { _ in FixedClock() }
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())

        let told = router.send(NotesDidSync(changed: [4, 7]))

        #expect(told == 2)
        #expect(log.entries == ["exporter route: synced [4, 7]", "logger route: synced [4, 7]"])
    }

    @Test func aRouteIsToldOfAnEventOnceEvenWithTwoHandlersForIt() throws {
        let log = EventLog()
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
            .onEvent(NotesDidSync.self) { _ in log.record("first handler") }
            .onEvent(NotesDidSync.self) { _ in log.record("second handler") }

        #expect(router.send(NotesDidSync(changed: [1])) == 1)
        #expect(log.entries == ["second handler"])
    }

    @Test func aReplacedRouteForgetsTheEventHandlersOfTheOneItReplaced() throws {
        let log = EventLog()
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), route: SyncingRoute(log: log))
        router.register(RoutableService<any Exporter>(), replacesExisting: true) { _ in FileExporter() }

        #expect(router.send(NotesDidSync(changed: [1])) == 0)
        #expect(log.entries.isEmpty)
    }

    @Test func anEventNoRouteHandlesReachesNone() throws {
        let log = EventLog()
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
            .onEvent(NotesDidSync.self) { _ in log.record("synced") }

        #expect(router.send(UserSignedOut()) == 0)
        #expect(log.entries.isEmpty)
    }
}
