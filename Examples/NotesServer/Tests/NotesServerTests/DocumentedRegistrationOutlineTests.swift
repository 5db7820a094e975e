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
import Synchronization
import Testing

// The registrations of the DocC article *Using Injector in a server*, in outline as it writes them:
// its initialisers leave out the audit log, logger and clock the example's take, so the types here
// are stand-ins of the example's, private to this file (they hide NotesServerCore's in it). What the
// article says of them is checked: the database a singleton the container's shutdown disposes, the
// request's info given to its scope, one unit of work per request, disposed (rolled back if still
// open) when the scope closes.

extension ScopeTag {
    fileprivate static let request: ScopeTag = "request"
}

/// What the stand-ins did, in order.
private final class Events: Sendable {
    private let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var recorded: [String] { events.withLock { $0 } }
}

/// The events of the test running: task-local, so that tests running at once keep theirs apart.
private enum Recording {
    @TaskLocal static var events = Events()
}

private final class NotesDatabase: Disposable, Sendable {
    let directory: String
    private let events = Recording.events
    init(directory: String) throws {
        self.directory = directory
        events.record("opened the database in \(directory)")
    }
    func dispose() { events.record("disposed NotesDatabase") }
}
private final class RequestInfo: Sendable {
    let id: String
    init(id: String) { self.id = id }
}
private final class UnitOfWork: Disposable, Sendable {
    let database: NotesDatabase
    let request: RequestInfo
    private let events = Recording.events
    private let committed = Mutex(false)
    init(database: NotesDatabase, request: RequestInfo) {
        self.database = database
        self.request = request
    }
    func commit() { committed.withLock { $0 = true } }
    func dispose() {
        let outcome = committed.withLock { $0 } ? "committed" : "rolled back"
        events.record("disposed the unit of work of \(request.id) (\(outcome))")
    }
}
private struct NotesService {
    let database: NotesDatabase
    let unitOfWork: UnitOfWork
}

/// The article's registrations, as it writes them.
private func registerAsTheArticleDoes(in container: Container, dataDirectory: String) throws {
    container.register(NotesDatabase.self, scope: .singleton) { _ in try NotesDatabase(directory: dataDirectory) }
    container.register(RequestInfo.self, providedByScope: .request)
    container.register(UnitOfWork.self, scope: .scoped(to: .request)) { r in
        try UnitOfWork(database: r.resolve(NotesDatabase.self), request: r.resolve(RequestInfo.self))
    }
    container.register(NotesService.self) { r in
        try NotesService(database: r.resolve(NotesDatabase.self), unitOfWork: r.resolve(UnitOfWork.self))
    }
    try container.finishRegistration()
}

@Suite("The server article's registrations, in outline")
struct DocumentedRegistrationOutlineTests {
    @Test("one unit of work per request scope, disposed when it closes; the database disposed at shutdown")
    func outline() throws {
        let events = Events()
        try Recording.$events.withValue(events) {
            let container = Container()
            let dataDirectory = "/srv/notes"

            try registerAsTheArticleDoes(in: container, dataDirectory: dataDirectory)

            var databases: [NotesDatabase] = []
            for id in ["r1", "r2"] {
                let info = RequestInfo(id: id)
                try container.withScope(tag: .request) {
                    $0.provide(RequestInfo.self, info)
                } operation: { scope in
                    let service = try scope.resolve(NotesService.self)
                    let again = try scope.resolve(NotesService.self)
                    #expect(again.unitOfWork === service.unitOfWork)  // one per request
                    #expect(service.unitOfWork.request === info)
                    if id == "r1" { service.unitOfWork.commit() }  // r2's is left open
                    databases.append(service.database)
                }
            }
            #expect(databases.count == 2)
            #expect(databases.allSatisfy { $0 === databases[0] })
            #expect(
                events.recorded == [
                    "opened the database in /srv/notes",
                    "disposed the unit of work of r1 (committed)",
                    "disposed the unit of work of r2 (rolled back)",
                ]
            )

            // Outside a request scope, the unit of work would have no owner.
            let error = try #require(throws: InjectionError.self) { try container.resolve(NotesService.self) }
            #expect(error.code == .scopeMismatch)
            #expect(
                error.message == "UnitOfWork is .scoped(to: .request), but was resolved from a container, outside any"
                    + " lifetime scope, so nothing would own its instance. Path: NotesService -> UnitOfWork. Fix:"
                    + " resolve from a lifetime scope: let scope = container.makeScope(tag: \"request\"); try"
                    + " scope.resolve(…)."
            )

            try container.shutdown()
            #expect(events.recorded.last == "disposed NotesDatabase")
        }
    }
}
