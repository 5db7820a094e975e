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

// MARK: - Test doubles (private to this file)

private final class ScopeObject: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private protocol ScopeService: AnyObject, Sendable {}
private final class ScopeServiceImpl: ScopeService {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private protocol ScopeValueService: Sendable {}
private struct ScopeValueServiceImpl: ScopeValueService { var x = 1 }
private struct ScopeValue { var number = 7 }

/// Holds two instances of the same dependency, resolved one after the other inside one factory.
private final class ScopePair: Sendable {
    let first: ScopeObject
    let second: ScopeObject
    init(first: ScopeObject, second: ScopeObject) {
        self.first = first
        self.second = second
    }
}

// Diamond: A -> B, C; B -> D; C -> D.
private final class ScopeDiamondD: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class ScopeDiamondB: Sendable {
    let d: ScopeDiamondD
    init(d: ScopeDiamondD) { self.d = d }
}
private final class ScopeDiamondC: Sendable {
    let d: ScopeDiamondD
    init(d: ScopeDiamondD) { self.d = d }
}
private final class ScopeDiamondA: Sendable {
    let b: ScopeDiamondB
    let c: ScopeDiamondC
    init(b: ScopeDiamondB, c: ScopeDiamondC) {
        self.b = b
        self.c = c
    }
}

/// Registers the diamond with `d`'s scope given, counting D's factory calls.
private func scopeRegisterDiamond(in container: Container, dScope: Scope, dCalls: CallCounter) {
    container.register(ScopeDiamondD.self, scope: dScope) { _ in ScopeDiamondD(serial: dCalls.next()) }
    container.register(ScopeDiamondB.self) { r in try ScopeDiamondB(d: r.resolve(ScopeDiamondD.self)) }
    container.register(ScopeDiamondC.self) { r in try ScopeDiamondC(d: r.resolve(ScopeDiamondD.self)) }
    container.register(ScopeDiamondA.self) { r in
        try ScopeDiamondA(b: r.resolve(ScopeDiamondB.self), c: r.resolve(ScopeDiamondC.self))
    }
}

// MARK: - Tests

struct ScopeTests {
    // MARK: Transient

    @Test func transientMakesANewInstanceOnEveryResolve() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .transient) { _ in ScopeObject(serial: calls.next()) }

        let first = try container.resolve(ScopeObject.self)
        let second = try container.resolve(ScopeObject.self)
        let third = try container.resolve(ScopeObject.self)

        #expect(first !== second)
        #expect(second !== third)
        #expect(first !== third)
        #expect(calls.count == 3)
    }

    @Test func transientMakesANewInstanceForEachNestedResolveWithinOneGraph() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .transient) { _ in ScopeObject(serial: calls.next()) }
        container.register(ScopePair.self) { r in
            try ScopePair(first: r.resolve(ScopeObject.self), second: r.resolve(ScopeObject.self))
        }

        let pair = try container.resolve(ScopePair.self)

        #expect(pair.first !== pair.second)
        #expect(pair.first.serial != pair.second.serial)
        #expect(calls.count == 2)
    }

    @Test func transientDiamondBuildsTheSharedDependencyOncePerPath() throws {
        let container = Container()
        let dCalls = CallCounter()
        scopeRegisterDiamond(in: container, dScope: .transient, dCalls: dCalls)

        let a = try container.resolve(ScopeDiamondA.self)

        #expect(a.b.d !== a.c.d)
        #expect(dCalls.count == 2)
    }

    @Test func defaultScopeIsTransient() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self) { _ in ScopeObject(serial: calls.next()) }
        container.register(ScopePair.self) { r in
            try ScopePair(first: r.resolve(ScopeObject.self), second: r.resolve(ScopeObject.self))
        }

        let first = try container.resolve(ScopeObject.self)
        let second = try container.resolve(ScopeObject.self)
        let pair = try container.resolve(ScopePair.self)

        #expect(first !== second)
        #expect(pair.first !== pair.second)
        #expect(calls.count == 4)
    }

    @Test func defaultScopeIsTransientForAValueServiceToo() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeValue.self) { _ in
            ScopeValue(number: calls.next())
        }

        let first = try container.resolve(ScopeValue.self)
        let second = try container.resolve(ScopeValue.self)

        #expect(first.number == 1)
        #expect(second.number == 2)
        #expect(calls.count == 2)
    }

    // MARK: Graph

    @Test func graphSharesOneInstanceAmongNestedResolvesOfOneTopLevelResolve() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .graph) { _ in ScopeObject(serial: calls.next()) }
        container.register(ScopePair.self) { r in
            try ScopePair(first: r.resolve(ScopeObject.self), second: r.resolve(ScopeObject.self))
        }

        let pair = try container.resolve(ScopePair.self)

        #expect(pair.first === pair.second)
        #expect(calls.count == 1)
    }

    @Test func graphDiamondSharesTheBottomInstanceWithinOneResolve() throws {
        let container = Container()
        let dCalls = CallCounter()
        scopeRegisterDiamond(in: container, dScope: .graph, dCalls: dCalls)

        let a = try container.resolve(ScopeDiamondA.self)

        #expect(a.b.d === a.c.d)
        #expect(dCalls.count == 1)
    }

    @Test func graphGivesDistinctInstancesToDistinctTopLevelResolves() throws {
        let container = Container()
        let dCalls = CallCounter()
        scopeRegisterDiamond(in: container, dScope: .graph, dCalls: dCalls)

        let first = try container.resolve(ScopeDiamondA.self)
        let second = try container.resolve(ScopeDiamondA.self)

        #expect(first.b.d === first.c.d)
        #expect(second.b.d === second.c.d)
        #expect(first.b.d !== second.b.d)
        #expect(first.b.d.serial != second.b.d.serial)
        #expect(dCalls.count == 2)
    }

    @Test func graphServiceResolvedAtTopLevelTwiceGivesTwoInstances() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .graph) { _ in ScopeObject(serial: calls.next()) }

        let first = try container.resolve(ScopeObject.self)
        let second = try container.resolve(ScopeObject.self)

        #expect(first !== second)
        #expect(calls.count == 2)
    }

    @Test func graphInstanceIsNotRetainedAfterTheTopLevelResolveReturns() throws {
        let container = Container()
        container.register(ScopeObject.self, scope: .graph) { _ in ScopeObject(serial: 0) }

        weak var weakObject: ScopeObject?
        do {
            let object = try container.resolve(ScopeObject.self)
            weakObject = object
            #expect(weakObject != nil)
        }
        #expect(weakObject == nil)
    }

    @Test func graphDiamondBottomIsNotRetainedOnceTheRootIsReleased() throws {
        let container = Container()
        let dCalls = CallCounter()
        scopeRegisterDiamond(in: container, dScope: .graph, dCalls: dCalls)

        weak var weakD: ScopeDiamondD?
        do {
            let a = try container.resolve(ScopeDiamondA.self)
            weakD = a.b.d
            #expect(weakD != nil)
        }
        #expect(weakD == nil)
    }

    @Test func graphInstanceIsNotRetainedAfterResolveEvenWhenAFactoryKeptItsResolver() throws {
        let container = Container()
        let kept = KeptResolver()
        container.register(ScopeObject.self, scope: .graph) { _ in ScopeObject(serial: 0) }
        container.register(ScopePair.self) { r in
            kept.keep(r)
            return try ScopePair(first: r.resolve(ScopeObject.self), second: r.resolve(ScopeObject.self))
        }

        weak var weakObject: ScopeObject?
        do {
            let pair = try container.resolve(ScopePair.self)
            weakObject = pair.first
            #expect(pair.first === pair.second)
        }
        #expect(kept.resolver != nil)
        #expect(weakObject == nil, "a resolver kept past its resolution must not keep the graph's instances alive")
    }

    // MARK: Singleton

    @Test func singletonReturnsTheSameInstanceOnEveryResolve() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .singleton) { _ in ScopeObject(serial: calls.next()) }

        let first = try container.resolve(ScopeObject.self)
        let second = try container.resolve(ScopeObject.self)

        #expect(first === second)
        #expect(calls.count == 1)
    }

    @Test func singletonIsSharedAcrossNestedAndTopLevelResolves() throws {
        let container = Container()
        let dCalls = CallCounter()
        scopeRegisterDiamond(in: container, dScope: .singleton, dCalls: dCalls)

        let first = try container.resolve(ScopeDiamondA.self)
        let second = try container.resolve(ScopeDiamondA.self)
        let direct = try container.resolve(ScopeDiamondD.self)

        #expect(first.b.d === first.c.d)
        #expect(first.b.d === second.c.d)
        #expect(direct === first.b.d)
        #expect(dCalls.count == 1)
    }

    @Test func singletonIsBuiltLazilyOnFirstResolveNotAtRegistration() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .singleton) { _ in ScopeObject(serial: calls.next()) }
        #expect(calls.count == 0)

        try container.finishRegistration()
        #expect(calls.count == 0)

        let first = try container.resolve(ScopeObject.self)
        #expect(calls.count == 1)
        #expect(first.serial == 1)

        let second = try container.resolve(ScopeObject.self)
        #expect(calls.count == 1)
        #expect(second === first)
    }

    @Test func singletonDependencyIsNotBuiltUntilSomethingNeedsIt() throws {
        let container = Container()
        let dCalls = CallCounter()
        scopeRegisterDiamond(in: container, dScope: .singleton, dCalls: dCalls)
        container.register(ScopeObject.self) { _ in ScopeObject(serial: 0) }

        _ = try container.resolve(ScopeObject.self)
        #expect(dCalls.count == 0)

        _ = try container.resolve(ScopeDiamondB.self)
        #expect(dCalls.count == 1)
    }

    @Test func singletonOfAValueTypeReturnsTheSameValueWithoutRebuilding() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeValue.self, scope: .singleton) { _ in ScopeValue(number: calls.next() + 41) }

        let first = try container.resolve(ScopeValue.self)
        let second = try container.resolve(ScopeValue.self)

        #expect(first.number == 42)
        #expect(second.number == 42)
        #expect(calls.count == 1)
    }

    // MARK: Weak

    @Test func weakReturnsTheSameInstanceWhileSomeoneHoldsIt() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .weak) { _ in ScopeObject(serial: calls.next()) }

        let held = try container.resolve(ScopeObject.self)
        let again = try container.resolve(ScopeObject.self)
        let onceMore = try container.resolve(ScopeObject.self)

        #expect(held === again)
        #expect(held === onceMore)
        #expect(calls.count == 1)
    }

    @Test func weakInstanceIsSharedByNestedResolvesWhileHeld() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .weak) { _ in ScopeObject(serial: calls.next()) }
        container.register(ScopePair.self) { r in
            try ScopePair(first: r.resolve(ScopeObject.self), second: r.resolve(ScopeObject.self))
        }

        let pair = try container.resolve(ScopePair.self)
        let direct = try container.resolve(ScopeObject.self)

        #expect(pair.first === pair.second)
        #expect(direct === pair.first)
        #expect(calls.count == 1)
    }

    @Test func weakMakesANewInstanceAfterEveryHolderReleasedIt() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ScopeObject.self, scope: .weak) { _ in ScopeObject(serial: calls.next()) }

        weak var weakFirst: ScopeObject?
        do {
            let first = try container.resolve(ScopeObject.self)
            let second = try container.resolve(ScopeObject.self)
            weakFirst = first
            #expect(first === second)
            #expect(first.serial == 1)
        }
        #expect(weakFirst == nil, "the container must not keep a weak-scoped instance alive")

        let renewed = try container.resolve(ScopeObject.self)
        #expect(renewed.serial == 2)
        #expect(calls.count == 2)

        let again = try container.resolve(ScopeObject.self)
        #expect(again === renewed)
        #expect(calls.count == 2)
    }

    @Test func weakWorksForAClassBehindAProtocol() throws {
        let container = Container()
        let calls = CallCounter()
        container.register((any ScopeService).self, scope: .weak) { _ in ScopeServiceImpl(serial: calls.next()) }

        let first = try container.resolve((any ScopeService).self)
        let second = try container.resolve((any ScopeService).self)

        #expect(first === second)
        #expect(calls.count == 1)
    }

    @Test func weakScopeWithAValueTypeThrowsWeakScopeNeedsObject() throws {
        let container = Container()
        container.register(ScopeValue.self, scope: .weak) { _ in ScopeValue() }

        let error = try #require(injectionError { _ = try container.resolve(ScopeValue.self) })

        #expect(error.code == .weakScopeNeedsObject)
        #expect(error.message.contains("ScopeValue has the weak scope"))
        #expect(error.message.contains("not a class instance"))
        #expect(error.message.contains("Fix: return a class instance"))
        #expect(error.message.contains(".singleton"))
        #expect(error.description == error.message)
        #expect(error.resolutionPath.last == ServiceKey(ScopeValue.self, name: nil))
    }

    @Test func weakScopeWithAValueBehindAProtocolThrowsWeakScopeNeedsObjectNamingTheMadeType() throws {
        let container = Container()
        container.register((any ScopeValueService).self, name: "value", scope: .weak) { _ in ScopeValueServiceImpl() }

        let error = try #require(
            injectionError {
                _ = try container.resolve((any ScopeValueService).self, name: "value")
            }
        )

        #expect(error.code == .weakScopeNeedsObject)
        #expect(error.message.contains("ScopeValueService (name: \"value\") has the weak scope"))
        #expect(error.message.contains("made a value of type ScopeValueServiceImpl"))
        #expect(error.message.contains("not a class instance"))
    }

    @Test func weakScopeWithAValueTypeFailsEveryTimeWhenNested() throws {
        let container = Container()
        container.register(ScopeValue.self, scope: .weak) { _ in ScopeValue() }
        container.register(ScopeObject.self) { r in
            _ = try r.resolve(ScopeValue.self)
            return ScopeObject(serial: 0)
        }

        for _ in 0..<2 {
            let error = try #require(injectionError { _ = try container.resolve(ScopeObject.self) })
            #expect(error.code == .weakScopeNeedsObject)
            #expect(error.message.contains("ScopeValue has the weak scope"))
            #expect(
                error.resolutionPath == [
                    ServiceKey(ScopeObject.self, name: nil), ServiceKey(ScopeValue.self, name: nil),
                ]
            )
        }
    }
}

/// A singleton whose instances count how many of them are alive.
private final class CountedSingleton: Sendable {
    let alive: LiveCounter
    init(alive: LiveCounter) {
        self.alive = alive
        alive.next()
    }
    deinit { alive.release() }
}

/// A disposable singleton whose instances count how many of them are alive, and their disposals.
private final class DisposableSingleton: Disposable, Sendable {
    let alive: LiveCounter
    let disposals: CallCounter
    init(alive: LiveCounter, disposals: CallCounter) {
        self.alive = alive
        self.disposals = disposals
        alive.next()
    }
    deinit { alive.release() }
    func dispose() { disposals.next() }
}

/// Counts instances made and not yet released.
private final class LiveCounter: Sendable {
    private let counter = CallCounter()
    private let released = CallCounter()
    func next() { counter.next() }
    func release() { released.next() }
    var count: Int { counter.count - released.count }
    /// How many were made.
    var made: Int { counter.count }
}

/// A transient with an `onResolved` hook, which runs when the resolution completes: a singleton
/// holding one is not complete, nor published, until then.
private final class HookedService: Sendable {}

/// Registers `HookedService` in `container`, sync or async.
private func registerHooked(in container: Container, async: Bool = false) {
    if async {
        container.register(HookedService.self) { _ async in HookedService() }
            .onResolved { _, _ in }
    } else {
        container.register(HookedService.self) { _ in HookedService() }
            .onResolved { _, _ in }
    }
}

private struct RequestRefused: Error {}
private final class FailingService: Sendable {}

extension ScopeTests {
    /// A singleton whose construction a resolve left incomplete (it holds a transient whose hook
    /// runs when the resolve completes) is dropped when that resolve fails: after many failed
    /// resolves, none of the singletons they built is alive, sync or async.
    @Test func singletonBuiltByAFailedResolveIsReleased() async throws {
        let alive = LiveCounter()
        let container = Container()
        registerHooked(in: container)
        container.register(CountedSingleton.self, scope: .singleton) { r in
            _ = try r.resolve(HookedService.self)
            return CountedSingleton(alive: alive)
        }
        container.register(CountedSingleton.self, name: "async", scope: .singleton) { r in
            _ = try await r.resolveAsync(HookedService.self)
            await Task.yield()
            return CountedSingleton(alive: alive)
        }
        try await expectEveryResolveFails(resolving: CountedSingleton.self, in: container)
        #expect(alive.made == 200)
        #expect(alive.count == 0)
    }

    /// A singleton is published as soon as its construction is complete (its factory returned, and
    /// nothing it holds awaits the end of the resolve): a resolve that builds it and then fails
    /// leaves it published. After many failed resolves, sync or async, one instance of each is
    /// alive, built once, which the next resolve gets; shutting the container down disposes each
    /// once.
    @Test func aSingletonBuiltBeforeAFailureStaysPublishedAndIsDisposedOnce() async throws {
        let (alive, disposals) = (LiveCounter(), CallCounter())
        let container = Container()
        container.register(DisposableSingleton.self, scope: .singleton) { _ in
            DisposableSingleton(alive: alive, disposals: disposals)
        }
        container.register(DisposableSingleton.self, name: "async", scope: .singleton) { _ in
            await Task.yield()
            return DisposableSingleton(alive: alive, disposals: disposals)
        }
        try await expectEveryResolveFails(resolving: DisposableSingleton.self, in: container)
        #expect(alive.made == 2)
        let kept = (
            try container.resolve(DisposableSingleton.self),
            try await container.resolveAsync(DisposableSingleton.self, name: "async")
        )
        #expect(alive.made == 2)
        #expect(kept.0 !== kept.1)
        #expect(disposals.count == 0)
        try await container.shutdownAsync()
        #expect(disposals.count == 2)
    }

    /// Registers a `FailingService` that resolves `Service` and then fails, and one named "async"
    /// that resolves `Service` named "async" and then fails; resolves each 100 times, each failing
    /// with the factory's error.
    private func expectEveryResolveFails<Service>(
        resolving service: Service.Type,
        in container: Container,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        container.register(FailingService.self) { r in
            _ = try r.resolve(Service.self)
            throw RequestRefused()
        }
        container.register(FailingService.self, name: "async") { r in
            _ = try await r.resolveAsync(Service.self, name: "async")
            throw RequestRefused()
        }
        for _ in 0..<100 {
            let error = injectionError { try container.resolve(FailingService.self) }
            #expect(error?.code == .factoryFailed, sourceLocation: sourceLocation)
            #expect(
                error?.message
                    == "The factory of FailingService threw: RequestRefused(). The error is the underlyingError; fix the"
                    + " factory or what it depends on.",
                sourceLocation: sourceLocation
            )
            let asyncError = await injectionErrorAsync {
                try await container.resolveAsync(FailingService.self, name: "async")
            }
            #expect(asyncError?.code == .factoryFailed, sourceLocation: sourceLocation)
            #expect(
                asyncError?.message
                    == "The factory of FailingService (name: \"async\") threw: RequestRefused(). The error is the"
                    + " underlyingError; fix the factory or what it depends on.",
                sourceLocation: sourceLocation
            )
        }
    }
}

/// Registers an async `FailingService` that resolves `service` and then fails, and resolves it
/// once from a new scope, which it returns.
private func failedAsyncRequest<Service>(
    resolving service: Service.Type,
    in container: Container
) async throws -> LifetimeScope {
    container.register(FailingService.self) { r async throws in
        _ = try await r.resolveAsync(Service.self)
        throw RequestRefused()
    }
    let scope = container.makeScope()
    let error = await injectionErrorAsync { try await scope.resolveAsync(FailingService.self) }
    #expect(error?.code == .factoryFailed)
    #expect(
        error?.message
            == "The factory of FailingService threw: RequestRefused(). The error is the underlyingError; fix the factory or what it depends on."
    )
    return scope
}

/// A request holding a unit of work.
private struct GatedRequest: Sendable {
    let work: ScopedWork
}

/// A scoped unit of work that counts its factory calls and disposals.
private final class ScopedWork: Disposable, Sendable {
    let disposals: CallCounter
    init(disposals: CallCounter) { self.disposals = disposals }
    func dispose() { disposals.next() }
}

/// Registers a `FailingService` that resolves `service` and then fails, and resolves it once from a
/// new scope, which it returns.
private func failedRequest<Service>(resolving service: Service.Type, in container: Container) throws -> LifetimeScope {
    container.register(FailingService.self) { r in
        _ = try r.resolve(Service.self)
        throw RequestRefused()
    }
    let scope = container.makeScope()
    let error = #expect(throws: InjectionError.self) { try scope.resolve(FailingService.self) }
    #expect(error?.code == .factoryFailed)
    #expect(
        error?.message
            == "The factory of FailingService threw: RequestRefused(). The error is the underlyingError; fix the factory or what it depends on."
    )
    return scope
}

extension ScopeTests {
    /// A scoped instance that holds nothing unpublished is published as soon as it is built: a
    /// resolve that builds it and then fails leaves it in its scope, where the next resolve finds
    /// it; the scope disposes it once.
    @Test func scopedInstanceBuiltByAFailedResolveStaysInItsScope() throws {
        let container = Container()
        let calls = CallCounter()
        let disposals = CallCounter()
        container.register(ScopedWork.self, scope: .scoped) { _ in
            calls.next()
            return ScopedWork(disposals: disposals)
        }
        let scope = try failedRequest(resolving: ScopedWork.self, in: container)
        _ = try scope.resolve(ScopedWork.self)
        #expect(calls.count == 1)
        try scope.close()
        #expect(disposals.count == 1)
    }

    /// A scoped instance whose resolve built a singleton for it that is not complete until the
    /// resolve completes (it holds a transient whose hook runs then) is published with that
    /// singleton, when the resolve completes: a resolve that fails after building both publishes
    /// neither, and the next builds both again. The scope disposes each scoped instance it took
    /// charge of.
    @Test func scopedInstanceHoldingASingletonBuiltByAFailedResolveIsBuiltAgain() throws {
        let alive = LiveCounter()
        let container = Container()
        let calls = CallCounter()
        let disposals = CallCounter()
        registerHooked(in: container)
        container.register(CountedSingleton.self, scope: .singleton) { r in
            _ = try r.resolve(HookedService.self)
            return CountedSingleton(alive: alive)
        }
        container.register(ScopedWork.self, scope: .scoped) { r in
            _ = try r.resolve(CountedSingleton.self)
            calls.next()
            return ScopedWork(disposals: disposals)
        }
        let scope = try failedRequest(resolving: ScopedWork.self, in: container)
        #expect(alive.count == 0)
        let work = try scope.resolve(ScopedWork.self)
        #expect(calls.count == 2)
        #expect(try scope.resolve(ScopedWork.self) === work)
        #expect(alive.count == 1)
        try scope.close()
        #expect(disposals.count == 2)
    }

    /// A scoped instance whose resolve built a singleton for it that is complete when its factory
    /// returns: the singleton is published at once, and so is the scoped instance, which holds
    /// nothing unpublished. A resolve that fails after building both leaves both published, sync or
    /// async: the next resolves get them, each built once; the scope disposes the scoped instance
    /// once, and the container the singleton.
    @Test(arguments: [false, true])
    func scopedInstanceHoldingASingletonBuiltByAFailedResolveStaysInItsScope(async: Bool) async throws {
        let (alive, singletonDisposals) = (LiveCounter(), CallCounter())
        let container = Container()
        let calls = CallCounter()
        let disposals = CallCounter()
        let scope: LifetimeScope
        if async {
            container.register(DisposableSingleton.self, scope: .singleton) { _ async in
                DisposableSingleton(alive: alive, disposals: singletonDisposals)
            }
            container.register(ScopedWork.self, scope: .scoped) { r async throws in
                _ = try await r.resolveAsync(DisposableSingleton.self)
                calls.next()
                return ScopedWork(disposals: disposals)
            }
            scope = try await failedAsyncRequest(resolving: ScopedWork.self, in: container)
        } else {
            container.register(DisposableSingleton.self, scope: .singleton) { _ in
                DisposableSingleton(alive: alive, disposals: singletonDisposals)
            }
            container.register(ScopedWork.self, scope: .scoped) { r in
                _ = try r.resolve(DisposableSingleton.self)
                calls.next()
                return ScopedWork(disposals: disposals)
            }
            scope = try failedRequest(resolving: ScopedWork.self, in: container)
        }
        #expect((alive.count, calls.count) == (1, 1))
        let work = try await scope.resolveAsync(ScopedWork.self)
        #expect(try await scope.resolveAsync(ScopedWork.self) === work)
        _ = try await container.resolveAsync(DisposableSingleton.self)
        #expect((alive.made, calls.count) == (1, 1))
        try await scope.closeAsync()
        #expect(disposals.count == 1)
        try await container.shutdownAsync()
        #expect(singletonDisposals.count == 1)
    }
}

extension ScopeTests {
    /// As with a sync resolve, an async scoped instance that holds nothing unpublished is published
    /// as soon as it is built: an async resolve that builds it and then fails leaves it in its
    /// scope, where the next resolve finds it; the scope disposes it once.
    @Test func asyncScopedInstanceBuiltByAFailedResolveStaysInItsScope() async throws {
        let container = Container()
        let calls = CallCounter()
        let disposals = CallCounter()
        container.register(ScopedWork.self, scope: .scoped) { _ async in
            calls.next()
            return ScopedWork(disposals: disposals)
        }
        let scope = try await failedAsyncRequest(resolving: ScopedWork.self, in: container)
        let work = try await scope.resolveAsync(ScopedWork.self)
        #expect(calls.count == 1)
        #expect(try await scope.resolveAsync(ScopedWork.self) === work)
        try await scope.closeAsync()
        #expect(disposals.count == 1)
    }

    /// An async scoped instance that holds nothing unpublished is handed to another task waiting
    /// for it as soon as it is built, not when the resolve that built it completes: that resolve
    /// goes on only once the other task has it.
    @Test func asyncScopedInstanceReachesAnotherTaskBeforeItsResolveCompletes() async throws {
        let container = Container()
        let (built, received) = (Signal(), Signal())
        container.register(ScopedWork.self, scope: .scoped) { _ async in ScopedWork(disposals: CallCounter()) }
        container.register(GatedRequest.self) { r async throws in
            let work = try await r.resolveAsync(ScopedWork.self)
            built.signal()
            guard await awaited(received) else { throw RequestRefused() }
            return GatedRequest(work: work)
        }
        let scope = container.makeScope()
        let request = Task { try await scope.resolveAsync(GatedRequest.self) }
        #expect(await awaited(built))
        let work = try await scope.resolveAsync(ScopedWork.self)
        received.signal()
        #expect(try await request.value.work === work)
        try await scope.closeAsync()
    }

    /// An async scoped instance whose resolve built a singleton for it that is not complete until
    /// the resolve completes (it holds a transient whose hook runs then) is published with that
    /// singleton, when the resolve completes: an async resolve that fails after building both
    /// publishes neither, and the next builds both again.
    @Test func asyncScopedInstanceHoldingASingletonBuiltByAFailedResolveIsBuiltAgain() async throws {
        let alive = LiveCounter()
        let container = Container()
        let calls = CallCounter()
        let disposals = CallCounter()
        registerHooked(in: container, async: true)
        container.register(CountedSingleton.self, scope: .singleton) { r async throws in
            _ = try await r.resolveAsync(HookedService.self)
            return CountedSingleton(alive: alive)
        }
        container.register(ScopedWork.self, scope: .scoped) { r async throws in
            _ = try await r.resolveAsync(CountedSingleton.self)
            calls.next()
            return ScopedWork(disposals: disposals)
        }
        let scope = try await failedAsyncRequest(resolving: ScopedWork.self, in: container)
        #expect(alive.count == 0)
        let work = try await scope.resolveAsync(ScopedWork.self)
        #expect(calls.count == 2)
        #expect(try await scope.resolveAsync(ScopedWork.self) === work)
        #expect(alive.count == 1)
        try await scope.closeAsync()
        #expect(disposals.count == 2)
    }
}
