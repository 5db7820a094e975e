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

// The server that GettingStarted.md builds in six steps, verbatim, with the types it assumes, and
// what the article says of each step: validation checks the declared registrations without
// building them, each request gets its own transaction, disposed when its scope closes, the
// override reaches the store built with the clock, and shutdown closes the database.

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private struct FixedClock: Clock { let now: String }

/// Counts what the walkthrough's disposable services do.
private final class Ledger: Sendable {
    let opened = Guarded(0)
    let closed = Guarded(0)
    let transactions = Guarded([String]())
}

private final class Database: Disposable, Sendable {
    static let ledger = Ledger()
    let path: String
    init(path: String) throws {
        self.path = path
        _ = Self.ledger.opened.add(1)
    }
    func dispose() { _ = Self.ledger.closed.add(1) }
}
private protocol NoteStore: Sendable { func stamp(_ text: String) -> String }
private final class SQLNoteStore: NoteStore {
    let db: Database
    let clock: any Clock
    init(db: Database, clock: Clock) {
        self.db = db
        self.clock = clock
    }
    func stamp(_ text: String) -> String { "\(text), \(clock.now)" }
}
private struct RequestInfo: Sendable { let id: Int }
private final class Transaction: Disposable, Sendable {
    let db: Database
    init(db: Database) { self.db = db }
    func dispose() { Database.ledger.transactions.withLock { $0.append("disposed") } }
}
private struct NoteHandler {
    let info: RequestInfo
    let transaction: Transaction
    let store: any NoteStore
    init(info: RequestInfo, transaction: Transaction, store: NoteStore) {
        self.info = info
        self.transaction = transaction
        self.store = store
    }
    func add(_ text: String) -> String { store.stamp(text) }
}
private struct HTTPRequest {
    let id: Int
    let body: String
}

// The article declares the tag elsewhere; `private` keeps it to this file.
// swift-format-ignore: NoAccessLevelOnExtensionDeclaration
private extension ScopeTag { static let request: ScopeTag = "request" }

@Suite struct GettingStartedServerTests {
    @Test func theSixStepsWireCheckServeTestAndShutDownTheServer() async throws {
        // The article's steps begin
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(Database.self, scope: .singleton) { _ in try Database(path: "notes.sqlite") }
        container.register(NoteStore.self, scope: .singleton, SQLNoteStore.init)  // init(db: Database, clock: Clock)

        container.register(RequestInfo.self, providedByScope: .request)
        container.register(Transaction.self, scope: .scoped(to: .request), Transaction.init)  // init(db: Database)
        // swift-format-ignore
        container.register(NoteHandler.self, NoteHandler.init)  // init(info: RequestInfo, transaction: Transaction, store: NoteStore)
        try container.finishRegistration()

        let report = try container.validate()
        print(report)  // Validated 5 registrations: 3 from their declarations, without building them; …

        // swift-format-ignore
        func serve(_ request: HTTPRequest) async throws -> String {
            try await container.withScopeAsync(tag: .request) { $0.provide(RequestInfo.self, RequestInfo(id: request.id)) } operation: { scope in
                try scope.resolve(NoteHandler.self).add(request.body)
            }  // closed on every path: the transaction is disposed
        }

        // swift-format-ignore
        try await container.withOverridesAsync { $0.register(Clock.self) { _ in FixedClock(now: "2000-01-01") } } operation: {
            let reply = try await serve(HTTPRequest(id: 1, body: "milk"))
            #expect(reply == "milk, 2000-01-01")
        }
        // The article's steps pause
        let served = try await serve(HTTPRequest(id: 2, body: "eggs"))
        #expect(served == "eggs, 09:00")  // outside the override, the container's own clock
        #expect(report.description.hasPrefix("Validated 5 registrations: 3 from their declarations"))
        #expect(Database.ledger.transactions.current == ["disposed", "disposed"])  // one per request
        // The article's steps resume
        try await container.shutdownAsync()  // disposes the singletons: the database closes
        // The article's steps end
        #expect(Database.ledger.opened.current == Database.ledger.closed.current)
    }
}
