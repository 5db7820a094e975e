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
import Testing

/// A clock that moves only when a test advances it: leak checks are tested without sleeping.
///
/// It also tells when the tasks that use it have nothing left to do until it moves again
/// (`untilIdle()`), however late they run on a loaded machine: each instant `now` gives carries a
/// hold, kept as long as that instant, or one advanced from it, is. A leak check keeps the instant
/// its grace period started from until its task has ended, so a hold that no sleeper keeps belongs
/// to a task with work left: not yet asleep, or woken and not yet done.
final class ManualClock: _Concurrency.Clock, @unchecked Sendable {
    typealias Duration = Swift.Duration

    struct Instant: InstantProtocol {
        typealias Duration = Swift.Duration
        let offset: Swift.Duration
        /// The hold of the instant `now` gave that this one was advanced from, if any.
        fileprivate var hold: Hold?
        func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration, hold: hold) }
        func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        static func == (lhs: Instant, rhs: Instant) -> Bool { lhs.offset == rhs.offset }
        func hash(into hasher: inout Hasher) { hasher.combine(offset) }
    }

    /// Tells its clock when the last instant that keeps it is gone.
    fileprivate final class Hold: Sendable {
        let clock: ManualClock
        init(clock: ManualClock) { self.clock = clock }
        deinit { clock.release(ObjectIdentifier(self)) }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = []
    /// The holds still kept somewhere.
    private var holds: Set<ObjectIdentifier> = []

    var now: Instant {
        let hold = Hold(clock: self)
        return lock.withLock {
            holds.insert(ObjectIdentifier(hold))
            return Instant(offset: current.offset, hold: hold)
        }
    }
    var minimumResolution: Swift.Duration { .zero }

    /// How many sleepers are waiting: a test waits for a leak check to start sleeping.
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let ready = lock.withLock { () -> Bool in
                if deadline <= current { return true }
                sleepers.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves the clock on by `duration`, waking the sleepers whose deadline has come.
    func advance(by duration: Swift.Duration) {
        // The woken sleepers' instants are let go of after the lock is: a hold's last one calls `release`.
        let woken = lock.withLock { () -> [(deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Waits until every task that took an instant from `now` sleeps on the clock or is done with
    /// it: an event, not a number of yields, so the tasks may run late, wherever they run. Polls
    /// every millisecond, letting the main actor go; the limit (30 s) only bounds a broken test.
    func untilIdle(sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !isIdle {
            guard ContinuousClock.now < deadline else {
                Issue.record(
                    "a task on the manual clock neither slept nor ended within 30 s",
                    sourceLocation: sourceLocation
                )
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Whether every hold still kept is a sleeper's.
    private var isIdle: Bool {
        lock.withLock {
            holds.isSubset(of: sleepers.compactMap { $0.deadline.hold.map(ObjectIdentifier.init) })
        }
    }

    fileprivate func release(_ hold: ObjectIdentifier) {
        _ = lock.withLock { holds.remove(hold) }
    }
}
