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

// Tasks cancelled while they wait at a sync shared instance's gate, racing its release; deep
// chains of hooks that close a cycle.

private final class RacedPool: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// A sync singleton with an `onResolved` hook, whose factory waits for the test.
private final class SyncHookedPool: Sendable {}

/// Another sync singleton with an `onResolved` hook: it waits for its turn while `SyncHookedPool` is built.
private final class SyncHookedCache: Sendable {}

@Suite(.serialized)
struct GateCancellationRaceTests {
    /// A task cancelled while it waits for the turn to build a sync registration with hooks (another
    /// thread holds the turn, building another one) says it waited for its turn, as the same wait
    /// in an async resolution does: no other resolution is building its own instance.
    @Test func aTaskCancelledAwaitingTheTurnAtASyncHookedSingletonSaysSo() async throws {
        let container = Container()
        let (building, waiterSeen, release) = (Signal(), Signal(), DispatchSemaphore(value: 0))
        container.register(SyncHookedPool.self, scope: .singleton) { _ in
            building.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ !InstanceGates.waits(forGatesHeldBy: builder).isEmpty }) { waiterSeen.signal() }
            _ = waited(for: release)
            return SyncHookedPool()
        }
        .onResolved { _, _ in }
        container.register(SyncHookedCache.self, scope: .singleton) { _ in SyncHookedCache() }.onResolved { _, _ in }
        async let builderEnded = onThreads([{ _ = try? container.resolve(SyncHookedPool.self) }])
        #expect(await awaited(building))

        let waiter = Task(executorPreference: ThreadPerJobExecutor()) {
            await injectionErrorAsync { _ = try await container.resolveAsync(SyncHookedCache.self) }
        }
        #expect(await awaited(waiterSeen))
        waiter.cancel()
        let error = await withWatchdog { await waiter.value }
        release.signal()
        #expect(await builderEnded)

        #expect(error??.code == .resolutionCancelled)
        #expect(
            error??.message
                == "Resolving SyncHookedCache was cancelled: the task was cancelled while another resolution was building"
                + " a shared instance with onResolved or verify steps (those are built one resolution at a time),"
                + " which its own has too: a cancelled task does not wait for its turn. Nothing was built for this"
                + " resolve; the instance is built once, by a task that is not cancelled. Fix: nothing, if the task"
                + " was meant to stop; otherwise, do not cancel it while it resolves."
        )
    }

    /// Many tasks wait at once at a sync singleton's or scoped instance's gate that a thread holds,
    /// and are all cancelled: each stops waiting, and none leaves its wait behind (the builder,
    /// which still holds the gate, sees no one waiting for it); the builder builds the one instance.
    @Test(.serialized, arguments: [Scope.singleton, .scoped])
    func manyCancelledWaitersLeaveNoWaitBehind(scope lifetime: Scope) async throws {
        let waiters = 8
        let executor = ThreadPerJobExecutor()
        let calls = CallCounter()
        let (allWaiting, cancelledAll, leftBehind) = (
            Signal(), DispatchSemaphore(value: 0), Locked.make([ServiceKey]())
        )
        let container = Container()
        let building = Signal()
        container.register(RacedPool.self, scope: lifetime) { _ in
            building.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ InstanceGates.waits(forGatesHeldBy: builder).count == waiters }) { allWaiting.signal() }
            _ = waited(for: cancelledAll, seconds: 30)
            leftBehind.withLock { $0 = InstanceGates.waits(forGatesHeldBy: builder) }
            return RacedPool(serial: calls.next())
        }
        let scope = container.makeScope()
        let fromScope = lifetime == .scoped
        async let builderEnded = onThreads([
            { _ = try? fromScope ? scope.resolve(RacedPool.self) : container.resolve(RacedPool.self) }
        ])
        #expect(await awaited(building))
        let tasks = (0..<waiters).map { _ in
            Task(executorPreference: executor) {
                await injectionErrorAsync {
                    fromScope
                        ? try await scope.resolveAsync(RacedPool.self)
                        : try await container.resolveAsync(RacedPool.self)
                }
            }
        }
        #expect(await awaited(allWaiting))
        for task in tasks { task.cancel() }
        var codes: [InjectionError.Code?] = []
        for task in tasks { codes.append(await withWatchdog { await task.value }??.code) }
        cancelledAll.signal()
        #expect(await builderEnded)

        #expect(codes == Array(repeating: .resolutionCancelled, count: waiters))
        #expect(leftBehind.withLock { $0 } == [])
        #expect(try (fromScope ? scope.resolve(RacedPool.self) : container.resolve(RacedPool.self)).serial == 1)
        #expect(calls.count == 1)
        try await scope.closeAsync()
    }

    /// Tasks cancelled at about the moment the gate they wait at is released each either get the
    /// instance or stop with `resolutionCancelled`; none hangs, and the factory runs once.
    @Test(.serialized, arguments: [Scope.singleton, .scoped])
    func cancellationRacingTheReleaseEndsEveryWait(scope lifetime: Scope) async throws {
        let executor = ThreadPerJobExecutor()
        for round in 0..<30 {
            let waiters = 4
            let calls = CallCounter()
            let (allWaiting, release) = (Signal(), DispatchSemaphore(value: 0))
            let container = Container()
            let building = Signal()
            container.register(RacedPool.self, scope: lifetime) { _ in
                building.signal()
                let builder = InstanceGates.Owner.currentThread
                if waitedUntil({ InstanceGates.waits(forGatesHeldBy: builder).count == waiters }) {
                    allWaiting.signal()
                }
                _ = waited(for: release, seconds: 30)
                return RacedPool(serial: calls.next())
            }
            let scope = container.makeScope()
            let fromScope = lifetime == .scoped
            async let builderEnded = onThreads([
                { _ = try? fromScope ? scope.resolve(RacedPool.self) : container.resolve(RacedPool.self) }
            ])
            #expect(await awaited(building))
            let tasks = (0..<waiters).map { _ in
                Task(executorPreference: executor) {
                    await outcome {
                        fromScope
                            ? try await scope.resolveAsync(RacedPool.self)
                            : try await container.resolveAsync(RacedPool.self)
                    }
                }
            }
            #expect(await awaited(allWaiting))
            // Cancel half before the release, half after, with a jitter of up to 12 ms.
            let jitter = UInt64(round % 13) * 1_000_000
            for task in tasks.prefix(waiters / 2) { task.cancel() }
            try await Task.sleep(nanoseconds: jitter)
            release.signal()
            try await Task.sleep(nanoseconds: jitter / 2)
            for task in tasks.suffix(waiters / 2) { task.cancel() }
            var outcomes: [ResolveOutcome] = []
            for task in tasks { outcomes.append(await withWatchdog { await task.value } ?? .success("hung")) }
            #expect(await builderEnded)

            for result in outcomes {
                switch result {
                case .success(let type): #expect(type == "RacedPool", "round \(round)")
                case .failure(let error):
                    #expect(error.code == .resolutionCancelled, "round \(round): \(error.message)")
                }
            }
            #expect(calls.count == 1, "round \(round)")
            try await scope.closeAsync()
        }
    }

    /// The task whose resolution holds a sync gate, cancelled while the factory runs, still
    /// publishes the instance it built; a thread waiting for it gets it.
    @Test func cancellingTheTaskThatHoldsASyncGateBreaksNothing() async throws {
        let executor = ThreadPerJobExecutor()
        let calls = CallCounter()
        let (building, waiterSeen, release) = (Signal(), Signal(), DispatchSemaphore(value: 0))
        let container = Container()
        container.register(RacedPool.self, scope: .singleton) { _ in
            building.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ !InstanceGates.waits(forGatesHeldBy: builder).isEmpty }) { waiterSeen.signal() }
            _ = waited(for: release, seconds: 30)
            return RacedPool(serial: calls.next())
        }
        let holder = Task(executorPreference: executor) {
            await outcome { try await container.resolveAsync(RacedPool.self) }
        }
        #expect(await awaited(building))
        let got = Locked.make(0)
        async let waiterEnded = onThreads([
            { got.withLock { $0 = (try? container.resolve(RacedPool.self).serial) ?? -1 } }
        ])
        #expect(await awaited(waiterSeen))
        holder.cancel()
        try await Task.sleep(for: .milliseconds(30))
        release.signal()
        let result = await withWatchdog { await holder.value }
        #expect(await waiterEnded)

        #expect(result.map { "\($0)" } == "success(\"RacedPool\")")
        #expect(got.withLock { $0 } == 1)
        #expect(calls.count == 1)
    }

    /// A cancellable waiter (a task's async resolve at a sync gate) still closes a cycle of waits
    /// that is reported, rather than the two waiting for each other.
    @Test func aCycleThroughACancellableWaiterIsReported() async throws {
        let executor = ThreadPerJobExecutor()
        let (aBuilt, bBuilt) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let calls = CallCounter()
        let container = Container()
        container.register(SyncHookedPool.self, scope: .singleton) { _ in
            // The first call closes the cycle; the one after it (by the resolution that goes on) does not.
            guard calls.next() == 1 else { return SyncHookedPool() }
            aBuilt.signal()
            _ = waited(for: bBuilt)
            _ = try container.resolve(SyncHookedCache.self)
            return SyncHookedPool()
        }
        let cacheCalls = CallCounter()
        container.register(SyncHookedCache.self, scope: .singleton) { r in
            guard cacheCalls.next() == 1 else { return SyncHookedCache() }
            bBuilt.signal()
            _ = waited(for: aBuilt)
            _ = try r.resolve(SyncHookedPool.self)
            return SyncHookedCache()
        }
        let outcomes = Outcomes()
        async let threadEnded = onThreads([{ outcomes.record { try container.resolve(SyncHookedPool.self) } }])
        let task = Task(executorPreference: executor) {
            await outcome { try await container.resolveAsync(SyncHookedCache.self) }
        }
        let taskOutcome = await withWatchdog { await task.value }
        #expect(await threadEnded)
        let all = outcomes.all + [taskOutcome ?? .success("hung")]
        #expect(failures(all).map(\.code) == [.circularWait])
        #expect(all.count == 2)
    }

    /// A sync resolve in a cancelled task goes on, as documented: it waits for the instance another
    /// thread is building, and builds one itself.
    @Test func aSyncResolveInACancelledTaskGoesOn() async throws {
        let executor = ThreadPerJobExecutor()
        let (building, waiterSeen, release) = (Signal(), Signal(), DispatchSemaphore(value: 0))
        let container = Container()
        container.register(RacedPool.self, scope: .singleton) { _ in
            building.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ !InstanceGates.waits(forGatesHeldBy: builder).isEmpty }) { waiterSeen.signal() }
            _ = waited(for: release)
            return RacedPool(serial: 1)
        }
        container.register(SyncHookedCache.self, scope: .singleton) { _ in SyncHookedCache() }
        async let builderEnded = onThreads([{ _ = try? container.resolve(RacedPool.self) }])
        #expect(await awaited(building))
        let task = Task(executorPreference: executor) {
            withUnsafeCurrentTask { $0?.cancel() }
            let pool = syncOutcome { try container.resolve(RacedPool.self) }
            let cache = syncOutcome { try container.resolve(SyncHookedCache.self) }
            return [pool, cache]
        }
        #expect(await awaited(waiterSeen))
        try await Task.sleep(for: .milliseconds(30))
        release.signal()
        let outcomes = await withWatchdog { await task.value }
        #expect(await builderEnded)
        #expect(outcomes.map { failures($0).map(\.message) } == [])
    }
}

/// One level of a deep chain of transient instances each made by the hook of the one above.
private final class HookLevel: Sendable {
    let level: Int
    init(level: Int) { self.level = level }
}

extension GateCancellationRaceTests {
    /// A chain of hooks thousands deep whose last hook resolves the first is reported as a hook
    /// cycle naming every level, on a small stack, in a debug build as in a release one.
    @Test func aHookCycleThousandsDeepIsReportedWhole() async throws {
        let levels = 3_000
        let container = Container()
        for level in 0..<levels {
            container.register(HookLevel.self, name: "\(level)") { _ in HookLevel(level: level) }
                .onResolved { r, _ in _ = try r.resolve(HookLevel.self, name: "\((level + 1) % levels)") }
        }
        let result = Locked.make(InjectionError?.none)
        let done = Signal()
        let thread = Thread {
            result.withLock { $0 = injectionError { try container.resolve(HookLevel.self, name: "0") } }
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        #expect(await awaited(done))
        let error = result.withLock { $0 }
        #expect(error?.code == .circularDependency)
        #expect(error?.resolutionPath.count == levels + 1)
        #expect(error?.resolutionPath.first == error?.resolutionPath.last)
        #expect(error?.message.hasPrefix("Circular dependency through onResolved hooks: HookLevel") == true)
    }
}

/// A sync singleton whose factory resolves `RacedPool` through a captured container.
private final class CapturingOuter: Sendable {}

extension GateCancellationRaceTests {
    /// A task whose async resolve meets, through a captured container inside a sync factory, a sync
    /// singleton another thread is building: cancelled, it stops waiting within about 10 ms, as
    /// "Limits to know" says of a task whose async resolve meets a sync shared instance.
    @Test func aCancelledTaskWaitingThroughACapturedContainerStopsWaiting() async throws {
        let calls = CallCounter()
        let (building, waiterSeen, release) = (Signal(), Signal(), DispatchSemaphore(value: 0))
        let container = Container()
        container.register(RacedPool.self, scope: .singleton) { _ in
            building.signal()
            let builder = InstanceGates.Owner.currentThread
            if waitedUntil({ !InstanceGates.waits(forGatesHeldBy: builder).isEmpty }) { waiterSeen.signal() }
            // Released by the test once the waiter stopped: the limit only ends a broken test, after
            // the waiter's watchdog (30 s), so that the factory is still running however late the
            // test gets to cancel on a loaded machine.
            _ = waited(for: release, seconds: 60)
            return RacedPool(serial: calls.next())
        }
        container.register(CapturingOuter.self, scope: .singleton) { _ in
            _ = try container.resolve(RacedPool.self)
            return CapturingOuter()
        }
        async let builderEnded = onThreads([{ _ = try? container.resolve(RacedPool.self) }])
        #expect(await awaited(building))

        let waiter = Task(executorPreference: ThreadPerJobExecutor()) {
            await injectionErrorAsync { _ = try await container.resolveAsync(CapturingOuter.self) }
        }
        #expect(await awaited(waiterSeen))
        waiter.cancel()
        let cancelledAt = ContinuousClock.now
        let error = await withWatchdog { await waiter.value }
        let waitedAfterCancel = ContinuousClock.now - cancelledAt
        let factoryStillRunning = calls.count == 0
        release.signal()
        #expect(await builderEnded)

        #expect(factoryStillRunning, "waited \(waitedAfterCancel) after the cancel")
        #expect(error??.code == .resolutionCancelled)
    }
}

/// A sync singleton whose factory cancels its task, then resolves `SyncHookedCache` through a
/// captured container.
private final class CancellingOuter: Sendable {}

extension GateCancellationRaceTests {
    /// A cancelled task starts no shared factory through a captured container either, in a sync
    /// factory its async resolve runs.
    @Test func aCancelledTaskStartsNoSharedFactoryThroughACapturedContainer() async throws {
        let calls = CallCounter()
        let container = Container()
        container.register(SyncHookedCache.self, scope: .singleton) { _ in
            calls.next()
            return SyncHookedCache()
        }
        container.register(CancellingOuter.self, scope: .singleton) { _ in
            withUnsafeCurrentTask { $0?.cancel() }
            _ = try container.resolve(SyncHookedCache.self)
            return CancellingOuter()
        }
        let error = await Task { await injectionErrorAsync { try await container.resolveAsync(CancellingOuter.self) } }
            .value
        #expect(error?.code == .resolutionCancelled)
        #expect(calls.count == 0)
    }
}
