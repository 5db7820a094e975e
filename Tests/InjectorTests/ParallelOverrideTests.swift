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

@testable import Injector

// The tests here share ONE container and run in parallel (the suite is not serialized), each
// overriding the same service differently: each must only ever see its own override, and the tasks
// without overrides the container's own registrations. CI runs this suite under ThreadSanitizer
// (`swift test --sanitize=thread --filter ParallelOverrideTests`). No assertion depends on timing.

// MARK: - Test doubles (private to this file)

private protocol ParallelClock: Sendable { var now: Int { get } }
private struct ParallelFixedClock: ParallelClock { let now: Int }

/// A transient that depends on the clock.
private final class ParallelStamper: Sendable {
    let clock: any ParallelClock
    init(clock: any ParallelClock) { self.clock = clock }
}

/// A singleton that depends on the clock.
private final class ParallelArchive: Sendable {
    let clock: any ParallelClock
    init(clock: any ParallelClock) { self.clock = clock }
}

/// The container every test here shares: its clock says 0.
private let sharedContainer: Container = {
    let container = Container()
    container.register(ParallelClock.self) { _ in ParallelFixedClock(now: 0) }
    container.register(ParallelStamper.self) { r in try ParallelStamper(clock: r.resolve(ParallelClock.self)) }
    container.register(ParallelArchive.self, scope: .singleton) { r in
        try ParallelArchive(clock: r.resolve(ParallelClock.self))
    }
    try! container.finishRegistration()
    return container
}()

/// How many of the two overriding tests are inside their overrides now: each keeps resolving until
/// it has seen the other inside (bounded), to make the overlap likely without depending on it.
private let overridingTestsInside = Guarded(0)

/// What one resolution round saw: the clock, the stamper's clock, the singleton archive.
private struct Sighting: Equatable {
    let clock: Int
    let stamper: Int
    let archive: ObjectIdentifier
    let archiveClock: Int
}

private func sight() throws -> Sighting {
    let archive = try sharedContainer.resolve(ParallelArchive.self)
    return Sighting(
        clock: try sharedContainer.resolve(ParallelClock.self).now,
        stamper: try sharedContainer.resolve(ParallelStamper.self).clock.now,
        archive: ObjectIdentifier(archive),
        archiveClock: archive.clock.now
    )
}

/// Overrides the shared clock with `now` and resolves at least `minimumRounds` times (yielding
/// between rounds), and on while the other overriding test has not been seen inside (bounded);
/// returns how many rounds saw anything but `now` and the one archive built for the call.
private func resolveRepeatedly(withClockAt now: Int, minimumRounds: Int = 300) async throws -> Int {
    try await sharedContainer.withOverridesAsync {
        $0.register(ParallelClock.self) { _ in ParallelFixedClock(now: now) }
    } operation: {
        overridingTestsInside.add(1)
        defer { overridingTestsInside.add(-1) }
        let first = try sight()
        var wrong = first.clock == now && first.stamper == now && first.archiveClock == now ? 0 : 1
        var round = 1
        while round < minimumRounds
            || (overridingTestsInside.current < 2 && round < 20 * minimumRounds)
        {
            await Task.yield()
            if try sight() != first { wrong += 1 }
            round += 1
        }
        return wrong
    }
}

// MARK: - Tests

@Suite struct ParallelOverrideTests {
    /// While the other test overrides the same clock with 2222, this one only ever sees 1111.
    @Test func firstTestOnlySeesItsOwnOverride() async throws {
        #expect(try await resolveRepeatedly(withClockAt: 1111) == 0)
    }

    /// While the other test overrides the same clock with 1111, this one only ever sees 2222.
    @Test func secondTestOnlySeesItsOwnOverride() async throws {
        #expect(try await resolveRepeatedly(withClockAt: 2222) == 0)
    }

    /// A test without overrides, running alongside, only ever sees the container's own clock and
    /// singleton.
    @Test func testWithoutOverridesSeesTheOriginalMeanwhile() async throws {
        let own = try sharedContainer.resolve(ParallelArchive.self)
        var wrong = 0
        for _ in 0..<300 {
            await Task.yield()
            let seen = try sight()
            if seen != Sighting(clock: 0, stamper: 0, archive: ObjectIdentifier(own), archiveClock: 0) { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(own.clock.now == 0)
    }

    /// 50 tasks each in its own withOverrides with its own clock, and 50 tasks without overrides, all
    /// resolving at once: each overriding task sees only its own clock and its own archive, the
    /// others only the container's.
    @Test func fiftyConcurrentOverridesEachSeeOnlyTheirOwn() async throws {
        let container = Container()
        container.register(ParallelClock.self) { _ in ParallelFixedClock(now: 0) }
        container.register(ParallelStamper.self) { r in try ParallelStamper(clock: r.resolve(ParallelClock.self)) }
        container.register(ParallelArchive.self, scope: .singleton) { r in
            try ParallelArchive(clock: r.resolve(ParallelClock.self))
        }
        try container.finishRegistration()
        let own = try container.resolve(ParallelArchive.self)
        let roundCount = 100

        /// Resolves `roundCount` times; returns how many rounds saw another clock than `now`, or another
        /// archive than the first one (which must not be the container's when overridden).
        @Sendable func rounds(expecting now: Int) async throws -> Int {
            let archive = try container.resolve(ParallelArchive.self)
            var wrong = archive.clock.now == now && (archive === own) == (now == 0) ? 0 : 1
            for _ in 0..<roundCount {
                await Task.yield()
                let clock = try container.resolve(ParallelClock.self).now
                let stamper = try container.resolve(ParallelStamper.self).clock.now
                let sameArchive = try container.resolve(ParallelArchive.self) === archive
                if clock != now || stamper != now || !sameArchive { wrong += 1 }
            }
            return wrong
        }

        let wrongRounds = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for task in 1...50 {
                group.addTask {
                    let wrong = try await container.withOverridesAsync {
                        $0.register(ParallelClock.self) { _ in ParallelFixedClock(now: task) }
                    } operation: {
                        try await rounds(expecting: task)
                    }
                    return (task, wrong)
                }
                group.addTask { (-task, try await rounds(expecting: 0)) }
            }
            return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect(wrongRounds.count == 100)
        #expect(wrongRounds.filter { $0.value != 0 } == [:])
        #expect(try container.resolve(ParallelArchive.self) === own)
        #expect(try container.resolve(ParallelClock.self).now == 0)
    }
}
