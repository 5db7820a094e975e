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

// Adversarial tests of the per-instance gates (`InstanceGates`, sync and async,
// family sharing `ConstructionGates`), written by trying to break them. The regressions failed
// (hung, or handed out a second instance, or reported a wait that would have ended) before the
// fixes they pin; the attacks held up from the start. Every test
// is bounded by a watchdog: a hang fails the test, never the run (hung tasks are left suspended,
// and hold gates only of their own test's container).

// MARK: - Test doubles (private to this file)

private final class BkA: Sendable {}
private final class BkB: Sendable {}
private final class BkC: Sendable {}
private final class BkD: Sendable {}
private final class BkRoot: Sendable {}
private final class BkChild: Sendable {}
private final class BkOther: Sendable {}
private final class BkCounted: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class BkHolder: Sendable {
    let held: BkCounted
    init(_ held: BkCounted) { self.held = held }
}
private struct BkBoom: Error {}
/// A disposable singleton that logs its disposal.
private final class BkLogged: Tracked, @unchecked Sendable {}
/// A transient with an `onResolved` hook (see `registerHooked`).
private final class BkHooked: Sendable {}
/// Each asked for by one test alone, which looks for the waits that ask for it among every test's
/// (see `asyncWaits(for:)`).
private final class BkTwiceHeld: Sendable {}
private final class BkOthersHeld: Sendable {}
private final class BkAskedEveryWay: Sendable {}
private final class BkAskedUnderOverrides: Sendable {}
private final class BkAskedPerScope: Sendable {}
private final class BkAwaited: Sendable {}
private final class BkAwaitedInTheFamily: Sendable {}
private final class BkAwaitedHalfway: Sendable {}

private final class Identities: @unchecked Sendable {  // `items` only under `lock`
    private let lock = NSLock()
    private var items: [AnyObject] = []
    func add(_ object: AnyObject) { lock.withLock { items.append(object) } }
    var distinct: Int { lock.withLock { Set(items.map(ObjectIdentifier.init)).count } }
    var count: Int { lock.withLock { items.count } }
}

/// How many resolutions now wait at an async gate (an instance's or a family's) asking for `type`:
/// for a test to act only once another task waits, rather than after a guessed time.
private func asyncWaits(for type: Any.Type) -> Int {
    InstanceGates.waits().filter { $0.serviceType == type }.count
}

/// Holds an async factory until `others` resolutions wait asking for `type` (at most 30 s),
/// counting in `raced` when they did: the race the test is about then surely happened.
private func heldUntil(_ others: Int, waitFor type: Any.Type, raced: CallCounter) async {
    if await awaitedUntil({ asyncWaits(for: type) == others }) { raced.next() }
}

// MARK: - Regressions

@Suite("Shared construction races: regressions")
struct SharedConstructionRaceRegressionTests {
    /// Regression (hang, guarantee 3). A child task of an async factory (`async let` through the
    /// captured container) takes the gate of singleton `B` that its parent resolution holds while
    /// building `B`, and then waits in the family's `ConstructionGates` for the parent to finish
    /// building it. That wait is not recorded in `InstanceGates`. Meanwhile `B`'s factory (in
    /// the parent) asks for singleton `A`, whose gate the child holds (built, unpublished): the
    /// parent's cycle search from the child finds no wait of the child, so the parent suspends,
    /// and both wait for ever. The dependency graph is acyclic (Root -> Child -> A, B; Root -> B ->
    /// A). Expected: `circularWait` naming both paths (or success); it hung.
    @Test func familyWaitInConstructionGatesIsInvisibleToCycleSearch() async throws {
        let container = Container()
        let childHoldsA = Signal()
        let parentBuildsB = Signal()
        container.register(BkA.self, scope: .singleton) { _ async in BkA() }
        container.register(BkB.self, scope: .singleton) { r async throws in
            parentBuildsB.signal()
            _ = await awaited(childHoldsA)
            _ = try await r.resolveAsync(BkA.self)
            return BkB()
        }
        container.register(BkChild.self) { r async throws in
            _ = try await r.resolveAsync(BkA.self)
            childHoldsA.signal()
            _ = await awaited(parentBuildsB)
            _ = try await r.resolveAsync(BkB.self)
            return BkChild()
        }
        container.register(BkRoot.self) { r async throws in
            async let child = container.resolveAsync(BkChild.self)
            _ = try await r.resolveAsync(BkB.self)
            _ = try await child
            return BkRoot()
        }
        let result: ResolveOutcome? = await withWatchdog {
            await outcome { try await container.resolveAsync(BkRoot.self) }
        }
        // Any outcome but a hang would do; a circularWait is what the docs promise.
        let finished = try #require(result, "the resolution hung: the family wait is not seen as part of a cycle")
        if case .failure(let error) = finished {
            #expect(error.code == .circularWait, "\(error)")
            #expect(error.message.contains(" would wait forever: this resolution ("), "\(error)")
            #expect(error.message.contains(" Fix: let one of them resolve the other's service first"), "\(error)")
        }
    }

    /// Regression (hang, guarantee 3). A gate held by a resolution and by a child resolution within it
    /// (holders [parent, child]): a third resolution U, building singleton `B` (holding its gate:
    /// `B`'s factory has not returned), waits at it. Then the parent asks for `B`: its cycle search
    /// follows U's wait to the gate's *last* holder (the child, which waits for nothing) and finds
    /// no cycle, so the parent suspends. When the child ends, the gate is still the parent's: U
    /// waits for the parent, the parent for U, for ever. `InstanceGates`' cycle search
    /// followed only `holders[gate].last` then, and nothing searched again when a holder left.
    /// Expected: `circularWait`; it hung. (U waits within `B`'s factory: a `B` that U had finished
    /// building would be published at once, and the parent would not wait for it.)
    ///
    /// The parent's first try at `A` fails: it keeps `A`'s gate until it ends, and its family has
    /// no `A` to share, so the child builds `A` within the parent's hold and keeps the gate too (a
    /// child that found `A` built by its parent would let the gate go at once). The parent asks for
    /// `B` only once U waits at `A`, and the child ends only once the parent waits at `B` (the bug)
    /// or is cancelled (the parent's resolve failed): the test takes that path however the tasks
    /// are scheduled.
    @Test func cycleThroughAGateWithSeveralHoldersIsMissed() async throws {
        let container = Container()
        let childHolds = Signal()
        let otherHolds = Signal()
        let calls = CallCounter()
        let seen = EventLog()
        container.register(BkTwiceHeld.self, scope: .singleton) { _ async throws in
            guard calls.next() > 1 else { throw BkBoom() }
            return BkTwiceHeld()
        }
        container.register(BkOthersHeld.self, scope: .singleton) { r async throws in
            otherHolds.signal()
            _ = try await r.resolveAsync(BkTwiceHeld.self)  // waits: the parent and the child hold A
            return BkOthersHeld()
        }
        container.register(BkChild.self) { r async throws in
            _ = try await r.resolveAsync(BkTwiceHeld.self)  // built within the parent: holders [parent, child]
            seen.record("the child built BkTwiceHeld #\(calls.count)")
            childHolds.signal()
            // Ends after the parent waits for B, or once the parent's resolve fails.
            _ = await awaitedUntil { Task.isCancelled || asyncWaits(for: BkOthersHeld.self) > 0 }
            return BkChild()
        }
        container.register(BkOther.self) { r async throws in
            _ = await awaited(childHolds)
            _ = try await r.resolveAsync(BkOthersHeld.self)
            return BkOther()
        }
        container.register(BkRoot.self) { r async throws in
            _ = try? await r.resolveAsync(BkTwiceHeld.self)  // fails, and keeps A's gate
            async let child = container.resolveAsync(BkChild.self)
            _ = await awaited(otherHolds)
            if await awaitedUntil({ asyncWaits(for: BkTwiceHeld.self) == 1 }) {
                seen.record("the other waits at BkTwiceHeld")
            }
            _ = try await r.resolveAsync(BkOthersHeld.self)
            _ = try await child
            return BkRoot()
        }
        let results: [ResolveOutcome]? = await withWatchdog {
            let other = Task.detached { await outcome { try await container.resolveAsync(BkOther.self) } }
            let root = Task.detached { await outcome { try await container.resolveAsync(BkRoot.self) } }
            return [await root.value, await other.value]
        }
        let all = try #require(results, "the two resolutions hung waiting for each other")
        #expect(seen.events == ["the child built BkTwiceHeld #2", "the other waits at BkTwiceHeld"])
        let errors = failures(all)
        #expect(errors.map(\.code) == [.circularWait], "\(all)")
        #expect(
            errors.first?.message
                == "Resolving BkOthersHeld would wait forever: this resolution (BkRoot -> BkOthersHeld) needs the"
                + " BkOthersHeld that another task's resolution is building, and that one (BkOther -> BkOthersHeld"
                + " -> BkTwiceHeld) waits for the BkTwiceHeld that this resolution is building. Each holds a shared instance it has"
                + " not finished while it waits for the other's, so neither can go on; this one stops instead of"
                + " waiting, and releases what it holds. Fix: let one of them resolve the other's service first, or"
                + " before starting the other task's work, or ask for it later through Lazy<T> or"
                + " ServiceProvider<T>."
        )
        #expect(all.count == 2 && (try? all[1].get()) == "BkOther", "\(all)")
    }

    /// Regression (false circularWait, guarantee 4). The parent resolution has already built singleton
    /// `S` (unpublished). Two child resolutions (`async let`, captured container) each ask for it:
    /// the first takes `S`'s gate within the parent and keeps it until its whole resolution ends,
    /// though it built nothing there; so the second, holding singleton `X` that the first then
    /// needs, waits for the first at `S`'s gate, and one of them gets `circularWait`. Nothing in
    /// the program waits in a cycle: `S` is built, and the first child could simply wait for the
    /// second to publish `X`. Expected: both succeed; it got `circularWait` every run.
    @Test func siblingsSharingAParentsInstanceGetFalseCircularWait() async throws {
        let container = Container()
        let firstHasS = Signal()
        let secondHoldsX = Signal()
        container.register(BkA.self, scope: .singleton) { _ async in BkA() }  // S
        container.register(BkB.self, scope: .singleton) { _ async in BkB() }  // X
        container.register(BkChild.self) { r async throws in
            _ = try await r.resolveAsync(BkA.self)
            firstHasS.signal()
            _ = await awaited(secondHoldsX)
            _ = try await r.resolveAsync(BkB.self)
            return BkChild()
        }
        container.register(BkOther.self) { r async throws in
            _ = try await r.resolveAsync(BkB.self)
            secondHoldsX.signal()
            _ = await awaited(firstHasS)
            _ = try await r.resolveAsync(BkA.self)
            return BkOther()
        }
        container.register(BkRoot.self) { r async throws in
            _ = try await r.resolveAsync(BkA.self)
            async let first = outcome { try await container.resolveAsync(BkChild.self) }
            async let second = outcome { try await container.resolveAsync(BkOther.self) }
            let all = await [first, second]
            if let error = failures(all).first { throw error }
            return BkRoot()
        }
        let result: ResolveOutcome? = await withWatchdog {
            await outcome { try await container.resolveAsync(BkRoot.self) }
        }
        let finished = try #require(result)
        #expect(failures([finished]).isEmpty, "\(failures([finished]).map(\.message))")
    }

    /// Regression (exactly-once / failure halfway, guarantees 1 and 6). An async factory builds a
    /// singleton and then throws; the caller's factory catches that and asks for the singleton
    /// again. The singleton has an `onResolved` hook, which runs when the resolution completes: its
    /// construction is not complete when the factory throws, so it is discarded with it. (One
    /// without hooks is published as soon as it is built, and stays: see
    /// `aFinishedSingletonBuiltByAConstructionThatFailsStaysPublishedAndIsDisposedOnce`.) The
    /// discarded construction's instance stays in the family's `ConstructionGates` (`built`), so
    /// the second ask gets that discarded instance, and nothing publishes it: the root keeps
    /// instance #1, the container builds #2 on the next resolve. The sync path (control test
    /// below) builds it again and publishes that one. Expected: `root.held === published`; it got
    /// two different "singletons", the factory run twice.
    @Test func discardedAsyncSingletonIsHandedOutAgainUnpublished() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(BkCounted.self, scope: .singleton) { _ async in BkCounted(serial: calls.next()) }
            .onResolved { _, _ in }
        container.register(BkChild.self) { r async throws in
            _ = try await r.resolveAsync(BkCounted.self)
            throw BkBoom()
        }
        container.register(BkHolder.self) { r async throws in
            do { _ = try await r.resolveAsync(BkChild.self) } catch {}
            return BkHolder(try await r.resolveAsync(BkCounted.self))
        }
        let result: (BkHolder, BkCounted)?? = await withWatchdog { () -> (BkHolder, BkCounted)? in
            guard let holder = try? await container.resolveAsync(BkHolder.self),
                let published = try? await container.resolveAsync(BkCounted.self)
            else { return nil }
            return (holder, published)
        }
        let (holder, published) = try #require(result ?? nil)
        #expect(
            holder.held === published,
            "root holds #\(holder.held.serial), the container publishes #\(published.serial)"
        )
        #expect(calls.count == 2)  // the discarded one, and the one kept
    }

    /// Regression (exactly-once, guarantees 1 and 6), same cause as above, between sibling child
    /// resolutions of one factory: the first child builds singleton `S` and fails; the second
    /// builds singleton `BkHolder` around `S` and gets the discarded `S` #1 from the family's
    /// `ConstructionGates`. `BkHolder` is published holding #1; the container's `S` is #2.
    @Test func siblingGetsDiscardedAsyncSingletonAndPublishesIt() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(BkCounted.self, scope: .singleton) { _ async in BkCounted(serial: calls.next()) }
        container.register(BkChild.self) { r async throws in
            _ = try await r.resolveAsync(BkCounted.self)
            throw BkBoom()
        }
        container.register(BkHolder.self, scope: .singleton) { r async throws in
            BkHolder(try await r.resolveAsync(BkCounted.self))
        }
        container.register(BkRoot.self) { _ async throws in
            _ = try? await container.resolveAsync(BkChild.self)  // a resolution of its own, within this one
            _ = try await container.resolveAsync(BkHolder.self)
            return BkRoot()
        }
        let result: (BkHolder, BkCounted)?? = await withWatchdog { () -> (BkHolder, BkCounted)? in
            guard (try? await container.resolveAsync(BkRoot.self)) != nil,
                let holder = try? await container.resolveAsync(BkHolder.self),
                let published = try? await container.resolveAsync(BkCounted.self)
            else { return nil }
            return (holder, published)
        }
        let (holder, published) = try #require(result ?? nil)
        #expect(
            holder.held === published,
            "published BkHolder holds #\(holder.held.serial), the container's singleton is #\(published.serial)"
        )
    }

    /// Regression (older than the gates): a resolution nested in a factory (captured container)
    /// builds singleton `BkHolder` around the outer resolution's unpublished singleton `S` #1 (its
    /// `onResolved` hook runs when the outer resolution completes: until then its construction is
    /// not complete) and publishes it when it completes; the outer resolution then fails, so #1 is
    /// dropped and `S` is built again (#2). A published singleton holds a "singleton" the container
    /// never published.
    @Test func nestedResolutionPublishesAroundAnInstanceTheOuterOneDiscards() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(BkCounted.self, scope: .singleton) { _ in BkCounted(serial: calls.next()) }
            .onResolved { _, _ in }
        container.register(BkHolder.self, scope: .singleton) { r in BkHolder(try r.resolve(BkCounted.self)) }
        container.register(BkRoot.self) { r in
            _ = try r.resolve(BkCounted.self)
            _ = try container.resolve(BkHolder.self)
            throw BkBoom()
        }
        let error = injectionError { try container.resolve(BkRoot.self) }
        #expect(error?.code == .factoryFailed)
        #expect(
            error?.message
                == "The factory of BkRoot threw: BkBoom(). The error is the underlyingError; fix the factory or what"
                + " it depends on."
        )
        let holder = try container.resolve(BkHolder.self)
        let published = try container.resolve(BkCounted.self)
        #expect(
            holder.held === published,
            "published BkHolder holds #\(holder.held.serial), the container's singleton is #\(published.serial)"
        )
        #expect(calls.count == 2)  // #1 dropped with the failed resolve, #2 built again
    }

    /// Control for `discardedAsyncSingletonIsHandedOutAgainUnpublished`, sync: the discarded
    /// singleton (its hook had not run) is built again, and the root holds the instance the
    /// container publishes.
    @Test func discardedSyncSingletonIsBuiltAgainAndPublished() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(BkCounted.self, scope: .singleton) { _ in BkCounted(serial: calls.next()) }
            .onResolved { _, _ in }
        container.register(BkChild.self) { r in
            _ = try r.resolve(BkCounted.self)
            throw BkBoom()
        }
        container.register(BkHolder.self) { r in
            do { _ = try r.resolve(BkChild.self) } catch {}
            return BkHolder(try r.resolve(BkCounted.self))
        }
        let holder = try container.resolve(BkHolder.self)
        #expect(holder.held === (try container.resolve(BkCounted.self)))
        #expect(calls.count == 2)
    }

    /// A singleton without hooks is complete, and published, when its factory returns: a
    /// construction around it that then fails, caught by the caller's factory, leaves it published,
    /// and the caller's second ask gets it, sync or async. Its factory runs once; shutting the
    /// container down disposes it once.
    @Test func aFinishedSingletonBuiltByAConstructionThatFailsStaysPublishedAndIsDisposedOnce() async throws {
        let container = Container()
        let (calls, log, seen) = (CallCounter(), EventLog(), Identities())
        container.register(BkLogged.self, scope: .singleton) { _ in
            calls.next()
            return BkLogged(log)
        }
        container.register(BkLogged.self, name: "async", scope: .singleton) { _ async in
            calls.next()
            return BkLogged(log)
        }
        container.register(BkChild.self) { r in
            _ = try r.resolve(BkLogged.self)
            throw BkBoom()
        }
        container.register(BkChild.self, name: "async") { r async throws in
            _ = try await r.resolveAsync(BkLogged.self, name: "async")
            throw BkBoom()
        }
        container.register(BkRoot.self) { r in
            let error = injectionError { try r.resolve(BkChild.self) }
            #expect(error?.code == .factoryFailed)
            #expect(
                error?.message
                    == "The factory of BkChild threw: BkBoom(). Path: BkRoot -> BkChild. The error is the"
                    + " underlyingError; fix the factory or what it depends on."
            )
            seen.add(try r.resolve(BkLogged.self))
            return BkRoot()
        }
        container.register(BkRoot.self, name: "async") { r async throws in
            let error = await injectionErrorAsync { try await r.resolveAsync(BkChild.self, name: "async") }
            #expect(error?.code == .factoryFailed)
            #expect(
                error?.message
                    == "The factory of BkChild (name: \"async\") threw: BkBoom(). Path: BkRoot (name: \"async\") ->"
                    + " BkChild (name: \"async\"). The error is the underlyingError; fix the factory or what it"
                    + " depends on."
            )
            seen.add(try await r.resolveAsync(BkLogged.self, name: "async"))
            return BkRoot()
        }

        _ = try container.resolve(BkRoot.self)
        _ = try await container.resolveAsync(BkRoot.self, name: "async")

        seen.add(try container.resolve(BkLogged.self))
        seen.add(try await container.resolveAsync(BkLogged.self, name: "async"))
        #expect(seen.distinct == 2 && seen.count == 4)
        #expect(calls.count == 2)
        try await container.shutdownAsync()
        #expect(log.events == ["BkLogged", "BkLogged"])
    }

    /// A documented limit, sync: a registration with hooks takes its realm's gate before its own,
    /// so the order of gates can invert: thread 1 builds singleton `A` (no hooks), whose factory
    /// needs `B` (hooked: the realm's gate, then B's); thread 2 builds `C` (hooked: holds the
    /// realm's gate) whose factory needs `A`. Both would wait forever; one gets `circularWait`
    /// saying that it waits for the turn to build a hooked registration, and what to do, and the
    /// other succeeds. (A single tree lock made them take turns, and blocked every unrelated
    /// construction meanwhile.) The semaphores make the interleaving certain.
    @Test func hookedRegistrationsBuiltInTurnReportAnInvertedWait() async throws {
        let container = Container()
        let aHeld = DispatchSemaphore(value: 0)
        let realmHeld = DispatchSemaphore(value: 0)
        // Only the first run of each factory meets the other: the one that fails is built again at
        // the end, alone.
        let (aRuns, cRuns) = (CallCounter(), CallCounter())
        container.register(BkA.self, scope: .singleton) { r in
            if aRuns.next() == 1 {
                aHeld.signal()
                _ = waited(for: realmHeld)
            }
            _ = try r.resolve(BkB.self)
            return BkA()
        }
        container.register(BkB.self, scope: .singleton) { _ in BkB() }
            .onResolved { _, _ in }
        container.register(BkC.self, scope: .singleton) { r in
            if cRuns.next() == 1 {
                realmHeld.signal()
                _ = waited(for: aHeld)
            }
            _ = try r.resolve(BkA.self)
            return BkC()
        }
        .onResolved { _, _ in }
        let collected = Outcomes()
        let ended = await onThreads([
            { collected.add(syncOutcome { try container.resolve(BkA.self) }) },
            { collected.add(syncOutcome { try container.resolve(BkC.self) }) },
        ])
        #expect(ended)
        Self.expectOneInvertedWaitReported(collected.all)
        _ = try container.resolve(BkA.self)
        _ = try container.resolve(BkC.self)
    }

    /// The same documented limit, async: the inversion through the async realm gate.
    @Test func asyncHookedRegistrationsBuiltInTurnReportAnInvertedWait() async throws {
        let container = Container()
        let aHeld = Signal()
        let realmHeld = Signal()
        container.register(BkA.self, scope: .singleton) { r async throws in
            aHeld.signal()
            _ = await awaited(realmHeld)
            _ = try await r.resolveAsync(BkB.self)
            return BkA()
        }
        container.register(BkB.self, scope: .singleton) { _ async in BkB() }
            .onResolved { _, _ in }
        container.register(BkC.self, scope: .singleton) { r async throws in
            realmHeld.signal()
            _ = await awaited(aHeld)
            _ = try await r.resolveAsync(BkA.self)
            return BkC()
        }
        .onResolved { _, _ in }
        let results: [ResolveOutcome]? = await withWatchdog {
            let a = Task.detached { await outcome { try await container.resolveAsync(BkA.self) } }
            let c = Task.detached { await outcome { try await container.resolveAsync(BkC.self) } }
            return [await a.value, await c.value]
        }
        let all = try #require(results)
        Self.expectOneInvertedWaitReported(all)
        _ = try await container.resolveAsync(BkA.self)
        _ = try await container.resolveAsync(BkC.self)
    }

    /// One of the two resolutions failed with `circularWait` naming the turn of hooked
    /// registrations and the way out; the other succeeded.
    private static func expectOneInvertedWaitReported(_ outcomes: [ResolveOutcome]) {
        let errors = failures(outcomes)
        #expect(errors.count == 1, "\(outcomes)")
        guard let error = errors.first else { return }
        #expect(error.code == .circularWait)
        #expect(error.message.contains("the turn to build BkB (a registration with onResolved or verify steps"))
        #expect(error.message.contains("resolve the services with onResolved or verify steps once at start-up."))
    }
}

// MARK: - Attacks that held up

@Suite("Shared construction races: attacks that held up")
struct SharedConstructionRaceAttackTests {
    /// One cold async singleton asked for at once in every way: top-level tasks, `Task.detached`,
    /// a lifetime scope, a child container, and from inside an async factory through its resolver,
    /// `async let`, a task group and an awaited `Task {}` (captured container). Its factory runs
    /// once and everyone gets the one instance. The factory goes on only once the 31 other first
    /// asks (20 top-level ones, and the resolver's and two `async let`s' of each of the 4 factories)
    /// wait for it, at its gate or their family's; the task group's and the `Task`'s asks come once
    /// their factory's own returned, and find the instance published, or built by their family.
    @Test func asyncSingletonIsBuiltOnceHoweverItIsAsked() async throws {
        let raced = CallCounter()
        for _ in 0..<5 {
            let container = Container()
            let calls = CallCounter()
            container.register(BkAskedEveryWay.self, scope: .singleton) { _ async in
                // Only the first call holds: a second one (a bug) would wait in vain.
                if calls.next() == 1 { await heldUntil(31, waitFor: BkAskedEveryWay.self, raced: raced) }
                return BkAskedEveryWay()
            }
            let seen = Identities()
            container.register(BkRoot.self) { r async throws in
                async let a = container.resolveAsync(BkAskedEveryWay.self)
                async let b = container.resolveAsync(BkAskedEveryWay.self)
                seen.add(try await r.resolveAsync(BkAskedEveryWay.self))
                try await withThrowingTaskGroup(of: BkAskedEveryWay.self) { group in
                    for _ in 0..<3 { group.addTask { try await container.resolveAsync(BkAskedEveryWay.self) } }
                    for try await value in group { seen.add(value) }
                }
                seen.add(try await Task { try await container.resolveAsync(BkAskedEveryWay.self) }.value)
                seen.add(try await a)
                seen.add(try await b)
                return BkRoot()
            }
            let scope = container.makeScope()
            let child = container.makeChild()
            let ended: Bool? = await withWatchdog {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<24 {
                        group.addTask {
                            switch index % 6 {
                            case 0: _ = try? await container.resolveAsync(BkRoot.self)
                            case 1:
                                if let value = try? await Task.detached(operation: {
                                    try await container.resolveAsync(BkAskedEveryWay.self)
                                }).value {
                                    seen.add(value)
                                }
                            case 2:
                                if let value = try? await scope.resolveAsync(BkAskedEveryWay.self) { seen.add(value) }
                            case 3:
                                if let value = try? await child.resolveAsync(BkAskedEveryWay.self) { seen.add(value) }
                            default:
                                if let value = try? await container.resolveAsync(BkAskedEveryWay.self) {
                                    seen.add(value)
                                }
                            }
                        }
                    }
                }
                return true
            }
            #expect(ended == true)
            #expect(calls.count == 1)
            #expect(seen.distinct == 1)
            #expect(seen.count == 4 * 8 + 4 * 4)
            try await scope.closeAsync()
        }
        #expect(raced.count == 5)  // every time, the 32 first asks raced for the instance
    }

    /// Under test overrides a singleton goes to the overrides' store: tasks racing within one
    /// `withOverrides` still build it once there. The factory goes on only once the 15 other tasks
    /// wait at its gate.
    @Test func asyncSingletonUnderOverridesIsBuiltOnce() async throws {
        let container = Container()
        let calls = CallCounter()
        let raced = CallCounter()
        container.register(BkAskedUnderOverrides.self, scope: .singleton) { _ async in
            if calls.next() == 1 { await heldUntil(15, waitFor: BkAskedUnderOverrides.self, raced: raced) }
            return BkAskedUnderOverrides()
        }
        container.register(BkA.self) { _ in BkA() }
        let seen = Identities()
        let ended: Bool? = await withWatchdog {
            try? await container.withOverridesAsync {
                $0.register(BkA.self) { _ in BkA() }
            } operation: {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            if let value = try? await container.resolveAsync(BkAskedUnderOverrides.self) {
                                seen.add(value)
                            }
                        }
                    }
                }
            }
            return true
        }
        #expect(ended == true)
        #expect(calls.count == 1)
        #expect(seen.distinct == 1 && seen.count == 16)
        #expect(raced.count == 1)
    }

    /// Scoped async instances: once per scope under a race, two scopes in parallel. Each factory
    /// goes on only once the 9 other tasks of each scope wait at its scope's gate (both gates held
    /// at once), or once the other factory saw that.
    @Test func asyncScopedInstanceIsBuiltOncePerScope() async throws {
        let container = Container()
        let calls = CallCounter()
        let raced = CallCounter()
        container.register(BkAskedPerScope.self, scope: .scoped) { _ async in
            guard calls.next() <= 2 else { return BkAskedPerScope() }
            _ = await awaitedUntil {
                guard raced.count == 0 else { return true }
                guard asyncWaits(for: BkAskedPerScope.self) == 18 else { return false }
                raced.next()
                return true
            }
            return BkAskedPerScope()
        }
        let (first, second) = (container.makeScope(), container.makeScope())
        let seen = Identities()
        let ended: Bool? = await withWatchdog {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    let scope = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        if let value = try? await scope.resolveAsync(BkAskedPerScope.self) { seen.add(value) }
                    }
                }
            }
            return true
        }
        #expect(ended == true)
        #expect(calls.count == 2)
        #expect(seen.distinct == 2 && seen.count == 20)
        #expect(raced.count >= 1)
        try await first.closeAsync()
        try await second.closeAsync()
    }

    /// Sync: threads racing through the container, a scope, a child container and a captured
    /// container inside a transient factory build a singleton once. The factory goes on only once
    /// the 15 other threads wait at its gate.
    @Test func syncSingletonIsBuiltOnceHoweverItIsAsked() async throws {
        let container = Container()
        let calls = CallCounter()
        let raced = CallCounter()
        container.register(BkCounted.self, scope: .singleton) { _ in
            let serial = calls.next()
            let builder = InstanceGates.Owner.currentThread
            if serial == 1, waitedUntil({ InstanceGates.waits(forGatesHeldBy: builder).count == 15 }) { raced.next() }
            return BkCounted(serial: serial)
        }
        container.register(BkHolder.self) { _ in BkHolder(try container.resolve(BkCounted.self)) }
        let scope = container.makeScope()
        let child = container.makeChild()
        let seen = Identities()
        let bodies: [@Sendable () -> Void] = (0..<16).map { index in
            {
                switch index % 4 {
                case 0: if let value = try? container.resolve(BkCounted.self) { seen.add(value) }
                case 1: if let value = try? scope.resolve(BkCounted.self) { seen.add(value) }
                case 2: if let value = try? child.resolve(BkCounted.self) { seen.add(value) }
                default: if let value = try? container.resolve(BkHolder.self) { seen.add(value.held) }
                }
            }
        }
        #expect(await onThreads(bodies))
        #expect(calls.count == 1)
        #expect(seen.distinct == 1 && seen.count == 16)
        #expect(raced.count == 1)
        try await scope.closeAsync()
    }

    /// Three async resolutions in a ring, each holding one instance (a singleton, or a weak one)
    /// whose construction is not complete until its resolution completes (it holds a transient with
    /// a hook) and asking for the next one's: exactly one gets `circularWait`, the others finish,
    /// and all three resolve afterwards.
    @Test func threePartyAsyncCycleIsReported() async throws {
        let container = Container()
        let all = try await asyncRingOutcomes(in: container, holdingHookedTransients: true)
        #expect(failures(all).map(\.code) == [.circularWait], "\(all)")
        expectRingReported(failures(all))
        let again: Bool? = await withWatchdog {
            let a = try? await container.resolveAsync(BkA.self)
            let c = try? await container.resolveAsync(BkC.self)
            return a != nil && c != nil
        }
        #expect(again == true)
    }

    /// The same ring of instances whose construction is complete when their factory returns: each
    /// is published, and its gate released, as soon as it is built, so all three resolutions
    /// succeed.
    @Test func threePartyAsyncRingOfFinishedInstancesAllSucceed() async throws {
        let all = try await asyncRingOutcomes(in: Container(), holdingHookedTransients: false)
        #expect(failures(all).isEmpty, "\(all)")
        #expect(all.compactMap { try? $0.get() } == ["BkRoot", "BkRoot", "BkRoot"])
    }

    /// Three threads in a ring mixing a scope's instance and singletons, each holding a transient
    /// with a hook, so that its resolve publishes it, and releases its gate, only when it
    /// completes: one `circularWait`.
    @Test func threePartySyncCycleMixingScopeAndSingletonsIsReported() async throws {
        let container = Container()
        let scope = container.makeScope()
        let collected = try await syncRingOutcomes(in: container, scope: scope, holdingHookedTransients: true)
        #expect(failures(collected.all).map(\.code) == [.circularWait], "\(collected.all)")
        expectRingReported(failures(collected.all))
        let again = await onThreads([
            {
                _ = try? scope.resolve(BkA.self)
                _ = try? container.resolve(BkB.self)
            }
        ]
        )
        #expect(again)
        try await scope.closeAsync()
    }

    /// The same ring, the scope's instance holding a singleton its resolve built and the others
    /// nothing: each construction is complete when its factory returns (the singleton's too), so
    /// each instance is published, and its gate released, at once, and all three succeed.
    @Test func threePartySyncRingOfFinishedInstancesAllSucceed() async throws {
        let container = Container()
        let scope = container.makeScope()
        let collected = try await syncRingOutcomes(in: container, scope: scope, holdingHookedTransients: false)
        #expect(failures(collected.all).isEmpty, "\(collected.all)")
        #expect(collected.values == ["BkRoot", "BkRoot", "BkRoot"])
        try await scope.closeAsync()
    }

    /// Mixed: an async resolution whose sync part (sync singleton `C`, built in a nested sync
    /// resolution, which builds `A` and then asks for `B`) closes a wait cycle with a sync resolve
    /// on a thread (`D`, which builds `B` and then asks for `A`), `A` and `B` each holding a
    /// transient with a hook (their construction is complete only when their resolve completes):
    /// reported, no hang. The graph is acyclic (C -> A, B; D -> B, A).
    @Test func mixedSyncAndAsyncCycleIsReported() async throws {
        let collected = try await mixedCrossOutcomes(holdingHookedTransients: true)
        #expect(failures(collected).map(\.code) == [.circularWait], "\(collected)")
        // Either side may be the one that stops, so the message is checked for what both say.
        #expect(
            failures(collected).allSatisfy {
                $0.message.contains(" would wait forever: this resolution (")
                    && $0.message.contains(" Fix: let one of them resolve the other's service first")
            },
            "\(collected)"
        )
    }

    /// The same, `A` and `B` holding nothing: each is published, and its gate released, when its
    /// construction completes, or when the nested resolution that built it does: both succeed.
    @Test func mixedSyncAndAsyncCrossOfFinishedSingletonsSucceeds() async throws {
        let collected = try await mixedCrossOutcomes(holdingHookedTransients: false)
        #expect(failures(collected).isEmpty, "\(collected)")
        #expect(Set(collected.compactMap { try? $0.get() }) == ["BkRoot", "BkD"])
    }

    /// Waiters cancelled at an async gate stop at once; the builder goes on, builds once, and the
    /// gate is free afterwards. A waiter cancelled while it waits for its family (a `Task {}` of the
    /// parent's factory waiting for the parent's construction) stops too. Each waiter is cancelled only once
    /// it waits (a task cancelled before it comes to the gate stops too, but without waiting).
    @Test func cancelledWaitersLeaveGatesConsistent() async throws {
        let container = Container()
        let started = Signal()
        let release = Signal()
        let calls = CallCounter()
        let seen = EventLog()
        container.register(BkAwaited.self, scope: .singleton) { _ async in
            calls.next()
            started.signal()
            await release.wait()
            return BkAwaited()
        }
        let builder = Task { try await container.resolveAsync(BkAwaited.self) }
        #expect(await awaited(started))
        let waiters = (0..<6).map { _ in Task { try await container.resolveAsync(BkAwaited.self) } }
        if await awaitedUntil({ asyncWaits(for: BkAwaited.self) == 6 }) { seen.record("6 wait at the gate") }
        for waiter in waiters { waiter.cancel() }
        let outcomes: [ResolveOutcome]? = await withWatchdog {
            var outcomes: [ResolveOutcome] = []
            for waiter in waiters { outcomes.append(await outcome { try await waiter.value }) }
            return outcomes
        }
        let errors = failures(try #require(outcomes))
        #expect(errors.map(\.code) == Array(repeating: .resolutionCancelled, count: 6))
        #expect(
            errors.allSatisfy {
                $0.message
                    == "Resolving BkAwaited was cancelled: the task was cancelled, and another resolution is"
                    + " building its shared instance: a cancelled task does not wait for it. Nothing was built for"
                    + " this resolve; the instance is built once, by a task that is not cancelled. Fix: nothing, if"
                    + " the task was meant to stop; otherwise, do not cancel it while it resolves."
            },
            "\(errors.map(\.message))"
        )
        release.signal()
        let built = try await builder.value
        let again: Bool? = await withWatchdog {
            (try? await container.resolveAsync(BkAwaited.self)) === built
        }
        #expect(again == true)
        #expect(calls.count == 1)

        // In the family: the parent builds a singleton slowly; a child task asks for it (waiting
        // in the family's gates) and is cancelled once it waits there.
        let parentBuilds = Signal()
        let parentRelease = Signal()
        let familyCalls = CallCounter()
        container.register(BkAwaitedInTheFamily.self, scope: .singleton) { _ async in
            familyCalls.next()
            parentBuilds.signal()
            await parentRelease.wait()
            return BkAwaitedInTheFamily()
        }
        let childOutcome = Outcomes()
        let childDone = Signal()
        container.register(BkRoot.self) { r async throws in
            let child = Task {
                childOutcome.add(
                    await outcome {
                        _ = await awaited(parentBuilds)
                        // Waits in the family's gate.
                        return try await container.resolveAsync(BkAwaitedInTheFamily.self)
                    }
                )
                childDone.signal()
            }
            Task {
                _ = await awaited(parentBuilds)
                if await awaitedUntil({ asyncWaits(for: BkAwaitedInTheFamily.self) == 1 }) {
                    seen.record("the child waits in its family")
                }
                child.cancel()
            }
            _ = try await r.resolveAsync(BkAwaitedInTheFamily.self)
            await child.value
            return BkRoot()
        }
        let root = Task.detached { try await container.resolveAsync(BkRoot.self) }
        let stoppedEarly = await awaited(childDone)
        parentRelease.signal()
        let rootEnded: Bool? = await withWatchdog { (try? await root.value) != nil }
        #expect(stoppedEarly)
        #expect(rootEnded == true)
        #expect(seen.events == ["6 wait at the gate", "the child waits in its family"])
        let childErrors = failures(childOutcome.all)
        #expect(childErrors.map(\.code) == [.resolutionCancelled], "\(childOutcome.all)")
        #expect(
            childErrors.first?.message
                == "Resolving BkAwaitedInTheFamily was cancelled: the task was cancelled, and another resolution is"
                + " building its shared instance: a cancelled task does not wait for it. Nothing was built for this"
                + " resolve; the instance is built once, by a task that is not cancelled. Path: BkRoot -> BkAwaitedInTheFamily. Fix: nothing, if the task was meant to stop; otherwise, do"
                + " not cancel it while it resolves."
        )
        #expect(familyCalls.count == 1)
    }

    /// A factory that throws after building a nested singleton (held, unpublished: it holds a
    /// transient whose hook runs when the resolution completes, so its construction is not
    /// complete) while another task waits for that singleton: the waiter then builds it, and
    /// everything resolves again. The factory throws only once the waiter waits at the singleton's
    /// gate. The same, sync, for a nested singleton with a hook of its own (held behind its gate and
    /// its realm's until the resolve ends).
    @Test func failureHalfwayLeavesGatesFree() async throws {
        let container = Container()
        let innerBuilt = Signal()
        let fail = Guarded(true)
        let (innerCalls, syncInnerCalls) = (CallCounter(), CallCounter())
        let seen = EventLog()
        registerHooked(in: container, async: true)
        container.register(BkAwaitedHalfway.self, scope: .singleton) { r async throws in
            innerCalls.next()
            _ = try await r.resolveAsync(BkHooked.self)
            return BkAwaitedHalfway()
        }
        container.register(BkB.self, scope: .singleton) { r async throws in
            _ = try await r.resolveAsync(BkAwaitedHalfway.self)
            innerBuilt.signal()
            guard fail.current else { return BkB() }
            if await awaitedUntil({ asyncWaits(for: BkAwaitedHalfway.self) == 1 }) {
                seen.record("the waiter waits at the gate")
            }
            throw BkBoom()
        }
        container.register(BkC.self, scope: .singleton) { r in
            _ = try r.resolve(BkD.self)
            throw BkBoom()
        }
        container.register(BkD.self, scope: .singleton) { _ in
            syncInnerCalls.next()
            return BkD()
        }
        .onResolved { _, _ in }
        let results: [ResolveOutcome]? = await withWatchdog {
            let failing = Task.detached { await outcome { try await container.resolveAsync(BkB.self) } }
            _ = await awaited(innerBuilt)
            let waiter = Task.detached { await outcome { try await container.resolveAsync(BkAwaitedHalfway.self) } }
            let syncFailing = Task.detached { syncOutcome { try container.resolve(BkC.self) } }
            return [await failing.value, await waiter.value, await syncFailing.value]
        }
        let all = try #require(results)
        #expect(seen.events == ["the waiter waits at the gate"])
        let errors = failures(all)
        #expect(errors.map(\.code) == [.factoryFailed, .factoryFailed], "\(all)")
        #expect(
            errors.map(\.message) == [
                "The factory of BkB threw: BkBoom(). The error is the underlyingError; fix the factory or what it"
                    + " depends on.",
                "The factory of BkC threw: BkBoom(). The error is the underlyingError; fix the factory or what it"
                    + " depends on.",
            ]
        )
        #expect((try? all[1].get()) == "BkAwaitedHalfway", "\(all)")
        fail.set(false)
        let again: Bool? = await withWatchdog {
            (try? await container.resolveAsync(BkB.self)) != nil && (try? container.resolve(BkD.self)) != nil
        }
        #expect(again == true)
        #expect(innerCalls.count == 2)
        #expect(syncInnerCalls.count == 2)
    }

    /// Sibling child tasks of one factory building unrelated singletons run in parallel.
    @Test func unrelatedSiblingConstructionsRunInParallel() async throws {
        let container = Container()
        let (aStarted, bStarted) = (Signal(), Signal())
        let sawOther = CallCounter()
        container.register(BkA.self, scope: .singleton) { _ async in
            aStarted.signal()
            if await awaited(bStarted) { sawOther.next() }
            return BkA()
        }
        container.register(BkB.self, scope: .singleton) { _ async in
            bStarted.signal()
            if await awaited(aStarted) { sawOther.next() }
            return BkB()
        }
        container.register(BkRoot.self) { _ async throws in
            async let a = container.resolveAsync(BkA.self)
            async let b = container.resolveAsync(BkB.self)
            _ = try await (a, b)
            return BkRoot()
        }
        let ended: Bool? = await withWatchdog { (try? await container.resolveAsync(BkRoot.self)) != nil }
        #expect(ended == true)
        #expect(sawOther.count == 2)
    }
}

// MARK: - Rings of waits

/// Registers `BkHooked`, a transient with an `onResolved` hook, sync or async: whatever holds one
/// is not complete, nor published, until its resolution completes and the hook has run.
private func registerHooked(in container: Container, async: Bool) {
    if async {
        container.register(BkHooked.self) { _ async in BkHooked() }
            .onResolved { _, _ in }
    } else {
        container.register(BkHooked.self) { _ in BkHooked() }
            .onResolved { _, _ in }
    }
}

/// Checks the `circularWait` of a ring of three resolutions: exactly one, naming the three paths.
private func expectRingReported(_ errors: [InjectionError], sourceLocation: SourceLocation = #_sourceLocation) {
    guard errors.count == 1 else { return }
    let message = errors[0].message
    #expect(message.contains(" would wait forever: this resolution ("), "\(message)", sourceLocation: sourceLocation)
    #expect(
        message.components(separatedBy: ", and that one (").count == 3,
        "\(message)",
        sourceLocation: sourceLocation
    )
    #expect(
        message.contains(" Fix: let one of them resolve the other's service first"),
        "\(message)",
        sourceLocation: sourceLocation
    )
}

/// What three async resolutions in a ring came to: `a` builds singleton `BkA`, `b` weak `BkB`, `c`
/// singleton `BkC` (each holding a transient with a hook if `hooked`), and each then asks for the
/// next one's once the others hold theirs.
private func asyncRingOutcomes(
    in container: Container,
    holdingHookedTransients hooked: Bool
) async throws -> [ResolveOutcome] {
    let held = (Signal(), Signal(), Signal())
    registerHooked(in: container, async: true)
    container.register(BkA.self, scope: .singleton) { r async throws in
        if hooked { _ = try await r.resolveAsync(BkHooked.self) }
        return BkA()
    }
    container.register(BkB.self, scope: .weak) { r async throws in
        if hooked { _ = try await r.resolveAsync(BkHooked.self) }
        return BkB()
    }
    container.register(BkC.self, scope: .singleton) { r async throws in
        if hooked { _ = try await r.resolveAsync(BkHooked.self) }
        return BkC()
    }
    /// `BkRoot` named `name`: builds `Own`, says so, waits until the others hold theirs, then asks
    /// for `Next`.
    func registerRoot<Own: Sendable, Next: Sendable>(
        _ name: String,
        building own: Own.Type,
        then next: Next.Type,
        held: Signal,
        others: [Signal]
    ) {
        container.register(BkRoot.self, name: name) { r async throws in
            _ = try await r.resolveAsync(Own.self)
            held.signal()
            for other in others { _ = await awaited(other) }
            _ = try await r.resolveAsync(Next.self)
            return BkRoot()
        }
    }
    registerRoot("a", building: BkA.self, then: BkB.self, held: held.0, others: [held.1, held.2])
    registerRoot("b", building: BkB.self, then: BkC.self, held: held.1, others: [held.0, held.2])
    registerRoot("c", building: BkC.self, then: BkA.self, held: held.2, others: [held.0, held.1])
    let results: [ResolveOutcome]? = await withWatchdog {
        let tasks = ["a", "b", "c"].map { name in
            Task.detached { await outcome { try await container.resolveAsync(BkRoot.self, name: name) } }
        }
        var all: [ResolveOutcome] = []
        for task in tasks { all.append(await task.value) }
        return all
    }
    return try #require(results)
}

/// What three threads in a ring came to: `a` builds `scope`'s `BkA`, `b` singleton `BkB`, `c` weak
/// `BkC`, and each then asks for the next one's once the others hold theirs (`c` through the
/// captured scope). If `hooked`, each of the three holds a transient with a hook; otherwise `BkA`
/// holds a singleton, `BkD`, and the others nothing.
private func syncRingOutcomes(
    in container: Container,
    scope: LifetimeScope,
    holdingHookedTransients hooked: Bool
) async throws -> Outcomes {
    let held = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    registerHooked(in: container, async: false)
    container.register(BkD.self, scope: .singleton) { _ in BkD() }
    container.register(BkA.self, scope: .scoped) { r in
        if hooked { _ = try r.resolve(BkHooked.self) } else { _ = try r.resolve(BkD.self) }
        return BkA()
    }
    container.register(BkB.self, scope: .singleton) { r in
        if hooked { _ = try r.resolve(BkHooked.self) }
        return BkB()
    }
    container.register(BkC.self, scope: .weak) { r in
        if hooked { _ = try r.resolve(BkHooked.self) }
        return BkC()
    }
    /// `BkRoot` named `name`: builds `Own`, says so to both others, waits until they hold theirs,
    /// then asks for `Next` (through the captured scope if `throughTheScope`).
    func registerRoot<Own: Sendable, Next: Sendable>(
        _ name: String,
        building own: Own.Type,
        then next: Next.Type,
        throughTheScope: Bool = false,
        held: DispatchSemaphore,
        others: [DispatchSemaphore]
    ) {
        container.register(BkRoot.self, name: name) { r in
            _ = try r.resolve(Own.self)
            for _ in others { held.signal() }
            for other in others { _ = waited(for: other) }
            _ = try throughTheScope ? scope.resolve(Next.self) : r.resolve(Next.self)
            return BkRoot()
        }
    }
    registerRoot("a", building: BkA.self, then: BkB.self, held: held.0, others: [held.1, held.2])
    registerRoot("b", building: BkB.self, then: BkC.self, held: held.1, others: [held.0, held.2])
    // The scope's instance, through the captured scope.
    registerRoot(
        "c",
        building: BkC.self,
        then: BkA.self,
        throughTheScope: true,
        held: held.2,
        others: [held.0, held.1]
    )
    let collected = Outcomes()
    let ended = await onThreads([
        { collected.add(syncOutcome { try scope.resolve(BkRoot.self, name: "a") }) },
        { collected.add(syncOutcome { try container.resolve(BkRoot.self, name: "b") }) },
        { collected.add(syncOutcome { try container.resolve(BkRoot.self, name: "c") }) },
    ])
    try #require(ended)
    return collected
}

/// What an async resolution of `BkRoot` (whose sync singleton `BkC`, built in a nested sync
/// resolution, builds singleton `BkA` and then asks for singleton `BkB`) and a sync resolve of
/// singleton `BkD` on a thread (which builds `BkB` and then asks for `BkA`) came to, `BkA` and
/// `BkB` each holding a transient with a hook if `hooked`.
private func mixedCrossOutcomes(holdingHookedTransients hooked: Bool) async throws -> [ResolveOutcome] {
    let container = Container()
    let aHeld = DispatchSemaphore(value: 0)
    let bHeld = DispatchSemaphore(value: 0)
    // D's thread starts building only once C holds A: the async side needs a pool thread,
    // which a loaded machine (ThreadSanitizer, suites in parallel) may give it seconds late,
    // and a D that finished first would leave no cycle to report.
    let cHoldsA = DispatchSemaphore(value: 0)
    registerHooked(in: container, async: false)
    container.register(BkA.self, scope: .singleton) { r in
        if hooked { _ = try r.resolve(BkHooked.self) }
        return BkA()
    }
    container.register(BkB.self, scope: .singleton) { r in
        if hooked { _ = try r.resolve(BkHooked.self) }
        return BkB()
    }
    container.register(BkC.self, scope: .singleton) { r in
        _ = try r.resolve(BkA.self)
        aHeld.signal()
        cHoldsA.signal()
        _ = waited(for: bHeld)
        _ = try r.resolve(BkB.self)
        return BkC()
    }
    container.register(BkD.self, scope: .singleton) { r in
        _ = try r.resolve(BkB.self)
        bHeld.signal()
        _ = waited(for: aHeld)
        _ = try r.resolve(BkA.self)
        return BkD()
    }
    container.register(BkRoot.self) { r async throws in
        _ = try await r.resolveAsync(BkC.self)
        return BkRoot()
    }
    let collected = Outcomes()
    let results: Bool? = await withWatchdog {
        let task = Task.detached { await outcome { try await container.resolveAsync(BkRoot.self) } }
        let thread = await onThreads([
            {
                // A thread of its own, not the pool's: it may wait as long as the watchdog.
                guard waited(for: cHoldsA, seconds: 15) else { return }
                collected.add(syncOutcome { try container.resolve(BkD.self) })
            }
        ])
        collected.add(await task.value)
        return thread
    }
    #expect(results == true)
    try #require(collected.all.count == 2, "C never held A within 15 s: the async resolution did not run")
    return collected.all
}
