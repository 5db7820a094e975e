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
import Injector
import Logging
import ServiceLifecycle

/// The SQLite database, a container singleton: one `DatabasePool` (write-ahead log, one writer,
/// concurrent readers) on `notes.sqlite` in the data directory.
///
/// It is also a long-running service under the `ServiceGroup`: it waits for graceful shutdown, which
/// comes after the HTTP server has finished its in-flight requests, then checkpoints the log into
/// the database file. The container closes the pool when it shuts down (`Disposable`).
public final class NotesDatabase: Service, Disposable, Sendable {
    public let pool: DatabasePool
    public let path: String
    let logger: Logger
    let audit: ScopeAudit

    public init(directory: String, audit: ScopeAudit, logger: Logger) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = URL(fileURLWithPath: directory).appendingPathComponent("notes.sqlite").path
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        pool = try DatabasePool(path: path, configuration: configuration)
        self.logger = logger
        self.audit = audit
        try Self.migrator.migrate(pool)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("create notes") { db in
            try db.create(table: "note") { table in
                table.primaryKey("id", .text)
                table.column("title", .text).notNull().unique()
                table.column("body", .text).notNull()
                table.column("createdAt", .datetime).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
        }
        return migrator
    }

    /// Moves the write-ahead log's frames into the database file.
    ///
    /// - Returns: The number of frames in the log, and how many were checkpointed.
    @discardableResult
    public func checkpoint(_ kind: Database.CheckpointMode = .passive) async throws -> (Int, Int) {
        try await pool.writeWithoutTransaction { db in
            let result = try db.checkpoint(kind)
            return (result.walFrameCount, result.checkpointedFrameCount)
        }
    }

    public func run() async throws {
        try? await gracefulShutdown()
        let (frames, done) = try await checkpoint(.truncate)
        logger.info("database: final checkpoint", metadata: ["frames": "\(frames)", "checkpointed": "\(done)"])
    }

    public func dispose() throws {
        try pool.close()
        audit.singletonDisposed("NotesDatabase")
        logger.info("disposed NotesDatabase (pool closed)")
    }
}
