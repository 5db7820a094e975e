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

// Every test here hammers a container from many tasks or threads. CI runs this suite under
// ThreadSanitizer (`swift test --sanitize=thread --filter ConcurrencyTests`), so a data race in the
// library fails it even when the assertions hold. Counters (`CallCounter`, in Support/TestSupport.swift,
// and the ones below) are `Guarded`, an `NSLock` (a pthread mutex, which ThreadSanitizer understands;
// it misreports `Synchronization.Mutex` on Linux). No test depends on timing.

// MARK: - Test doubles (private to this file)

/// Remembers the first object identity it is given and counts the identities that differ from it.
private final class ConcurrencySameIdentity: Sendable {
    private let state = Guarded((first: UInt(0), mismatches: 0, seen: 0))

    func record(_ object: AnyObject) {
        let bits = UInt(bitPattern: ObjectIdentifier(object))
        state.withLock { state in
            state.seen += 1
            if state.first == 0 {
                state.first = bits
            } else if state.first != bits {
                state.mismatches += 1
            }
        }
    }

    var mismatchCount: Int { state.current.mismatches }
    var recordCount: Int { state.current.seen }
    func isFirst(_ object: AnyObject) -> Bool {
        state.current.first == UInt(bitPattern: ObjectIdentifier(object))
    }
}

/// Keeps the optimiser from dropping the busy work.
private let concurrencySink = Guarded(0)

/// A little CPU work (no sleeping).
private func concurrencyBusyWork(_ iterations: Int = 2_000) {
    var x = 0
    for i in 0..<iterations { x = x &* 31 &+ i }
    concurrencySink.add(x & 1)
}

/// Makes contention likely without depending on it: each task calls `arrive()` just before it
/// resolves, and a factory or hook calls `holdOpen()`, which keeps the construction window open
/// until another task has arrived (bounded: at most `patience`, then it goes on anyway),
/// plus a little more so that the arriving task reaches the container while construction is still
/// under way. The assertions never depend on whether anyone arrived.
///
/// The wait spins on a cooperative thread, so a test whose factory runs many times (a weak instance
/// rebuilt as holders come and go) keeps `patience` short: 200 builds of 20 ms each would hold the
/// pool for seconds and starve every other test running meanwhile.
private final class ConcurrencyArrivals: Sendable {
    private let arrived = Guarded(0)
    private let total: Int

    init(total: Int) { self.total = total }

    func arrive() { arrived.add(1) }

    func holdOpen(patience: Duration = .milliseconds(20)) {
        let start = arrived.current
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        while arrived.current < min(start + 1, total) && clock.now < deadline {}
        concurrencyBusyWork(20_000)
    }
}

private final class ConcurrencySingleton: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

// A chain of singletons: Top -> Middle -> Bottom.
private final class ConcurrencyBottom: Sendable {}
private final class ConcurrencyMiddle: Sendable {
    let bottom: ConcurrencyBottom
    init(bottom: ConcurrencyBottom) { self.bottom = bottom }
}
private final class ConcurrencyTop: Sendable {
    let middle: ConcurrencyMiddle
    init(middle: ConcurrencyMiddle) { self.middle = middle }
}
/// A transient that depends on the top singleton, so the singletons are also built from inside a graph.
private final class ConcurrencyFront: Sendable {
    let top: ConcurrencyTop
    init(top: ConcurrencyTop) { self.top = top }
}

/// Prepared in an onResolved hook: plain (non-atomic) properties, written only by the hook before the
/// instance is published. A task that sees it unprepared, or reads it without a happens-before edge
/// to the hook's writes, fails the test (the latter under ThreadSanitizer).
private final class ConcurrencyHooked: @unchecked Sendable {
    let serial: Int
    var hookRun = 0
    var verified = false
    var partner: ConcurrencyPartner?
    init(serial: Int) { self.serial = serial }
}

/// Closes a property ring with `ConcurrencyHooked` through its own hook.
private final class ConcurrencyPartner: @unchecked Sendable {
    var hooked: ConcurrencyHooked?
}

// Diamond: A -> B, C; B -> D; C -> D.
private final class ConcurrencyDiamondD: Sendable {}
private final class ConcurrencyDiamondB: Sendable {
    let d: ConcurrencyDiamondD
    init(d: ConcurrencyDiamondD) { self.d = d }
}
private final class ConcurrencyDiamondC: Sendable {
    let d: ConcurrencyDiamondD
    init(d: ConcurrencyDiamondD) { self.d = d }
}
private final class ConcurrencyDiamondA: Sendable {
    let b: ConcurrencyDiamondB
    let c: ConcurrencyDiamondC
    init(b: ConcurrencyDiamondB, c: ConcurrencyDiamondC) {
        self.b = b
        self.c = c
    }
}

private final class ConcurrencyTransient: Sendable {}

private protocol ConcurrencyClock: Sendable {
    var label: String { get }
}
private final class ConcurrencyClockImpl: ConcurrencyClock {
    let label: String
    init(_ label: String) { self.label = label }
}
/// Depends on a clock; which clock it got tells which container's registration was used.
private final class ConcurrencyStore: Sendable {
    let clock: any ConcurrencyClock
    init(clock: any ConcurrencyClock) { self.clock = clock }
}
private final class ConcurrencyChildOwn: Sendable {}

private protocol ConcurrencyPlugin: Sendable {
    var id: String { get }
}
private struct ConcurrencyPluginImpl: ConcurrencyPlugin {
    let id: String
}

// For resolutions that fail, nest top-level resolves, and share graph instances, over and over on
// the same threads (each thread may reuse its resolution state from one resolve to the next).
private final class ConcurrencyGraphLeaf: Sendable {}
private final class ConcurrencyInner: Sendable {
    let leaf: ConcurrencyGraphLeaf
    init(leaf: ConcurrencyGraphLeaf) { self.leaf = leaf }
}
private final class ConcurrencyOuter: Sendable {
    let leaf: ConcurrencyGraphLeaf
    let leafAgain: ConcurrencyGraphLeaf
    let inner: ConcurrencyInner
    init(leaf: ConcurrencyGraphLeaf, leafAgain: ConcurrencyGraphLeaf, inner: ConcurrencyInner) {
        self.leaf = leaf
        self.leafAgain = leafAgain
        self.inner = inner
    }
}
private final class ConcurrencyNeedsMissing: Sendable {}
private final class ConcurrencyMissing: Sendable {}
private final class ConcurrencyCycleA: Sendable {}
private final class ConcurrencyCycleB: Sendable {}
private struct ConcurrencyFactoryError: Error {}

private final class ConcurrencyWeak: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

// MARK: - Tests

struct ConcurrencyTests {
    static let taskCount = 200

    // MARK: Singletons

    @Test(arguments: [false, true])
    func coldSingletonFactoryRunsOnceWhen200TasksResolveItAtOnce(finishedFirst: Bool) async throws {
        for _ in 0..<5 {
            let container = Container()
            let calls = CallCounter()
            let arrivals = ConcurrencyArrivals(total: Self.taskCount)
            container.register(ConcurrencySingleton.self, scope: .singleton) { _ in
                let serial = calls.next()
                arrivals.holdOpen()
                return ConcurrencySingleton(serial: serial)
            }
            if finishedFirst { try container.finishRegistration() }

            let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<Self.taskCount {
                    group.addTask {
                        arrivals.arrive()
                        return ObjectIdentifier(try container.resolve(ConcurrencySingleton.self))
                    }
                }
                var identities = Set<ObjectIdentifier>()
                for try await identity in group { identities.insert(identity) }
                return identities
            }

            #expect(calls.count == 1)
            #expect(identities.count == 1)
            #expect(identities.first == ObjectIdentifier(try container.resolve(ConcurrencySingleton.self)))
        }
    }

    @Test func coldSingletonFactoryRunsOnceWhenThreadsRaceForIt() throws {
        for _ in 0..<5 {
            let container = Container()
            let calls = CallCounter()
            let failures = CallCounter()
            let identity = ConcurrencySameIdentity()
            let arrivals = ConcurrencyArrivals(total: Self.taskCount)
            container.register(ConcurrencySingleton.self, scope: .singleton) { _ in
                let serial = calls.next()
                arrivals.holdOpen()
                return ConcurrencySingleton(serial: serial)
            }

            DispatchQueue.concurrentPerform(iterations: Self.taskCount) { _ in
                arrivals.arrive()
                do { identity.record(try container.resolve(ConcurrencySingleton.self)) } catch { failures.next() }
            }

            #expect(failures.count == 0)
            #expect(calls.count == 1)
            #expect(identity.recordCount == Self.taskCount)
            #expect(identity.mismatchCount == 0)
            #expect(identity.isFirst(try container.resolve(ConcurrencySingleton.self)))
        }
    }

    @Test func coldSingletonChainIsBuiltOnceWhenHammeredFromEveryEntryPoint() async throws {
        for _ in 0..<5 {
            let container = Container()
            let topCalls = CallCounter()
            let middleCalls = CallCounter()
            let bottomCalls = CallCounter()
            let arrivals = ConcurrencyArrivals(total: Self.taskCount)
            container.register(ConcurrencyBottom.self, scope: .singleton) { _ in
                bottomCalls.next()
                arrivals.holdOpen()
                return ConcurrencyBottom()
            }
            container.register(ConcurrencyMiddle.self, scope: .singleton) { r in
                middleCalls.next()
                arrivals.holdOpen()
                return try ConcurrencyMiddle(bottom: r.resolve(ConcurrencyBottom.self))
            }
            container.register(ConcurrencyTop.self, scope: .singleton) { r in
                topCalls.next()
                arrivals.holdOpen()
                return try ConcurrencyTop(middle: r.resolve(ConcurrencyMiddle.self))
            }
            container.register(ConcurrencyFront.self) { r in try ConcurrencyFront(top: r.resolve(ConcurrencyTop.self)) }

            let tops = ConcurrencySameIdentity()
            let middles = ConcurrencySameIdentity()
            let bottoms = ConcurrencySameIdentity()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<Self.taskCount {
                    group.addTask {
                        arrivals.arrive()
                        switch index % 4 {
                        case 0:
                            let top = try container.resolve(ConcurrencyTop.self)
                            tops.record(top)
                            middles.record(top.middle)
                            bottoms.record(top.middle.bottom)
                        case 1:
                            let middle = try container.resolve(ConcurrencyMiddle.self)
                            middles.record(middle)
                            bottoms.record(middle.bottom)
                        case 2:
                            bottoms.record(try container.resolve(ConcurrencyBottom.self))
                        default:
                            let front = try container.resolve(ConcurrencyFront.self)
                            tops.record(front.top)
                            middles.record(front.top.middle)
                            bottoms.record(front.top.middle.bottom)
                        }
                    }
                }
                try await group.waitForAll()
            }

            #expect(topCalls.count == 1)
            #expect(middleCalls.count == 1)
            #expect(bottomCalls.count == 1)
            #expect(tops.mismatchCount == 0)
            #expect(middles.mismatchCount == 0)
            #expect(bottoms.mismatchCount == 0)
            let top = try container.resolve(ConcurrencyTop.self)
            #expect(tops.isFirst(top))
            #expect(middles.isFirst(top.middle))
            #expect(bottoms.isFirst(top.middle.bottom))
        }
    }

    @Test func noTaskSeesASingletonBeforeItsOnResolvedHookAndVerifyRan() async throws {
        for _ in 0..<5 {
            let container = Container()
            let factoryCalls = CallCounter()
            let hookCalls = CallCounter()
            let partnerCalls = CallCounter()
            let unprepared = CallCounter()
            let arrivals = ConcurrencyArrivals(total: Self.taskCount)
            container.register(ConcurrencyHooked.self, scope: .singleton) { _ in
                ConcurrencyHooked(serial: factoryCalls.next())
            }
            .onResolved { r, hooked in
                arrivals.holdOpen()
                hooked.partner = try r.resolve(ConcurrencyPartner.self)
                hooked.hookRun = hookCalls.next()
            }
            .verify { hooked in
                hooked.verified = true
            }
            container.register(ConcurrencyPartner.self, scope: .singleton) { _ in
                partnerCalls.next()
                return ConcurrencyPartner()
            }
            .onResolved { r, partner in
                partner.hooked = try r.resolve(ConcurrencyHooked.self)
            }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<Self.taskCount {
                    group.addTask {
                        arrivals.arrive()
                        let hooked: ConcurrencyHooked
                        if index.isMultiple(of: 3) {
                            let partner = try container.resolve(ConcurrencyPartner.self)
                            guard let fromPartner = partner.hooked else {
                                unprepared.next()
                                return
                            }
                            hooked = fromPartner
                        } else {
                            hooked = try container.resolve(ConcurrencyHooked.self)
                        }
                        let ringClosed = hooked.partner?.hooked === hooked
                        if hooked.hookRun == 0 || !hooked.verified || !ringClosed { unprepared.next() }
                    }
                }
                try await group.waitForAll()
            }

            #expect(unprepared.count == 0, "a task received the singleton before its hooks had run")
            #expect(factoryCalls.count == 1)
            #expect(hookCalls.count == 1)
            #expect(partnerCalls.count == 1)
        }
    }

    // MARK: Transient and graph

    @Test func transientsAndGraphDiamondsResolvedConcurrentlyStayPerResolve() async throws {
        let container = Container()
        let dCalls = CallCounter()
        let transientCalls = CallCounter()
        container.register(ConcurrencyDiamondD.self, scope: .graph) { _ in
            dCalls.next()
            return ConcurrencyDiamondD()
        }
        container.register(ConcurrencyDiamondB.self) { r in
            try ConcurrencyDiamondB(d: r.resolve(ConcurrencyDiamondD.self))
        }
        container.register(ConcurrencyDiamondC.self) { r in
            try ConcurrencyDiamondC(d: r.resolve(ConcurrencyDiamondD.self))
        }
        container.register(ConcurrencyDiamondA.self) { r in
            try ConcurrencyDiamondA(b: r.resolve(ConcurrencyDiamondB.self), c: r.resolve(ConcurrencyDiamondC.self))
        }
        container.register(ConcurrencyTransient.self) { _ in
            transientCalls.next()
            return ConcurrencyTransient()
        }
        try container.finishRegistration()

        let results = try await withThrowingTaskGroup(
            of: (ConcurrencyDiamondA, ConcurrencyTransient, ConcurrencyTransient).self
        ) { group in
            for _ in 0..<Self.taskCount {
                group.addTask {
                    let a = try container.resolve(ConcurrencyDiamondA.self)
                    return (
                        a, try container.resolve(ConcurrencyTransient.self),
                        try container.resolve(ConcurrencyTransient.self)
                    )
                }
            }
            var results: [(ConcurrencyDiamondA, ConcurrencyTransient, ConcurrencyTransient)] = []
            for try await result in group { results.append(result) }
            return results
        }

        // All results are alive here, so distinct objects have distinct identities.
        #expect(results.count == Self.taskCount)
        #expect(results.allSatisfy { $0.0.b.d === $0.0.c.d })
        #expect(Set(results.map { ObjectIdentifier($0.0.b.d) }).count == Self.taskCount)
        #expect(Set(results.flatMap { [ObjectIdentifier($0.1), ObjectIdentifier($0.2)] }).count == 2 * Self.taskCount)
        #expect(dCalls.count == Self.taskCount)
        #expect(transientCalls.count == 2 * Self.taskCount)
    }

    // MARK: Registration racing resolution

    @Test func resolvesRacingRegistrationAndFinishRegistrationAllSucceed() async throws {
        let lateCount = 100
        let container = Container()
        let singletonCalls = CallCounter()
        let arrivals = ConcurrencyArrivals(total: Self.taskCount)
        container.register(ConcurrencySingleton.self, scope: .singleton) { _ in
            let serial = singletonCalls.next()
            arrivals.holdOpen()
            return ConcurrencySingleton(serial: serial)
        }
        container.register(ConcurrencyTransient.self) { _ in ConcurrencyTransient() }

        let singletons = ConcurrencySameIdentity()
        let badOrders = CallCounter()
        let unexpectedErrors = CallCounter()
        // Phase 1: resolvers run while one task registers other keys, then finishes registration.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<lateCount {
                    container.register((any ConcurrencyPlugin).self, name: "plugin-\(index)") { _ in
                        ConcurrencyPluginImpl(id: "plugin-\(index)")
                    }
                }
                try container.finishRegistration()
            }
            for index in 0..<Self.taskCount {
                group.addTask {
                    arrivals.arrive()
                    for _ in 0..<3 {
                        singletons.record(try container.resolve(ConcurrencySingleton.self))
                        _ = try container.resolve(ConcurrencyTransient.self)
                    }
                    // A key being registered right now: either there or missing, nothing else.
                    do {
                        let plugin = try container.resolve(
                            (any ConcurrencyPlugin).self,
                            name: "plugin-\(index % lateCount)"
                        )
                        if plugin.id != "plugin-\(index % lateCount)" { unexpectedErrors.next() }
                    } catch let error as InjectionError where error.code == .missingRegistration {
                        // registered later than this resolve
                    } catch {
                        unexpectedErrors.next()
                    }
                    // Whatever part of the registrations is visible is a prefix, in registration order.
                    let ids = try container.resolveAll((any ConcurrencyPlugin).self).map(\.id)
                    if ids != (0..<ids.count).map({ "plugin-\($0)" }) { badOrders.next() }
                }
            }
            try await group.waitForAll()
        }

        #expect(container.isRegistrationFinished)
        #expect(unexpectedErrors.count == 0)
        #expect(badOrders.count == 0)

        // Phase 2: after finishRegistration(), every key resolves from many tasks at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<Self.taskCount {
                group.addTask {
                    singletons.record(try container.resolve(ConcurrencySingleton.self))
                    let name = "plugin-\(index % lateCount)"
                    let plugin = try container.resolve((any ConcurrencyPlugin).self, name: name)
                    if plugin.id != name { unexpectedErrors.next() }
                    let ids = try container.resolveAll((any ConcurrencyPlugin).self).map(\.id)
                    if ids != (0..<lateCount).map({ "plugin-\($0)" }) { badOrders.next() }
                }
            }
            try await group.waitForAll()
        }

        #expect(unexpectedErrors.count == 0)
        #expect(badOrders.count == 0)
        #expect(singletonCalls.count == 1)
        #expect(singletons.mismatchCount == 0)
        #expect(singletons.recordCount == 4 * Self.taskCount)
        #expect(singletons.isFirst(try container.resolve(ConcurrencySingleton.self)))
    }

    @Test func resolutionsStayIndependentAcrossFailuresAndNestedTopLevelResolvesOnManyTasks() async throws {
        let container = Container()
        container.register(ConcurrencyGraphLeaf.self, scope: .graph) { _ in ConcurrencyGraphLeaf() }
        container.register(ConcurrencyInner.self) { r in
            try ConcurrencyInner(leaf: r.resolve(ConcurrencyGraphLeaf.self))
        }
        // A factory that also makes a separate top-level resolve through the container (its own graph).
        container.register(ConcurrencyOuter.self) { [unowned container] r in
            let leaf = try r.resolve(ConcurrencyGraphLeaf.self)
            let inner = try container.resolve(ConcurrencyInner.self)
            return try ConcurrencyOuter(leaf: leaf, leafAgain: r.resolve(ConcurrencyGraphLeaf.self), inner: inner)
        }
        container.register(ConcurrencyNeedsMissing.self) { r in
            _ = try r.resolve(ConcurrencyMissing.self)
            return ConcurrencyNeedsMissing()
        }
        container.register(ConcurrencyCycleA.self) { r in
            _ = try r.resolve(ConcurrencyCycleB.self)
            return ConcurrencyCycleA()
        }
        container.register(ConcurrencyCycleB.self) { r in
            _ = try r.resolve(ConcurrencyCycleA.self)
            return ConcurrencyCycleB()
        }
        container.register(ConcurrencySingleton.self) { _ in throw ConcurrencyFactoryError() }
        try container.finishRegistration()

        let needsMissing = ServiceKey(ConcurrencyNeedsMissing.self, name: nil)
        let missing = ServiceKey(ConcurrencyMissing.self, name: nil)
        let cycleA = ServiceKey(ConcurrencyCycleA.self, name: nil)
        let cycleB = ServiceKey(ConcurrencyCycleB.self, name: nil)
        let failing = ServiceKey(ConcurrencySingleton.self, name: nil)
        let wrong = CallCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.taskCount {
                group.addTask {
                    for _ in 0..<3 {
                        let outer = try container.resolve(ConcurrencyOuter.self)
                        if outer.leaf !== outer.leafAgain || outer.leaf === outer.inner.leaf { wrong.next() }

                        do {
                            _ = try container.resolve(ConcurrencyNeedsMissing.self)
                            wrong.next()
                        } catch let error as InjectionError {
                            if error.code != .missingRegistration || error.resolutionPath != [needsMissing, missing] {
                                wrong.next()
                            }
                        }
                        do {
                            _ = try container.resolve(ConcurrencyCycleA.self)
                            wrong.next()
                        } catch let error as InjectionError {
                            if error.code != .circularDependency || error.resolutionPath != [cycleA, cycleB, cycleA]
                                || !error.message.contains(
                                    "ConcurrencyCycleA -> ConcurrencyCycleB -> ConcurrencyCycleA"
                                )
                            {
                                wrong.next()
                            }
                        }
                        do {
                            _ = try container.resolve(ConcurrencySingleton.self)
                            wrong.next()
                        } catch let error as InjectionError {
                            if error.code != .factoryFailed || error.resolutionPath != [failing]
                                || !(error.underlyingError is ConcurrencyFactoryError)
                            {
                                wrong.next()
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        #expect(wrong.count == 0)
    }

    // MARK: Weak

    @Test func weakScopeHammeredWhileHeldGivesEveryTaskTheHeldInstance() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ConcurrencyWeak.self, scope: .weak) { _ in ConcurrencyWeak(serial: calls.next()) }
        let keeper = try container.resolve(ConcurrencyWeak.self)

        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<Self.taskCount {
                group.addTask { ObjectIdentifier(try container.resolve(ConcurrencyWeak.self)) }
            }
            var identities = Set<ObjectIdentifier>()
            for try await identity in group { identities.insert(identity) }
            return identities
        }

        #expect(identities == [ObjectIdentifier(keeper)])
        #expect(calls.count == 1)
    }

    @Test func weakScopeHammeredWithHoldersComingAndGoingStaysConsistent() async throws {
        for _ in 0..<3 {
            let container = Container()
            let calls = CallCounter()
            let inconsistent = CallCounter()
            let arrivals = ConcurrencyArrivals(total: Self.taskCount)
            container.register(ConcurrencyWeak.self, scope: .weak) { _ in
                let serial = calls.next()
                arrivals.holdOpen(patience: .microseconds(500))
                return ConcurrencyWeak(serial: serial)
            }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<Self.taskCount {
                    group.addTask {
                        arrivals.arrive()
                        // While this task holds an instance, nobody can get another one.
                        let held = try container.resolve(ConcurrencyWeak.self)
                        let again = try container.resolve(ConcurrencyWeak.self)
                        if held !== again || held.serial != again.serial { inconsistent.next() }
                        if held.serial < 1 || held.serial > calls.count { inconsistent.next() }
                    }
                }
                try await group.waitForAll()
            }

            #expect(inconsistent.count == 0)
            #expect(calls.count >= 1)
            #expect(calls.count <= Self.taskCount)
            // Nobody holds it any more: the next resolve makes a new one, then shares it.
            let fresh = try container.resolve(ConcurrencyWeak.self)
            #expect(fresh.serial == calls.count)
            #expect(try container.resolve(ConcurrencyWeak.self) === fresh)
        }
    }

    @Test func weakScopeHammeredByThreadsStaysConsistent() throws {
        let container = Container()
        let calls = CallCounter()
        let inconsistent = CallCounter()
        let failures = CallCounter()
        container.register(ConcurrencyWeak.self, scope: .weak) { _ in ConcurrencyWeak(serial: calls.next()) }

        DispatchQueue.concurrentPerform(iterations: Self.taskCount) { _ in
            do {
                let held = try container.resolve(ConcurrencyWeak.self)
                for _ in 0..<3 {
                    if try container.resolve(ConcurrencyWeak.self) !== held { inconsistent.next() }
                }
            } catch {
                failures.next()
            }
        }

        #expect(failures.count == 0)
        #expect(inconsistent.count == 0)
        #expect(calls.count >= 1 && calls.count <= Self.taskCount)
    }

    // MARK: Child containers

    @Test func childContainersMadeAndUsedFromManyTasksShareOnlyTheParentsSingletons() async throws {
        let parent = Container()
        let storeCalls = CallCounter()
        let ownCalls = CallCounter()
        let arrivals = ConcurrencyArrivals(total: Self.taskCount)
        parent.register((any ConcurrencyClock).self) { _ in ConcurrencyClockImpl("parent") }
        parent.register(ConcurrencyStore.self, scope: .singleton) { r in
            storeCalls.next()
            arrivals.holdOpen()
            return try ConcurrencyStore(clock: r.resolve((any ConcurrencyClock).self))
        }
        // A transient of the parent: resolved through a child, it sees the child's clock.
        parent.register(ConcurrencyStore.self, name: "transient") { r in
            try ConcurrencyStore(clock: r.resolve((any ConcurrencyClock).self))
        }
        try parent.finishRegistration()

        let stores = ConcurrencySameIdentity()
        let wrongClocks = CallCounter()
        let owns = try await withThrowingTaskGroup(of: ConcurrencyChildOwn.self) { group in
            for index in 0..<Self.taskCount {
                group.addTask {
                    let child = parent.makeChild()
                    let label = "child-\(index)"
                    child.register((any ConcurrencyClock).self) { _ in ConcurrencyClockImpl(label) }
                    child.register(ConcurrencyChildOwn.self, scope: .singleton) { _ in
                        ownCalls.next()
                        return ConcurrencyChildOwn()
                    }
                    if index.isMultiple(of: 2) { try child.finishRegistration() }

                    arrivals.arrive()
                    let store = try child.resolve(ConcurrencyStore.self)
                    stores.record(store)
                    if store.clock.label != "parent" { wrongClocks.next() }
                    if try child.resolve(ConcurrencyStore.self, name: "transient").clock.label != label {
                        wrongClocks.next()
                    }
                    if try child.makeChild().resolve(ConcurrencyStore.self, name: "transient").clock.label != label {
                        wrongClocks.next()
                    }
                    let own = try child.resolve(ConcurrencyChildOwn.self)
                    if try child.resolve(ConcurrencyChildOwn.self) !== own { wrongClocks.next() }
                    return own
                }
            }
            var owns: [ConcurrencyChildOwn] = []
            for try await own in group { owns.append(own) }
            return owns
        }

        #expect(wrongClocks.count == 0)
        #expect(storeCalls.count == 1)
        #expect(stores.mismatchCount == 0)
        #expect(stores.isFirst(try parent.resolve(ConcurrencyStore.self)))
        #expect(ownCalls.count == Self.taskCount)
        #expect(Set(owns.map(ObjectIdentifier.init)).count == Self.taskCount)
    }

    @Test func childsColdSingletonIsBuiltOnceWhenItsGrandchildrenRaceForIt() async throws {
        let parent = Container()
        let child = parent.makeChild()
        let calls = CallCounter()
        let arrivals = ConcurrencyArrivals(total: Self.taskCount)
        child.register(ConcurrencySingleton.self, scope: .singleton) { _ in
            let serial = calls.next()
            arrivals.holdOpen()
            return ConcurrencySingleton(serial: serial)
        }

        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<Self.taskCount {
                group.addTask {
                    let asker = index.isMultiple(of: 4) ? child : child.makeChild()
                    arrivals.arrive()
                    return ObjectIdentifier(try asker.resolve(ConcurrencySingleton.self))
                }
            }
            var identities = Set<ObjectIdentifier>()
            for try await identity in group { identities.insert(identity) }
            return identities
        }

        #expect(calls.count == 1)
        #expect(identities == [ObjectIdentifier(try child.resolve(ConcurrencySingleton.self))])
        #expect((try? parent.resolve(ConcurrencySingleton.self)) == nil)
    }
}
