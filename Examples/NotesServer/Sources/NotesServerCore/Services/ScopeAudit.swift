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

import Synchronization

/// Counts what request scopes and units of work did, for the stats job and for the tests.
///
/// The counters are always kept. With `tracksRequests`, it also records, per request, how often its
/// scope was closed and its unit of work disposed, and which unit of work belonged to which request:
/// the integration test checks each was exactly once and never shared.
public final class ScopeAudit: Sendable {
    public struct Totals: Sendable, Equatable {
        public var opened = 0
        public var closed = 0
        public var closedByFallback = 0
        public var unitsOfWorkDisposed = 0
        public var committed = 0
        public var rolledBack = 0
        public var open: Int { opened - closed }
    }

    /// What one request's scope did.
    public struct RequestRecord: Sendable, Equatable {
        public var closes = 0
        public var unitOfWorkDisposals: [Int] = []
    }

    public let tracksRequests: Bool
    private let totals = Mutex(Totals())
    private let requests = Mutex<[String: RequestRecord]>([:])
    private let problems = Mutex<[String]>([])
    private let singletonsDisposed = Mutex<[String]>([])

    public init(tracksRequests: Bool = false) {
        self.tracksRequests = tracksRequests
    }

    public var snapshot: Totals { totals.withLock { $0 } }
    public var records: [String: RequestRecord] { requests.withLock { $0 } }
    /// Anything that should not have happened: a unit of work enlisted twice in one request, a scope
    /// whose close threw.
    public var violations: [String] { problems.withLock { $0 } }
    /// The container's singletons, in the order they were disposed.
    public var disposalOrder: [String] { singletonsDisposed.withLock { $0 } }

    func scopeOpened(_ requestID: String) {
        totals.withLock { $0.opened += 1 }
        if tracksRequests { requests.withLock { $0[requestID, default: RequestRecord()] = RequestRecord() } }
    }

    func scopeClosed(_ requestID: String, byFallback: Bool) {
        totals.withLock {
            $0.closed += 1
            if byFallback { $0.closedByFallback += 1 }
        }
        if tracksRequests { requests.withLock { $0[requestID, default: RequestRecord()].closes += 1 } }
    }

    func unitOfWorkDisposed(_ unitOfWork: Int, of requestID: String, outcome: UnitOfWork.Outcome) {
        totals.withLock {
            $0.unitsOfWorkDisposed += 1
            switch outcome {
            case .committed: $0.committed += 1
            case .rolledBack: $0.rolledBack += 1
            }
        }
        if tracksRequests {
            requests.withLock { $0[requestID, default: RequestRecord()].unitOfWorkDisposals.append(unitOfWork) }
        }
    }

    func violation(_ message: String) {
        problems.withLock { $0.append(message) }
    }

    func singletonDisposed(_ name: String) {
        singletonsDisposed.withLock { $0.append(name) }
    }
}
