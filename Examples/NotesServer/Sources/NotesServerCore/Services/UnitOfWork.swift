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

import GRDB
import Hummingbird
import Injector
import Synchronization

/// A request's unit of work: the writes its handlers stage, applied in one SQLite transaction that
/// commits when the request succeeds and rolls back when it fails. Scoped to the request: every
/// handler and service of one request shares it, and the scope disposes it when it closes.
///
/// Writes are staged and run in one `DatabasePool.write` at commit, rather than in a transaction held
/// open across the handler's awaits: SQLite has one writer, and a transaction left open while a
/// handler waits would serialise every request behind it. A staged write that throws (a duplicate
/// title, a note deleted meanwhile) rolls back everything the request staged.
public final class UnitOfWork: Disposable, Sendable {
    public enum Outcome: Sendable, Equatable {
        case committed
        case rolledBack
    }

    private enum State {
        case open
        case finished(Outcome)
    }

    private static let counter = Atomic<Int>(0)

    /// A process-wide serial number, to tell units of work apart in tests and logs.
    public let id: Int
    /// The id of the request whose scope made it.
    public let requestID: String
    let database: NotesDatabase
    let audit: ScopeAudit
    private let state = Mutex<(state: State, staged: [@Sendable (Database) throws -> Void])>((.open, []))

    init(database: NotesDatabase, request: RequestInfo, audit: ScopeAudit) {
        self.id = Self.counter.add(1, ordering: .relaxed).newValue
        self.requestID = request.id
        self.database = database
        self.audit = audit
        if !request.enlist(self) {
            audit.violation("request \(request.id) made a second unit of work (#\(id))")
        }
    }

    /// Stages a write, run at commit inside the request's transaction.
    public func stage(_ write: @escaping @Sendable (Database) throws -> Void) {
        state.withLock { $0.staged.append(write) }
    }

    /// What the unit of work came to; `nil` while it is open.
    public var outcome: Outcome? {
        state.withLock {
            if case .finished(let outcome) = $0.state { return outcome }
            return nil
        }
    }

    /// Applies the staged writes in one transaction. If one throws, SQLite rolls back all of them,
    /// and the error, as an HTTP error, is the request's answer.
    func commit() async throws {
        let staged: [@Sendable (Database) throws -> Void]? = state.withLock {
            guard case .open = $0.state else { return nil }
            let staged = $0.staged
            $0.staged = []
            return staged
        }
        guard let staged else { return }
        do {
            if !staged.isEmpty {
                try await database.pool.write { db in
                    for write in staged { try write(db) }
                }
            }
            finish(.committed)
        } catch {
            finish(.rolledBack)
            throw Self.httpError(for: error)
        }
    }

    /// Drops the staged writes: nothing of them reaches the database.
    func rollback() {
        state.withLock {
            guard case .open = $0.state else { return }
            $0.staged = []
            $0.state = .finished(.rolledBack)
        }
    }

    private func finish(_ outcome: Outcome) {
        state.withLock { $0.state = .finished(outcome) }
    }

    /// Disposed with the request scope: a unit of work still open (its request never reached
    /// commit) rolls back.
    public func dispose() {
        rollback()
        audit.unitOfWorkDisposed(id, of: requestID, outcome: outcome ?? .rolledBack)
    }

    static func httpError(for error: any Error) -> any Error {
        if let error = error as? DatabaseError, error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return HTTPError(.conflict, message: "A note with that title already exists; nothing was saved.")
        }
        if let error = error as? RecordError, case .recordNotFound = error {
            return HTTPError(.notFound, message: "The note was deleted meanwhile; nothing was saved.")
        }
        return error
    }
}
