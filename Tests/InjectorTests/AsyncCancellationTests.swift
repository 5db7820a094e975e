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
import Testing

@testable import Injector

// Tasks cancelled while they wait for an async shared instance that another task is building.
// CI runs this suite under ThreadSanitizer.

private final class SlowPool: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// A singleton with an `onResolved` hook, whose factory waits for `release` once it started.
private final class HookedPool: Sendable {}

/// Another singleton with an `onResolved` hook: it waits for its turn while `HookedPool` is built.
private final class HookedCache: Sendable {}

/// What a waiting task got.
private enum Waited: Sendable {
    case instance(SlowPool)
    case failed(InjectionError)
    case failedOtherwise(String)
}

private func waited(_ body: @Sendable () async throws -> SlowPool) async -> Waited {
    do {
        return .instance(try await body())
    } catch let error as InjectionError {
        return .failed(error)
    } catch {
        return .failedOtherwise("\(type(of: error)): \(error)")
    }
}

/// A container whose async singleton's factory is under way in a task, waiting for `release`.
private struct BuildUnderWay {
    let calls = CallCounter()
    let release = Signal()
    let container = Container()
    let builder: Task<SlowPool, any Error>

    init() async {
        let started = Signal()
        let (calls, release) = (self.calls, self.release)
        container.register(SlowPool.self, scope: .singleton) { _ in
            let serial = calls.next()
            started.signal()
            await release.wait()
            return SlowPool(serial: serial)
        }
        let container = self.container
        builder = Task { try await container.resolveAsync(SlowPool.self) }
        await started.wait()
    }

    /// Lets the factory finish, and returns what the builder got.
    func finish() async throws -> SlowPool {
        release.signal()
        return try await builder.value
    }
}

/// Expects `outcome` to be a cancelled resolve of `SlowPool`, by a task cancelled while another
/// built it (`whileWaiting`), or before it would have built it.
private func expectCancelled(
    _ outcome: Waited?,
    whileWaiting: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard case .failed(let error)? = outcome else {
        Issue.record(
            "expected .resolutionCancelled, got \(String(describing: outcome))",
            sourceLocation: sourceLocation
        )
        return
    }
    #expect(error.code == .resolutionCancelled, sourceLocation: sourceLocation)
    let why =
        whileWaiting
        ? "the task was cancelled, and another resolution is building its shared instance: a cancelled task does"
            + " not wait for it."
        : "the task was cancelled before it would have started building its shared instance: a cancelled task"
            + " starts no shared factory."
    #expect(
        error.message
            == "Resolving SlowPool was cancelled: \(why) Nothing was built for this resolve; the instance is built"
            + " once, by a task that is not cancelled. Fix: nothing, if the task was meant to stop; otherwise, do not"
            + " cancel it while it resolves.",
        sourceLocation: sourceLocation
    )
}

struct AsyncCancellationTests {
    /// A task cancelled while another builds the async singleton it waits for stops waiting at once
    /// with `.resolutionCancelled`; the builder still gets the one instance.
    @Test func cancelledWaiterStopsWaitingAtOnce() async throws {
        let build = await BuildUnderWay()
        let container = build.container

        let waiter = Task { await waited { try await container.resolveAsync(SlowPool.self) } }
        waiter.cancel()
        let outcome = await withWatchdog { await waiter.value }
        let pool = try await build.finish()

        expectCancelled(outcome, whileWaiting: true)
        #expect(pool.serial == 1)
        #expect(build.calls.count == 1)
    }

    /// Many cancelled racers: none of them starts the factory again, and a task that is not
    /// cancelled afterwards gets the one instance.
    @Test func cancelledRacersNeverStartTheFactory() async throws {
        let build = await BuildUnderWay()
        let container = build.container

        let racers = (0..<20).map { _ in Task { await waited { try await container.resolveAsync(SlowPool.self) } } }
        for racer in racers { racer.cancel() }
        let outcomes = await withWatchdog {
            var outcomes: [Waited] = []
            for racer in racers { outcomes.append(await racer.value) }
            return outcomes
        }
        let pool = try await build.finish()

        for outcome in outcomes ?? [] { expectCancelled(outcome, whileWaiting: true) }
        #expect(build.calls.count == 1)
        #expect(try await container.resolveAsync(SlowPool.self) === pool)
    }

    /// A task already cancelled when it asks for a cold async singleton does not start its factory.
    @Test func cancelledTaskDoesNotStartASharedFactory() async throws {
        let calls = CallCounter()
        let container = Container()
        container.register(SlowPool.self, scope: .singleton) { _ in
            await Task.yield()
            return SlowPool(serial: calls.next())
        }

        let cancelled = Signal()
        let task = Task {
            await cancelled.wait()
            return await waited { try await container.resolveAsync(SlowPool.self) }
        }
        task.cancel()
        cancelled.signal()
        let outcome = await task.value

        expectCancelled(outcome, whileWaiting: false)
        #expect(calls.count == 0)
        #expect(try await container.resolveAsync(SlowPool.self).serial == 1)
    }

    /// A cancelled task that meets a sync singleton or scoped registration in an async resolve does
    /// not start its factory either: the sync resolution it builds them in checks, as the async path does.
    @Test func aCancelledTaskStartsNoSyncSharedFactoryThroughAnAsyncResolve() async throws {
        let calls = CallCounter()
        let container = Container()
        container.register(SyncPool.self, scope: .singleton) { _ in SyncPool(serial: calls.next()) }
        container.register(SyncSession.self, scope: .scoped) { _ in SyncSession(serial: calls.next()) }
        let scope = container.makeScope()

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let singleton = await injectionErrorAsync { _ = try await container.resolveAsync(SyncPool.self) }
            let scoped = await injectionErrorAsync { _ = try await scope.resolveAsync(SyncSession.self) }
            return (singleton, scoped)
        }
        let (singleton, scoped) = await task.value

        #expect(calls.count == 0)
        #expect(singleton?.code == .resolutionCancelled)
        #expect(
            singleton?.message
                == "Resolving SyncPool was cancelled: the task was cancelled before it would have started building its"
                + " shared instance: a cancelled task starts no shared factory. Nothing was built for this resolve; the"
                + " instance is built once, by a task that is not cancelled. Fix: nothing, if the task was meant to"
                + " stop; otherwise, do not cancel it while it resolves."
        )
        #expect(scoped?.code == .resolutionCancelled)
        #expect(
            scoped?.message
                == "Resolving SyncSession was cancelled: the task was cancelled before it would have started building"
                + " its shared instance: a cancelled task starts no shared factory. Nothing was built for this"
                + " resolve; the instance is built once, by a task that is not cancelled. Fix: nothing, if the task"
                + " was meant to stop; otherwise, do not cancel it while it resolves."
        )
        #expect(try await container.resolveAsync(SyncPool.self).serial == 1)
        #expect(try await scope.resolveAsync(SyncSession.self).serial == 2)
        try await scope.closeAsync()
    }

    /// A task whose async resolve meets a sync singleton or scoped instance that a thread is
    /// building waits for it on its own thread, and stops waiting when it is cancelled, as it does
    /// at an async instance's gate: it does not wait for the factory to return. The thread still
    /// builds the one instance. (The waiting task blocks its thread: it runs on a thread of its own,
    /// so that it cannot starve the cooperative pool the test runs on.)
    @Test(arguments: [Scope.singleton, .scoped])
    func aCancelledTaskStopsWaitingForASyncSharedInstanceAThreadIsBuilding(scope lifetime: Scope) async throws {
        let calls = CallCounter()
        let (building, waiterSeen, release) = (Signal(), Signal(), DispatchSemaphore(value: 0))
        let container = Container()
        container.register(SyncPool.self, scope: lifetime) { _ in
            building.signal()
            let builder = InstanceGates.Owner.currentThread
            let waiterWaits = waitedUntil(seconds: 30) { !InstanceGates.waits(forGatesHeldBy: builder).isEmpty }
            if waiterWaits { waiterSeen.signal() }
            _ = waited(for: release, seconds: 30)
            return SyncPool(serial: calls.next())
        }
        let scope = container.makeScope()
        let fromScope = lifetime == .scoped
        let resolve: @Sendable () throws -> SyncPool = {
            fromScope ? try scope.resolve(SyncPool.self) : try container.resolve(SyncPool.self)
        }
        async let builderEnded = onThreads([{ _ = try? resolve() }])
        #expect(await awaited(building))

        let waiter = Task(executorPreference: ThreadPerJobExecutor()) {
            await injectionErrorAsync {
                _ =
                    fromScope
                    ? try await scope.resolveAsync(SyncPool.self) : try await container.resolveAsync(SyncPool.self)
            }
        }
        #expect(await awaited(waiterSeen))
        waiter.cancel()
        let error = await withWatchdog { await waiter.value }
        let factoryStillRunning = calls.count == 0
        release.signal()
        #expect(await builderEnded)

        #expect(factoryStillRunning)
        #expect(error??.code == .resolutionCancelled)
        #expect(
            error??.message
                == "Resolving SyncPool was cancelled: the task was cancelled, and another resolution is building its"
                + " shared instance: a cancelled task does not wait for it. Nothing was built for this resolve; the"
                + " instance is built once, by a task that is not cancelled. Fix: nothing, if the task was meant to"
                + " stop; otherwise, do not cancel it while it resolves."
        )
        #expect(try resolve().serial == 1)
        #expect(calls.count == 1)
        try await scope.closeAsync()
    }

    /// A task cancelled while it waits for its turn to build a registration with hooks, which another
    /// resolution holds for another such registration, says so: nothing builds its own instance.
    @Test func cancelledWhileAwaitingTheTurnToBuildAHookedSingletonSaysSo() async throws {
        let container = Container()
        let (started, release) = (Signal(), Signal())
        container.register(HookedPool.self, scope: .singleton) { _ in
            started.signal()
            await release.wait()
            return HookedPool()
        }
        .onResolved { _, _ in }
        container.register(HookedCache.self, scope: .singleton) { _ async in HookedCache() }.onResolved { _, _ in }
        let builder = Task { try await container.resolveAsync(HookedPool.self) }
        await started.wait()

        let waiter = Task { await injectionErrorAsync { _ = try await container.resolveAsync(HookedCache.self) } }
        #expect(await awaitedUntil { InstanceGates.waits().contains { $0.serviceType == HookedCache.self } })
        waiter.cancel()
        let error = await withWatchdog { await waiter.value }
        release.signal()
        _ = try await builder.value

        #expect(error??.code == .resolutionCancelled)
        #expect(
            error??.message
                == "Resolving HookedCache was cancelled: the task was cancelled while another resolution was building"
                + " a shared instance with onResolved or verify steps (those are built one resolution at a time),"
                + " which its own has too: a cancelled task does not wait for its turn. Nothing was built for this"
                + " resolve; the instance is built once, by a task that is not cancelled. Fix: nothing, if the task"
                + " was meant to stop; otherwise, do not cancel it while it resolves."
        )
        #expect(
            try await container.resolveAsync(HookedCache.self) === (try await container.resolveAsync(HookedCache.self))
        )
    }
}

private final class SyncPool: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private final class SyncSession: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
