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
import Logging
import ServiceLifecycle

/// A periodic job, a container singleton run under the `ServiceGroup`: every `interval` it
/// checkpoints the write-ahead log and logs the request scopes' counters. It stops at graceful
/// shutdown; the container disposes it before the database it depends on.
public final class MaintenanceService: Service, Disposable, Sendable {
    let database: NotesDatabase
    let clock: any NotesClock
    let audit: ScopeAudit
    let interval: Duration
    let logger: Logger

    public init(database: NotesDatabase, clock: any NotesClock, audit: ScopeAudit, interval: Duration, logger: Logger) {
        self.database = database
        self.clock = clock
        self.audit = audit
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await self.clock.sleep(for: self.interval)
                try await self.tick()
            }
        }
        logger.info("maintenance: stopped")
    }

    /// One round: a passive checkpoint and the counters.
    public func tick() async throws {
        let (frames, checkpointed) = try await database.checkpoint(.passive)
        let totals = audit.snapshot
        logger.info(
            "maintenance: checkpoint and stats",
            metadata: [
                "wal.frames": "\(frames)", "wal.checkpointed": "\(checkpointed)",
                "scopes.opened": "\(totals.opened)", "scopes.open": "\(totals.open)",
                "commits": "\(totals.committed)", "rollbacks": "\(totals.rolledBack)",
            ]
        )
    }

    public func dispose() {
        audit.singletonDisposed("MaintenanceService")
        logger.info("disposed MaintenanceService")
    }
}
