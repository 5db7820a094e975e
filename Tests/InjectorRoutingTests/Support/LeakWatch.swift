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

import Testing

/// Drives leak checks on a manual clock, never by sleeping, and reads what they reported.
@MainActor
struct LeakWatch {
    let clock: ManualClock
    /// The descriptions of the leaks reported, in order.
    let leaks = EventLog()

    /// Lets the leak checks' tasks run until they sleep on the clock (or have ended), however late
    /// they run: see `ManualClock.untilIdle()`.
    func untilSleeping(sourceLocation: SourceLocation = #_sourceLocation) async {
        await clock.untilIdle(sourceLocation: sourceLocation)
    }

    /// Lets the woken leak checks finish (and the others go to sleep), however late they run: a
    /// fixed number of yields was not enough when the cooperative pool, which a check's sleep
    /// returns on, was busy with other tests.
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
        await clock.untilIdle(sourceLocation: sourceLocation)
    }

    /// Advances the clock through the 2-second grace period: nothing is reported after the first
    /// second, `expected` after the second.
    func expectReported(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) async {
        await untilSleeping(sourceLocation: sourceLocation)
        clock.advance(by: .seconds(1))
        await settle(sourceLocation: sourceLocation)
        #expect(leaks.entries.isEmpty, "reported within the grace period", sourceLocation: sourceLocation)
        clock.advance(by: .seconds(1))
        await settle(sourceLocation: sourceLocation)
        #expect(leaks.entries == expected, sourceLocation: sourceLocation)
    }

    /// Lets every check run well past its grace period: nothing is reported.
    func expectNothingReported(_ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle(sourceLocation: sourceLocation)
        clock.advance(by: .seconds(5))
        await settle(sourceLocation: sourceLocation)
        #expect(leaks.entries.isEmpty, comment, sourceLocation: sourceLocation)
    }
}
