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

// The docs' "Async factories": an async singleton, resolved through its resolver by an async
// factory that also resolves a sync service without `await`; its factory runs once however many
// tasks race for it, and a sync resolve of it says to use `resolveAsync`.

/// The connections made, per test: task-local, so that the tasks a test starts count into its own.
private enum Connections {
    @TaskLocal static var made = CallCounter()
}

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private final class DatabasePool: Sendable {
    let serial: Int
    private init(serial: Int) { self.serial = serial }

    static func connect() async throws -> DatabasePool {
        let serial = Connections.made.next()
        await Task.yield()  // a connection takes a while: let the other tasks ask meanwhile
        return DatabasePool(serial: serial)
    }
}
private protocol NoteRepository: Sendable {
    var pool: DatabasePool { get }
    var clock: any Clock { get }
}
private struct PostgresNoteRepository: NoteRepository {
    let pool: DatabasePool
    let clock: any Clock
}

@Suite struct ReadmeAsyncFactoryTests {
    @Test func anAsyncFactoryResolvesAnAsyncSingletonAndASyncService() async throws {
        let made = CallCounter()
        try await Connections.$made.withValue(made) {
            let container = Container()
            container.register(Clock.self, scope: .singleton) { _ in SystemClock() }

            // README begins
            container.register(DatabasePool.self, scope: .singleton) { _ in try await DatabasePool.connect() }
            container.register(NoteRepository.self) { r in
                try await PostgresNoteRepository(pool: r.resolveAsync(DatabasePool.self), clock: r.resolve(Clock.self))
            }
            let repository = try await container.resolveAsync(NoteRepository.self)
            // README ends

            #expect(repository.clock.now == "09:00")
            #expect(repository.pool.serial == 1)
            let again = try await container.resolveAsync(NoteRepository.self)
            #expect(again.pool === repository.pool)
            #expect(made.count == 1)
        }
    }

    @Test func anAsyncSingletonsFactoryRunsOnceWhenAHundredTasksRace() async throws {
        let made = CallCounter()
        try await Connections.$made.withValue(made) {
            let container = Container()
            container.register(DatabasePool.self, scope: .singleton) { _ in try await DatabasePool.connect() }

            let pools = try await withThrowingTaskGroup(of: DatabasePool.self) { group in
                for _ in 0..<100 { group.addTask { try await container.resolveAsync(DatabasePool.self) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(pools.count == 100)
            #expect(pools.allSatisfy { $0 === pools[0] })
            #expect(made.count == 1)
        }
    }

    @Test func aSyncResolveOfAnAsyncRegistrationSaysToUseResolveAsync() {
        let container = Container()
        container.register(DatabasePool.self, scope: .singleton) { _ in try await DatabasePool.connect() }

        let error = injectionError { try container.resolve(DatabasePool.self) }

        #expect(error?.code == .asyncResolutionRequired)
        #expect(
            error?.message == "DatabasePool has an async factory, which a sync resolve cannot run. Fix: resolve it"
                + " with try await resolveAsync(DatabasePool.self), from the container or scope you resolve from"
                + " (r.resolveAsync in an async factory); a sync factory that needs it must become async too."
        )
    }
}
