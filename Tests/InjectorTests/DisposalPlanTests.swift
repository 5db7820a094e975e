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

// How a registration's instances are disposed when it works that out once per dynamic type
// (`DisposalPlan`): registrations whose instances are of many dynamic types, raced from many
// threads, under existentials, optionals, boxes and class hierarchies, in every lifetime, through
// child containers, overrides and amended (copied) providers.

// MARK: - What instances record

/// Every instance made, by serial number, and every call that disposed it.
private final class Ledger: @unchecked Sendable {  // only touched under `lock`
    private let lock = NSLock()
    private var kinds: [Int: Kind] = [:]
    private var syncCalls: [Int: Int] = [:]
    private var asyncCalls: [Int: Int] = [:]
    private var decoyCalls: [Int: Int] = [:]
    private var order: [Int] = []
    private let serials = CallCounter()

    enum Kind: String, CaseIterable, Sendable {
        case syncClass, asyncClass, bothClass, plainClass, syncStruct, plainStruct, bothStruct, asyncStruct
        var isDisposable: Bool { self != .plainClass && self != .plainStruct }
        var isAsyncOnly: Bool { self == .asyncClass || self == .asyncStruct }
        var hasSync: Bool { self == .syncClass || self == .bothClass || self == .syncStruct || self == .bothStruct }
        var hasAsync: Bool { self == .asyncClass || self == .bothClass || self == .asyncStruct || self == .bothStruct }
    }

    func made(_ kind: Kind) -> Int {
        let serial = serials.next()
        lock.withLock { kinds[serial] = kind }
        return serial
    }
    func sync(_ serial: Int) {
        lock.withLock {
            syncCalls[serial, default: 0] += 1
            order.append(serial)
        }
    }
    func async(_ serial: Int) {
        lock.withLock {
            asyncCalls[serial, default: 0] += 1
            order.append(serial)
        }
    }
    func decoy(_ serial: Int) { lock.withLock { decoyCalls[serial, default: 0] += 1 } }

    var all: [(serial: Int, kind: Kind, sync: Int, async: Int, decoy: Int)] {
        lock.withLock {
            kinds.keys.sorted().map {
                ($0, kinds[$0]!, syncCalls[$0, default: 0], asyncCalls[$0, default: 0], decoyCalls[$0, default: 0])
            }
        }
    }
    var disposalOrder: [Int] { lock.withLock { order } }
    var madeCount: Int { lock.withLock { kinds.count } }

    /// Problems: each disposable instance disposed exactly once, by `dispose()` when `syncClose`
    /// says the serial was closed synchronously (and it has `dispose`), by `disposeAsync()` otherwise;
    /// non-disposable ones never touched.
    func problems(closedSynchronously syncClose: (Int) -> Bool) -> [String] {
        all.compactMap { entry -> String? in
            let (serial, kind, sync, async, decoy) = entry
            let expected: (sync: Int, async: Int)
            if !kind.isDisposable {
                expected = (0, 0)
            } else if kind.isAsyncOnly {
                expected = (0, 1)
            } else if kind.hasSync && (syncClose(serial) || !kind.hasAsync) {
                expected = (1, 0)
            } else {
                expected = (0, 1)
            }
            guard (sync, async) != expected || decoy != 0 else { return nil }
            return "#\(serial) \(kind.rawValue): sync \(sync) async \(async) decoy \(decoy), expected \(expected)"
        }
    }
}

private protocol Res: Sendable {
    var serial: Int { get }
}
private protocol ObjRes: AnyObject, Sendable {
    var serial: Int { get }
}

private final class SyncRes: Res, ObjRes, Disposable {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.syncClass)) }
    func dispose() { ledger.sync(serial) }
}
private final class AsyncRes: Res, ObjRes, AsyncDisposable {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.asyncClass)) }
    func disposeAsync() async { ledger.async(serial) }
    func dispose() { ledger.decoy(serial) }  // not a witness of Disposable
}
private final class BothRes: Res, ObjRes, Disposable, AsyncDisposable {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.bothClass)) }
    func dispose() { ledger.sync(serial) }
    func disposeAsync() async { ledger.async(serial) }
}
private final class PlainRes: Res, ObjRes {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.plainClass)) }
    func dispose() { ledger.decoy(serial) }  // decoys: not witnesses
    func disposeAsync() async { ledger.decoy(serial) }
}
/// Larger than an existential's three-word inline buffer: boxed out of line.
private struct SyncValue: Res, Disposable {
    let serial: Int, ledger: Ledger
    let padding: (Int, Int, Int, Int) = (1, 2, 3, 4)
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.syncStruct)) }
    func dispose() { ledger.sync(serial) }
}
private struct PlainValue: Res {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.plainStruct)) }
    func dispose() { ledger.decoy(serial) }
}
private struct BothValue: Res, Disposable, AsyncDisposable {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.bothStruct)) }
    func dispose() { ledger.sync(serial) }
    func disposeAsync() async { ledger.async(serial) }
}
private struct AsyncValue: Res, AsyncDisposable {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.asyncStruct)) }
    func disposeAsync() async { ledger.async(serial) }
}

private func makeRes(_ kind: Ledger.Kind, _ ledger: Ledger) -> any Res {
    switch kind {
    case .syncClass: SyncRes(ledger)
    case .asyncClass: AsyncRes(ledger)
    case .bothClass: BothRes(ledger)
    case .plainClass: PlainRes(ledger)
    case .syncStruct: SyncValue(ledger)
    case .plainStruct: PlainValue(ledger)
    case .bothStruct: BothValue(ledger)
    case .asyncStruct: AsyncValue(ledger)
    }
}

private func makeObjRes(_ kind: Ledger.Kind, _ ledger: Ledger) -> any ObjRes {
    switch kind {
    case .syncClass: SyncRes(ledger)
    case .asyncClass: AsyncRes(ledger)
    case .bothClass: BothRes(ledger)
    default: PlainRes(ledger)
    }
}

/// The kinds a factory makes in turn, from a shared counter: `kinds[n % kinds.count]` for the n-th call.
private final class Rotation: Sendable {
    let kinds: [Ledger.Kind]
    let calls = CallCounter()
    init(_ kinds: [Ledger.Kind]) { self.kinds = kinds }
    func next() -> Ledger.Kind { kinds[(calls.next() - 1) % kinds.count] }
}

// Class hierarchies and generics.

private class BaseRes: Disposable, @unchecked Sendable {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger, kind: Ledger.Kind = .syncClass) { (self.ledger, serial) = (ledger, ledger.made(kind)) }
    func dispose() { ledger.sync(serial) }
}
/// Adds `AsyncDisposable` to a `Disposable` base.
private final class AsyncSubRes: BaseRes, AsyncDisposable, @unchecked Sendable {
    init(_ ledger: Ledger) { super.init(ledger, kind: .bothClass) }
    func disposeAsync() async { ledger.async(serial) }
}
/// Overrides `dispose` only.
private final class OverridingSubRes: BaseRes, @unchecked Sendable {
    override func dispose() { ledger.sync(serial) }
}

private final class Box<T: Sendable>: Disposable, Sendable {
    let serial: Int, ledger: Ledger, value: T
    init(_ value: T, _ ledger: Ledger) { (self.value, self.ledger, serial) = (value, ledger, ledger.made(.syncClass)) }
    func dispose() { ledger.sync(serial) }
}
/// Disposable only where its element is.
private final class CondBox<T: Sendable>: Sendable {
    let serial: Int, ledger: Ledger, value: T
    init(_ value: T, _ ledger: Ledger, kind: Ledger.Kind) {
        (self.value, self.ledger, serial) = (value, ledger, ledger.made(kind))
    }
}
extension CondBox: Disposable where T: Disposable {
    func dispose() { ledger.sync(serial) }
}
private struct Marker: Disposable, Sendable { func dispose() {} }

private struct DisposableError: Error, Disposable {
    let serial: Int, ledger: Ledger
    func dispose() { ledger.sync(serial) }
}
private struct PlainError: Error { let serial: Int }
private final class DisposableClassError: Error, AsyncDisposable, Sendable {
    let serial: Int, ledger: Ledger
    init(_ ledger: Ledger) { (self.ledger, serial) = (ledger, ledger.made(.asyncClass)) }
    func disposeAsync() async { ledger.async(serial) }
}

// MARK: - Tests

@Suite struct DisposalPlanTests {

    // MARK: 1. Concurrency

    /// Threads of their own, started together, each resolve in their own scope a fresh
    /// registration whose factory makes instances of eight dynamic types, so that plans race to be
    /// published; those whose scope holds only instances a sync close can dispose close it at once
    /// (racing with the others' resolves), the others are refused by a sync close (naming exactly
    /// their async-only instances) and later closed asynchronously. Every disposable instance is
    /// disposed exactly once, the right way, and no plain one is touched.
    @Test(arguments: [Scope.transient, Scope.scoped, Scope.graph])
    func racingThreadsDisposeEveryInstanceOnceTheRightWay(scope lifetime: Scope) async throws {
        let rounds = 100
        let threads = 8
        let perThread = lifetime == .scoped ? 1 : 4
        let syncable: [Ledger.Kind] = [.syncClass, .bothClass, .plainClass, .syncStruct, .plainStruct, .bothStruct]
        let all = Ledger.Kind.allCases
        for round in 0..<rounds {
            let ledger = Ledger()
            let container = Container()
            // Which kinds a thread's resolves make: taken from a per-thread queue, so that each
            // thread's first instance is of a different type (every thread publishes or races).
            // Every thread's first factory call waits for all the others' before returning, so
            // that all of them reach the registration's plan (none published yet) together.
            let barrier = Barrier(count: threads)
            let barrierTimeouts = CallCounter()
            let plans = ThreadPlans()
            container.register((any Res).self, scope: lifetime) { _ -> any Res in
                let (kind, isFirst) = plans.next()
                let instance = makeRes(kind, ledger)
                if isFirst, !barrier.arriveAndWait(seconds: 10) { barrierTimeouts.next() }
                return instance
            }
            let syncClosedSerials = Locked.make(Set<Int>())
            let deferred = Locked.make([(LifetimeScope, [Int])]())
            let refusals = Locked.make([String]())
            let start = DispatchSemaphore(value: 0)
            var bodies: [@Sendable () -> Void] = []
            for thread in 0..<threads {
                // Even threads: only kinds a sync close disposes; odd threads: any kind.
                let pool = thread % 2 == 0 ? syncable : all
                let kinds = (0..<perThread).map { pool[(thread / 2 + round + $0 * 3) % pool.count] }
                bodies.append {
                    guard waited(for: start, seconds: 10) else { return refusals.withLock { $0.append("no start") } }
                    plans.assign(kinds)
                    let scope = container.makeScope()
                    var serials: [Int] = []
                    for _ in 0..<perThread {
                        do {
                            serials.append(try scope.resolve((any Res).self).serial)
                        } catch {
                            refusals.withLock { $0.append("resolve failed: \(error)") }
                        }
                    }
                    plans.clear()
                    let asyncOnly = kinds.filter(\.isAsyncOnly).count
                    if asyncOnly == 0 {
                        do {
                            try scope.close()
                            syncClosedSerials.withLock { $0.formUnion(serials) }
                        } catch {
                            refusals.withLock { $0.append("sync close failed: \(error)") }
                        }
                    } else {
                        do {
                            try scope.close()
                            refusals.withLock { $0.append("sync close of \(kinds) did not refuse") }
                        } catch let error as InjectionError {
                            let names = Array(repeating: "Res", count: asyncOnly).joined(separator: ", ")
                            let expected =
                                "The untagged scope holds instances that only an async disposal can dispose "
                                + "(AsyncDisposable): \(names). Nothing was disposed, and the scope stays open. "
                                + "Fix: use try await scope.closeAsync(), or make them Disposable as well."
                            if error.code != .asyncDisposalRequired || error.message != expected {
                                refusals.withLock { $0.append("\(kinds): \(error.code) \(error.message)") }
                            }
                        } catch {
                            refusals.withLock { $0.append("unexpected \(error)") }
                        }
                        deferred.withLock { $0.append((scope, serials)) }
                    }
                }
            }
            let finished = Task { await onThreads(seconds: 60, bodies) }
            for _ in 0..<threads { start.signal() }
            #expect(await finished.value)

            for (scope, _) in deferred.withLock({ $0 }) { try await scope.closeAsync() }

            #expect(barrierTimeouts.count == 0, "round \(round)")
            // The plan kept is one of a type made in the round, and says how that type is disposed.
            let key = LookupKey((any Res).self, name: nil)
            if let plan = container.provider(for: key)?.object.disposalPlan.load() {
                let madeTypes = Dictionary(
                    ledger.all.map { (ObjectIdentifier(type(of: makeRes($0.kind, Ledger()) as Any)), $0.kind) },
                    uniquingKeysWith: { first, _ in first }
                )
                let kind = try #require(madeTypes[plan.type], "round \(round): plan for a type not made")
                #expect(plan.isForExistential)
                #expect((plan.disposal == nil) == !kind.isDisposable, "round \(round): \(kind)")
                #expect(
                    (plan.disposal == DisposalBag.Disposal.asyncOnly) == kind.isAsyncOnly,
                    "round \(round): \(kind)"
                )
            }
            #expect(refusals.withLock { $0 } == [], "round \(round)")
            #expect(ledger.madeCount == threads * perThread, "round \(round)")
            let syncClosed = syncClosedSerials.withLock { $0 }
            #expect(ledger.problems { syncClosed.contains($0) } == [], "round \(round)")
        }
    }

    /// Many threads through one scope at once (transient): the plan is published while other
    /// threads read it; a sync-then-async close disposes each exactly once, in reverse order of
    /// recording per thread.
    @Test func racingThreadsInOneScopeDisposeEachOnce() async throws {
        for round in 0..<16 {
            let ledger = Ledger()
            let container = Container()
            let rotation = Rotation(
                [
                    .plainStruct, .bothClass, .syncStruct, .asyncClass, .syncClass, .plainClass,
                    .asyncStruct, .bothStruct,
                ].shuffled()
            )
            container.register((any Res).self) { _ -> any Res in makeRes(rotation.next(), ledger) }
            let scope = container.makeScope()
            let start = DispatchSemaphore(value: 0)
            let errors = Locked.make([String]())
            let bodies: [@Sendable () -> Void] = (0..<6).map { _ in
                {
                    guard waited(for: start, seconds: 10) else { return }
                    for _ in 0..<20 {
                        do { _ = try scope.resolve((any Res).self) } catch {
                            errors.withLock { $0.append("\(error)") }
                        }
                    }
                }
            }
            let finished = Task { await onThreads(seconds: 60, bodies) }
            for _ in 0..<6 { start.signal() }
            #expect(await finished.value)
            #expect(errors.withLock { $0 } == [])
            let error = try #require(throws: InjectionError.self) { try closeSynchronously(scope) }
            #expect(error.code == .asyncDisposalRequired)
            // 120 instances of 8 kinds in turn: 30 of the 2 async-only kinds.
            let names = Array(repeating: "Res", count: 30).joined(separator: ", ")
            #expect(
                error.message
                    == "The untagged scope holds instances that only an async disposal can dispose "
                    + "(AsyncDisposable): \(names). Nothing was disposed, and the scope stays open. "
                    + "Fix: use try await scope.closeAsync(), or make them Disposable as well."
            )
            #expect(ledger.disposalOrder.isEmpty, "a refused close disposed something")
            try await scope.closeAsync()
            #expect(ledger.madeCount == 120, "round \(round)")
            #expect(ledger.problems { _ in false } == [], "round \(round)")
        }
    }

    // MARK: 2. Registration types

    /// A class-bound existential: instances of each class kind in turn, twice round.
    @Test func classBoundExistentialDisposesEachAsItsClassSays() async throws {
        let ledger = Ledger()
        let rotation = Rotation([.plainClass, .syncClass, .asyncClass, .bothClass])
        let container = Container()
        container.register((any ObjRes).self) { _ in makeObjRes(rotation.next(), ledger) }
        let scope = container.makeScope()
        var made: [any ObjRes] = []
        for _ in 0..<8 { made.append(try scope.resolve((any ObjRes).self)) }
        let error = try #require(throws: InjectionError.self) { try closeSynchronously(scope) }
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The untagged scope holds instances that only an async disposal can dispose "
                + "(AsyncDisposable): ObjRes, ObjRes. Nothing was disposed, and the scope stays open. "
                + "Fix: use try await scope.closeAsync(), or make them Disposable as well."
        )
        try await scope.closeAsync()
        #expect(ledger.problems { _ in false } == [])
        #expect(ledger.disposalOrder == made.reversed().map(\.serial).filter { ledger.all[$0 - 1].kind.isDisposable })
    }

    /// The same, closed synchronously without the async-only kind: `dispose()` for both kinds.
    @Test func classBoundExistentialClosedSynchronously() throws {
        let ledger = Ledger()
        let rotation = Rotation([.bothClass, .plainClass, .syncClass])
        let container = Container()
        container.register((any AnyObject & ObjRes).self) { _ in makeObjRes(rotation.next(), ledger) }
        try container.withScope { scope in
            for _ in 0..<9 { _ = try scope.resolve((any AnyObject & ObjRes).self) }
        }
        #expect(ledger.madeCount == 9)
        #expect(ledger.problems { _ in true } == [])
    }

    /// `AnyObject` holding class instances of each kind.
    @Test func anyObjectHoldingClassesDisposesEach() async throws {
        let ledger = Ledger()
        let rotation = Rotation([.syncClass, .plainClass, .bothClass, .asyncClass])
        let container = Container()
        container.register(AnyObject.self) { _ -> AnyObject in makeObjRes(rotation.next(), ledger) }
        let scope = container.makeScope()
        for _ in 0..<8 { _ = try scope.resolve(AnyObject.self) }
        try await scope.closeAsync()
        #expect(ledger.madeCount == 8)
        #expect(ledger.problems { _ in false } == [])
    }

    /// `AnyObject` holding values, which `as AnyObject` boxes (on Linux, every one in a box of the
    /// same class, `__SwiftValue`, which a cast looks inside, as it does an optional): a disposable
    /// value first, then a plain one, each twice. Each disposable one is disposed once, and the
    /// plain ones are left alone; a sync close does not take a plain value for an async-only one.
    @Test func boxedPlainValuesAfterADisposableOneAreLeftAlone() throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register(AnyObject.self) { _ -> AnyObject in
            made.next() % 2 == 1 ? SyncValue(ledger) as AnyObject : PlainValue(ledger) as AnyObject
        }
        let error = injectionError {
            try container.withScope { scope in
                for _ in 0..<4 { _ = try scope.resolve(AnyObject.self) }
            }
        }
        #expect(error == nil, "\(error?.message ?? "")")
        #expect(ledger.madeCount == 4)
        #expect(ledger.problems { _ in true } == [])
    }

    /// The other order: a plain value boxed first, then a disposable one. The disposable ones are
    /// disposed all the same.
    @Test func boxedDisposableValuesAfterAPlainOneAreDisposed() throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register(AnyObject.self) { _ -> AnyObject in
            made.next() % 2 == 1 ? PlainValue(ledger) as AnyObject : SyncValue(ledger) as AnyObject
        }
        try container.withScope { scope in
            for _ in 0..<4 { _ = try scope.resolve(AnyObject.self) }
        }
        #expect(ledger.madeCount == 4)
        #expect(ledger.problems { _ in true } == [])
    }

    /// The same boxes under `Any`.
    @Test func boxedValuesUnderAnyAreDisposedAsWhatTheyHoldSays() throws {
        for plainFirst in [false, true] {
            let ledger = Ledger()
            let made = CallCounter()
            let container = Container()
            container.register(Any.self) { _ -> Any in
                (made.next() % 2 == 1) == plainFirst ? PlainValue(ledger) as AnyObject : SyncValue(ledger) as AnyObject
            }
            let error = injectionError {
                try container.withScope { scope in
                    for _ in 0..<4 { _ = try scope.resolve(Any.self) }
                }
            }
            #expect(error == nil, "plainFirst \(plainFirst): \(error?.message ?? "")")
            #expect(ledger.problems { _ in true } == [], "plainFirst \(plainFirst)")
        }
    }

    /// The same boxes, a disposable value first, closed asynchronously: the disposable ones are
    /// disposed once, the plain ones left alone (a wrong plan ended here in a force-unwrap of `nil`).
    @Test func asyncCloseOfBoxedValuesDisposesOnlyTheDisposableOnes() async throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register(AnyObject.self) { _ -> AnyObject in
            made.next() % 2 == 1 ? SyncValue(ledger) as AnyObject : PlainValue(ledger) as AnyObject
        }
        let scope = container.makeScope()
        for _ in 0..<4 { _ = try scope.resolve(AnyObject.self) }
        try await scope.closeAsync()
        #expect(ledger.madeCount == 4)
        #expect(ledger.problems(closedSynchronously: { _ in false }) == [])
    }

    /// A boxed value disposable both ways after a boxed value disposable only synchronously,
    /// closed asynchronously: the second is disposed by `disposeAsync()`, as its type says.
    @Test func boxedValueDisposableBothWaysIsDisposedAsynchronouslyAfterASyncOne() async throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register(AnyObject.self) { _ -> AnyObject in
            made.next() % 2 == 1 ? SyncValue(ledger) as AnyObject : BothValue(ledger) as AnyObject
        }
        let scope = container.makeScope()
        for _ in 0..<4 { _ = try scope.resolve(AnyObject.self) }
        try await scope.closeAsync()
        #expect(ledger.madeCount == 4)
        #expect(ledger.problems { _ in false } == [])
    }

    /// An error existential holding disposable and plain errors (a class and values) in turn.
    @Test func errorExistentialDisposesTheDisposableErrorsItHolds() async throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register((any Error).self) { _ -> any Error in
            switch made.next() % 3 {
            case 1: DisposableError(serial: ledger.made(.syncStruct), ledger: ledger)
            case 2: PlainError(serial: ledger.made(.plainStruct))
            default: DisposableClassError(ledger)
            }
        }
        let scope = container.makeScope()
        for _ in 0..<9 { _ = try scope.resolve((any Error).self) }
        try await scope.closeAsync()
        #expect(ledger.madeCount == 9)
        #expect(ledger.problems { _ in false } == [])
    }

    /// `Any` holding classes, small and large structs, optionals and `AnyHashable`s in turn.
    @Test func anyHoldingEverythingDisposesEachOnce() async throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register(Any.self) { _ -> Any in
            let n = made.next()
            switch n % 8 {
            case 1: return SyncRes(ledger)
            case 2: return SyncValue(ledger)
            case 3: return Optional(SyncRes(ledger)) as Any
            case 4: return Optional<SyncRes>.none as Any
            case 5: return AnyHashable(ledger.made(.plainStruct))
            case 6: return PlainValue(ledger)
            case 7: return BothValue(ledger)
            default: return Optional(Optional(SyncValue(ledger))) as Any
            }
        }
        let scope = container.makeScope()
        for _ in 0..<16 { _ = try scope.resolve(Any.self) }
        try closeSynchronously(scope)
        #expect(ledger.problems { _ in true } == [])
        try await scope.closeAsync()  // closed already: nothing more
        #expect(ledger.problems { _ in true } == [])
    }

    /// `any Res` holding classes and values larger than three words, several rounds, sync close.
    @Test func existentialHoldingLargeValuesAndClassesDisposesEachOnce() throws {
        let ledger = Ledger()
        let rotation = Rotation([.syncStruct, .syncClass, .plainStruct, .bothStruct, .plainClass, .bothClass])
        let container = Container()
        container.register((any Res).self) { _ in makeRes(rotation.next(), ledger) }
        try container.withScope { scope in
            for _ in 0..<18 { _ = try scope.resolve((any Res).self) }  // 18 > 16: the dictionary path
        }
        #expect(ledger.madeCount == 18)
        #expect(ledger.problems { _ in true } == [])
        #expect(ledger.disposalOrder == ledger.disposalOrder.sorted(by: >))
    }

    /// `(any Res)?`, `nil` or each kind, in either order.
    @Test(arguments: [true, false])
    func optionalExistentialDisposesEachInstanceItMakes(nilFirst: Bool) async throws {
        let ledger = Ledger()
        let rotation = Rotation([.syncClass, .syncStruct, .asyncClass, .plainClass, .bothStruct])
        let made = CallCounter()
        let container = Container()
        container.register((any Res)?.self) { _ -> (any Res)? in
            (made.next() % 2 == 1) == nilFirst ? nil : makeRes(rotation.next(), ledger)
        }
        let scope = container.makeScope()
        for _ in 0..<20 { _ = try scope.resolve((any Res)?.self) }
        let error = try #require(throws: InjectionError.self) { try closeSynchronously(scope) }
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The untagged scope holds instances that only an async disposal can dispose "
                + "(AsyncDisposable): Optional<Res>, Optional<Res>. Nothing was disposed, and the scope stays "
                + "open. Fix: use try await scope.closeAsync(), or make them Disposable as well."
        )
        try await scope.closeAsync()
        #expect(ledger.madeCount == 10)
        #expect(ledger.problems { _ in false } == [])
    }

    /// `SyncRes??`: `.some(.some)`, `.some(.none)`, `.none`, in turn.
    @Test func nestedOptionalDisposesEachInstanceItMakes() throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register(SyncRes??.self) { _ -> SyncRes?? in
            switch made.next() % 3 {
            case 1: .some(.none)
            case 2: .some(.some(SyncRes(ledger)))
            default: .none
            }
        }
        try container.withScope { scope in
            for _ in 0..<9 { _ = try scope.resolve(SyncRes??.self) }
        }
        #expect(ledger.madeCount == 3)
        #expect(ledger.problems { _ in true } == [])
    }

    /// A generic class with a different element per instance, under an existential, and a class
    /// disposable only for some elements.
    @Test func genericClassesWithDifferentArgumentsAreEachDisposedOnce() throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register(AnyObject.self) { _ -> AnyObject in
            switch made.next() % 6 {
            case 1: Box(1, ledger)
            case 2: Box("one", ledger)
            case 3: CondBox(Marker(), ledger, kind: .syncClass)
            case 4: CondBox(1, ledger, kind: .plainClass)
            case 5: Box(Marker(), ledger)
            default: CondBox("x", ledger, kind: .plainClass)
            }
        }
        try container.withScope { scope in
            for _ in 0..<12 { _ = try scope.resolve(AnyObject.self) }
        }
        #expect(ledger.madeCount == 12)
        #expect(ledger.problems { _ in true } == [])
    }

    /// A registration of a generic class with its element fixed by the registration.
    @Test func conditionallyDisposableGenericIsDisposedOnlyWhereItConforms() throws {
        let ledger = Ledger()
        let container = Container()
        container.register(CondBox<Marker>.self) { _ in CondBox(Marker(), ledger, kind: .syncClass) }
        container.register(CondBox<Int>.self) { _ in CondBox(1, ledger, kind: .plainClass) }
        try container.withScope { scope in
            for _ in 0..<3 {
                _ = try scope.resolve(CondBox<Marker>.self)
                _ = try scope.resolve(CondBox<Int>.self)
            }
        }
        #expect(ledger.problems { _ in true } == [])
    }

    /// Registered under a Disposable base class: instances of the base, of a subclass that adds
    /// AsyncDisposable, and of one that overrides dispose, in turn; closed sync, then async.
    @Test(arguments: [true, false])
    func subclassAddingAsyncDisposableUnderItsBase(syncClose: Bool) async throws {
        let ledger = Ledger()
        let made = CallCounter()
        let container = Container()
        container.register(BaseRes.self) { _ -> BaseRes in
            switch made.next() % 3 {
            case 1: AsyncSubRes(ledger)
            case 2: BaseRes(ledger)
            default: OverridingSubRes(ledger)
            }
        }
        let scope = container.makeScope()
        for _ in 0..<9 { _ = try scope.resolve(BaseRes.self) }
        if syncClose { try closeSynchronously(scope) } else { try await scope.closeAsync() }
        #expect(ledger.madeCount == 9)
        #expect(ledger.problems { _ in syncClose } == [])
        #expect(ledger.disposalOrder == Array((1...9).reversed()))
    }

    /// Singletons of each kind under one existential key, in a child container each (one
    /// registration, copied? no: one registration per container, several containers sharing the
    /// same factory), and under named keys of one container: shutdown refuses naming async-only
    /// ones, shutdownAsync disposes each once.
    @Test func singletonsOfEveryKindAreDisposedAtShutdown() async throws {
        let ledger = Ledger()
        let container = Container()
        for kind in Ledger.Kind.allCases {
            container.register((any Res).self, name: kind.rawValue, scope: .singleton) { _ in makeRes(kind, ledger) }
        }
        for kind in Ledger.Kind.allCases {
            _ = try container.resolve((any Res).self, name: kind.rawValue)
        }
        let error = try #require(throws: InjectionError.self) { try shutDownSynchronously(container) }
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The container holds instances that only an async disposal can dispose (AsyncDisposable): "
                + "Res (name: \"asyncClass\"), Res (name: \"asyncStruct\"). Nothing was disposed. Fix: use "
                + "try await container.shutdownAsync(), or make them Disposable as well."
        )
        #expect(ledger.disposalOrder.isEmpty)
        try await container.shutdownAsync()
        #expect(ledger.madeCount == Ledger.Kind.allCases.count)
        #expect(ledger.problems { _ in false } == [])
    }

    /// An async factory making every kind, resolved asynchronously, some through a caller's
    /// `configure` that replaces the instance with one of another kind: each disposed once, as
    /// the instance the scope got says.
    @Test func asyncFactoryAndConfigureReplacingTheInstance() async throws {
        let ledger = Ledger()
        let rotation = Rotation(Ledger.Kind.allCases)
        let container = Container()
        container.register((any Res).self) { _ async -> any Res in makeRes(rotation.next(), ledger) }
        let scope = container.makeScope()
        var kept: [Int] = []
        for n in 0..<16 {
            if n % 4 == 3 {
                let replacement = makeRes(.bothClass, ledger)
                kept.append(try await scope.resolveAsync((any Res).self) { $0 = replacement }.serial)
            } else {
                kept.append(try await scope.resolveAsync((any Res).self).serial)
            }
        }
        try await scope.closeAsync()
        // The instances a configure replaced were never the scope's: left alone.
        let replaced = Set(ledger.all.map(\.serial)).subtracting(kept)
        #expect(replaced.count == 4)
        let problems = ledger.problems { _ in false }.filter { problem in
            !replaced.contains { problem.hasPrefix("#\($0) ") && problem.contains("sync 0 async 0 decoy 0") }
        }
        #expect(problems == [])
        #expect(ledger.all.filter { replaced.contains($0.serial) }.allSatisfy { $0.sync + $0.async + $0.decoy == 0 })
    }

    // MARK: 3. The same instance twice

    /// A transient registration returning one captured object every time, 3 and 20 times (the
    /// pairwise and dictionary paths): disposed once.
    @Test(arguments: [3, 20])
    func capturedObjectReturnedManyTimesIsDisposedOnce(times: Int) async throws {
        for asyncClose in [false, true] {
            let ledger = Ledger()
            let shared = BothRes(ledger)
            let container = Container()
            container.register((any Res).self) { _ in shared }
            container.register(BothRes.self) { _ in shared }
            let scope = container.makeScope()
            for n in 0..<times {
                if n % 2 == 0 { _ = try scope.resolve((any Res).self) } else { _ = try scope.resolve(BothRes.self) }
            }
            if asyncClose { try await scope.closeAsync() } else { try closeSynchronously(scope) }
            #expect(ledger.problems { _ in !asyncClose } == [], "times \(times) async \(asyncClose)")
        }
    }

    /// One boxed value (one object) returned by every resolve of an `AnyObject` registration:
    /// a class instance recorded twice is disposed once.
    @Test func capturedBoxReturnedTwiceIsDisposedOnce() throws {
        let ledger = Ledger()
        let box = Unchecked(SyncValue(ledger) as AnyObject)
        let container = Container()
        container.register(AnyObject.self) { _ in box.value }
        try container.withScope { scope in
            let first = try scope.resolve(AnyObject.self)
            let second = try scope.resolve(AnyObject.self)
            let same = first === second
            #expect(same)
        }
        #expect(ledger.problems { _ in true } == [])
    }

    // MARK: 4. Child containers, overrides, copies

    /// A parent's registration resolved from scopes of two children and the parent: one plan,
    /// many scopes, every kind.
    @Test func parentRegistrationIsDisposedByEveryChildScope() async throws {
        let ledger = Ledger()
        let rotation = Rotation(Ledger.Kind.allCases)
        let parent = Container()
        parent.register((any Res).self) { _ in makeRes(rotation.next(), ledger) }
        let children = [parent.makeChild(), parent.makeChild(), parent]
        for (index, container) in children.enumerated() {
            let scope = container.makeScope()
            for _ in 0..<(index + 3) { _ = try scope.resolve((any Res).self) }
            try await scope.closeAsync()
        }
        #expect(ledger.madeCount == 12)
        #expect(ledger.problems { _ in false } == [])
    }

    /// A singleton built afresh in each call to withOverrides, by the container's own
    /// registration (one provider, one plan), of a different kind each call; sync-disposable ones
    /// are disposed when the sync call returns, the async-only one refused with its message.
    @Test func singletonRebuiltInEachOverrideCallIsDisposedEachTime() async throws {
        let ledger = Ledger()
        let rotation = Rotation([.plainStruct, .syncClass, .bothStruct, .plainClass, .syncStruct, .bothClass])
        let container = Container()
        container.register((any Res).self, scope: .singleton) { _ in makeRes(rotation.next(), ledger) }
        container.register(Int.self) { _ in 0 }
        for call in 0..<6 {
            try container.withOverrides {
                $0.register(Int.self) { _ in call }
            } operation: {
                _ = try container.resolve((any Res).self)
                #expect(ledger.disposalOrder.count <= call)
            }
        }
        #expect(ledger.problems { _ in true } == [])

        let asyncRotation = Rotation([.asyncClass, .asyncStruct, .bothClass])
        let other = Container()
        other.register((any Res).self, scope: .singleton) { _ in makeRes(asyncRotation.next(), ledger) }
        for _ in 0..<3 {
            try await other.withOverridesAsync {
                $0.register(Int.self) { _ in 1 }
            } operation: {
                _ = try other.resolve((any Res).self)
            }
        }
        let error = try #require(throws: InjectionError.self) {
            try other.withOverrides {
                $0.register(Int.self) { _ in 1 }
            } operation: {
                _ = try other.resolve((any Res).self)
            }
        }
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The call to withOverrides holds instances that only an async disposal can dispose "
                + "(AsyncDisposable): Res. The others were disposed; these were dropped undisposed. Fix: use "
                + "try await container.withOverridesAsync, or make them Disposable as well."
        )
        // The one refused was dropped undisposed, by design: every other one disposed once.
        let dropped = ledger.all.last!
        #expect(dropped.kind == .asyncClass && dropped.sync == 0 && dropped.async == 0)
        #expect(
            ledger.all.dropLast().allSatisfy { entry in
                !entry.kind.isDisposable ? entry.sync + entry.async == 0 : entry.sync + entry.async == 1
            }
        )
    }

    /// An override's registration making every kind, resolved from scopes and transiently inside
    /// the call.
    @Test func overrideRegistrationDisposesEveryKindItMakes() async throws {
        let ledger = Ledger()
        let rotation = Rotation(Ledger.Kind.allCases)
        let container = Container()
        container.register((any Res).self) { _ in PlainValue(ledger) }
        try await container.withOverridesAsync {
            $0.register((any Res).self) { _ in makeRes(rotation.next(), ledger) }
        } operation: {
            let scope = container.makeScope()
            for _ in 0..<16 { _ = try scope.resolve((any Res).self) }
            try await scope.closeAsync()
        }
        #expect(ledger.madeCount == 16)
        #expect(ledger.problems { _ in false } == [])
    }

    /// A registration amended (a hook: its provider copied) after its plan was published for one
    /// type, then resolving others: both providers' plans serve, every instance disposed once.
    @Test func amendedRegistrationKeepsDisposingEachKind() async throws {
        let ledger = Ledger()
        let rotation = Rotation([.syncClass, .plainStruct, .asyncClass, .bothStruct, .plainClass])
        let hooked = CallCounter()
        let container = Container()
        let registration = container.register((any Res).self) { _ in makeRes(rotation.next(), ledger) }
        let scope = container.makeScope()
        for _ in 0..<5 { _ = try scope.resolve((any Res).self) }
        registration.onResolved { _, _ in hooked.next() }
        for _ in 0..<5 { _ = try scope.resolve((any Res).self) }
        try await scope.closeAsync()
        #expect(hooked.count == 5)
        #expect(ledger.madeCount == 10)
        #expect(ledger.problems { _ in false } == [])
    }
}

/// Closes `scope` synchronously (not callable from an async context directly).
private func closeSynchronously(_ scope: LifetimeScope) throws { try scope.close() }
private func shutDownSynchronously(_ container: Container) throws { try container.shutdown() }

private final class Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Which kinds the factory makes for the thread calling it.
private final class ThreadPlans: @unchecked Sendable {  // only touched under `lock`
    private let lock = NSLock()
    private var queues: [ObjectIdentifier: (kinds: [Ledger.Kind], taken: Int)] = [:]
    private var key: ObjectIdentifier { ObjectIdentifier(Thread.current) }

    func assign(_ kinds: [Ledger.Kind]) {
        let key = key
        lock.withLock { queues[key] = (kinds, 0) }
    }
    func clear() {
        let key = key
        lock.withLock { queues[key] = nil }
    }
    /// The next kind for this thread, and whether it is its first.
    func next() -> (Ledger.Kind, isFirst: Bool) {
        let key = key
        return lock.withLock {
            guard let queue = queues[key], queue.taken < queue.kinds.count else { return (.plainStruct, false) }
            queues[key] = (queue.kinds, queue.taken + 1)
            return (queue.kinds[queue.taken], queue.taken == 0)
        }
    }
}

/// Lets threads through once `count` of them arrived, or after a timeout.
private final class Barrier: @unchecked Sendable {  // `arrived` is only touched under `condition`
    private let condition = NSCondition()
    private var arrived = 0
    private let count: Int
    init(count: Int) { self.count = count }

    /// Whether all arrived within `seconds`.
    func arriveAndWait(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= count {
            condition.broadcast()
            return true
        }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while arrived < count {
            if !condition.wait(until: deadline) { return arrived >= count }
        }
        return true
    }
}
