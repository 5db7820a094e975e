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

// Sync shared instances are built behind a gate per instance, not one lock per container tree:
// unrelated constructions on other threads proceed at the same time, a wait-for cycle between
// resolutions on different threads is reported (`circularWait`), and a factory still runs once
// however many threads race for its instance. CI runs this suite under ThreadSanitizer. Every test
// runs its threads under a watchdog; a factory's wait for another thread is bounded too, so that
// the old tree lock made these tests fail rather than hang.

// MARK: - Test doubles (private to this file)

private final class GateLeft: Sendable {}
private final class GateRight: Sendable {}
private final class GateCounted: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
/// Asked for by one test alone, which looks for the waits that ask for it among every test's.
private final class GateAwaited: Sendable {}
private final class GateWeakHelper: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private struct GateRefused: Error {}
private struct GateLeftRequest {}
private struct GateRightRequest {}
private final class GateAudit: Sendable {}
private final class GateMailer: Sendable {}
private final class GateReportJob: Sendable {}
private final class GateReportWorker: Sendable {}
/// A transient service with an `onResolved` hook: building it queues a preparation.
private final class GateHooked: Sendable {}
private struct GateWorkRequest {}
/// Asked for by one test alone, which looks for the waits that ask for it among every test's.
private final class GateSeamAwaited: Sendable {}

/// A scoped unit of work that logs its disposal, numbered in the order its factory built it.
private final class GateHeldWork: Disposable, Sendable {
    let serial: Int
    let disposals: EventLog
    init(serial: Int, disposals: EventLog) {
        self.serial = serial
        self.disposals = disposals
    }
    func dispose() { disposals.record("GateHeldWork #\(serial)") }
}

/// The same, built by an async factory; asked for by one test alone, which looks for the waits that
/// ask for it among every test's.
private final class GateHeldAsyncWork: Disposable, Sendable {
    let serial: Int
    let disposals: EventLog
    init(serial: Int, disposals: EventLog) {
        self.serial = serial
        self.disposals = disposals
    }
    func dispose() { disposals.record("GateHeldAsyncWork #\(serial)") }
}

/// Keeps instances alive until the test ends, from any thread.
private final class Keeper: @unchecked Sendable {  // `kept` is only touched under `lock`
    private let lock = NSLock()
    private var kept: [AnyObject] = []
    func keep(_ object: AnyObject) { lock.withLock { kept.append(object) } }
    var identities: Set<ObjectIdentifier> { lock.withLock { Set(kept.map(ObjectIdentifier.init)) } }
}

/// Checks what two resolutions of crossed requests (see `registerCrossedRequests`) came to: one
/// `circularWait` naming its own path and the other's, and one success.
private func expectCrossedRequestsCycle(in outcomes: Outcomes) throws {
    let errors = outcomes.errors
    try #require(errors.count == 1, "\(outcomes.all)")
    let error = errors[0]
    #expect(error.code == .circularWait)
    let leftPath = "GateLeftRequest -> GateRight"
    let rightPath = "GateRightRequest -> GateLeft"
    let leftDetected = error.message.contains("this resolution (\(leftPath))")
    let (own, other) = leftDetected ? (leftPath, rightPath) : (rightPath, leftPath)
    #expect(error.message.contains("this resolution (\(own)) needs the"), "\(error.message)")
    #expect(error.message.contains("and that one (\(other)) waits for the"), "\(error.message)")
    #expect(error.message.contains("Fix:"))
    #expect(outcomes.values.count == 1)
}

/// `GateLeft` in `scope` and `GateRight` in `rightScope` (or `scope`), each holding what `holding`
/// says, and two requests that each build one, then ask for the other once the other request holds
/// it (or after 30 s): with no dependency cycle, a wait cycle between two threads if the
/// resolve that built each keeps its gate until it completes (`CrossedHolding.aTransientWithAHook`).
/// Returns the count of the two instances' factory calls, and of the requests that went on only
/// once the other held its instance.
@discardableResult
private func registerCrossedRequests(
    in container: Container,
    scope: Scope,
    rightScope: Scope? = nil,
    holding: SharedConstructionGateTests.CrossedHolding = .nothing
) -> (calls: CallCounter, crossed: CallCounter) {
    let leftHeld = DispatchSemaphore(value: 0)
    let rightHeld = DispatchSemaphore(value: 0)
    let (calls, crossed) = (CallCounter(), CallCounter())
    container.register(GateCounted.self, name: "left", scope: .singleton) { _ in GateCounted(serial: 1) }
    container.register(GateCounted.self, name: "right", scope: .singleton) { _ in GateCounted(serial: 2) }
    container.register(GateHooked.self) { _ in GateHooked() }
        .onResolved { _, _ in }
    /// Resolves what each crossed instance holds.
    @Sendable func resolveHeld(_ r: Resolver, name: String) throws {
        switch holding {
        case .nothing: break
        case .aFinishedSingleton: _ = try r.resolve(GateCounted.self, name: name)
        case .aTransientWithAHook: _ = try r.resolve(GateHooked.self)
        }
    }
    container.register(GateLeft.self, scope: scope) { r in
        calls.next()
        try resolveHeld(r, name: "left")
        return GateLeft()
    }
    container.register(GateRight.self, scope: rightScope ?? scope) { r in
        calls.next()
        try resolveHeld(r, name: "right")
        return GateRight()
    }
    container.register(GateLeftRequest.self) { r in
        _ = try r.resolve(GateLeft.self)
        leftHeld.signal()
        if waited(for: rightHeld) { crossed.next() }
        _ = try r.resolve(GateRight.self)
        return GateLeftRequest()
    }
    container.register(GateRightRequest.self) { r in
        _ = try r.resolve(GateRight.self)
        rightHeld.signal()
        if waited(for: leftHeld) { crossed.next() }
        _ = try r.resolve(GateLeft.self)
        return GateRightRequest()
    }
    return (calls, crossed)
}

/// What the two crossed requests (see `registerCrossedRequests`), resolved from `scope` on two
/// threads at once, came to; fails the test if either does not end.
private func crossedRequestOutcomes(in scope: LifetimeScope) async throws -> Outcomes {
    try await crossedRequestOutcomes {
        try scope.resolve(GateLeftRequest.self)
    } right: {
        try scope.resolve(GateRightRequest.self)
    }
}

/// The same, resolved from `container`.
private func crossedRequestOutcomes(in container: Container) async throws -> Outcomes {
    try await crossedRequestOutcomes {
        try container.resolve(GateLeftRequest.self)
    } right: {
        try container.resolve(GateRightRequest.self)
    }
}

/// What `left` and `right`, run on two threads at once, came to; fails the test if either does not
/// end.
private func crossedRequestOutcomes(
    left: @escaping @Sendable () throws -> Any,
    right: @escaping @Sendable () throws -> Any
) async throws -> Outcomes {
    let outcomes = Outcomes()
    let ended = await onThreads([{ outcomes.record(left) }, { outcomes.record(right) }])
    try #require(ended)
    return outcomes
}

/// What two tasks came to that resolve, through the sync API, the crossed requests (see
/// `registerCrossedRequests`) for a weak `GateLeft` and a singleton `GateRight`, each holding what
/// `holding` says; and whether the two ran at once. Each runs on a thread of its own (see
/// `ThreadPerJobExecutor`): on the cooperative pool, which other tests keep busy, they could run one
/// after the other, and there would be no cycle to report.
private func crossedTaskOutcomes(
    holding: SharedConstructionGateTests.CrossedHolding
) async throws -> (outcomes: Outcomes, overlapped: Bool) {
    let container = Container()
    let counters = registerCrossedRequests(in: container, scope: .weak, rightScope: .singleton, holding: holding)
    let outcomes = Outcomes()
    let executor = ThreadPerJobExecutor()
    let ended: Bool? = await withWatchdog {
        let left = Task(executorPreference: executor) {
            outcomes.record { try container.resolve(GateLeftRequest.self) }
        }
        let right = Task(executorPreference: executor) {
            outcomes.record { try container.resolve(GateRightRequest.self) }
        }
        await left.value
        await right.value
        return true
    }
    try #require(ended == true)
    return (outcomes, counters.crossed.count == 2)
}

/// A singleton `GateLeft` and a `GateRight` in `rightScope`, async, each holding a transient with a
/// hook if `holdingHookedTransients`, and two async requests that each build one, then ask for the
/// other once the other request holds it.
private func registerCrossedAsyncRequests(
    in container: Container,
    rightScope: Scope = .weak,
    holdingHookedTransients: Bool = false
) {
    let leftHeld = Signal()
    let rightHeld = Signal()
    container.register(GateHooked.self) { _ async in GateHooked() }
        .onResolved { _, _ in }
    container.register(GateLeft.self, scope: .singleton) { r async throws in
        if holdingHookedTransients { _ = try await r.resolveAsync(GateHooked.self) }
        return GateLeft()
    }
    container.register(GateRight.self, scope: rightScope) { r async throws in
        if holdingHookedTransients { _ = try await r.resolveAsync(GateHooked.self) }
        return GateRight()
    }
    container.register(GateLeftRequest.self) { r async throws in
        _ = try await r.resolveAsync(GateLeft.self)
        leftHeld.signal()
        _ = await awaited(rightHeld)
        _ = try await r.resolveAsync(GateRight.self)
        return GateLeftRequest()
    }
    container.register(GateRightRequest.self) { r async throws in
        _ = try await r.resolveAsync(GateRight.self)
        rightHeld.signal()
        _ = await awaited(leftHeld)
        _ = try await r.resolveAsync(GateLeft.self)
        return GateRightRequest()
    }
}

/// What two async resolutions of the crossed async requests (see `registerCrossedAsyncRequests`,
/// with a weak `GateRight`) came to; fails the test if they do not end.
private func crossedAsyncOutcomes(
    in container: Container,
    holdingHookedTransients: Bool
) async throws -> [ResolveOutcome] {
    registerCrossedAsyncRequests(in: container, holdingHookedTransients: holdingHookedTransients)
    let outcomes: [ResolveOutcome]? = await withWatchdog {
        async let left = outcome { try await container.resolveAsync(GateLeftRequest.self) }
        async let right = outcome { try await container.resolveAsync(GateRightRequest.self) }
        return await [left, right]
    }
    return try #require(outcomes)
}

/// How many threads race for one instance in `instancesFromRacingThreads`.
private let racers = 16

/// Counts a factory call, then holds the instance's gate until every other racer waits at it (at
/// most 30 s), counting in `raced` when they all did: the race the test is about then surely happened.
private func heldUntilEveryRacerWaits(_ calls: CallCounter, raced: CallCounter) -> Int {
    let serial = calls.next()
    let builder = InstanceGates.Owner.currentThread
    if waitedUntil({ InstanceGates.waits(forGatesHeldBy: builder).count == racers - 1 }) { raced.next() }
    return serial
}

/// How many distinct instances `racers` threads resolving at once received (kept alive until all
/// end), or `nil` if they did not all end.
private func instancesFromRacingThreads(_ resolve: @escaping @Sendable () throws -> AnyObject) async -> Int? {
    let keeper = Keeper()
    let bodies: [@Sendable () -> Void] = (0..<racers).map { _ in
        { if let instance = try? resolve() { keeper.keep(instance) } }
    }
    guard await onThreads(bodies) else { return nil }
    return keeper.identities.count
}

// MARK: - Tests

@Suite("Shared construction gates")
struct SharedConstructionGateTests {
    /// Two cold singletons whose factories each wait for the other to start: under one lock for the
    /// tree, the second could not start until the first ended, and both waits would time out.
    @Test func unrelatedSingletonsAreBuiltInParallel() async throws {
        let container = Container()
        let leftStarted = DispatchSemaphore(value: 0)
        let rightStarted = DispatchSemaphore(value: 0)
        let sawOther = CallCounter()
        container.register(GateLeft.self, scope: .singleton) { _ in
            leftStarted.signal()
            if waited(for: rightStarted) { sawOther.next() }
            return GateLeft()
        }
        container.register(GateRight.self, scope: .singleton) { _ in
            rightStarted.signal()
            if waited(for: leftStarted) { sawOther.next() }
            return GateRight()
        }
        let outcomes = Outcomes()
        let ended = await onThreads([
            { outcomes.record { try container.resolve(GateLeft.self) } },
            { outcomes.record { try container.resolve(GateRight.self) } },
        ])
        #expect(ended)
        #expect(sawOther.count == 2)
        #expect(outcomes.errors.isEmpty)
        #expect(Set(outcomes.values) == ["GateLeft", "GateRight"])
    }

    /// Two resolutions on two threads, each holding a singleton it built whose construction is not
    /// complete (it holds a transient whose `onResolved` hook runs when the resolve completes: the
    /// singleton is published then, and its gate held until then), and then asking for the one the
    /// other holds: the one that would close the cycle throws `circularWait` naming both paths; the
    /// other then builds what it needs and succeeds.
    @Test func waitForCycleAcrossTwoThreadsIsReported() async throws {
        let container = Container()
        let counters = registerCrossedRequests(in: container, scope: .singleton, holding: .aTransientWithAHook)
        let outcomes = try await crossedRequestOutcomes(in: container)
        try expectCrossedRequestsCycle(in: outcomes)
        #expect(counters.crossed.count == 2)  // each held its singleton while the other asked for it
        // Nothing is left half-built or held: both singletons resolve at once now.
        _ = try container.resolve(GateLeft.self)
        _ = try container.resolve(GateRight.self)
    }

    /// The same crossed requests for two singletons whose construction is complete when their
    /// factory returns (they hold nothing, or a singleton that is complete too): each is published,
    /// and its gate released, as soon as it is built, so neither request waits for the other's to
    /// complete, and both succeed with the one instance of each, built once.
    @Test(arguments: [CrossedHolding.nothing, .aFinishedSingleton])
    func crossedRequestsForFinishedSingletonsBothSucceed(holding: CrossedHolding) async throws {
        let container = Container()
        let counters = registerCrossedRequests(in: container, scope: .singleton, holding: holding)
        let outcomes = try await crossedRequestOutcomes(in: container)
        #expect(outcomes.errors.isEmpty, "\(outcomes.all)")
        #expect(Set(outcomes.values) == ["GateLeftRequest", "GateRightRequest"])
        #expect(counters.crossed.count == 2)  // each held its singleton while the other asked for it
        #expect(try container.resolve(GateLeft.self) === container.resolve(GateLeft.self))
        #expect(try container.resolve(GateRight.self) === container.resolve(GateRight.self))
        #expect(counters.calls.count == 2)
    }

    /// The same cycle between two scoped instances of one scope, each holding a transient whose
    /// hook runs when its resolve completes (so published then), whose gates the scope's store
    /// keeps until a second thread comes to wait: each thread finds the other's gate held, moves it
    /// to the process-wide table and waits there, and the one that would close the cycle is told
    /// so.
    @Test func waitForCycleBetweenTwoScopedInstancesOfOneScopeIsReported() async throws {
        let container = Container()
        let counters = registerCrossedRequests(in: container, scope: .scoped, holding: .aTransientWithAHook)
        let scope = container.makeScope()
        let outcomes = try await crossedRequestOutcomes(in: scope)
        try expectCrossedRequestsCycle(in: outcomes)
        #expect(counters.crossed.count == 2)
        // The gates the table took over are free again: both instances resolve at once, on any thread.
        let again = await onThreads([
            {
                _ = try? scope.resolve(GateLeft.self)
                _ = try? scope.resolve(GateRight.self)
            }
        ]
        )
        #expect(again)
        #expect(try scope.resolve(GateLeft.self) === scope.resolve(GateLeft.self))
        try await scope.closeAsync()
    }

    /// The same crossed requests for two scoped instances that hold nothing unpublished (nothing,
    /// or a singleton their resolve built, published as soon as it was built): each is published,
    /// and its gate released, as soon as it is built, so neither request waits for the other's to
    /// complete, and both succeed with the scope's one instance of each, built once.
    @Test(arguments: [CrossedHolding.nothing, .aFinishedSingleton])
    func scopedInstancesHoldingNothingUnpublishedDoNotMakeCrossedRequestsWait(holding: CrossedHolding) async throws {
        let container = Container()
        let counters = registerCrossedRequests(in: container, scope: .scoped, holding: holding)
        let scope = container.makeScope()
        let outcomes = try await crossedRequestOutcomes(in: scope)
        #expect(outcomes.errors.isEmpty, "\(outcomes.all)")
        #expect(Set(outcomes.values) == ["GateLeftRequest", "GateRightRequest"])
        #expect(counters.crossed.count == 2)
        #expect(try scope.resolve(GateLeft.self) === scope.resolve(GateLeft.self))
        #expect(counters.calls.count == 2)
        try await scope.closeAsync()
    }

    /// The same cycle between two tasks that resolve through the sync API (an async resolution
    /// releases the gates of the sync instances it builds before it next suspends, so only sync
    /// resolves running in tasks can close such a cycle), each holding a weak instance or a
    /// singleton whose construction is not complete until its resolve completes (it holds a
    /// transient with a hook): reported with both paths.
    @Test func waitForCycleAcrossTwoTasksIsReported() async throws {
        let (outcomes, overlapped) = try await crossedTaskOutcomes(holding: .aTransientWithAHook)
        #expect(overlapped)
        let errors = outcomes.errors
        try #require(errors.count == 1, "\(outcomes.all)")
        #expect(errors[0].code == .circularWait)
        let message = errors[0].message
        let paths = ["GateLeftRequest -> GateRight", "GateRightRequest -> GateLeft"]
        #expect(paths.allSatisfy { message.contains("(\($0))") }, "\(message)")
        #expect(message.contains("would wait forever"))
        #expect(outcomes.values.count == 1)
    }

    /// The same crossed requests in two tasks for a weak instance and a singleton whose
    /// construction is complete when their factory returns: each is published, and its gate
    /// released, as soon as it is built, so both succeed.
    @Test func crossedSyncResolvesInTwoTasksOfFinishedInstancesBothSucceed() async throws {
        let (outcomes, overlapped) = try await crossedTaskOutcomes(holding: .nothing)
        #expect(overlapped)
        #expect(outcomes.errors.isEmpty, "\(outcomes.all)")
        #expect(Set(outcomes.values) == ["GateLeftRequest", "GateRightRequest"])
    }

    /// The documented deadlock: a scoped factory that built a cold singleton, then waits for work
    /// in another scope (on another thread) that needs an unrelated cold singleton. It ends now.
    @Test func scopedFactoryWaitingOnAnotherScopeEnds() async throws {
        let container = Container()
        container.register(GateAudit.self, scope: .singleton) { _ in GateAudit() }
        container.register(GateMailer.self, scope: .singleton) { _ in GateMailer() }
        container.register(GateReportWorker.self, scope: .scoped) { r in
            _ = try r.resolve(GateMailer.self)
            return GateReportWorker()
        }
        let workerDone = CallCounter()
        container.register(GateReportJob.self, scope: .scoped) { r in
            _ = try r.resolve(GateAudit.self)
            let finished = DispatchSemaphore(value: 0)
            let other = container.makeScope()
            Thread {
                if (try? other.resolve(GateReportWorker.self)) != nil {
                    workerDone.next()
                }
                finished.signal()
            }.start()
            _ = waited(for: finished)
            try other.close()
            return GateReportJob()
        }
        let outcomes = Outcomes()
        let scope = container.makeScope()
        let ended = await onThreads([{ outcomes.record { try scope.resolve(GateReportJob.self) } }])
        #expect(ended)
        #expect(outcomes.values == ["GateReportJob"])
        #expect(workerDone.count == 1)
        try await scope.closeAsync()
    }

    /// Many threads race for one cold singleton, weak instance, or scoped instance of one scope:
    /// each factory runs once, and every thread gets that one instance. Each factory goes on only
    /// once every other thread waits at its gate, so that they all race for it.
    @Test func racingThreadsBuildEachSharedInstanceOnce() async throws {
        let container = Container()
        let (singletonCalls, weakCalls, scopedCalls) = (CallCounter(), CallCounter(), CallCounter())
        let raced = CallCounter()
        container.register(GateCounted.self, scope: .singleton) { _ in
            GateCounted(serial: heldUntilEveryRacerWaits(singletonCalls, raced: raced))
        }
        container.register(GateWeakHelper.self, scope: .weak) { _ in
            GateWeakHelper(serial: heldUntilEveryRacerWaits(weakCalls, raced: raced))
        }
        container.register(GateRight.self, scope: .scoped) { _ in
            _ = heldUntilEveryRacerWaits(scopedCalls, raced: raced)
            return GateRight()
        }
        let scope = container.makeScope()
        let singletons = await instancesFromRacingThreads { try container.resolve(GateCounted.self) }
        let weakOnes = await instancesFromRacingThreads { try container.resolve(GateWeakHelper.self) }
        let scopedOnes = await instancesFromRacingThreads { try scope.resolve(GateRight.self) }
        #expect([singletons, weakOnes, scopedOnes] == [1, 1, 1])
        let calls = [singletonCalls.count, weakCalls.count, scopedCalls.count]
        #expect(calls == [1, 1, 1])
        #expect(raced.count == 3)
        try await scope.closeAsync()
    }

    /// A thread building a scoped instance whose factory fails while another thread waits at its
    /// gate: the gate, moved to the process-wide table by the waiter, is released with the failure,
    /// and the waiter builds the instance, which the scope then keeps. The factory fails only once
    /// the table records the waiter at the gate its thread holds (which is there only if the waiter
    /// moved it), so the test always takes that path, however slowly the waiter comes.
    @Test func scopedFactoryFailingWhileAnotherThreadWaitsLetsTheWaiterBuildIt() async throws {
        let container = Container()
        let calls = CallCounter()
        let started = DispatchSemaphore(value: 0)
        let seenWaiting = EventLog()
        container.register(GateRight.self, scope: .scoped) { _ in
            guard calls.next() > 1 else {
                started.signal()
                let builder = InstanceGates.Owner.currentThread
                var waits: [ServiceKey] = []
                _ = waitedUntil {
                    waits = InstanceGates.waits(forGatesHeldBy: builder)
                    return !waits.isEmpty
                }
                for asked in waits { seenWaiting.record("\(asked)") }
                throw GateRefused()
            }
            return GateRight()
        }
        let scope = container.makeScope()
        let outcomes = Outcomes()
        let ended = await onThreads([
            { outcomes.record { try scope.resolve(GateRight.self) } },
            {
                _ = waited(for: started)
                outcomes.record { try scope.resolve(GateRight.self) }
            },
        ])
        try #require(ended)  // else the gate is still held, and resolving below would wait for ever
        // The factory failed while the waiter waited at the table's gate, not before it came.
        #expect(seenWaiting.events == ["GateRight"])
        let errors = outcomes.errors
        #expect(errors.map(\.code) == [.factoryFailed])
        #expect(
            errors.first?.message
                == "The factory of GateRight threw: GateRefused(). The error is the underlyingError; fix the factory or what it depends on."
        )
        #expect(outcomes.values == ["GateRight"])
        #expect(calls.count == 2)
        _ = try scope.resolve(GateRight.self)
        #expect(calls.count == 2)
        try await scope.closeAsync()
    }

    /// A scoped instance that is not published as soon as it is built (see `HeldScopedGate`),
    /// whose resolve then fails while another thread waits at its gate, which that thread moved to
    /// the process-wide table: the failure releases the gate, and the waiter builds the instance
    /// (the discarded one is never handed out), which the scope then keeps as its one instance;
    /// closing the scope disposes each instance built once, the discarded one too (the scope took
    /// charge of it when it was built). What the failed resolve built with it (a singleton whose
    /// hook had not run yet, a hook) is dropped too. The resolve fails only once the table records the waiter at the gate its
    /// thread holds, so the test always takes that path.
    @Test(arguments: HeldScopedGate.allCases)
    func scopedInstanceHeldUntilItsResolveEndsIsBuiltByTheWaiterWhenTheResolveFails(
        held: HeldScopedGate
    ) async throws {
        let container = Container()
        let (works, singletons, hooks) = (CallCounter(), CallCounter(), CallCounter())
        let disposals = EventLog()
        let seenWaiting = EventLog()
        let received = EventLog()
        let built = DispatchSemaphore(value: 0)
        let scope = container.makeScope()
        /// Fails once another thread waits at a gate the calling thread holds (at most 30 s).
        @Sendable func failOnceAnotherThreadWaits() throws {
            let builder = InstanceGates.Owner.currentThread
            var waits: [ServiceKey] = []
            _ = waitedUntil {
                waits = InstanceGates.waits(forGatesHeldBy: builder)
                return !waits.isEmpty
            }
            for asked in waits { seenWaiting.record("\(asked)") }
            throw GateRefused()
        }
        container.register(GateCounted.self, scope: .singleton) { _ in GateCounted(serial: singletons.next()) }
            .onResolved { _, _ in }
        container.register(GateHooked.self) { _ in GateHooked() }
            .onResolved { _, _ in
                if hooks.next() == 1, held == .itsHookFailsWhenTheResolveCompletes {
                    built.signal()
                    try failOnceAnotherThreadWaits()
                }
            }
        container.register(GateHeldWork.self, scope: .scoped) { r in
            switch held {
            case .itsConstructionBuiltAHookedSingleton: _ = try r.resolve(GateCounted.self)
            case .itsConstructionQueuedAHook, .itsHookFailsWhenTheResolveCompletes: _ = try r.resolve(GateHooked.self)
            case .itsResolveBuiltAHookedSingletonBefore, .itsResolveIsNestedInTheFailingOne: break
            }
            return GateHeldWork(serial: works.next(), disposals: disposals)
        }
        container.register(GateWorkRequest.self) { r in
            switch held {
            case .itsResolveBuiltAHookedSingletonBefore:
                _ = try r.resolve(GateCounted.self)
                _ = try r.resolve(GateHeldWork.self)
            case .itsResolveIsNestedInTheFailingOne: _ = try scope.resolve(GateHeldWork.self)
            default: _ = try r.resolve(GateHeldWork.self)
            }
            guard held != .itsHookFailsWhenTheResolveCompletes else { return GateWorkRequest() }
            built.signal()
            try failOnceAnotherThreadWaits()
            return GateWorkRequest()
        }
        let outcomes = Outcomes()
        let ended = await onThreads([
            { outcomes.record { try scope.resolve(GateWorkRequest.self) } },
            {
                _ = waited(for: built)
                outcomes.record {
                    let work = try scope.resolve(GateHeldWork.self)
                    received.record("GateHeldWork #\(work.serial)")
                    return work
                }
            },
        ])
        try #require(ended)  // else a gate is still held, and resolving below could wait for ever
        // The resolve failed while the waiter waited at the table's gate, not before it came.
        #expect(seenWaiting.events == ["GateHeldWork"])
        let errors = outcomes.errors
        if held == .itsHookFailsWhenTheResolveCompletes {
            #expect(errors.map(\.code) == [.preparationFailed])
            #expect(
                errors.first?.message
                    == "Preparing GateHooked failed: an onResolved hook threw: GateRefused(). The error is the"
                    + " underlyingError."
            )
        } else {
            #expect(errors.map(\.code) == [.factoryFailed])
            #expect(
                errors.first?.message
                    == "The factory of GateWorkRequest threw: GateRefused(). The error is the underlyingError; fix"
                    + " the factory or what it depends on."
            )
        }
        #expect(outcomes.values == ["GateHeldWork"])
        // The waiter built the scope's instance; the failed resolve's was never handed out.
        #expect(received.events == ["GateHeldWork #2"])
        #expect(works.count == 2)
        #expect(try scope.resolve(GateHeldWork.self).serial == 2)
        #expect(works.count == 2)
        switch held {
        case .itsConstructionBuiltAHookedSingleton, .itsResolveBuiltAHookedSingletonBefore:
            // The failed resolve's singleton, whose construction was not complete (its hook had not
            // run), was dropped, never published.
            #expect(try container.resolve(GateCounted.self).serial == 2)
        case .itsConstructionQueuedAHook:
            // The failed resolve's hook was dropped with it; the waiter's ran.
            #expect(hooks.count == 1)
        case .itsHookFailsWhenTheResolveCompletes:
            #expect(hooks.count == 2)
        case .itsResolveIsNestedInTheFailingOne:
            break
        }
        try await scope.closeAsync()
        #expect(disposals.events == ["GateHeldWork #2", "GateHeldWork #1"])
    }

    /// Many tasks race for one cold async singleton, and for one async weak instance.
    @Test func racingTasksBuildAsyncSharedInstancesOnce() async throws {
        let container = Container()
        let singletonCalls = CallCounter()
        let weakCalls = CallCounter()
        container.register(GateCounted.self, scope: .singleton) { _ async in
            let serial = singletonCalls.next()
            await Task.yield()
            return GateCounted(serial: serial)
        }
        container.register(GateWeakHelper.self, scope: .weak) { _ async in
            let serial = weakCalls.next()
            await Task.yield()
            return GateWeakHelper(serial: serial)
        }
        let identities: [Int]? = await withWatchdog {
            await withTaskGroup(of: [any AnyObject & Sendable].self) { group -> [Int] in
                for _ in 0..<32 {
                    group.addTask { () -> [any AnyObject & Sendable] in
                        var objects: [any AnyObject & Sendable] = []
                        if let singleton = try? await container.resolveAsync(GateCounted.self) {
                            objects.append(singleton)
                        }
                        if let helper = try? await container.resolveAsync(GateWeakHelper.self) {
                            objects.append(helper)
                        }
                        return objects
                    }
                }
                var kept: [any AnyObject & Sendable] = []
                for await objects in group { kept += objects }
                return [Set(kept.map(ObjectIdentifier.init)).count, kept.count]
            }
        }
        #expect(identities == [2, 64])
        #expect(singletonCalls.count == 1)
        #expect(weakCalls.count == 1)
    }

    /// Two cold async singletons whose factories each wait for the other to start: under one lock
    /// for the tree, the second could not start until the first ended, and both waits would time
    /// out.
    @Test func unrelatedAsyncSingletonsAreBuiltInParallel() async throws {
        let container = Container()
        let leftStarted = Signal()
        let rightStarted = Signal()
        let sawOther = CallCounter()
        container.register(GateLeft.self, scope: .singleton) { _ async in
            leftStarted.signal()
            if await awaited(rightStarted) { sawOther.next() }
            return GateLeft()
        }
        container.register(GateRight.self, scope: .singleton) { _ async in
            rightStarted.signal()
            if await awaited(leftStarted) { sawOther.next() }
            return GateRight()
        }
        let ended: Bool? = await withWatchdog {
            async let left = container.resolveAsync(GateLeft.self)
            async let right = container.resolveAsync(GateRight.self)
            _ = try? await (left, right)
            return true
        }
        #expect(ended == true)
        #expect(sawOther.count == 2)
    }

    /// Two async resolutions, each holding an async singleton or weak instance it built whose
    /// construction is not complete (it holds a transient whose hook runs when the resolve
    /// completes: it is published then) and then asking for the one the other holds: the one that
    /// would close the cycle throws `circularWait` naming both paths, instead of both tasks
    /// suspending forever; the other then builds what it needs and succeeds.
    @Test func waitForCycleBetweenTwoAsyncResolutionsIsReported() async throws {
        let container = Container()
        let all = try await crossedAsyncOutcomes(in: container, holdingHookedTransients: true)
        let errors = failures(all)
        try #require(errors.count == 1, "\(all)")
        #expect(errors[0].code == .circularWait)
        let message = errors[0].message
        let paths = ["GateLeftRequest -> GateRight", "GateRightRequest -> GateLeft"]
        #expect(paths.allSatisfy { message.contains("(\($0))") }, "\(message)")
        #expect(message.contains("would wait forever"))
        #expect(message.contains("another task's resolution is building"), "\(message)")
        #expect(message.contains("Fix:"))
        // Nothing is left half-built or held: both resolve at once now.
        _ = try await container.resolveAsync(GateLeft.self)
        _ = try await container.resolveAsync(GateRight.self)
    }

    /// The same crossed async requests for instances whose construction is complete when their
    /// factory returns: each is published, and its gate released, as soon as it is built, so both
    /// resolutions succeed.
    @Test func crossedAsyncRequestsForFinishedInstancesBothSucceed() async throws {
        let all = try await crossedAsyncOutcomes(in: Container(), holdingHookedTransients: false)
        #expect(failures(all).isEmpty, "\(all)")
        #expect(all.compactMap { try? $0.get() } == ["GateLeftRequest", "GateRightRequest"])
    }

    /// A child task of an async factory (`async let`) and a sibling child task each hold an async
    /// singleton and ask for the other's (within a running async factory's family, a singleton is
    /// published, and its gate released, only when the resolution that built it completes, even
    /// one complete when its factory returns): siblings of one family take turns at a gate, so this
    /// is a wait that cannot end either, and it is reported.
    @Test func waitForCycleBetweenSiblingTasksOfOneFactoryIsReported() async throws {
        let container = Container()
        registerCrossedAsyncRequests(in: container, rightScope: .singleton)
        container.register(GateAudit.self) { _ async throws in
            async let left = outcome { try await container.resolveAsync(GateLeftRequest.self) }
            async let right = outcome { try await container.resolveAsync(GateRightRequest.self) }
            let outcomes = await [left, right]
            if let error = failures(outcomes).first { throw error }
            return GateAudit()
        }
        let audited: ResolveOutcome? = await withWatchdog {
            await outcome { try await container.resolveAsync(GateAudit.self) }
        }
        let error = try #require(audited.flatMap { if case .failure(let error) = $0 { error } else { nil } })
        #expect(error.code == .circularWait)
        let paths = ["GateAudit -> GateLeftRequest -> GateRight", "GateAudit -> GateRightRequest -> GateLeft"]
        #expect(paths.allSatisfy { error.message.contains("(\($0))") }, "\(error.message)")
    }

    /// The documented async deadlock: an async singleton whose factory awaits a detached task that
    /// resolves an unrelated cold singleton from the same container. It ends now.
    @Test func asyncSingletonAwaitingADetachedResolutionEnds() async throws {
        let container = Container()
        container.register(GateMailer.self, scope: .singleton) { _ async in GateMailer() }
        container.register(GateAudit.self, scope: .singleton) { _ async throws in
            let mailer = try await Task.detached { try await container.resolveAsync(GateMailer.self) }.value
            _ = mailer
            return GateAudit()
        }
        let ended: Bool? = await withWatchdog {
            (try? await container.resolveAsync(GateAudit.self)) != nil
        }
        #expect(ended == true)
    }

    /// A task waiting at the gate of an async singleton another task is building stops at once when
    /// it is cancelled, with `resolutionCancelled`; the builder goes on and the instance is built
    /// once. The waiter is cancelled only once it waits at the gate (a task cancelled before it
    /// comes there stops too, but without waiting).
    @Test func cancelledWaiterAtAnAsyncGateStopsAtOnce() async throws {
        let container = Container()
        let started = Signal()
        let release = Signal()
        let calls = CallCounter()
        container.register(GateAwaited.self, scope: .singleton) { _ async in
            calls.next()
            started.signal()
            await release.wait()
            return GateAwaited()
        }
        let builder = Task { try await container.resolveAsync(GateAwaited.self) }
        #expect(await awaited(started))
        let waiter = Task { try await container.resolveAsync(GateAwaited.self) }
        let waiting = await awaitedUntil {
            InstanceGates.waits().contains { $0.serviceType == GateAwaited.self }
        }
        #expect(waiting, "the waiter did not come to wait at the gate")
        waiter.cancel()
        let waited: ResolveOutcome? = await withWatchdog {
            await outcome { try await waiter.value }
        }
        release.signal()
        guard case .failure(let error)? = waited else {
            Issue.record("the cancelled waiter did not stop with an error: \(String(describing: waited))")
            return
        }
        #expect(error.code == .resolutionCancelled)
        #expect(error.message.contains("GateAwaited"), "\(error.message)")
        _ = try await builder.value
        #expect(calls.count == 1)
    }

    /// What the race tests rely on to know that they took the path they are about: the gate tables
    /// report a wait exactly while it lasts (`InstanceGates.waits(forGatesHeldBy:)` a thread waiting
    /// at a store's gate it moved to the table, with what it asked for; `InstanceGates.waits()`
    /// a task waiting at an instance gate, forgotten once it is cancelled), and the polls on them
    /// give up at their bound rather than wait for ever.
    @Test func gateTablesReportEachWaitWhileItLastsAndPollsGiveUpAtTheirBound() async throws {
        let container = Container()
        let reports = EventLog()
        let started = DispatchSemaphore(value: 0)
        container.register(GateLeft.self, scope: .scoped) { _ in
            let holder = InstanceGates.Owner.currentThread
            reports.record("before: \(InstanceGates.waits(forGatesHeldBy: holder))")
            started.signal()
            var waits: [ServiceKey] = []
            _ = waitedUntil {
                waits = InstanceGates.waits(forGatesHeldBy: holder)
                return !waits.isEmpty
            }
            reports.record("while: \(waits)")
            return GateLeft()
        }
        let scope = container.makeScope()
        let ended = await onThreads([
            {
                _ = try? scope.resolve(GateLeft.self)
                reports.record("after: \(InstanceGates.waits(forGatesHeldBy: InstanceGates.Owner.currentThread))")
            },
            {
                _ = waited(for: started)
                _ = try? scope.resolve(GateLeft.self)
            },
        ])
        try #require(ended)
        #expect(reports.events == ["before: []", "while: [GateLeft]", "after: []"])
        try await scope.closeAsync()

        let building = Signal()
        let release = Signal()
        container.register(GateSeamAwaited.self, scope: .singleton) { _ async in
            building.signal()
            await release.wait()
            return GateSeamAwaited()
        }
        func waits() -> Int { InstanceGates.waits().filter { $0.serviceType == GateSeamAwaited.self }.count }
        let builder = Task { try await container.resolveAsync(GateSeamAwaited.self) }
        #expect(await awaited(building))
        #expect(waits() == 0)
        let waiter = Task { try await container.resolveAsync(GateSeamAwaited.self) }
        #expect(await awaitedUntil { waits() == 1 })
        waiter.cancel()
        let stopped: ResolveOutcome? = await withWatchdog { await outcome { try await waiter.value } }
        let errors = failures([try #require(stopped)])
        #expect(errors.map(\.code) == [.resolutionCancelled])
        #expect(
            errors.first?.message
                == "Resolving GateSeamAwaited was cancelled: the task was cancelled, and another resolution is"
                + " building its shared instance: a cancelled task does not wait for it. Nothing was built for"
                + " this resolve; the instance is built once, by a task that is not cancelled. Fix: nothing, if"
                + " the task was meant to stop; otherwise, do not cancel it while it resolves."
        )
        #expect(waits() == 0)
        release.signal()
        _ = try await builder.value

        let clock = ContinuousClock()
        let start = clock.now
        #expect(!waitedUntil(seconds: 0.05) { false })
        #expect(await !awaitedUntil(seconds: 0.05) { false })
        #expect(clock.now - start < .seconds(5))
    }

    /// An async scoped instance (published, and its gate released, only when the resolve that
    /// built it completes) whose resolve fails (see `AsyncResolveFailure`) while another task waits
    /// at its gate: the failure releases the gate, and the waiter builds the instance (the discarded
    /// one is never handed out), which the scope then keeps as its one instance; closing the scope
    /// disposes each instance built once. The request's factory goes on only once
    /// `InstanceGates` records the waiter, so the resolve fails while the waiter waits.
    @Test(arguments: AsyncResolveFailure.allCases)
    func asyncScopedInstanceWhoseResolveFailsWhileATaskWaitsIsBuiltByTheWaiter(
        failure: AsyncResolveFailure
    ) async throws {
        let container = Container()
        let (works, hooks) = (CallCounter(), CallCounter())
        let disposals = EventLog()
        let seenWaiting = EventLog()
        let received = EventLog()
        let built = Signal()
        container.register(GateHooked.self) { _ async in GateHooked() }
            .onResolved { _, _ in
                if hooks.next() == 1, failure == .aHookThrowsAsTheResolveCompletes { throw GateRefused() }
            }
        container.register(GateHeldAsyncWork.self, scope: .scoped) { r async throws in
            _ = try await r.resolveAsync(GateHooked.self)
            return GateHeldAsyncWork(serial: works.next(), disposals: disposals)
        }
        container.register(GateWorkRequest.self) { r async throws in
            _ = try await r.resolveAsync(GateHeldAsyncWork.self)
            built.signal()
            let waiting = await awaitedUntil {
                InstanceGates.waits().contains { $0.serviceType == GateHeldAsyncWork.self }
            }
            if waiting { seenWaiting.record("GateHeldAsyncWork") }
            if failure == .theRequestsFactoryThrows { throw GateRefused() }
            return GateWorkRequest()
        }
        let scope = container.makeScope()
        let results: [ResolveOutcome]? = await withWatchdog {
            let failing = Task.detached { await outcome { try await scope.resolveAsync(GateWorkRequest.self) } }
            let waiter = Task.detached {
                _ = await awaited(built)
                return await outcome {
                    let work = try await scope.resolveAsync(GateHeldAsyncWork.self)
                    received.record("GateHeldAsyncWork #\(work.serial)")
                    return work
                }
            }
            return [await failing.value, await waiter.value]
        }
        let all = try #require(results)
        // The resolve failed while the waiter waited at the gate, not before it came.
        #expect(seenWaiting.events == ["GateHeldAsyncWork"])
        let errors = failures(all)
        switch failure {
        case .theRequestsFactoryThrows:
            #expect(errors.map(\.code) == [.factoryFailed])
            #expect(
                errors.first?.message
                    == "The factory of GateWorkRequest threw: GateRefused(). The error is the underlyingError; fix"
                    + " the factory or what it depends on."
            )
        case .aHookThrowsAsTheResolveCompletes:
            #expect(errors.map(\.code) == [.preparationFailed])
            #expect(
                errors.first?.message
                    == "Preparing GateHooked failed: an onResolved hook threw: GateRefused(). The error is the"
                    + " underlyingError."
            )
        }
        #expect((try? all[1].get()) == "GateHeldAsyncWork", "\(all)")
        // The waiter built the scope's instance; the failed resolve's was never handed out.
        #expect(received.events == ["GateHeldAsyncWork #2"])
        #expect(works.count == 2)
        #expect(try await scope.resolveAsync(GateHeldAsyncWork.self).serial == 2)
        #expect(works.count == 2)
        // The failed resolve's hook was dropped with it (or threw); the waiter's ran.
        #expect(hooks.count == (failure == .aHookThrowsAsTheResolveCompletes ? 2 : 1))
        try await scope.closeAsync()
        #expect(disposals.events == ["GateHeldAsyncWork #2", "GateHeldAsyncWork #1"])
    }
}

extension SharedConstructionGateTests {
    /// What each of the two crossed instances (see `registerCrossedRequests`) holds, which decides
    /// whether the resolve that built it keeps its gate until it completes.
    enum CrossedHolding: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Nothing: its construction is complete when its factory returns, so it is published,
        /// and its gate released, at once.
        case nothing
        /// A singleton of its own (`GateCounted`, named), which its resolve builds: complete when
        /// its factory returns, that one is published at once, and so is the instance holding it.
        case aFinishedSingleton
        /// A transient with an `onResolved` hook (`GateHooked`), which runs when the resolve
        /// completes: until then the instance's construction is not complete, so it is published
        /// with the resolve, and its gate held until then.
        case aTransientWithAHook

        var testDescription: String { rawValue }
    }

    /// How a scoped instance built by a sync resolve comes to be published, and its gate released,
    /// only when the resolve completes rather than as soon as it is built, and how that resolve
    /// then fails.
    enum HeldScopedGate: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Its construction built a singleton with an `onResolved` hook, which runs when the
        /// resolve completes: the singleton is published then, and the scoped instance with it
        /// (`holdEnteredGate`); the request's factory then throws. (A singleton without hooks is
        /// published as soon as it is built, and so is the scoped instance holding it.)
        case itsConstructionBuiltAHookedSingleton
        /// Its construction queued an `onResolved` hook, which runs when the resolve completes
        /// (`holdEnteredGate`); the request's factory then throws.
        case itsConstructionQueuedAHook
        /// Its resolve had built a singleton with an `onResolved` hook before it, still
        /// unpublished: it is built behind a gate the resolve holds until it ends
        /// (`beginSharedConstruction`); the request's factory then throws.
        case itsResolveBuiltAHookedSingletonBefore
        /// It is built by a resolve nested in the request's (through the captured scope), which
        /// hands it and its gate to the request's when it completes; the request's factory then
        /// throws.
        case itsResolveIsNestedInTheFailingOne
        /// Its construction queued an `onResolved` hook, which throws when the resolve completes.
        case itsHookFailsWhenTheResolveCompletes

        var testDescription: String { rawValue }
    }

    /// How the async resolve that built a scoped instance fails, once another task waits at its
    /// gate.
    enum AsyncResolveFailure: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The request's factory throws, after the scoped instance was built.
        case theRequestsFactoryThrows
        /// The request's factory returns; an `onResolved` hook the scoped instance's construction
        /// queued throws as the resolve completes.
        case aHookThrowsAsTheResolveCompletes

        var testDescription: String { rawValue }
    }
}
