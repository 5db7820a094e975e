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

// The services of a small notes app, each behind a protocol.
import Injector

/// Tells the time; one per app.
protocol Clock: Sendable {
    var now: String { get }
}

/// Keeps notes; one per app, shared by every thread (so `Sendable`: the compiler refuses a
/// non-`Sendable` singleton).
protocol NoteStore: AnyObject, Sendable {
    func save(_ note: Note)
    var count: Int { get }
}

/// Turns a note into a document.
protocol Exporter {
    func export(_ note: Note) -> String
}

/// Edits one note; made per note, with the note given at resolve time.
protocol Editor: AnyObject {
    var note: Note { get }
    var title: String { get set }
    func save()
}

struct Note: Sendable {
    var text: String
}

final class SystemClock: Clock {
    let now = "2026-11-21 09:00"
}

final class MemoryNoteStore: NoteStore {
    private let clock: any Clock
    private let notes = Guarded<[(Note, String)]>([])

    init(clock: any Clock) { self.clock = clock }

    func save(_ note: Note) { notes.withLock { $0.append((note, clock.now)) } }
    var count: Int { notes.withLock { $0.count } }
}

struct MarkdownExporter: Exporter {
    func export(_ note: Note) -> String { "# Note\n\n\(note.text)" }
}

struct PDFExporter: Exporter {
    func export(_ note: Note) -> String { "%PDF-1.7 … (\(note.text.count) characters)" }
}

final class NoteEditor: Editor {
    let note: Note
    var title = "Untitled"
    private let store: any NoteStore

    init(note: Note, store: any NoteStore) {
        self.note = note
        self.store = store
    }

    func save() { store.save(note) }
}

// A window and its toolbar refer to each other: the toolbar gets its window after construction.

final class Window {
    let toolbar: Toolbar
    init(toolbar: Toolbar) { self.toolbar = toolbar }
}

final class Toolbar {
    weak var window: Window?
}

// A mistake: a sync service that needs a session, whose session needs the sync service back.

protocol SyncService {}
protocol Session {}

struct CloudSync: SyncService {
    init(session: any Session) {}
}

struct UserSession: Session {
    init(sync: any SyncService) {}
}

// Serving requests: each request has its own context and transaction, released when it ends.

extension ScopeTag {
    /// A lifetime scope per request.
    static let request: ScopeTag = "request"
}

/// What one request knows; disposed when the request's scope closes.
final class RequestContext: Disposable {
    let id: Int
    init(id: Int) { self.id = id }
    func dispose() { print("  disposed RequestContext #\(id)") }
}

/// The request's unit of work on the store; committed when the request's scope closes.
final class Transaction: Disposable {
    private let context: RequestContext
    init(context: RequestContext) { self.context = context }
    func dispose() { print("  disposed Transaction of request #\(context.id) (committed)") }
}

/// The number of a request, given to its scope by whoever opens it (a server's request handler).
struct RequestID: Sendable {
    let value: Int
}

/// Sends mail; nothing in this demo registers one.
protocol Mailer {}

/// Records what one request did, and mails it.
final class AuditTrail {
    init(request: RequestID, mailer: any Mailer) {}
}

/// Handles one call of a request; made per call, sharing the request's context and transaction.
final class NoteHandler {
    let context: RequestContext
    let transaction: Transaction
    private let store: any NoteStore

    init(context: RequestContext, transaction: Transaction, store: any NoteStore) {
        self.context = context
        self.transaction = transaction
        self.store = store
    }

    func handle(_ text: String) -> String {
        store.save(Note(text: text))
        return "request #\(context.id) saved \"\(text)\""
    }
}

/// A search index over the notes, built asynchronously at first use.
final class SearchIndex: Sendable {
    let words: Int
    private init(words: Int) { self.words = words }

    static func build(over notes: Int) async -> SearchIndex {
        await Task.yield()  // stands for reading the notes from disk
        return SearchIndex(words: notes * 3)
    }
}
