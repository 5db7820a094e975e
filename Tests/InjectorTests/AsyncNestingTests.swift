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

// Async factories that resolve through a captured container or their resolver's (in their own task
// or in child tasks they start), and sync services met inside async resolutions: one resolution,
// not a deadlock.

private final class Pool: Sendable {}
private final class Cache: Sendable {}
private final class Repository: Sendable {
    let pool: Pool
    let cache: Cache
    init(pool: Pool, cache: Cache) {
        self.pool = pool
        self.cache = cache
    }
}
private final class Loop: Sendable {}
private final class Settings: Sendable {}
private final class Session: Sendable {}
private final class Preferences: Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}
private final class Report: Sendable {
    let session: Session
    let sessionOfSettings: Session
    init(session: Session, sessionOfSettings: Session) {
        self.session = session
        self.sessionOfSettings = sessionOfSettings
    }
}

/// Runs `body` in a task and returns its result, or records an issue and returns `nil` if it has
/// not finished within `seconds`: a deadlock fails the test instead of hanging the run.
private func withinDeadline<Result: Sendable>(
    seconds: Double = 10,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result? {
    let task = Task { try await body() }
    let finished = Guarded(false)
    let watcher = Task {
        _ = try? await task.value
        finished.set(true)
    }
    var waited = 0.0
    while !finished.current && waited < seconds {
        try await Task.sleep(nanoseconds: 10_000_000)
        waited += 0.01
    }
    guard finished.current else {
        Issue.record("did not finish within \(seconds) s: a deadlock", sourceLocation: sourceLocation)
        watcher.cancel()
        return nil
    }
    return try await task.value
}

@Suite struct AsyncNestingTests {
    /// An async singleton whose factory resolves another async singleton through the container
    /// resolves, each factory running once.
    @Test func asyncFactoryResolvingThroughTheContainerDoesNotDeadlock() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(Pool.self, scope: .singleton) { _ in
            calls.next()
            await Task.yield()
            return Pool()
        }
        container.register(Repository.self, scope: .singleton) { _ in
            calls.next()
            return try await Repository(pool: container.resolveAsync(Pool.self), cache: Cache())
        }

        let repository = try await withinDeadline { try await container.resolveAsync(Repository.self) }

        #expect(repository?.pool === (try await container.resolveAsync(Pool.self)))
        #expect(calls.count == 2)
    }

    /// An async factory resolving two async singletons in parallel child tasks gets both, each
    /// built once, whether it captured the container or took it from its resolver. Taken from the
    /// resolver, it keeps nothing alive: the container and its singletons are freed once the caller
    /// lets them go (a captured one is kept by its own factory, which the container keeps).
    @Test(arguments: [false, true])
    func asyncFactoryResolvingInChildTasksDoesNotDeadlock(throughItsResolver: Bool) async throws {
        weak var released: Container?
        weak var releasedRepository: Repository?
        let poolCalls = CallCounter()
        let cacheCalls = CallCounter()
        do {
            let container = Container()
            container.register(Pool.self, scope: .singleton) { _ in
                poolCalls.next()
                await Task.yield()
                return Pool()
            }
            container.register(Cache.self, scope: .singleton) { _ in
                cacheCalls.next()
                await Task.yield()
                return Cache()
            }
            if throughItsResolver {
                container.register(Repository.self, scope: .singleton) { r in
                    try await Self.repository(from: r.container)
                }
            } else {
                container.register(Repository.self, scope: .singleton) { _ in
                    try await Self.repository(from: container)
                }
            }

            let repository = try await withinDeadline { try await container.resolveAsync(Repository.self) }

            #expect(repository?.pool === (try await container.resolveAsync(Pool.self)))
            (released, releasedRepository) = (container, repository)
        }
        #expect(poolCalls.count == 1)
        #expect(cacheCalls.count == 1)
        if throughItsResolver {
            #expect(released == nil)
            #expect(releasedRepository == nil)
        }
    }

    /// A repository whose pool and cache `source` resolves in parallel child tasks, the pool twice.
    private static func repository(from source: Container) async throws -> Repository {
        async let pool = source.resolveAsync(Pool.self)
        async let cache = source.resolveAsync(Cache.self)
        async let samePool = source.resolveAsync(Pool.self)
        let repository = try await Repository(pool: pool, cache: cache)
        #expect(try await samePool === repository.pool)
        return repository
    }

    /// Child tasks resolving through the resolver's container resolve as the container does: a
    /// scoped service there is outside any lifetime scope, even when the factory runs in one. (The
    /// factory resolves it through its resolver first, and hands it to them.)
    @Test func childTasksThroughTheResolversContainerDoNotSeeTheFactorysScope() async throws {
        let container = Container()
        container.register(Session.self, scope: .scoped) { _ in Session() }
        container.register(Report.self) { r in
            let session = try r.resolve(Session.self)
            let container = try r.container
            async let sessionOfChild = container.resolveAsync(Session.self)
            return try await Report(session: session, sessionOfSettings: sessionOfChild)
        }
        let scope = container.makeScope()

        let error = await #expect(throws: InjectionError.self) { try await scope.resolveAsync(Report.self) }

        #expect(error?.code == .scopeMismatch)
        #expect(
            error?.message
                == "Session is .scoped, but was resolved from a container, outside any lifetime scope, so nothing"
                + " would own its instance. Path: Report -> Session. Fix: resolve from a lifetime scope: let scope"
                + " = container.makeScope(); try scope.resolve(…)."
        )
        try await scope.closeAsync()
    }

    /// An async factory that resolves its own service through the container is a cycle, reported
    /// after one run of the factory: through a captured container in its own task, or through its
    /// resolver's container in a child task.
    @Test(arguments: [false, true])
    func asyncCycleThroughTheContainerIsReported(inAChildTask: Bool) async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(Loop.self) { r in
            calls.next()
            if inAChildTask {
                let container = try r.container
                async let again = container.resolveAsync(Loop.self)
                _ = try await again
            } else {
                _ = try await container.resolveAsync(Loop.self)
            }
            return Loop()
        }

        let error = try await withinDeadline { () -> InjectionError? in
            do {
                _ = try await container.resolveAsync(Loop.self)
                return nil
            } catch let error as InjectionError {
                return error
            }
        }

        #expect(error??.code == .circularDependency)
        #expect(error??.message.hasPrefix("Circular dependency: Loop -> Loop.") == true)
        #expect(calls.count == 1)
    }

    /// A sync singleton met in an async resolution, whose factory resolves itself through the
    /// container, is a cycle reported after one run of its factory.
    @Test func syncCycleInsideAnAsyncResolutionIsReported() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(Settings.self, scope: .singleton) { _ in
            calls.next()
            _ = try container.resolve(Settings.self)
            return Settings()
        }

        let error = await #expect(throws: InjectionError.self) { try await container.resolveAsync(Settings.self) }

        #expect(error?.code == .circularDependency)
        #expect(error?.message.hasPrefix("Circular dependency: Settings -> Settings.") == true)
        #expect(calls.count == 1)
    }

    /// A sync transient met in an async resolution, whose factory resolves itself through the
    /// container, closes a cycle at its first re-entry: its factory runs once, and the path starts
    /// at the async service.
    @Test func syncTransientCycleThroughTheContainerInsideAnAsyncResolutionIsFoundAtOnce() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(Loop.self) { _ in
            calls.next()
            _ = try container.resolve(Loop.self)
            return Loop()
        }
        container.register(Session.self) { r async throws in
            _ = try await r.resolveAsync(Loop.self)
            return Session()
        }

        let error = await #expect(throws: InjectionError.self) { try await container.resolveAsync(Session.self) }

        #expect(error?.code == .circularDependency)
        #expect(error?.resolutionPath.map(\.description) == ["Session", "Loop", "Loop"])
        let cycle = "Circular dependency: Session -> Loop -> Loop. The loop is Loop -> Loop:"
        #expect(error?.message.hasPrefix(cycle) == true)
        #expect(calls.count == 1)
    }

    /// A sync resolve through the container, called by an async factory, fails with the path from
    /// the async service being built.
    @Test func syncResolveThroughTheContainerInAnAsyncFactoryFailsWithTheWholePath() async throws {
        let container = Container()
        container.register(Preferences.self) { _ in try Preferences(session: container.resolve(Session.self)) }
        container.register(Report.self) { _ async throws in
            let preferences = try container.resolve(Preferences.self)
            return Report(session: preferences.session, sessionOfSettings: preferences.session)
        }

        let error = await #expect(throws: InjectionError.self) { try await container.resolveAsync(Report.self) }

        #expect(error?.code == .missingRegistration)
        #expect(error?.resolutionPath.map(\.description) == ["Report", "Preferences", "Session"])
        let missing = "No registration for Session, needed by Report -> Preferences -> Session (missing)."
        #expect(error?.message.hasPrefix(missing) == true)
    }

    /// A graph-scoped service is one instance across an async resolution, including the sync
    /// singleton built inside it (in a sync resolution of its own, nested in the async one).
    @Test func graphInstanceIsSharedWithTheSyncPartsOfAnAsyncResolution() async throws {
        let container = Container()
        container.register(Session.self, scope: .graph) { _ in Session() }
        container.register(Preferences.self, scope: .singleton) { r in try Preferences(session: r.resolve(Session.self))
        }
        container.register(Report.self) { r in
            let session = try r.resolve(Session.self)
            return try Report(session: session, sessionOfSettings: r.resolve(Preferences.self).session)
        }

        let report = try await container.resolveAsync(Report.self)

        #expect(report.session === report.sessionOfSettings)
    }
}

extension AsyncNestingTests {
    /// An async factory that asks for one cold async singleton both through its resolver and, in an
    /// `async let` child task, through the container: the singleton's factory runs once, and the
    /// dependent holds one instance.
    @Test(arguments: 0..<20)
    func asyncSingletonAskedThroughTheResolverAndAChildTaskIsBuiltOnce(round: Int) async throws {
        let container = Container()
        let poolCalls = CallCounter()
        container.register(Pool.self, scope: .singleton) { _ in
            poolCalls.next()
            for _ in 0..<5 { await Task.yield() }
            return Pool()
        }
        container.register(Repository.self) { r in
            async let poolOfChild = container.resolveAsync(Pool.self)
            let pool = try await r.resolveAsync(Pool.self)
            let childPool = try await poolOfChild
            #expect(pool === childPool, "round \(round): the dependent received two instances")
            return Repository(pool: pool, cache: Cache())
        }

        let repository = try await withinDeadline { try await container.resolveAsync(Repository.self) }

        #expect(repository != nil)
        #expect(poolCalls.count == 1, "round \(round): the singleton's factory ran \(poolCalls.count) times")
        #expect(repository?.pool === (try await container.resolveAsync(Pool.self)))
    }
}
