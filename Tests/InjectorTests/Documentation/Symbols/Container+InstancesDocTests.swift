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

// The snippet of Container.register(_:name:instance:ownedBy:...)'s doc comment (Container+Instances.swift),
// with the types it assumes: an instance the container owns is disposed at shutdown, once, resolved or
// not; one the caller owns never is, nor by a scope; every resolve returns the instance.

private final class Database: Disposable, Sendable {
    let log: EventLog
    init(path: String, log: EventLog = EventLog()) throws { self.log = log }
    func dispose() { log.record("Database") }
}
private protocol Clock: Sendable {}
private final class SystemClock: Clock, Disposable {
    static let shared = SystemClock()
    let log = EventLog()
    func dispose() { log.record("SystemClock") }
}
/// Passes the database on under another key, as a factory may.
private struct Repository: Sendable { let database: Database }

@Suite struct ContainerInstancesDocTests {
    @Test func anOwnedInstanceIsDisposedAtShutdownOnceAndACallersNever() throws {
        let container = Container()
        let database = try Database(path: "notes.db")
        container.register(Database.self, instance: database, ownedBy: .container)  // shutdown disposes it
        container.register(Clock.self, instance: SystemClock.shared, ownedBy: .caller)  // never disposed here
        container.register(Repository.self) { r in Repository(database: try r.resolve(Database.self)) }

        #expect(try container.resolve(Database.self) === database)
        #expect(try container.resolve(Clock.self) as? SystemClock === SystemClock.shared)
        try container.withScope { scope throws in
            #expect(try scope.resolve(Repository.self).database === database)
            #expect(try scope.resolve(Clock.self) as? SystemClock === SystemClock.shared)
        }
        #expect(database.log.events.isEmpty)  // a scope never disposes it

        try container.shutdown()
        #expect(database.log.events == ["Database"])
        #expect(SystemClock.shared.log.events.isEmpty)
    }

    @Test func hooksAndChecksDoNotRunForAnInstance() throws {
        let container = Container()
        let ran = CallCounter()
        container.register(Clock.self, instance: SystemClock.shared, ownedBy: .caller)
            .onResolved { _, _ in _ = ran.next() }
            .verify { _ in _ = ran.next() }
        #expect(try container.resolve(Clock.self) as? SystemClock === SystemClock.shared)
        #expect(ran.count == 0)
    }

    @Test func anOwnedInstanceNeverResolvedIsDisposedAtShutdown() throws {
        let container = Container()
        let log = EventLog()
        container.register(Database.self, instance: try Database(path: "notes.db", log: log), ownedBy: .container)
        try container.shutdown()
        #expect(log.events == ["Database"])
    }
}
