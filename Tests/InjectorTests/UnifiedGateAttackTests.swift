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

import Dispatch
import Foundation
import Testing

@testable import Injector

// Attacks on the one table of shared-construction gates that sync and async resolutions share
// (`InstanceGates`): a freed gate granted to its waiters in turn, a thread that takes its gate
// again, a store's gate adopted while its holder has taken it twice, sync waiters of async
// resolutions cancelled as the gate is freed, wait cycles across threads and tasks, and sync and
// async realm gates of one container used at once.

private final class UgPool: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private final class UgLeft: Sendable {}
private final class UgRight: Sendable {}
private final class UgRoot: Sendable {}
/// A transient with a hook: a resolve that builds it holds what it builds until it completes.
private final class UgHooked: Sendable {}
/// A hooked singleton that other threads ask for while the realm's turn is taken.
private final class UgTurn: Sendable {}
private final class UgSyncHookedA: Sendable {}
private final class UgSyncHookedB: Sendable {}
private final class UgAsyncHookedA: Sendable {}
private final class UgAsyncHookedB: Sendable {}

private struct UgFailure: Error {}

/// The waits now recorded in the gate table for `type`.
private func waits(for type: Any.Type) -> Int {
    InstanceGates.waits().filter { $0.serviceType == type }.count
}

/// The message of a sync waiter of an async resolution cancelled while it waits at `UgPool`'s
/// gate (`turn`: at the realm's gate, the registration having hooks), or granted the gate with
/// nothing built and cancelled (`beforeBuilding`).
private func cancelledPoolMessage(turn: Bool, beforeBuilding: Bool = false) -> String {
    let why =
        beforeBuilding
        ? "the task was cancelled before it would have started building its shared instance: a cancelled"
            + " task starts no shared factory."
        : turn
            ? "the task was cancelled while another resolution was building a shared instance with onResolved"
                + " or verify steps (those are built one resolution at a time), which its own has too: a"
                + " cancelled task does not wait for its turn."
            : "the task was cancelled, and another resolution is building its shared instance: a cancelled"
                + " task does not wait for it."
    return "Resolving UgPool was cancelled: " + why
        + " Nothing was built for this resolve; the instance is built once, by a task that is not"
        + " cancelled. Fix: nothing, if the task was meant to stop; otherwise, do not cancel it while it resolves."
}

/// Checks that exactly one of `outcomes` is a `circularWait` between `UgLeft` and `UgRight`
/// (`runner`: "thread" or "task"), naming both paths and the fixed parts of the message, the other
/// one the instance it asked for.
private func expectOneCrossedWaitRefused(
    _ outcomes: [ResolveOutcome],
    between runner: String,
    realm: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let errors = failures(outcomes)
    #expect(errors.count == 1, "\(outcomes)", sourceLocation: sourceLocation)
    #expect(outcomes.count == 2, sourceLocation: sourceLocation)
    guard let error = errors.first else { return }
    #expect(error.code == .circularWait, "\(error.message)", sourceLocation: sourceLocation)
    let (leftPath, rightPath) = ("UgLeft -> UgRight", "UgRight -> UgLeft")
    let leftStopped = error.message.hasPrefix("Resolving UgRight would wait forever: this resolution (\(leftPath))")
    let (own, other) = leftStopped ? (leftPath, rightPath) : (rightPath, leftPath)
    let asked = leftStopped ? "UgRight" : "UgLeft"
    #expect(
        error.message.hasPrefix("Resolving \(asked) would wait forever: this resolution (\(own)) needs "),
        "\(error.message)",
        sourceLocation: sourceLocation
    )
    #expect(
        error.message.contains("another \(runner)'s resolution"),
        "\(error.message)",
        sourceLocation: sourceLocation
    )
    #expect(
        error.message.contains(", and that one (\(other)) waits for "),
        "\(error.message)",
        sourceLocation: sourceLocation
    )
    #expect(
        error.message.contains(
            ". Each holds a shared instance it has not finished while it waits for the other's, so neither"
                + " can go on; this one stops instead of waiting, and releases what it holds."
                + " Fix: let one of them resolve the other's service first, or before starting the other"
                + " \(runner)'s work, or ask for it later through Lazy<T> or ServiceProvider<T>"
        ),
        "\(error.message)",
        sourceLocation: sourceLocation
    )
    let realmNote = "; or resolve the services with onResolved or verify steps once at start-up."
    #expect(
        error.message.hasSuffix(realm ? realmNote : "ServiceProvider<T>."),
        "\(error.message)",
        sourceLocation: sourceLocation
    )
    #expect(
        error.resolutionPath.map(\.description) == own.components(separatedBy: " -> "),
        sourceLocation: sourceLocation
    )
    let succeeded = outcomes.compactMap { try? $0.get() }
    #expect(succeeded == [leftStopped ? "UgRight" : "UgLeft"], "\(outcomes)", sourceLocation: sourceLocation)
}

@Suite(.serialized)
struct UnifiedGateAttackTests {
    // MARK: Many threads at one cold sync instance

    /// Twenty threads (twelve of their own, eight of `concurrentPerform`) ask at once for a cold
    /// sync singleton, weak or scoped instance whose factory sleeps: the factory runs once, every
    /// thread gets that instance, and none hangs; eight rounds, each with a fresh container.
    @Test(arguments: [Scope.singleton, .weak, .scoped])
    func manyThreadsRacingForAColdSyncInstanceBuildItOnce(scope lifetime: Scope) async throws {
        for round in 0..<8 {
            let calls = CallCounter()
            let container = Container()
            container.register(UgPool.self, scope: lifetime) { _ in
                let serial = calls.next()
                Thread.sleep(forTimeInterval: 0.02)
                return UgPool(serial: serial)
            }
            let scope = container.makeScope()
            let got = Guarded([UgPool]())
            let outcomes = Outcomes()
            let resolveOne: @Sendable () -> Void = {
                outcomes.record {
                    let pool = try lifetime == .scoped ? scope.resolve(UgPool.self) : container.resolve(UgPool.self)
                    got.withLock { $0.append(pool) }  // kept: a weak instance lives while anyone holds it
                    return pool
                }
            }
            let ended = await onThreads(
                Array(repeating: resolveOne, count: 12) + [
                    { DispatchQueue.concurrentPerform(iterations: 8) { _ in resolveOne() } }
                ]
            )
            #expect(ended, "round \(round)")
            #expect(outcomes.errors.isEmpty, "round \(round): \(outcomes.errors.map(\.message))")
            #expect(got.current.count == 20, "round \(round)")
            #expect(Set(got.current.map(\.serial)) == [1], "round \(round)")
            #expect(calls.count == 1, "round \(round)")
            #expect(waits(for: UgPool.self) == 0)
            try await scope.closeAsync()
        }
    }

    // MARK: A thread taking its gate again

    /// A resolution keeps a singleton's gate after its factory failed (what it built is held until
    /// it completes: it built a transient with a hook), then a resolution nested in it on the same
    /// thread (through the captured container) takes the gate again and builds the singleton while
    /// three threads wait at that gate. When the nested resolution returns, they still wait (the
    /// gate is held twice, and the outer resolution still holds it); once the outer one completes,
    /// each gets the one instance, built once.
    @Test func aSingletonGateTakenAgainByANestedResolutionStaysHeldUntilTheOuterOneEnds() async throws {
        let container = Container()
        let (calls, waiters) = (CallCounter(), 3)
        let (building, seen) = (Signal(), EventLog())
        container.register(UgHooked.self) { _ in UgHooked() }.onResolved { _, _ in }
        container.register(UgPool.self, scope: .singleton) { _ in
            let call = calls.next()
            if call == 1 { throw UgFailure() }
            building.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ InstanceGates.waits(forGatesHeldBy: builder).count == waiters }) {
                seen.record("waiters wait")
            }
            return UgPool(serial: call)
        }
        container.register(UgRoot.self) { r in
            _ = try r.resolve(UgHooked.self)
            if injectionError({ try r.resolve(UgPool.self) })?.code == .factoryFailed { seen.record("first failed") }
            let pool = try r.container.resolve(UgPool.self)
            let thread = InstanceGates.Owner.currentThread
            seen.record(
                "after nested: \(InstanceGates.waits(forGatesHeldBy: thread).count) wait, serial \(pool.serial)"
            )
            return UgRoot()
        }
        let outcomes = Outcomes()
        async let rootEnded = onThreads([{ outcomes.record { try container.resolve(UgRoot.self) } }])
        #expect(await awaited(building))
        let waited = await onThreads(
            (0..<waiters).map { _ in { outcomes.record { try container.resolve(UgPool.self).serial } } }
        )
        #expect(await rootEnded)
        #expect(waited)
        #expect(outcomes.errors.isEmpty, "\(outcomes.errors.map(\.message))")
        #expect(seen.events == ["first failed", "waiters wait", "after nested: 3 wait, serial 2"])
        #expect(try container.resolve(UgPool.self).serial == 2)
        #expect(calls.count == 2)
    }

    /// A hooked singleton's factory resolves another hooked singleton through the captured
    /// container: its thread takes the realm's gate again, while three threads wait at it for a
    /// third hooked singleton. The nested resolution's return does not free the realm; once the
    /// outer one completes, the waiters take their turns and share the third's one instance.
    @Test func aRealmGateTakenAgainByANestedResolutionKeepsWaitingThreadsOut() async throws {
        let container = Container()
        let (turnCalls, hookRuns, waiters) = (CallCounter(), CallCounter(), 3)
        let (building, seen) = (Signal(), EventLog())
        container.register(UgRight.self, scope: .singleton) { _ in
            building.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ InstanceGates.waits(forGatesHeldBy: builder).count == waiters }) {
                seen.record("waiters wait")
            }
            return UgRight()
        }
        .onResolved { _, _ in hookRuns.next() }
        container.register(UgLeft.self, scope: .singleton) { r in
            _ = try r.container.resolve(UgRight.self)
            let thread = InstanceGates.Owner.currentThread
            seen.record("after nested: \(InstanceGates.waits(forGatesHeldBy: thread).count) wait")
            seen.record("turn built: \(turnCalls.count)")
            return UgLeft()
        }
        .onResolved { _, _ in hookRuns.next() }
        container.register(UgTurn.self, scope: .singleton) { _ in
            turnCalls.next()
            return UgTurn()
        }
        .onResolved { _, _ in hookRuns.next() }
        let outcomes = Outcomes()
        async let leftEnded = onThreads([{ outcomes.record { try container.resolve(UgLeft.self) } }])
        #expect(await awaited(building))
        let turns = Guarded([ObjectIdentifier]())
        let waited = await onThreads(
            (0..<waiters).map { _ in
                {
                    outcomes.record {
                        let turn = try container.resolve(UgTurn.self)
                        turns.withLock { $0.append(ObjectIdentifier(turn)) }
                        return turn
                    }
                }
            }
        )
        #expect(await leftEnded)
        #expect(waited)
        #expect(outcomes.errors.isEmpty, "\(outcomes.errors.map(\.message))")
        #expect(seen.events == ["waiters wait", "after nested: 3 wait", "turn built: 0"])
        #expect(Set(turns.current).count == 1)
        #expect(turnCalls.count == 1)
        #expect(hookRuns.count == 3)
    }

    /// A resolution keeps a scoped instance's gate in its scope's store after its factory failed
    /// (it holds a hooked transient, so what it builds waits for its completion), then a resolution
    /// nested in it on the same thread takes the store's gate again and builds the instance. Another
    /// thread comes to wait at the gate, while it is taken once (`adoptedAt` 1) or twice (2): the
    /// store hands the gate to the table with its holder listed as many times. The waiter gets
    /// the one instance once the outer resolution completes, and the gate is free after.
    @Test(arguments: [1, 2])
    func aStoreGateTakenTwiceIsAdoptedWithBothHolds(adoptedAt holds: Int) async throws {
        let container = Container()
        let calls = CallCounter()
        let (waiterMayCome, seen) = (Signal(), EventLog())
        let waiterWaits: @Sendable (String) -> Void = { moment in
            waiterMayCome.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ InstanceGates.waits(forGatesHeldBy: builder) == [ServiceKey(UgPool.self, name: nil)] }) {
                seen.record("waiter waits \(moment)")
            }
        }
        container.register(UgHooked.self) { _ in UgHooked() }.onResolved { _, _ in }
        container.register(UgPool.self, scope: .scoped) { _ in
            let call = calls.next()
            if call == 1 { throw UgFailure() }
            if holds == 2 { waiterWaits("while held twice") }
            return UgPool(serial: call)
        }
        let captured = Guarded<LifetimeScope?>(nil)
        container.register(UgRoot.self) { r in
            _ = try r.resolve(UgHooked.self)
            if injectionError({ try r.resolve(UgPool.self) })?.code == .factoryFailed { seen.record("first failed") }
            if holds == 1 { waiterWaits("while held once") }
            guard let scope = captured.current else { throw UgFailure() }
            let pool = try scope.resolve(UgPool.self)
            seen.record("nested built \(pool.serial)")
            return UgRoot()
        }
        let scope = container.makeScope()
        captured.set(scope)
        let outcomes = Outcomes()
        async let rootEnded = onThreads([{ outcomes.record { try scope.resolve(UgRoot.self) } }])
        #expect(await awaited(waiterMayCome))
        let serial = Guarded(0)
        let waited = await onThreads([{ outcomes.record { try serial.set(scope.resolve(UgPool.self).serial) } }])
        #expect(await rootEnded)
        #expect(waited)
        #expect(outcomes.errors.isEmpty, "\(outcomes.errors.map(\.message))")
        #expect(
            seen.events == [
                "first failed", "waiter waits while held \(holds == 1 ? "once" : "twice")", "nested built 2",
            ]
        )
        #expect(serial.current == 2)
        #expect(calls.count == 2)
        // The gate the table keeps now is free: any thread gets the instance at once.
        let again = await onThreads(
            seconds: 10,
            [{ outcomes.record { try serial.set(scope.resolve(UgPool.self).serial + 1) } }]
        )
        #expect(again)
        #expect(outcomes.errors.isEmpty)
        #expect(serial.current == 3)
        try await scope.closeAsync()
    }

    // MARK: Cancelled as the gate is freed

    /// An async resolve meets a sync singleton (with hooks or not) another thread is building, and
    /// its task is cancelled within a fraction of a millisecond of the gate being freed, before or
    /// after, 40 times (the builder failing or not). Each time the waiter either gets the instance
    /// or stops with `resolutionCancelled` saying where; the factory builds once (a failed call,
    /// then at most one that succeeds); and the gates are left free: another thread resolves the
    /// singleton, and another hooked one, at once.
    @Test(arguments: [false, true], [false, true])
    func aTaskCancelledAsTheSyncGateIsFreedNeitherLeaksTheGateNorBuildsTwice(
        hooked: Bool,
        builderFails: Bool
    ) async throws {
        let executor = ThreadPerJobExecutor()
        for round in 0..<40 {
            let container = Container()
            let (calls, built) = (CallCounter(), CallCounter())
            let (building, waiting, release) = (Signal(), Signal(), DispatchSemaphore(value: 0))
            let registration = container.register(UgPool.self, scope: .singleton) { _ in
                let call = calls.next()
                if call == 1 {
                    building.signal()
                    let builder = InstanceGates.Owner.currentThread
                    if waitedUntil({ !InstanceGates.waits(forGatesHeldBy: builder).isEmpty }) { waiting.signal() }
                    _ = waited(for: release, seconds: 30)
                    if builderFails { throw UgFailure() }
                }
                return UgPool(serial: built.next())
            }
            if hooked { registration.onResolved { _, _ in } }
            container.register(UgTurn.self, scope: .singleton) { _ in UgTurn() }.onResolved { _, _ in }
            async let builderEnded = onThreads([{ _ = try? container.resolve(UgPool.self) }])
            #expect(await awaited(building), "round \(round)")
            let waiter = Task(executorPreference: executor) {
                await outcome { try await container.resolveAsync(UgPool.self) }
            }
            #expect(await awaited(waiting), "round \(round)")
            // Up to 0.5 ms either side of the release, on a thread of its own for the precision.
            let delay = Double(round % 10) * 0.00005
            let cancelFirst = round.isMultiple(of: 2)
            let raced = await onThreads([
                {
                    if cancelFirst { waiter.cancel() } else { release.signal() }
                    let until = Date(timeIntervalSinceNow: delay)
                    while Date() < until {}
                    if cancelFirst { release.signal() } else { waiter.cancel() }
                }
            ])
            #expect(raced)
            let result = await withWatchdog { await waiter.value } ?? .success("hung")
            #expect(await builderEnded, "round \(round)")

            switch result {
            case .success(let type): #expect(type == "UgPool", "round \(round)")
            case .failure(let error):
                #expect(error.code == .resolutionCancelled, "round \(round): \(error.message)")
                let whileWaiting = cancelledPoolMessage(turn: hooked)
                let granted = cancelledPoolMessage(turn: hooked, beforeBuilding: true)
                #expect(
                    error.message == whileWaiting || (builderFails && error.message == granted),
                    "round \(round): \(error.message)"
                )
            }
            #expect(built.count <= 1, "round \(round)")
            #expect(calls.count == 1 + (builderFails ? built.count : 0), "round \(round)")
            // Nothing is left held or waiting: another thread gets (or builds) the singleton, and
            // the turn of hooked registrations, at once.
            let serials = Guarded([Int]())
            let after = await onThreads(
                seconds: 10,
                [
                    {
                        if let pool = try? container.resolve(UgPool.self) {
                            serials.withLock { $0.append(pool.serial) }
                        }
                        _ = try? container.resolve(UgTurn.self)
                    }
                ]
            )
            #expect(after, "round \(round)")
            #expect(serials.current == [1], "round \(round)")
            #expect(built.count == 1, "round \(round)")
            #expect(waits(for: UgPool.self) == 0, "round \(round)")
        }
    }

    /// Three tasks' resolves (sync waiters of async resolutions) and three threads' resolves wait
    /// in turn at a sync singleton's gate; the tasks are cancelled within a fraction of a
    /// millisecond of its release, 20 times, the builder failing or not. A task granted the gate
    /// as it is cancelled goes on holding it and hands it on: every thread gets the one instance,
    /// each task gets it or stops with `resolutionCancelled`, and the factory succeeds once.
    @Test(arguments: [false, true])
    func threadsQueuedBehindCancelledTasksAtASyncGateAllGetTheInstance(builderFails: Bool) async throws {
        let executor = ThreadPerJobExecutor()
        for round in 0..<20 {
            let container = Container()
            let (calls, built) = (CallCounter(), CallCounter())
            let (building, allWaiting, release) = (Signal(), Signal(), DispatchSemaphore(value: 0))
            let (tasksWaiting, taskCount, threadCount) = (Signal(), 3, 3)
            container.register(UgPool.self, scope: .singleton) { _ in
                if calls.next() == 1 {
                    building.signal()
                    if waitedUntil({ waits(for: UgPool.self) == taskCount }) { tasksWaiting.signal() }
                    if waitedUntil({ waits(for: UgPool.self) == taskCount + threadCount }) { allWaiting.signal() }
                    _ = waited(for: release, seconds: 30)
                    if builderFails { throw UgFailure() }
                }
                Thread.sleep(forTimeInterval: 0.001)
                return UgPool(serial: built.next())
            }
            async let builderEnded = onThreads([{ _ = try? container.resolve(UgPool.self) }])
            #expect(await awaited(building), "round \(round)")
            let tasks = (0..<taskCount).map { _ in
                Task(executorPreference: executor) { await outcome { try await container.resolveAsync(UgPool.self) } }
            }
            #expect(await awaited(tasksWaiting), "round \(round)")
            let serials = Guarded([Int]())
            async let threadsEnded = onThreads(
                (0..<threadCount).map { _ in
                    {
                        // Resolved outside the lock: the other threads must reach the gate.
                        if let pool = try? container.resolve(UgPool.self) {
                            serials.withLock { $0.append(pool.serial) }
                        }
                    }
                }
            )
            #expect(await awaited(allWaiting), "round \(round)")
            let delay = Double(round % 10) * 0.00005
            let raced = await onThreads([
                {
                    release.signal()
                    let until = Date(timeIntervalSinceNow: delay)
                    while Date() < until {}
                    for task in tasks { task.cancel() }
                }
            ])
            #expect(raced)
            for task in tasks {
                let result = await withWatchdog { await task.value } ?? .success("hung")
                switch result {
                case .success(let type): #expect(type == "UgPool", "round \(round)")
                case .failure(let error):
                    #expect(error.code == .resolutionCancelled, "round \(round): \(error.message)")
                    let whileWaiting = cancelledPoolMessage(turn: false)
                    let granted = cancelledPoolMessage(turn: false, beforeBuilding: true)
                    #expect(
                        error.message == whileWaiting || (builderFails && error.message == granted),
                        "round \(round): \(error.message)"
                    )
                }
            }
            #expect(await builderEnded, "round \(round)")
            #expect(await threadsEnded, "round \(round)")
            #expect(serials.current == Array(repeating: 1, count: threadCount), "round \(round)")
            #expect(built.count == 1, "round \(round)")
            #expect(waits(for: UgPool.self) == 0, "round \(round)")
        }
    }

    // MARK: Wait cycles across threads

    /// Thread A builds singleton `UgLeft`, whose factory (its first call) asks for `UgRight` once
    /// thread B builds it; B's factory (its first call) asks for `UgLeft`. Each holds what the
    /// other needs: the one that would close the cycle throws `circularWait` naming both paths
    /// and "another thread's resolution"; the other then builds what it needs and succeeds. With
    /// an `onResolved` hook on `UgLeft` (`leftHooked`), B waits for the realm's turn that A holds
    /// to build `UgLeft` (or A for `UgRight`), and the message names the turn; the hook runs once.
    /// No hang, ten rounds.
    @Test(arguments: [false, true])
    func crossedSingletonConstructionsOnTwoThreadsStopOneWithCircularWait(leftHooked: Bool) async throws {
        for _ in 0..<10 {
            let container = Container()
            let (leftHeld, rightHeld) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let (leftCalls, rightCalls, hookRuns) = (CallCounter(), CallCounter(), CallCounter())
            let left = container.register(UgLeft.self, scope: .singleton) { r in
                if leftCalls.next() == 1 {
                    leftHeld.signal()
                    _ = waited(for: rightHeld)
                    _ = try r.resolve(UgRight.self)
                }
                return UgLeft()
            }
            if leftHooked { left.onResolved { _, _ in hookRuns.next() } }
            container.register(UgRight.self, scope: .singleton) { r in
                if rightCalls.next() == 1 {
                    rightHeld.signal()
                    _ = waited(for: leftHeld)
                    _ = try r.resolve(UgLeft.self)
                }
                return UgRight()
            }
            let outcomes = Outcomes()
            let ended = await onThreads([
                { outcomes.record { try container.resolve(UgLeft.self) } },
                { outcomes.record { try container.resolve(UgRight.self) } },
            ])
            try #require(ended)
            expectOneCrossedWaitRefused(outcomes.all, between: "thread", realm: leftHooked)
            if leftHooked, let error = outcomes.errors.first {
                #expect(
                    error.message.contains(
                        "the turn to build UgLeft (a registration with onResolved or verify steps: those are built"
                            + " one resolution at a time), which "
                    ),
                    "\(error.message)"
                )
            }
            #expect(try container.resolve(UgLeft.self) === container.resolve(UgLeft.self))
            #expect(try container.resolve(UgRight.self) === container.resolve(UgRight.self))
            #expect(leftCalls.count + rightCalls.count == 3)  // the loser's is built again by the winner
            #expect(hookRuns.count == (leftHooked ? 1 : 0))
        }
    }

    /// Both hooked: thread B, asking for `UgRight`, waits for the realm's turn that A holds while
    /// building `UgLeft`, whose factory then asks for `UgRight`. No cycle: A builds both (B never
    /// took `UgRight`'s gate), then B gets A's `UgRight`. Both succeed, each factory and hook once.
    @Test func twoHookedSingletonsAskedOnTwoThreadsAreBuiltInOneTurn() async throws {
        let container = Container()
        let (leftCalls, rightCalls, hookRuns, seen) = (CallCounter(), CallCounter(), CallCounter(), EventLog())
        let leftBuilding = DispatchSemaphore(value: 0)
        container.register(UgLeft.self, scope: .singleton) { r in
            leftCalls.next()
            leftBuilding.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ InstanceGates.waits(forGatesHeldBy: builder) == [ServiceKey(UgRight.self, name: nil)] }) {
                seen.record("right waits for the turn")
            }
            _ = try r.resolve(UgRight.self)
            return UgLeft()
        }
        .onResolved { _, _ in hookRuns.next() }
        container.register(UgRight.self, scope: .singleton) { _ in
            rightCalls.next()
            return UgRight()
        }
        .onResolved { _, _ in hookRuns.next() }
        let outcomes = Outcomes()
        let rights = Guarded([ObjectIdentifier]())
        let ended = await onThreads([
            { outcomes.record { try container.resolve(UgLeft.self) } },
            {
                // Once A holds the turn (it is in UgLeft's factory), however late A's thread started;
                // A then waits for B to wait.
                guard waited(for: leftBuilding) else { return }
                outcomes.record {
                    let right = try container.resolve(UgRight.self)
                    rights.withLock { $0.append(ObjectIdentifier(right)) }
                    return right
                }
            },
        ])
        try #require(ended)
        #expect(outcomes.errors.isEmpty, "\(outcomes.errors.map(\.message))")
        #expect(seen.events == ["right waits for the turn"])
        #expect(rights.current == [ObjectIdentifier(try container.resolve(UgRight.self))])
        #expect(leftCalls.count == 1)
        #expect(rightCalls.count == 1)
        #expect(hookRuns.count == 2)
    }

    // MARK: Async

    /// `async let`s, a task group's children and detached tasks ask at once for a cold async
    /// singleton whose factory sleeps (with a hook or not): it is built once, every one gets it.
    @Test(arguments: [false, true])
    func asyncLetsGroupsAndDetachedTasksShareOneAsyncSingleton(hooked: Bool) async throws {
        for round in 0..<5 {
            let container = Container()
            let (calls, hookRuns) = (CallCounter(), CallCounter())
            let registration = container.register(UgPool.self, scope: .singleton) { _ async in
                let serial = calls.next()
                try? await Task.sleep(nanoseconds: 20_000_000)
                return UgPool(serial: serial)
            }
            if hooked { registration.onResolved { _, _ in hookRuns.next() } }
            let serials: [Int]? = await withWatchdog {
                async let first = try? container.resolveAsync(UgPool.self).serial
                async let second = try? container.resolveAsync(UgPool.self).serial
                async let third = try? container.resolveAsync(UgPool.self).serial
                let detached = (0..<4).map { _ in
                    Task.detached { try? await container.resolveAsync(UgPool.self).serial }
                }
                let grouped = await withTaskGroup(of: Int?.self) { group in
                    for _ in 0..<12 { group.addTask { try? await container.resolveAsync(UgPool.self).serial } }
                    var all: [Int?] = []
                    for await serial in group { all.append(serial) }
                    return all
                }
                var all = grouped + [await first, await second, await third]
                for task in detached { all.append(await task.value) }
                return all.map { $0 ?? -1 }
            }
            #expect(serials == Array(repeating: 1, count: 19), "round \(round)")
            #expect(calls.count == 1, "round \(round)")
            #expect(hookRuns.count == (hooked ? 1 : 0), "round \(round)")
        }
    }

    /// Two tasks each build an async singleton whose factory (its first call) asks for the other's
    /// once the other holds it: one throws `circularWait` naming both paths and "another task's
    /// resolution", the other succeeds; no hang, ten rounds.
    @Test func crossedAsyncSingletonsOnTwoTasksStopOneWithCircularWait() async throws {
        for _ in 0..<10 {
            let container = Container()
            let (leftHeld, rightHeld) = (Signal(), Signal())
            let (leftCalls, rightCalls) = (CallCounter(), CallCounter())
            container.register(UgLeft.self, scope: .singleton) { r async throws in
                if leftCalls.next() == 1 {
                    leftHeld.signal()
                    _ = await awaited(rightHeld)
                    _ = try await r.resolveAsync(UgRight.self)
                }
                return UgLeft()
            }
            container.register(UgRight.self, scope: .singleton) { r async throws in
                if rightCalls.next() == 1 {
                    rightHeld.signal()
                    _ = await awaited(leftHeld)
                    _ = try await r.resolveAsync(UgLeft.self)
                }
                return UgRight()
            }
            let results: [ResolveOutcome]? = await withWatchdog {
                let left = Task.detached { await outcome { try await container.resolveAsync(UgLeft.self) } }
                let right = Task.detached { await outcome { try await container.resolveAsync(UgRight.self) } }
                return [await left.value, await right.value]
            }
            expectOneCrossedWaitRefused(try #require(results), between: "task")
            #expect(try await container.resolveAsync(UgLeft.self) === container.resolveAsync(UgLeft.self))
            #expect(try await container.resolveAsync(UgRight.self) === container.resolveAsync(UgRight.self))
            #expect(leftCalls.count + rightCalls.count == 3)
        }
    }

    // MARK: Sync and async realm gates at once

    /// Sync hooked singletons (one resolving the other) asked for on six threads, and async hooked
    /// singletons (one resolving the other, and a sync hooked one through a nested sync resolution)
    /// asked for by six tasks, all at once in one container: the sync and async turns of the realm
    /// are apart, so nothing hangs, and each singleton is built, and its hook run, once.
    @Test func syncAndAsyncHookedSingletonsOfOneContainerBuiltAtOnceEachBuildOnce() async throws {
        for round in 0..<5 {
            let container = Container()
            let built = EventLog()
            let hooks = EventLog()
            container.register(UgSyncHookedA.self, scope: .singleton) { r in
                built.record("UgSyncHookedA")
                Thread.sleep(forTimeInterval: 0.005)
                _ = try r.resolve(UgSyncHookedB.self)
                return UgSyncHookedA()
            }
            .onResolved { _, _ in hooks.record("UgSyncHookedA") }
            container.register(UgSyncHookedB.self, scope: .singleton) { _ in
                built.record("UgSyncHookedB")
                Thread.sleep(forTimeInterval: 0.005)
                return UgSyncHookedB()
            }
            .onResolved { _, _ in hooks.record("UgSyncHookedB") }
            container.register(UgAsyncHookedA.self, scope: .singleton) { r async throws in
                built.record("UgAsyncHookedA")
                try? await Task.sleep(nanoseconds: 5_000_000)
                _ = try await r.resolveAsync(UgAsyncHookedB.self)
                _ = try await r.resolveAsync(UgSyncHookedB.self)
                return UgAsyncHookedA()
            }
            .onResolved { _, _ in hooks.record("UgAsyncHookedA") }
            container.register(UgAsyncHookedB.self, scope: .singleton) { _ async in
                built.record("UgAsyncHookedB")
                try? await Task.sleep(nanoseconds: 5_000_000)
                return UgAsyncHookedB()
            }
            .onResolved { _, _ in hooks.record("UgAsyncHookedB") }
            let outcomes = Outcomes()
            let executor = ThreadPerJobExecutor()
            let tasks = (0..<6).map { index in
                Task(executorPreference: executor) {
                    await outcome {
                        index.isMultiple(of: 2)
                            ? try await container.resolveAsync(UgAsyncHookedA.self) as Any
                            : try await container.resolveAsync(UgAsyncHookedB.self) as Any
                    }
                }
            }
            let threadsEnded = await onThreads(
                (0..<6).map { index in
                    {
                        outcomes.record {
                            index.isMultiple(of: 2)
                                ? try container.resolve(UgSyncHookedA.self) as Any
                                : try container.resolve(UgSyncHookedB.self) as Any
                        }
                    }
                }
            )
            #expect(threadsEnded, "round \(round)")
            for task in tasks { outcomes.add(await withWatchdog { await task.value } ?? .success("hung")) }
            #expect(outcomes.errors.isEmpty, "round \(round): \(outcomes.errors.map(\.message))")
            #expect(!outcomes.values.contains("hung"), "round \(round)")
            let once = ["UgAsyncHookedA": 1, "UgAsyncHookedB": 1, "UgSyncHookedA": 1, "UgSyncHookedB": 1]
            #expect(built.counts == once, "round \(round)")
            #expect(hooks.counts == once, "round \(round)")
        }
    }
}
