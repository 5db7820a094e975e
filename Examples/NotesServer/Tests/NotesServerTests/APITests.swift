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
import Hummingbird
import HummingbirdTesting
import NotesServerCore
import Testing

@Suite("The notes API", .timeLimit(.minutes(1)))
struct APITests {
    @Test(
        "create, list, get, update and delete a note",
        arguments: ["/notes", "/hand/notes", "/scope-only/notes"]
            + NotesServer.calibrationNanoseconds.map { "/calibrate/\($0)/notes" }
    )
    func crud(prefix: String) async throws {
        let server = try makeServer()
        try await withRouterClient(server) { client in
            let created = try await client.execute(
                uri: prefix,
                method: .post,
                headers: jsonHeaders,
                body: json(#"{"title": "Groceries", "body": "milk"}"#)
            ) { response in
                #expect(response.status == .created)
                #expect(response.headers[.requestID] != nil)
                let note = try response.decode(Note.self)
                #expect(response.headers[.location] == "/notes/\(note.id)")
                return note
            }
            #expect(created.title == "Groceries")
            #expect(created.body == "milk")

            try await client.execute(uri: "\(prefix)/\(created.id)", method: .get) { response in
                #expect(response.status == .ok)
                let decoded = try response.decode(Note.self)
                #expect(decoded.id == created.id)
            }
            try await client.execute(
                uri: "\(prefix)/\(created.id)",
                method: .put,
                headers: jsonHeaders,
                body: json(#"{"title": "Shopping", "body": "milk, eggs"}"#)
            ) { response in
                #expect(response.status == .ok)
                let note = try response.decode(Note.self)
                #expect(note.title == "Shopping")
                #expect(note.body == "milk, eggs")
            }
            try await client.execute(uri: prefix, method: .get) { response in
                #expect(response.status == .ok)
                let list = try response.decode(NoteList.self)
                #expect(list.notes.map(\.title) == ["Shopping"])
            }
            try await client.execute(uri: "\(prefix)/\(created.id)", method: .delete) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "\(prefix)/\(created.id)", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
        let totals = server.audit.snapshot
        #expect(totals.opened == 6)
        #expect(totals.open == 0)
        #expect(server.audit.violations.isEmpty)
    }

    @Test("a batch is saved in one transaction")
    func batch() async throws {
        let server = try makeServer()
        try await withRouterClient(server) { client in
            try await client.execute(
                uri: "/notes/batch",
                method: .post,
                headers: jsonHeaders,
                body: json(#"[{"title": "a"}, {"title": "b", "body": "2"}]"#)
            ) { response in
                #expect(response.status == .created)
                let decoded = try response.decode(NoteList.self)
                #expect(decoded.notes.map(\.title) == ["a", "b"])
            }
            try await client.execute(uri: "/notes", method: .get) { response in
                let decoded = try response.decode(NoteList.self)
                #expect(decoded.notes.count == 2)
            }
        }
    }

    @Test("handlers stamp notes with the clock singleton")
    func clock() async throws {
        struct FixedClock: NotesClock {
            func now() -> Date { Date(timeIntervalSince1970: 1_700_000_000) }
            func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
        }
        let server = try makeServer(clock: FixedClock())
        try await withRouterClient(server) { client in
            try await client.execute(uri: "/notes", method: .post, headers: jsonHeaders, body: json(#"{"title": "t"}"#))
            { response in
                let note = try response.decode(Note.self)
                #expect(note.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
            }
        }
    }

    @Test("each request's unit of work is disposed with its scope, committed or rolled back")
    func unitOfWorkOutcomes() async throws {
        let server = try makeServer()
        try await withRouterClient(server) { client in
            try await client.execute(uri: "/notes", method: .post, headers: jsonHeaders, body: json(#"{"title": "x"}"#))
            try await client.execute(uri: "/notes", method: .post, headers: jsonHeaders, body: json(#"{"title": "x"}"#))
        }
        let totals = server.audit.snapshot
        #expect(totals.unitsOfWorkDisposed == 2)
        #expect(totals.committed == 1)
        #expect(totals.rolledBack == 1)
        #expect(server.audit.records.values.allSatisfy { $0.closes == 1 && $0.unitOfWorkDisposals.count == 1 })
        #expect(server.audit.disposalOrder == ["MaintenanceService", "NotesDatabase"])
    }
}
