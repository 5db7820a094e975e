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

// MARK: - Test doubles (private to this file)

/// The instances of one type: how many were made and released, and each disposal by serial number.
private final class Census: Sendable {
    let made = CallCounter()
    let released = CallCounter()
    let disposals = EventLog()

    /// The instances made and not yet released.
    var live: Int { made.count - released.count }

    /// Whether every instance made was disposed exactly once.
    var everyInstanceDisposedOnce: Bool {
        disposals.counts == Dictionary(uniqueKeysWithValues: (0..<made.count).map { ("\($0 + 1)", 1) })
    }
}

/// Takes a serial number from its census, and reports its disposal and its release there.
private class Counted: Disposable, @unchecked Sendable {  // only `let`s of Sendable types
    let serial: Int
    private let census: Census
    init(_ census: Census) {
        serial = census.made.next()
        self.census = census
    }
    deinit { census.released.next() }
    func dispose() throws { census.disposals.record("\(serial)") }
}

private final class RequestState: Counted, @unchecked Sendable {}
private final class SharedCache: Counted, @unchecked Sendable {}
private final class SessionLedger: Counted, @unchecked Sendable {}

/// A transient that depends on the request's state and the shared cache.
private final class RequestWorker: Counted, @unchecked Sendable {
    let state: RequestState
    let cache: SharedCache
    init(_ census: Census, state: RequestState, cache: SharedCache) {
        self.state = state
        self.cache = cache
        super.init(census)
    }
}

/// What one scope's work saw, by serial numbers.
private struct ScopeOutcome: Sendable {
    let state: Int
    let workers: [Int]
    let cache: Int
    /// Whether both workers and the direct resolve got the scope's one state, and the workers one cache.
    let sharedState: Bool
}

/// The censuses of the request services, registered in a fresh container.
private struct RequestServices {
    let container = Container()
    let states = Census(), workers = Census(), caches = Census()

    init() {
        let (states, workers, caches) = (states, workers, caches)
        container.register(RequestState.self, scope: .scoped(to: "request")) { _ in RequestState(states) }
        container.register(SharedCache.self, scope: .singleton) { _ in SharedCache(caches) }
        container.register(RequestWorker.self) { r in
            try RequestWorker(workers, state: r.resolve(RequestState.self), cache: r.resolve(SharedCache.self))
        }
    }
}

/// Opens a scope, resolves two workers and the state from it, and closes it: synchronously, or
/// asynchronously through `resolveAsync` and the async close.
private func runRequest(in container: Container, async: Bool) async throws -> ScopeOutcome {
    let scope = container.makeScope(tag: "request")
    let first: RequestWorker
    let second: RequestWorker
    let state: RequestState
    if async {
        first = try await scope.resolveAsync(RequestWorker.self)
        second = try await scope.resolveAsync(RequestWorker.self)
        state = try await scope.resolveAsync(RequestState.self)
        try await scope.closeAsync()
    } else {
        first = try scope.resolve(RequestWorker.self)
        second = try scope.resolve(RequestWorker.self)
        state = try scope.resolve(RequestState.self)
        try closeSynchronously(scope)
    }
    return ScopeOutcome(
        state: state.serial,
        workers: [first.serial, second.serial],
        cache: first.cache.serial,
        sharedState: first.state === state && second.state === state && first.cache === second.cache
    )
}

/// The sync close, which is unavailable in async code (`noasync`): an async test calls it through here.
private func closeSynchronously(_ scope: LifetimeScope) throws { try scope.close() }

// MARK: - Tests

@Suite struct ScopeConcurrencyTests {
    /// 1,000 scopes used and closed at once: each disposable disposed exactly once, none leaked.
    @Test func thousandConcurrentScopesDisposeEachInstanceOnceAndLeakNothing() async throws {
        let services = RequestServices()
        let container = services.container

        let outcomes = try await withThrowingTaskGroup(of: ScopeOutcome.self) { group in
            for index in 0..<1_000 {
                group.addTask { try await runRequest(in: container, async: index.isMultiple(of: 2)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(outcomes.count == 1_000)
        #expect(outcomes.allSatisfy { $0.sharedState })
        #expect(Set(outcomes.map(\.state)).count == 1_000, "one state per scope")
        #expect(Set(outcomes.flatMap(\.workers)).count == 2_000, "new workers every time")
        #expect(Set(outcomes.map(\.cache)) == [1])
        #expect(services.states.made.count == 1_000)
        #expect(services.workers.made.count == 2_000)
        #expect(services.caches.made.count == 1)

        #expect(services.states.everyInstanceDisposedOnce)
        #expect(services.workers.everyInstanceDisposedOnce)
        #expect(services.states.live == 0, "a closed scope keeps nothing alive")
        #expect(services.workers.live == 0)
        #expect(services.caches.disposals.events.isEmpty, "the singleton is the container's")

        try await container.shutdownAsync()
        #expect(services.caches.everyInstanceDisposedOnce)
        withExtendedLifetime(container) {
            #expect(services.caches.live == 1, "the container still holds its singleton, disposed")
        }
    }

    /// Tasks sharing one scope get its one instance of a scoped service: the factory runs once.
    @Test func tasksSharingOneScopeGetOneScopedInstance() async throws {
        let container = Container()
        let states = Census()
        let ledgers = Census()
        container.register(RequestState.self, scope: .scoped) { _ in RequestState(states) }
        container.register(SessionLedger.self, scope: .scoped) { _ async throws in
            await Task.yield()
            return SessionLedger(ledgers)
        }
        let scope = container.makeScope()

        let serials = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<64 {
                group.addTask {
                    let state = try scope.resolve(RequestState.self)
                    let viaAsync = try await scope.resolveAsync(RequestState.self)
                    let ledger = try await scope.resolveAsync(SessionLedger.self)
                    return [state.serial, viaAsync.serial, ledger.serial]
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(serials.count == 64)
        #expect(serials.allSatisfy { $0 == [1, 1, 1] })
        #expect(states.made.count == 1)
        #expect(ledgers.made.count == 1)
        try await scope.closeAsync()
        #expect(states.everyInstanceDisposedOnce)
        #expect(ledgers.everyInstanceDisposedOnce)
        #expect(states.live == 0 && ledgers.live == 0)
    }

    /// A close racing resolutions either waits them out (`.scopeInUse`) or refuses them (`.scopeClosed`):
    /// whatever the interleaving, everything the scope made is disposed exactly once.
    @Test func closeRacingResolutionsLosesNoDisposal() async throws {
        let services = RequestServices()
        let scope = services.container.makeScope(tag: "request")

        let refused = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var refused = 0
                    for _ in 0..<50 {
                        do {
                            _ = try scope.resolve(RequestWorker.self)
                        } catch let error as InjectionError where error.code == .scopeClosed {
                            refused += 1
                        }
                        await Task.yield()
                    }
                    return refused
                }
            }
            group.addTask {
                while true {
                    do {
                        try await scope.closeAsync()
                        return 0
                    } catch let error as InjectionError where error.code == .scopeInUse {
                        #expect(!scope.isClosed)
                        await Task.yield()
                    }
                }
            }
            return try await group.reduce(0, +)
        }

        #expect(scope.isClosed)
        #expect(services.workers.made.count + refused == 400, "every resolve either succeeded or was refused")
        #expect(services.states.made.count <= 1)
        #expect(services.states.everyInstanceDisposedOnce)
        #expect(services.workers.everyInstanceDisposedOnce)
        #expect(services.states.live == 0 && services.workers.live == 0)
    }

    /// A sync close refused because of an AsyncDisposable-only instance never shows the scope as
    /// closed to resolutions running at the same time: the scope stays open throughout.
    @Test func refusedSyncCloseNeverRefusesConcurrentResolutions() async throws {
        let container = Container()
        container.register(AsyncOnlyConnection.self, scope: .scoped) { _ in AsyncOnlyConnection() }
        container.register(SessionLedger.self) { _ in SessionLedger(Census()) }
        let scope = container.makeScope()
        _ = try scope.resolve(AsyncOnlyConnection.self)

        // On threads of their own: thousands of refusals are slow under ThreadSanitizer, and on the
        // cooperative pool they would starve the async tests that run beside this one.
        let refused = Guarded(0)
        let failures = Guarded([String]())
        let closer: @Sendable () -> Void = {
            for _ in 0..<2_000 {
                do { try closeSynchronously(scope) } catch let error as InjectionError
                    where error.code == .asyncDisposalRequired
                {
                    _ = refused.add(1)
                } catch {
                    failures.withLock { $0.append("close: \(error)") }
                }
            }
        }
        let resolver: @Sendable () -> Void = {
            for _ in 0..<2_000 {
                // Throws .scopeClosed if the scope ever looked closed.
                do { _ = try scope.resolve(SessionLedger.self) } catch {
                    failures.withLock { $0.append("resolve: \(error)") }
                }
            }
        }
        #expect(await onThreads(seconds: 120, [closer, resolver, resolver]))
        let refusals = refused.current

        #expect(failures.current == [])
        #expect(refusals == 2_000)
        #expect(!scope.isClosed)
        try await scope.closeAsync()
        #expect(scope.isClosed)
    }

    /// Every resolution from a scope reads where the scope's disposables are recorded, without the
    /// scope's lock, while other threads record theirs under it: the read must never copy the
    /// records (a copy made while they change crashed a debug build, one run in ten).
    @Test func resolutionsReadingTheScopeWhileOthersRecordDisposablesNeverCrash() async throws {
        let census = Census()
        let container = Container()
        container.register(RequestState.self) { _ in RequestState(census) }
        container.register(Int.self) { _ in 7 }
        let scope = container.makeScope()
        let start = DispatchSemaphore(value: 0)
        let recorders: [@Sendable () -> Void] = (0..<2).map { _ in
            {
                guard waited(for: start) else { return }
                for _ in 0..<20_000 { _ = try? scope.resolve(RequestState.self) }
            }
        }
        let readers: [@Sendable () -> Void] = (0..<2).map { _ in
            {
                guard waited(for: start) else { return }
                for _ in 0..<20_000 { _ = try? scope.resolve(Int.self) }
            }
        }
        let finished = Task { await onThreads(seconds: 120, recorders + readers) }
        for _ in 0..<4 { start.signal() }
        #expect(await finished.value)
        try await scope.closeAsync()
        #expect(census.made.count == 40_000)
        #expect(census.everyInstanceDisposedOnce)
    }
}

/// Only an async disposal can dispose it.
private final class AsyncOnlyConnection: AsyncDisposable, Sendable {
    func disposeAsync() async throws {}
}
