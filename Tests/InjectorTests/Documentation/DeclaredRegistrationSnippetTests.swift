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

// The snippets of the declared registrations' documentation (Container+DeclaredRegistration.swift),
// verbatim, with the types they assume, and what the documentation says of them.
// (.ci/check-snippets finds their lines here.)

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private protocol Database: Sendable { var name: String { get } }
private struct SQLite: Database { let name = "notes.sqlite" }
private protocol NoteStore: Sendable { var db: any Database { get } }
private struct FileNoteStore: NoteStore {
    let clock: any Clock
    let db: any Database
    init(clock: Clock, db: Database) {
        self.clock = clock
        self.db = db
    }
}
private protocol Exporter {}
private struct PDFExporter: Exporter {}
private protocol Editor { var clock: any Clock { get } }
private struct NoteEditor: Editor {
    let store: any NoteStore
    let clock: any Clock
}
private struct Note: Sendable { let title: String }
private protocol Preview { var note: Note { get } }
private struct NotePreview: Preview {
    let note: Note
    let store: any NoteStore
}

private struct RequestInfo: Sendable {
    let path: String
    static let sample = RequestInfo(path: "/sample")
}
private final class Mailer: Sendable {
    let host: String
    init(host: String) { self.host = host }
}
private final class AuditTrail: Sendable {
    let info: RequestInfo
    let mailer: Mailer
    init(_ info: RequestInfo, _ mailer: Mailer) {
        self.info = info
        self.mailer = mailer
    }
}

extension ScopeTag {
    fileprivate static let request: ScopeTag = "request"
}

@Suite struct DeclaredRegistrationSnippetTests {
    @Test func theDeclaredRegistrationsResolveTheirParametersByType() throws {
        let container = Container()
        container.register(Clock.self) { _ in SystemClock() }
        container.register(Database.self) { _ in SQLite() }

        container.register(NoteStore.self, scope: .singleton, FileNoteStore.init)  // init(clock: Clock, db: Database)
        container.register(Exporter.self, name: "pdf", PDFExporter.init)
        container.register(Editor.self) { (store: NoteStore, clock: Clock) in NoteEditor(store: store, clock: clock) }

        let report = try container.validate()
        #expect(report.checkedFromDeclarations.count == 3)
        #expect(try container.resolve(NoteStore.self).db.name == "notes.sqlite")
        #expect(try container.resolve(Exporter.self, name: "pdf") is PDFExporter)
        #expect(try container.resolve(Editor.self).clock.now == "09:00")
    }

    @Test func anArgumentComesFirstAndIsPassedAsTheCallerResolves() throws {
        let container = Container()
        container.register(Clock.self) { _ in SystemClock() }
        container.register(Database.self) { _ in SQLite() }
        container.register(NoteStore.self, FileNoteStore.init)
        container.register(NoteStore.self, name: "cloud") { _ in FileNoteStore(clock: SystemClock(), db: SQLite()) }
        let note = Note(title: "Groceries")

        container.register(Preview.self, argument: Note.self, NotePreview.init)  // init(note: Note, store: NoteStore)
        let preview = try container.resolve(Preview.self, argument: note)

        #expect(preview.note.title == "Groceries")
        #expect(try container.validate().checkedFromDeclarations.count == 2)
    }

    @Test func anArgumentComesBeforeTheParametersUsingNames() throws {
        let container = Container()
        container.register(NoteStore.self, name: "cloud") { _ in FileNoteStore(clock: SystemClock(), db: SQLite()) }
        // swift-format-ignore
        container.register(Preview.self, argument: Note.self, using: Resolved(NoteStore.self, name: "cloud")) {
            note, store in NotePreview(note: note, store: store)
        }

        #expect(try container.resolve(Preview.self, argument: Note(title: "Draft")).note.title == "Draft")
    }

    @Test func usingNamesTheDependencyEachParameterIsResolvedAs() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: .request)
        container.register(Mailer.self) { _ in Mailer(host: "localhost") }
        container.register(Mailer.self, name: "smtp") { _ in Mailer(host: "smtp.example.com") }

        container.register(
            AuditTrail.self,
            scope: .scoped(to: .request),
            using: Resolved(RequestInfo.self),
            Resolved(Mailer.self, name: "smtp")
        ) { info, mailer in AuditTrail(info, mailer) }

        let trail = try container.withScope(
            tag: .request,
            providing: { $0.provide(RequestInfo.self, RequestInfo(path: "/notes")) },
            operation: { try $0.resolve(AuditTrail.self) }
        )
        #expect(trail.mailer.host == "smtp.example.com")
        #expect(trail.info.path == "/notes")
    }

    @Test func theReadmeDeclaresAStoreAndAnAuditTrailByTheirInitialisers() throws {
        let container = Container()
        container.register(Clock.self) { _ in SystemClock() }
        container.register(Database.self) { _ in SQLite() }
        container.register(RequestInfo.self, providedByScope: .request)
        container.register(Mailer.self, name: "smtp") { _ in Mailer(host: "smtp.example.com") }

        container.register(NoteStore.self, scope: .singleton, FileNoteStore.init)  // init(clock: Clock, db: Database)
        container.register(
            AuditTrail.self,
            scope: .scoped(to: .request),
            using: Resolved(RequestInfo.self),
            Resolved(Mailer.self, name: "smtp"),
            make: AuditTrail.init
        )

        let report = try container.validate()
        #expect(report.checkedFromDeclarations.map(\.description) == ["NoteStore", "AuditTrail"])
        let graph = container.dependencyGraph()
        #expect(graph.nodes.first { $0.key.description == "AuditTrail" }?.dependencies.count == 2)
    }

    @Test func validationTakesSampleValuesForTheScopesValues() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: .request)
        container.register(Mailer.self, name: "smtp") { _ in Mailer(host: "smtp.example.com") }
        container.register(AuditTrail.self, scope: .scoped(to: .request)) { r in
            try AuditTrail(r.resolve(RequestInfo.self), r.resolve(Mailer.self, name: "smtp"))
        }

        try container.validate(providing: { $0.provide(RequestInfo.self, .sample) })

        #expect(try container.validate(providing: { $0.provide(RequestInfo.self, .sample) }).unchecked.isEmpty)
    }
}
