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

@Suite("Bad input: a clear 4xx JSON error, and no scope or transaction left open", .timeLimit(.minutes(1)))
struct BadInputTests {
    /// Sends one request to a new server and checks its answer is a JSON error with `status`,
    /// then that the request's scope was closed and nothing was saved.
    func expectError(
        _ method: HTTPRequest.Method,
        _ uri: String,
        body: ByteBuffer? = nil,
        status: HTTPResponse.Status,
        messageContaining fragment: String,
        seed: [String] = []
    ) async throws {
        let server = try makeServer()
        try await withRouterClient(server) { client in
            for title in seed {
                try await client.execute(
                    uri: "/notes",
                    method: .post,
                    headers: jsonHeaders,
                    body: json(#"{"title": "\#(title)"}"#)
                ) {
                    #expect($0.status == .created)
                }
            }
            try await client.execute(uri: uri, method: method, headers: jsonHeaders, body: body) { response in
                #expect(response.status == status)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let error = try #require(response.error)
                #expect(error.status == Int(status.code))
                #expect(error.message.contains(fragment), "\(error.message)")
                #expect(error.requestID == response.headers[.requestID])
            }
            try await client.execute(uri: "/notes", method: .get) { response in
                let decoded = try response.decode(NoteList.self)
                #expect(decoded.notes.map(\.title).sorted() == seed.sorted())
            }
        }
        let totals = server.audit.snapshot
        #expect(totals.open == 0)
        #expect(totals.closedByFallback == 0)
        // The seeds and the final list committed; the failed request, if it made a unit of work, rolled back.
        #expect(totals.committed == seed.count + 1)
        #expect(totals.rolledBack <= 1)
        #expect(server.audit.violations.isEmpty)
        #expect(server.audit.records.values.allSatisfy { $0.closes == 1 && $0.unitOfWorkDisposals.count <= 1 })
    }

    @Test("malformed JSON is a 400")
    func malformedJSON() async throws {
        try await expectError(
            .post,
            "/notes",
            body: json(#"{"title": "unterminated"#),
            status: .badRequest,
            messageContaining: "not valid"
        )
    }

    @Test("a missing title is a 400 naming the key")
    func missingTitle() async throws {
        try await expectError(
            .post,
            "/notes",
            body: json(#"{"body": "no title"}"#),
            status: .badRequest,
            messageContaining: "title"
        )
    }

    @Test("a blank title is a 422")
    func blankTitle() async throws {
        try await expectError(
            .post,
            "/notes",
            body: json(#"{"title": "  "}"#),
            status: .unprocessableContent,
            messageContaining: "title"
        )
    }

    /// SQLite stores a bound string up to its first NUL: accepted, the note would be saved cut
    /// short (and a title of NUL then text would be saved blank).
    @Test(
        "a NUL character in a title or body is a 422, nothing saved",
        arguments: [
            #"{"title": "abc\u0000def"}"#,
            #"{"title": "\u0000not blank"}"#,
            #"{"title": "t", "body": "a\u0000b"}"#,
        ]
    )
    func nulCharacter(body: String) async throws {
        try await expectError(
            .post,
            "/notes",
            body: json(body),
            status: .unprocessableContent,
            messageContaining: "cannot contain the NUL character (U+0000)"
        )
    }

    @Test("a NUL character in an update is a 422, the note unchanged")
    func nulCharacterInUpdate() async throws {
        let server = try makeServer()
        try await withRouterClient(server) { client in
            let id = try await client.execute(
                uri: "/notes",
                method: .post,
                headers: jsonHeaders,
                body: json(#"{"title": "kept", "body": "as it was"}"#)
            ) { try $0.decode(Note.self).id }
            try await client.execute(
                uri: "/notes/\(id)",
                method: .put,
                headers: jsonHeaders,
                body: json(#"{"title": "kept\u0000", "body": "changed"}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                let error = try #require(response.error)
                #expect(error.message.contains("NUL character"))
            }
            try await client.execute(uri: "/notes/\(id)", method: .get) { response in
                let note = try response.decode(Note.self)
                #expect(note.title == "kept")
                #expect(note.body == "as it was")
            }
        }
        #expect(server.audit.snapshot.open == 0)
        #expect(server.audit.violations.isEmpty)
    }

    @Test("an unknown id is a 404", arguments: [HTTPRequest.Method.get, .put, .delete])
    func unknownID(method: HTTPRequest.Method) async throws {
        try await expectError(
            method,
            "/notes/no-such-note",
            body: method == .put ? json(#"{"title": "t"}"#) : nil,
            status: .notFound,
            messageContaining: "no-such-note"
        )
    }

    @Test("an oversized body is a 413")
    func oversizedBody() async throws {
        let big = String(repeating: "x", count: 100 * 1024)
        try await expectError(
            .post,
            "/notes",
            body: json(#"{"title": "big", "body": "\#(big)"}"#),
            status: .contentTooLarge,
            messageContaining: "larger than"
        )
    }

    @Test("a duplicate title is a 409, rolled back")
    func duplicateTitle() async throws {
        try await expectError(
            .post,
            "/notes",
            body: json(#"{"title": "taken"}"#),
            status: .conflict,
            messageContaining: "already exists",
            seed: ["taken"]
        )
    }

    /// SQLite compares bytes: without canonical composition, "café" written with a combining accent
    /// would be a second note beside "café" written with é.
    @Test("a title that differs from a stored one only in Unicode composition is a 409")
    func canonicallyEquivalentTitle() async throws {
        try await expectError(
            .post,
            "/notes",
            body: json(#"{"title": "cafe\u0301"}"#),
            status: .conflict,
            messageContaining: "already exists",
            seed: ["caf\u{E9}"]
        )
    }

    @Test("a batch with one conflicting note saves none of them")
    func conflictingBatch() async throws {
        try await expectError(
            .post,
            "/notes/batch",
            body: json(#"[{"title": "new 1"}, {"title": "new 2"}, {"title": "taken"}]"#),
            status: .conflict,
            messageContaining: "nothing was saved",
            seed: ["taken"]
        )
    }

    @Test("an unknown route is a 404")
    func unknownRoute() async throws {
        try await expectError(.get, "/nowhere", status: .notFound, messageContaining: "/nowhere")
    }
}
