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
import GRDB
import Hummingbird

/// What the handlers call: reads go to the pool, writes are staged in the request's unit of work.
/// Transient: built per request from the database and clock (singletons), the unit of work
/// (scoped to the request) and the request's info (given to the scope).
public struct NotesService: Sendable {
    public let database: NotesDatabase
    public let unitOfWork: UnitOfWork
    public let clock: any NotesClock
    public let request: RequestInfo

    public init(database: NotesDatabase, unitOfWork: UnitOfWork, clock: any NotesClock, request: RequestInfo) {
        self.database = database
        self.unitOfWork = unitOfWork
        self.clock = clock
        self.request = request
    }

    public static let maximumTitleLength = 200
    public static let maximumBodyLength = 16 * 1024

    public func list() async throws -> [Note] {
        try await database.pool.read { db in
            try Note.order(Column("createdAt"), Column("id")).fetchAll(db)
        }
    }

    public func note(id: String) async throws -> Note {
        let note = try await database.pool.read { db in try Note.fetchOne(db, key: id) }
        guard let note else { throw HTTPError(.notFound, message: "No note has the id '\(id)'.") }
        return note
    }

    /// Stages a new note; it is in the database once the request commits.
    public func create(_ input: NoteInput) throws -> Note {
        let (title, body) = try Self.validate(input)
        let now = clock.now()
        let note = Note(id: UUID().uuidString.lowercased(), title: title, body: body, createdAt: now, updatedAt: now)
        unitOfWork.stage { db in try note.insert(db) }
        return note
    }

    /// Stages several notes in the same transaction: all of them are saved, or none.
    public func create(batch inputs: [NoteInput]) throws -> [Note] {
        guard !inputs.isEmpty else {
            throw HTTPError(.unprocessableContent, message: "A batch needs at least one note.")
        }
        return try inputs.map(create)
    }

    public func update(id: String, with input: NoteInput) async throws -> Note {
        let (title, body) = try Self.validate(input)
        var note = try await note(id: id)
        note.title = title
        note.body = body
        note.updatedAt = clock.now()
        let updated = note
        unitOfWork.stage { db in try updated.update(db) }
        return updated
    }

    public func delete(id: String) async throws {
        _ = try await note(id: id)
        unitOfWork.stage { db in
            guard try Note.deleteOne(db, key: id) else {
                throw RecordError.recordNotFound(databaseTableName: "note", key: ["id": id.databaseValue])
            }
        }
    }

    static func validate(_ input: NoteInput) throws -> (title: String, body: String) {
        // SQLite reads a bound string up to its first NUL: a title or body holding one would be
        // stored cut short, after a 201 that echoed it whole.
        guard !input.title.unicodeScalars.contains("\0"), input.body?.unicodeScalars.contains("\0") != true else {
            throw HTTPError(
                .unprocessableContent,
                message: "A title or body cannot contain the NUL character (U+0000)."
            )
        }
        // Canonically composed (NFC): SQLite compares bytes, and "café" typed as e + U+0301 is the
        // same title as "café" with é, as Swift's strings say.
        let title = input.title.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !title.isEmpty else {
            throw HTTPError(.unprocessableContent, message: "A note needs a title that is not blank.")
        }
        guard title.count <= maximumTitleLength else {
            throw HTTPError(.unprocessableContent, message: "A title has at most \(maximumTitleLength) characters.")
        }
        let body = input.body ?? ""
        guard body.utf8.count <= maximumBodyLength else {
            throw HTTPError(.unprocessableContent, message: "A body has at most \(maximumBodyLength) bytes.")
        }
        return (title, body)
    }
}
