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

// When the shared instances built by resolutions that run within an async factory (through a
// captured scope, in the factory's task or in child tasks) are published: with the resolution
// running the factory, which may have built what they hold and may still drop it.

/// An async singleton, counted.
private final class FamilySingleton: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// An async scoped instance that holds the singleton.
private final class FamilyWork: Sendable {
    let singleton: FamilySingleton
    let serial: Int
    init(singleton: FamilySingleton, serial: Int) {
        self.singleton = singleton
        self.serial = serial
    }
}

/// What the test resolves: its factory builds the singleton and, in a child task, the work.
private final class FamilyRequest: Sendable {
    let work: FamilyWork
    init(work: FamilyWork) { self.work = work }
}

/// A transient that resolves the scoped work, then fails.
private final class FailingWorkHolder: Sendable {}

/// Holds a lifetime scope for a factory registered before it was made.
private final class ScopeHolder: @unchecked Sendable {  // set once, before any resolve
    var scope: LifetimeScope?
}

private struct Refused: Error {}

/// A container with the singleton and the work registered, and what the tests watch them with.
private struct Family: Sendable {
    let container = Container()
    let singletons = CallCounter()
    let works = CallCounter()
    /// Signalled by the work's factory when it starts.
    let workStarted = Signal()
    /// Awaited by the work's factory before it resolves the singleton.
    let singletonBuilt = Signal()
    /// Holds the lifetime scope the factories resolve the work in, once made.
    let holder = ScopeHolder()

    init() {
        let (singletons, works, workStarted, singletonBuilt) = (singletons, works, workStarted, singletonBuilt)
        container.register(FamilySingleton.self, scope: .singleton) { _ async in
            FamilySingleton(serial: singletons.next())
        }
        container.register(FamilyWork.self, scope: .scoped) { r async throws in
            workStarted.signal()
            await singletonBuilt.wait()
            return FamilyWork(singleton: try await r.resolveAsync(FamilySingleton.self), serial: works.next())
        }
    }

    /// The lifetime scope the factories resolve the work in.
    var scope: LifetimeScope { holder.scope! }

    /// Makes the lifetime scope the factories resolve the work in.
    func makeScope() -> LifetimeScope {
        let scope = container.makeScope()
        holder.scope = scope
        return scope
    }
}

/// Resolves `FamilyRequest` in a new scope of the family's container, expecting its factory to
/// fail; then checks that the work the scope keeps holds the singleton the container publishes.
private func expectFailedRequestKeepsNoWorkHoldingADroppedSingleton(
    _ family: Family,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let scope = family.makeScope()

    let error = await injectionErrorAsync { try await scope.resolveAsync(FamilyRequest.self) }
    #expect(error?.code == .factoryFailed, sourceLocation: sourceLocation)

    let singleton = try await family.container.resolveAsync(FamilySingleton.self)
    let work = try await scope.resolveAsync(FamilyWork.self)
    #expect(
        work.singleton === singleton,
        "serials: kept \(work.singleton.serial), published \(singleton.serial)",
        sourceLocation: sourceLocation
    )
    try await scope.closeAsync()
}

@Suite struct AsyncFamilyPublicationTests {
    /// A child task (`async let`) builds a scoped instance around the singleton its parent's
    /// resolution built and has not published; its resolve completes; then the parent's fails and
    /// drops the singleton. The scoped instance is dropped with it, not kept in its scope holding
    /// a singleton the container never publishes.
    @Test func aChildTasksScopedInstanceIsDroppedWithTheSingletonItsParentsFailedResolveDrops() async throws {
        let family = Family()
        family.container.register(FamilyRequest.self) { r async throws in
            async let work = family.scope.resolveAsync(FamilyWork.self)
            _ = try await r.resolveAsync(FamilySingleton.self)
            family.singletonBuilt.signal()
            _ = try await work
            throw Refused()
        }
        try await expectFailedRequestKeepsNoWorkHoldingADroppedSingleton(family)
        #expect(family.works.count == 2)
    }

    /// The same with a task group.
    @Test func aTaskGroupsScopedInstanceIsDroppedWithTheSingletonItsParentsFailedResolveDrops() async throws {
        let family = Family()
        family.container.register(FamilyRequest.self) { r async throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await family.scope.resolveAsync(FamilyWork.self) }
                _ = try await r.resolveAsync(FamilySingleton.self)
                family.singletonBuilt.signal()
                try await group.waitForAll()
            }
            throw Refused()
        }
        try await expectFailedRequestKeepsNoWorkHoldingADroppedSingleton(family)
        #expect(family.works.count == 2)
    }

    /// A child task's resolve builds the scoped instance around its parent's unpublished singleton,
    /// then fails; the parent's resolution fails too. Neither keeps the scoped instance.
    @Test func aFailedChildResolveKeepsNoScopedInstanceHoldingADroppedSingleton() async throws {
        let family = Family()
        family.container.register(FailingWorkHolder.self) { r async throws in
            _ = try await r.resolveAsync(FamilyWork.self)
            throw Refused()
        }
        family.container.register(FamilyRequest.self) { r async throws in
            async let holding = family.scope.resolveAsync(FailingWorkHolder.self)
            _ = try await r.resolveAsync(FamilySingleton.self)
            family.singletonBuilt.signal()
            _ = try? await holding
            throw Refused()
        }
        try await expectFailedRequestKeepsNoWorkHoldingADroppedSingleton(family)
    }

    /// When the parent's resolve succeeds, what its child task built is published with it: the
    /// scope then gives the one instance the child built, holding the published singleton.
    @Test func aChildTasksScopedInstanceIsPublishedWithItsParentsResolve() async throws {
        let family = Family()
        family.container.register(FamilyRequest.self) { r async throws in
            async let work = family.scope.resolveAsync(FamilyWork.self)
            _ = try await r.resolveAsync(FamilySingleton.self)
            family.singletonBuilt.signal()
            return FamilyRequest(work: try await work)
        }
        let scope = family.makeScope()

        let request = try await scope.resolveAsync(FamilyRequest.self)

        #expect(try await scope.resolveAsync(FamilyWork.self) === request.work)
        #expect(try await family.container.resolveAsync(FamilySingleton.self) === request.work.singleton)
        #expect((family.singletons.count, family.works.count) == (1, 1))
        try await scope.closeAsync()
    }

    /// A resolution outside the family that asks for what a child task built, while the parent's
    /// factory still runs, waits for the parent's resolve to complete, and then gets that instance:
    /// it is neither shown an instance that may yet be dropped, nor builds a second one.
    @Test func aResolveOutsideTheFamilyWaitsForTheParentsResolveToComplete() async throws {
        let family = Family()
        let (childDone, outsiderWaits) = (Signal(), Signal())
        family.container.register(FamilyRequest.self) { r async throws in
            async let work = family.scope.resolveAsync(FamilyWork.self)
            _ = try await r.resolveAsync(FamilySingleton.self)
            family.singletonBuilt.signal()
            let built = try await work
            childDone.signal()
            await outsiderWaits.wait()
            return FamilyRequest(work: built)
        }
        let scope = family.makeScope()

        let parent = Task { try await scope.resolveAsync(FamilyRequest.self) }
        #expect(await awaited(childDone))
        let outsider = Task.detached { try await scope.resolveAsync(FamilyWork.self) }
        let waited = await awaitedUntil { AsyncInstanceGates.waits().contains { $0.serviceType == FamilyWork.self } }
        outsiderWaits.signal()

        #expect(waited, "the outsider did not wait for the parent's resolve")
        let request = await withWatchdog { try? await parent.value } ?? nil
        let seen = await withWatchdog { try? await outsider.value } ?? nil
        #expect(seen != nil && seen === request?.work)
        #expect(family.works.count == 1)
        try await scope.closeAsync()
    }

    /// A task started with `Task { }` inside the factory, whose resolve starts while the factory
    /// runs and completes after it has returned, publishes what it built itself: there is no
    /// running resolution left to take it.
    @Test func aResolveThatOutlivesTheFactoryPublishesWhatItBuilt() async throws {
        let family = Family()
        let late = Locked.make(Task<FamilyWork, any Error>?.none)
        family.container.register(FamilyRequest.self, scope: .scoped) { r async throws in
            let task = Task { try await family.scope.resolveAsync(FamilyWork.self) }
            late.withLock { $0 = task }
            _ = try await r.resolveAsync(FamilySingleton.self)
            await family.workStarted.wait()
            return FamilyRequest(work: FamilyWork(singleton: FamilySingleton(serial: -1), serial: -1))
        }
        let scope = family.makeScope()

        _ = try await scope.resolveAsync(FamilyRequest.self)
        family.singletonBuilt.signal()
        let built = await withWatchdog { try? await late.withLock { $0 }!.value } ?? nil

        #expect(built != nil)
        #expect(try await scope.resolveAsync(FamilyWork.self) === built)
        #expect(family.works.count == 1)
        try await scope.closeAsync()
    }
}
