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

import Foundation
import Injector
import Testing

// The snippets of Container.withOverrides(_:operation:) and withOverridesAsync(_:operation:isolation:)'s doc
// comments (Container+Overrides.swift), as the tests they are, with the types they assume: the
// overrides are seen by this task only, singletons are built afresh for the call and disposed when
// it returns, and the container's own are left alone.

private protocol Clock: Sendable { var now: Date { get } }
private struct SystemClock: Clock { var now: Date { Date() } }
private struct FixedClock: Clock { let now: Date }
private struct Note: Sendable { let title: String }
private struct StampedNote {
    let title: String
    let created: Date
}

private protocol Database: Sendable { func insert(_ note: Note) async throws }
private final class FakeDatabase: Database, Disposable {
    static let inserted = Guarded<[String]>([])
    func insert(_ note: Note) async throws { Self.inserted.withLock { $0.append(note.title) } }
    func dispose() {}
}
private final class CountedDatabase: Database, Disposable {
    let disposals: CallCounter
    init(disposals: CallCounter) { self.disposals = disposals }
    func insert(_ note: Note) async throws {}
    func dispose() { _ = disposals.next() }
}
private struct UnreachableDatabase: Database {
    func insert(_ note: Note) async throws { throw Unreachable() }
}
private struct Unreachable: Error {}

private final class NoteStore: Sendable {
    let clock: any Clock
    let database: (any Database)?
    init(clock: any Clock, database: (any Database)? = nil) {
        self.clock = clock
        self.database = database
    }
    func add(_ title: String) throws -> StampedNote { StampedNote(title: title, created: clock.now) }
    func save(_ note: Note) async throws { try await database?.insert(note) }
}

@Suite struct ContainerOverridesDocTests {
    let container: Container = {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(Database.self, scope: .singleton) { _ in UnreachableDatabase() }
        container.register(NoteStore.self, scope: .singleton) { r in
            try NoteStore(clock: r.resolve(Clock.self), database: r.resolve(Database.self))
        }
        return container
    }()

    // The snippet's layout, which swift-format would break apart.
    // swift-format-ignore
    @Test func stampsNotesWithTheClock() throws {
        try container.withOverrides { $0.register(Clock.self) { _ in FixedClock(now: .distantPast) } } operation: {
            let store = try container.resolve(NoteStore.self)
            #expect(try store.add("hello").created == .distantPast)
        }
    }

    @Test func theContainersOwnSingletonIsLeftAloneAndNotSeenInside() throws {
        let outside = try container.resolve(NoteStore.self)
        try container.withOverrides {
            $0.register(Clock.self) { _ in FixedClock(now: .distantPast) }
        } operation: { () throws in
            #expect(try container.resolve(NoteStore.self) !== outside)
        }
        #expect(try container.resolve(NoteStore.self) === outside)
        #expect(try outside.add("hello").created != .distantPast)
    }

    // swift-format-ignore
    @Test func savesThroughTheFakeDatabase() async throws {
        try await container.withOverridesAsync { $0.register(Database.self) { _ in FakeDatabase() } } operation: {
            let store = try await container.resolveAsync(NoteStore.self)
            try await store.save(Note(title: "hello"))
        }
        #expect(FakeDatabase.inserted.withLock { $0 } == ["hello"])
    }

    @Test func aSingletonBuiltForTheCallIsDisposedWhenItReturns() async throws {
        let disposals = CallCounter()
        try await container.withOverridesAsync {
            $0.register(Database.self, scope: .singleton) { _ in CountedDatabase(disposals: disposals) }
        } operation: {
            _ = try await container.resolveAsync(Database.self)
            _ = try await container.resolveAsync(Database.self)
            #expect(disposals.count == 0)
        }
        #expect(disposals.count == 1)
    }
}
