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

// Many tasks racing for async shared instances. CI runs this suite under ThreadSanitizer
// (`swift test --sanitize=thread --filter AsyncConcurrencyTests`), so a data race in the library
// fails it even when the assertions hold. Factories suspend (`Task.yield()`) while building, so that
// other tasks arrive while construction is under way; no assertion depends on whether they did.

// MARK: - Test doubles (private to this file)

private let taskCount = 100

/// An async singleton whose construction suspends several times.
private final class SharedPool: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// A per-scope session that counts its own disposals.
private final class ScopeSession: AsyncDisposable, Sendable {
    let serial: Int
    private let disposals = Guarded(0)
    init(serial: Int) { self.serial = serial }

    var disposalCount: Int { disposals.current }

    func disposeAsync() async throws {
        await Task.yield()
        disposals.add(1)
    }
}

/// A sync singleton, and an async singleton built from it.
private final class SyncSettings: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class AsyncGateway: Sendable {
    let settings: SyncSettings
    init(settings: SyncSettings) { self.settings = settings }
}

/// An async singleton prepared by an onResolved hook: `prepared` is a plain property written by
/// the hook only, before the instance is published. A task that sees it unprepared, or reads it
/// without a happens-before edge to the hook's write (ThreadSanitizer), fails the test.
private final class FlakyLink: @unchecked Sendable {
    let serial: Int
    var prepared = false
    init(serial: Int) { self.serial = serial }
}
private struct LinkDown: Error {}

/// Suspends the current task a few times: other tasks run meanwhile.
private func suspendAFewTimes() async {
    for _ in 0..<5 { await Task.yield() }
}

/// The identities of `objects`, to count how many distinct instances the tasks received.
private func identities(_ objects: [AnyObject]) -> Set<ObjectIdentifier> {
    Set(objects.map(ObjectIdentifier.init))
}

/// Runs `body` in `taskCount` tasks at once and collects what each returned.
private func race<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> [Result] {
    try await withThrowingTaskGroup(of: Result.self) { group in
        for _ in 0..<taskCount { group.addTask(operation: body) }
        return try await group.reduce(into: []) { $0.append($1) }
    }
}

/// Registers a scoped ScopeSession whose factory counts its calls and suspends a few times.
private func registerSuspendingSession(in container: Container, calls: CallCounter) {
    container.register(ScopeSession.self, scope: .scoped) { _ in
        let serial = calls.next()
        await suspendAFewTimes()
        return ScopeSession(serial: serial)
    }
}

/// What one task of a race got: an instance, or the error its resolve threw.
private enum Outcome: Sendable {
    case built(FlakyLink)
    case failed(code: InjectionError.Code?, underlyingIsLinkDown: Bool)
}

// MARK: - Tests

struct AsyncConcurrencyTests {
    /// An async singleton raced by 100 tasks is built once, and every task gets that instance.
    @Test func asyncSingletonRacedByManyTasksIsBuiltOnce() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(SharedPool.self, scope: .singleton) { _ in
            let serial = calls.next()
            await suspendAFewTimes()
            return SharedPool(serial: serial)
        }

        let pools = try await race { try await container.resolveAsync(SharedPool.self) }

        #expect(pools.count == taskCount)
        #expect(identities(pools).count == 1)
        #expect(calls.count == 1)
        #expect(try await container.resolveAsync(SharedPool.self) === pools[0])
    }

    /// An async scoped service raced by 100 tasks in one scope is built once for that scope.
    @Test func asyncScopedServiceRacedInOneScopeIsBuiltOnce() async throws {
        let container = Container()
        let calls = CallCounter()
        registerSuspendingSession(in: container, calls: calls)
        let scope = container.makeScope()

        let sessions = try await race { try await scope.resolveAsync(ScopeSession.self) }
        try await scope.closeAsync()

        #expect(sessions.count == taskCount)
        #expect(identities(sessions).count == 1)
        #expect(calls.count == 1)
        #expect(sessions[0].disposalCount == 1)
    }

    /// 100 tasks, each with its own scope, get 100 instances; each scope disposes its own, once.
    @Test func eachTaskScopeBuildsAndDisposesItsOwnInstance() async throws {
        let container = Container()
        let calls = CallCounter()
        registerSuspendingSession(in: container, calls: calls)

        let sessions = try await withThrowingTaskGroup(of: ScopeSession.self) { group in
            for _ in 0..<taskCount {
                group.addTask {
                    let scope = container.makeScope()
                    let session = try await scope.resolveAsync(ScopeSession.self)
                    #expect(try await scope.resolveAsync(ScopeSession.self) === session)
                    try await scope.closeAsync()
                    try await scope.closeAsync()  // a second close disposes nothing
                    return session
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(identities(sessions).count == taskCount)
        #expect(Set(sessions.map(\.serial)) == Set(1...taskCount))
        #expect(calls.count == taskCount)
        #expect(sessions.allSatisfy { $0.disposalCount == 1 })
    }

    /// Async singletons built from a sync singleton, raced by tasks resolving either: each factory
    /// runs once, and everyone shares the one sync instance.
    @Test func asyncSingletonDependingOnSyncSingletonUnderRace() async throws {
        let container = Container()
        let settingsCalls = CallCounter()
        let gatewayCalls = CallCounter()
        container.register(SyncSettings.self, scope: .singleton) { _ in SyncSettings(serial: settingsCalls.next()) }
        container.register(AsyncGateway.self, scope: .singleton) { r in
            gatewayCalls.next()
            await suspendAFewTimes()
            let settings = try r.resolve(SyncSettings.self)
            await Task.yield()
            return AsyncGateway(settings: settings)
        }

        let settings = try await withThrowingTaskGroup(of: SyncSettings.self) { group in
            for index in 0..<taskCount {
                group.addTask {
                    switch index % 3 {
                    case 0: try container.resolve(SyncSettings.self)
                    case 1: try await container.resolveAsync(SyncSettings.self)
                    default: try await container.resolveAsync(AsyncGateway.self).settings
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(settings.count == taskCount)
        #expect(identities(settings).count == 1)
        #expect(settingsCalls.count == 1)
        #expect(gatewayCalls.count == 1)
        #expect(try await container.resolveAsync(AsyncGateway.self).settings === settings[0])
    }

    /// An async singleton whose factory fails on its first call only, raced by 100 tasks: the task
    /// that ran the failing call gets the error, every other task the one, fully prepared instance;
    /// the factory runs twice (the failure, then the success) and later resolves share the instance.
    @Test func failingAsyncSingletonUnderRaceNeverHandsOutAHalfBuiltInstance() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(FlakyLink.self, scope: .singleton) { _ in
            let serial = calls.next()
            await suspendAFewTimes()
            if serial == 1 { throw LinkDown() }
            return FlakyLink(serial: serial)
        }
        .onResolved { _, link in link.prepared = true }

        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<taskCount {
                group.addTask {
                    do {
                        return .built(try await container.resolveAsync(FlakyLink.self))
                    } catch {
                        let injection = error as? InjectionError
                        return .failed(
                            code: injection?.code,
                            underlyingIsLinkDown: injection?.underlyingError is LinkDown
                        )
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var links: [FlakyLink] = []
        var failures: [(code: InjectionError.Code?, underlyingIsLinkDown: Bool)] = []
        for outcome in outcomes {
            switch outcome {
            case .built(let link): links.append(link)
            case .failed(let code, let underlyingIsLinkDown): failures.append((code, underlyingIsLinkDown))
            }
        }

        #expect(failures.count == 1)
        #expect(failures.allSatisfy { $0.code == .factoryFailed && $0.underlyingIsLinkDown })
        #expect(links.count == taskCount - 1)
        #expect(identities(links).count == 1)
        #expect(links.allSatisfy { $0.prepared && $0.serial == 2 })
        #expect(calls.count == 2)
        let later = try await container.resolveAsync(FlakyLink.self)
        #expect(later.serial == 2)
        #expect(later.prepared)
        #expect(calls.count == 2)
    }
}
