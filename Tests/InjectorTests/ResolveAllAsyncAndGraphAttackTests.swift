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

// An attack on resolveAllAsync (8e9353b), graph instances read back without a cast (61af5d5), Lazy's
// cancellation message (e099b0f), the argument shortcut in `enter` (5110285), the deferred
// resolution refactor (45e56cd) and keepShared (d44188d).

// MARK: - Test doubles (private to this file)

private protocol S59Plugin: Sendable {
    var id: String { get }
}

private final class S59PluginImpl: S59Plugin {
    let id: String
    init(_ id: String) { self.id = id }
}

private final class S59Shared: Sendable {
    let serial: Int
    init(_ serial: Int = 0) { self.serial = serial }
}

private final class S59SharingPlugin: S59Plugin {
    let id: String
    let shared: S59Shared
    init(_ id: String, shared: S59Shared) {
        self.id = id
        self.shared = shared
    }
}

private final class S59DisposablePlugin: S59Plugin, Disposable {
    let id: String
    let log: EventLog
    init(_ id: String, log: EventLog) {
        self.id = id
        self.log = log
    }
    func dispose() throws { log.record("disposed \(id)") }
}

private final class S59Host: Sendable {
    let plugins: [any S59Plugin]
    init(plugins: [any S59Plugin]) { self.plugins = plugins }
}

private struct S59Failure: Error, CustomStringConvertible {
    var description: String { "plugin exploded" }
}

private func ids(_ plugins: [any S59Plugin]) -> [String] { plugins.map(\.id) }

// MARK: - resolveAllAsync

struct ResolveAllAsyncAttackTests {
    /// With only sync registrations, resolveAllAsync returns what resolveAll returns, in the same
    /// order: parent's keys first (a child's replacement in the parent's place), the child's new ones,
    /// then registrations that exist only as overrides.
    @Test func resolveAllAsyncOrdersAsResolveAllDoesAcrossAChildAndOverrides() async throws {
        let parent = Container()
        parent.register((any S59Plugin).self, name: "b") { _ in S59PluginImpl("parent b") }
        parent.register((any S59Plugin).self) { _ in S59PluginImpl("parent unnamed") }
        parent.register((any S59Plugin).self, name: "a") { _ in S59PluginImpl("parent a") }
        let child = parent.makeChild()
        child.register((any S59Plugin).self, name: "a") { _ in S59PluginImpl("child a") }
        child.register((any S59Plugin).self, name: "c") { _ in S59PluginImpl("child c") }

        let sync = try ids(child.resolveAll((any S59Plugin).self))
        let async = try await ids(child.resolveAllAsync((any S59Plugin).self))
        #expect(sync == ["parent b", "parent unnamed", "child a", "child c"])
        #expect(async == sync)

        try await parent.withOverridesAsync {
            $0.register((any S59Plugin).self, name: "z") { _ async in S59PluginImpl("override z") }
            $0.register((any S59Plugin).self, name: "b") { _ async in S59PluginImpl("override b") }
        } operation: {
            let fromChild = try await ids(child.resolveAllAsync((any S59Plugin).self))
            #expect(fromChild == ["override b", "parent unnamed", "child a", "child c", "override z"])
            let fromParent = try await ids(parent.resolveAllAsync((any S59Plugin).self))
            #expect(fromParent == ["override b", "parent unnamed", "parent a", "override z"])
        }
        // Outside the call, the overrides are gone.
        #expect(try await ids(child.resolveAllAsync((any S59Plugin).self)) == sync)
    }

    /// A child's async registration shadows its parent's sync one of the same key: resolveAll from
    /// the parent still works, from the child it names resolveAllAsync.
    @Test func aChildsAsyncRegistrationShadowingASyncOneOnlyAffectsTheChild() async throws {
        let parent = Container()
        parent.register((any S59Plugin).self, name: "a") { _ in S59PluginImpl("parent a") }
        let child = parent.makeChild()
        child.register((any S59Plugin).self, name: "a") { _ async in S59PluginImpl("child a") }

        #expect(try ids(parent.resolveAll((any S59Plugin).self)) == ["parent a"])
        let error = try #require(injectionError { try child.resolveAll((any S59Plugin).self) })
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.message.contains("which a sync resolveAll cannot run"))
        #expect(error.message.contains("resolveAllAsync(S59Plugin.self)"))
        #expect(try await ids(child.resolveAllAsync((any S59Plugin).self)) == ["child a"])
    }

    /// resolveAll's message names resolveAllAsync whatever the lifetime of the async registration,
    /// and from a scope or under overrides too.
    @Test(arguments: ["transient", "graph", "singleton", "weak", "scoped"])
    func resolveAllsMessageNamesResolveAllAsyncForEveryLifetime(_ lifetime: String) throws {
        let container = Container()
        let scope: Scope =
            switch lifetime {
            case "graph": .graph
            case "singleton": .singleton
            case "weak": .weak
            case "scoped": .scoped
            default: .transient
            }
        container.register(S59PluginImpl.self, name: "x", scope: scope) { _ async in S59PluginImpl("x") }
        let lifetimeScope = container.makeScope()
        defer { try? lifetimeScope.close() }

        let error = try #require(injectionError { try lifetimeScope.resolveAll(S59PluginImpl.self) })
        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message.hasPrefix(
                "S59PluginImpl (name: \"x\") has an async factory, which a sync resolveAll cannot run."
            ),
            "\(error.message)"
        )
        #expect(error.message.contains("resolveAllAsync(S59PluginImpl.self)"), "\(error.message)")
        #expect(error.resolutionPath == [ServiceKey(S59PluginImpl.self, name: "x")])
    }

    /// The same, for an async registration that exists only as a test override.
    @Test func resolveAllsMessageNamesResolveAllAsyncForAnAsyncOverride() throws {
        let container = Container()
        container.register((any S59Plugin).self, name: "a") { _ in S59PluginImpl("a") }
        try container.withOverrides {
            $0.register((any S59Plugin).self, name: "b", scope: .singleton) { _ async in S59PluginImpl("b") }
        } operation: {
            let error = try #require(injectionError { try container.resolveAll((any S59Plugin).self) })
            #expect(error.code == .asyncResolutionRequired)
            #expect(error.message.contains("sync resolveAll cannot run"), "\(error.message)")
        }
    }

    /// A type forwarded (`implements`) from an async registration: resolveAll of the forwarded type
    /// should say to use resolveAllAsync of it, as for a direct async registration.
    @Test func resolveAllOfATypeForwardedFromAnAsyncRegistrationNamesResolveAllAsync() async throws {
        let container = Container()
        container.register(S59PluginImpl.self, name: "cloud") { _ async in S59PluginImpl("cloud") }
            .implements((any S59Plugin).self, name: "cloud")
        container.register((any S59Plugin).self, name: "pdf") { _ in S59PluginImpl("pdf") }

        let error = try #require(injectionError { try container.resolveAll((any S59Plugin).self) })
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.message.contains("sync resolveAll cannot run"), "\(error.message)")
        #expect(error.message.contains("resolveAllAsync(S59Plugin.self)"), "\(error.message)")
        #expect(try await ids(container.resolveAllAsync((any S59Plugin).self)) == ["cloud", "pdf"])
    }

    /// The lifetimes hold in resolveAllAsync: a singleton is the same across calls, a graph instance
    /// shared within one call and new in the next, a weak one kept while held, a scoped one the
    /// scope's.
    @Test func resolveAllAsyncKeepsEachLifetime() async throws {
        let container = Container()
        let made = CallCounter()
        container.register(S59Shared.self, name: "graph", scope: .graph) { _ async in S59Shared(made.next()) }
        container.register(S59Shared.self, name: "singleton", scope: .singleton) { _ async in S59Shared(made.next()) }
        container.register(S59Shared.self, name: "weak", scope: .weak) { _ async in S59Shared(made.next()) }
        container.register(S59Shared.self, name: "scoped", scope: .scoped) { _ async in S59Shared(made.next()) }
        container.register((any S59Plugin).self, name: "g1") { r async throws in
            try await S59SharingPlugin("g1", shared: r.resolveAsync(S59Shared.self, name: "graph"))
        }
        container.register((any S59Plugin).self, name: "g2") { r in
            // A sync part of the async resolution: shares its graph.
            S59SharingPlugin("g2", shared: try r.resolve(S59Shared.self, name: "graph"))
        }
        let scope = container.makeScope()

        let first = try await scope.resolveAllAsync((any S59Plugin).self).compactMap { $0 as? S59SharingPlugin }
        let second = try await scope.resolveAllAsync((any S59Plugin).self).compactMap { $0 as? S59SharingPlugin }
        #expect(first.count == 2 && second.count == 2)
        #expect(first[0].shared === first[1].shared)
        #expect(second[0].shared === second[1].shared)
        #expect(first[0].shared !== second[0].shared)

        let all1 = try await scope.resolveAllAsync(S59Shared.self)
        let all2 = try await scope.resolveAllAsync(S59Shared.self)
        #expect(all1.count == 4 && all2.count == 4)
        // graph: new each call; singleton, weak (held by all1), scoped: the same.
        #expect(all1[0] !== all2[0])
        #expect(all1[1] === all2[1])
        #expect(all1[2] === all2[2])
        #expect(all1[3] === all2[3])
        #expect(try await container.resolveAsync(S59Shared.self, name: "singleton") === all1[1])
        try await scope.closeAsync()
    }

    /// A factory failing halfway: what the earlier registrations built. Async and sync resolveAll
    /// treat the instances alike: a disposable transient built in a scope before the failure is
    /// disposed with the scope, and a singleton built before it is kept (or not) the same way.
    @Test func aFailureHalfwayTreatsWhatWasBuiltAsResolveAllDoes() async throws {
        func run(async: Bool) async throws -> (error: InjectionError?, disposed: [String], singletonsMade: Int) {
            let container = Container()
            let log = EventLog()
            let made = CallCounter()
            container.register(S59Shared.self, scope: .singleton) { _ in S59Shared(made.next()) }
            container.register((any S59Plugin).self, name: "a") { r in
                _ = try r.resolve(S59Shared.self)
                return S59DisposablePlugin("a", log: log)
            }
            if async {
                container.register((any S59Plugin).self, name: "b") { _ async throws -> any S59Plugin in
                    throw S59Failure()
                }
            } else {
                container.register((any S59Plugin).self, name: "b") { _ throws -> any S59Plugin in throw S59Failure() }
            }
            container.register((any S59Plugin).self, name: "c") { _ in S59DisposablePlugin("c", log: log) }
            let scope = container.makeScope()
            let error: InjectionError?
            if async {
                error = await injectionErrorAsync { try await scope.resolveAllAsync((any S59Plugin).self) }
            } else {
                error = injectionError { try scope.resolveAll((any S59Plugin).self) }
            }
            try await scope.closeAsync()
            _ = try container.resolve(S59Shared.self)
            return (error, log.events, made.count)
        }
        let sync = try await run(async: false)
        let async = try await run(async: true)
        #expect(sync.error?.code == .factoryFailed)
        #expect(async.error?.code == .factoryFailed)
        #expect(sync.error?.resolutionPath == async.error?.resolutionPath)
        #expect(sync.disposed == async.disposed, "sync \(sync.disposed), async \(async.disposed)")
        #expect(!sync.disposed.contains("disposed c") && !async.disposed.contains("disposed c"))
        #expect(sync.singletonsMade == async.singletonsMade)
    }

    /// The task is cancelled after the first registration is built: resolveAllAsync goes on as
    /// resolveAsync would (cancellation stops only waits), and returns every instance.
    @Test func aCancelledTaskFinishesResolveAllAsyncAsResolveAsyncWould() async throws {
        let container = Container()
        let reachedSecond = Guarded(false)
        container.register((any S59Plugin).self, name: "a") { _ async in
            withUnsafeCurrentTask { $0?.cancel() }
            return S59PluginImpl("a")
        }
        container.register((any S59Plugin).self, name: "b") { _ async in
            reachedSecond.set(true)
            return S59PluginImpl("b \(Task.isCancelled)")
        }
        let result = await Task { () async -> ResolveOutcome in
            await outcome { try await container.resolveAllAsync((any S59Plugin).self) }
        }.value
        #expect(reachedSecond.current)
        #expect((try? result.get()) == "Array<S59Plugin>", "\(result)")
    }

    /// A cancelled task waiting for another task's async singleton inside resolveAllAsync stops
    /// with resolutionCancelled, naming the singleton, and the other task's build goes on.
    @Test func aCancelledTaskStopsWaitingForAnotherTasksSingletonInResolveAllAsync() async throws {
        let container = Container()
        let started = Signal()
        let release = Signal()
        let made = CallCounter()
        container.register(S59Shared.self, scope: .singleton) { _ async in
            made.next()
            started.signal()
            await release.wait()
            return S59Shared(1)
        }
        container.register((any S59Plugin).self, name: "a") { r async throws in
            try await S59SharingPlugin("a", shared: r.resolveAsync(S59Shared.self))
        }
        let first = Task { try await container.resolveAllAsync((any S59Plugin).self) }
        #expect(await awaited(started))
        let second = Task { await injectionErrorAsync { try await container.resolveAllAsync((any S59Plugin).self) } }
        try await Task.sleep(for: .milliseconds(50))
        second.cancel()
        let error = await second.value
        release.signal()
        let plugins = try await first.value
        #expect(error?.code == .resolutionCancelled)
        #expect(error?.message.contains("S59Shared") == true, "\(error?.message ?? "")")
        #expect(made.count == 1)
        #expect((plugins.first as? S59SharingPlugin)?.shared.serial == 1)
    }

    /// resolveAllAsync on a closed scope is scopeClosed; on a scope closed while it runs, the close
    /// is refused (scopeInUse) and the resolution completes.
    @Test func resolveAllAsyncAndAScopeClosedMeanwhile() async throws {
        let container = Container()
        let started = Signal()
        let release = Signal()
        container.register((any S59Plugin).self, name: "a") { _ async in
            started.signal()
            await release.wait()
            return S59PluginImpl("a")
        }
        let scope = container.makeScope()
        let running = Task { try await scope.resolveAllAsync((any S59Plugin).self) }
        #expect(await awaited(started))
        let closeError = injectionError { try scope.close() }
        release.signal()
        #expect(closeError?.code == .scopeInUse)
        #expect(try await ids(running.value) == ["a"])
        try await scope.closeAsync()
        let closed = await injectionErrorAsync { try await scope.resolveAllAsync((any S59Plugin).self) }
        #expect(closed?.code == .scopeClosed)
    }

    /// A resolver kept past its resolution refuses resolveAllAsync with resolverOutlivedResolution,
    /// from a sync factory's resolver and an async factory's alike, even during a later resolution.
    @Test func aKeptResolverRefusesResolveAllAsync() async throws {
        let container = Container()
        let keptSync = KeptResolver()
        let keptAsync = KeptResolver()
        container.register((any S59Plugin).self, name: "a") { _ in S59PluginImpl("a") }
        container.register(S59Shared.self, name: "sync") { r in
            keptSync.keep(r)
            return S59Shared()
        }
        container.register(S59Shared.self, name: "async") { r async in
            keptAsync.keep(r)
            return S59Shared()
        }
        _ = try container.resolve(S59Shared.self, name: "sync")
        _ = try await container.resolveAsync(S59Shared.self, name: "async")

        for kept in [keptSync, keptAsync] {
            let resolver = try #require(kept.resolver)
            let error = await injectionErrorAsync { try await resolver.resolveAllAsync((any S59Plugin).self) }
            #expect(error?.code == .resolverOutlivedResolution)
        }
        // During a later resolution on the same thread/task.
        container.register(S59Host.self) { _ async throws in
            let resolver = try #require(keptAsync.resolver)
            return try await S59Host(plugins: resolver.resolveAllAsync((any S59Plugin).self))
        }
        let error = await injectionErrorAsync { try await container.resolveAsync(S59Host.self) }
        #expect(error?.code == .resolverOutlivedResolution || error?.code == .factoryFailed)
    }

    /// A cycle through resolveAllAsync, through the resolver: reported with its path.
    @Test func aCycleThroughResolveAllAsyncIsReportedWithItsPath() async throws {
        let container = Container()
        container.register(S59Host.self) { r async throws in
            try await S59Host(plugins: r.resolveAllAsync((any S59Plugin).self))
        }
        container.register((any S59Plugin).self, name: "loop") { r async throws in
            _ = try await r.resolveAsync(S59Host.self)
            return S59PluginImpl("loop")
        }
        let error = try #require(
            await withWatchdog { await injectionErrorAsync { try await container.resolveAsync(S59Host.self) } } ?? nil
        )
        #expect(error.code == .circularDependency)
        #expect(
            error.resolutionPath
                == [
                    ServiceKey(S59Host.self, name: nil), ServiceKey((any S59Plugin).self, name: "loop"),
                    ServiceKey(S59Host.self, name: nil),
                ]
        )
        #expect(error.message.hasPrefix("Circular dependency: S59Host -> S59Plugin (name: \"loop\") -> S59Host"))
    }

    /// The same cycle, with the plugin sync: the sync part of the async resolution reports it.
    @Test func aCycleThroughResolveAllAsyncAndASyncPluginIsReported() async throws {
        let container = Container()
        container.register(S59Host.self) { r async throws in
            try await S59Host(plugins: r.resolveAllAsync((any S59Plugin).self))
        }
        container.register((any S59Plugin).self, name: "loop") { r in
            _ = try r.resolve(S59Host.self)
            return S59PluginImpl("loop")
        }
        let error = try #require(
            await withWatchdog { await injectionErrorAsync { try await container.resolveAsync(S59Host.self) } } ?? nil
        )
        #expect(error.code == .circularDependency, "\(error.message)")
        #expect(
            error.resolutionPath
                == [
                    ServiceKey(S59Host.self, name: nil), ServiceKey((any S59Plugin).self, name: "loop"),
                    ServiceKey(S59Host.self, name: nil),
                ]
        )
    }

    /// A cycle through resolveAllAsync in a child task, through `r.container`: reported, not a hang.
    @Test func aCycleThroughResolveAllAsyncInAChildTaskIsReported() async throws {
        let container = Container()
        container.register(S59Host.self, scope: .singleton) { r async throws in
            let container = try r.container
            async let plugins = container.resolveAllAsync((any S59Plugin).self)
            return try await S59Host(plugins: plugins)
        }
        container.register((any S59Plugin).self, name: "loop") { r async throws in
            _ = try await r.resolveAsync(S59Host.self)
            return S59PluginImpl("loop")
        }
        let error = try #require(
            await withWatchdog { await injectionErrorAsync { try await container.resolveAsync(S59Host.self) } } ?? nil
        )
        #expect(error.code == .circularDependency || error.code == .circularWait, "\(error.message)")
        #expect(error.message.contains("S59Host"))
        #expect(error.message.contains("S59Plugin (name: \"loop\")"), "\(error.message)")
    }

    /// From child tasks through `r.container`, resolveAllAsync joins the factory's resolution: a
    /// singleton it is building is not built twice.
    @Test func resolveAllAsyncInChildTasksJoinsTheFactorysResolution() async throws {
        let container = Container()
        let made = CallCounter()
        container.register(S59Shared.self, scope: .singleton) { _ async in
            try? await Task.sleep(for: .milliseconds(20))
            return S59Shared(made.next())
        }
        container.register((any S59Plugin).self, name: "a") { r async throws in
            try await S59SharingPlugin("a", shared: r.resolveAsync(S59Shared.self))
        }
        container.register((any S59Plugin).self, name: "b") { r in
            try S59PluginImpl("b \(r.resolveAll(S59PluginImpl.self).count)")
        }
        container.register(S59Host.self) { r async throws in
            let shared = try await r.resolveAsync(S59Shared.self)
            let container = try r.container
            async let one = container.resolveAllAsync((any S59Plugin).self)
            async let two = container.resolveAllAsync((any S59Plugin).self)
            let all = try await one + two
            #expect(all.compactMap { ($0 as? S59SharingPlugin)?.shared }.allSatisfy { $0 === shared })
            return S59Host(plugins: all)
        }
        let host = try await container.resolveAsync(S59Host.self)
        #expect(ids(host.plugins) == ["a", "b 0", "a", "b 0"])
        #expect(made.count == 1)
    }

    /// Many tasks calling resolveAllAsync on one container at once: each async (and sync) singleton
    /// is built once, and every task gets the same ones.
    @Test func manyTasksAtOnceBuildEachSingletonOnce() async throws {
        let container = Container()
        let made = Guarded([String: Int]())
        for name in ["a", "b", "c", "d"] {
            container.register(S59Shared.self, name: name, scope: .singleton) { _ async in
                made.withLock { $0[name, default: 0] += 1 }
                try? await Task.sleep(for: .milliseconds(5))
                return S59Shared()
            }
        }
        container.register(S59Shared.self, name: "sync", scope: .singleton) { _ in
            made.withLock { $0["sync", default: 0] += 1 }
            Thread.sleep(forTimeInterval: 0.002)
            return S59Shared()
        }
        container.register(S59Shared.self, name: "weak", scope: .weak) { _ async in
            made.withLock { $0["weak", default: 0] += 1 }
            return S59Shared()
        }
        let results = try await withThrowingTaskGroup(of: [S59Shared].self) { group in
            for _ in 0..<40 { group.addTask { try await container.resolveAllAsync(S59Shared.self) } }
            var all: [[S59Shared]] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(made.current.filter { $0.key != "weak" }.values.allSatisfy { $0 == 1 }, "\(made.current)")
        #expect(made.current.count == 6)
        for result in results {
            #expect(result.count == 6)
            for index in 0..<5 { #expect(result[index] === results[0][index]) }
        }
    }

    /// From the main actor, and from a custom actor, with services that are not Sendable.
    @MainActor
    @Test func resolveAllAsyncFromTheMainActorAndACustomActor() async throws {
        let container = Container()
        container.register(S59Screen.self, name: "a") { _ async in S59Screen("a") }
        container.register(S59Screen.self, name: "b") { r in S59Screen("b") }
        container.register(S59Screen.self, name: "c", scope: .graph) { _ async in S59Screen("c") }

        let screens = try await container.resolveAllAsync(S59Screen.self)
        screens[0].title += "!"
        #expect(screens.map(\.title) == ["a!", "b", "c"])

        let actor = S59Actor()
        #expect(try await actor.titles(from: container) == ["a", "b", "c"])
        let scope = container.makeScope()
        #expect(try await actor.titles(from: scope) == ["a", "b", "c"])
        try await scope.closeAsync()
    }
}

/// Not Sendable.
private final class S59Screen {
    var title: String
    init(_ title: String) { self.title = title }
}

private actor S59Actor {
    var kept: [S59Screen] = []
    func titles(from resolving: some Resolving) async throws -> [String] {
        kept = try await resolving.resolveAllAsync(S59Screen.self)
        return kept.map(\.title)
    }
}

// MARK: - resolveAllAsync: more

struct ResolveAllAsyncMoreAttackTests {
    /// Duplicate and late registrations are reported by resolveAllAsync as by resolveAll.
    @Test func duplicatesAndLateRegistrationsAreReportedAsByResolveAll() async throws {
        let container = Container()
        container.register((any S59Plugin).self, name: "a") { _ async in S59PluginImpl("a") }
        container.register((any S59Plugin).self, name: "a") { _ in S59PluginImpl("a again") }
        let duplicate = await injectionErrorAsync { try await container.resolveAllAsync((any S59Plugin).self) }
        #expect(duplicate?.code == .duplicateRegistration)

        let finished = Container()
        finished.register((any S59Plugin).self, name: "a") { _ in S59PluginImpl("a") }
        try finished.finishRegistration()
        finished.register((any S59Plugin).self, name: "late") { _ async in S59PluginImpl("late") }
        let late = await injectionErrorAsync { try await finished.resolveAllAsync((any S59Plugin).self) }
        let lateSync = injectionError { try finished.resolveAll((any S59Plugin).self) }
        #expect(late?.code == .registrationAfterFinish)
        #expect(late?.code == lateSync?.code)
    }

    /// In a scope, every disposable plugin (sync or async factory) is the scope's, disposed when it
    /// closes; from a container, the caller's (never disposed).
    @Test func resolveAllAsyncHandsDisposablesToTheScopeOrTheCaller() async throws {
        let container = Container()
        let log = EventLog()
        container.register((any S59Plugin).self, name: "sync") { _ in S59DisposablePlugin("sync", log: log) }
        container.register((any S59Plugin).self, name: "async") { _ async in S59DisposablePlugin("async", log: log) }
        container.register((any S59Plugin).self, name: "graph", scope: .graph) { _ async in
            S59DisposablePlugin("graph", log: log)
        }
        let scope = container.makeScope()
        _ = try await scope.resolveAllAsync((any S59Plugin).self)
        _ = try await container.resolveAllAsync((any S59Plugin).self)
        try await scope.closeAsync()
        #expect(log.counts == ["disposed sync": 1, "disposed async": 1, "disposed graph": 1])
    }

    /// A singleton built by one plugin, with a hook (so published when the resolution completes),
    /// is the one every other plugin of the same resolveAllAsync gets; a failure after it drops it
    /// as resolveAll does.
    @Test func anUnpublishedSingletonIsSharedWithinResolveAllAsync() async throws {
        let container = Container()
        let made = CallCounter()
        let hooked = CallCounter()
        container.register(S59Shared.self, scope: .singleton) { _ async in S59Shared(made.next()) }
            .onResolved { _, _ in hooked.next() }
        for name in ["a", "b", "c"] {
            container.register((any S59Plugin).self, name: name) { r async throws in
                try await S59SharingPlugin(name, shared: r.resolveAsync(S59Shared.self))
            }
        }
        // A sync part cannot read an async registration's instance, even one this resolution built
        // (by design: the sync path never reads an async registration's slots).
        container.register((any S59Plugin).self, name: "d") { r in
            let error = injectionError { try r.resolve(S59Shared.self) }
            return S59PluginImpl("d \(error?.code.description ?? "none")")
        }
        let all = try await container.resolveAllAsync((any S59Plugin).self)
        #expect(all.last?.id == "d asyncResolutionRequired")
        let plugins = all.compactMap { $0 as? S59SharingPlugin }
        #expect(plugins.count == 3)
        #expect(plugins.allSatisfy { $0.shared === plugins[0].shared })
        #expect(made.count == 1 && hooked.count == 1)
    }

    /// Failure after an async singleton with a hook was built: sync and async compared.
    @Test func aFailureAfterAHookedSingletonDropsItAsResolveAllDoes() async throws {
        func run(async: Bool) async -> (code: InjectionError.Code?, made: Int, sameAfter: Bool) {
            let container = Container()
            let made = CallCounter()
            if async {
                container.register(S59Shared.self, scope: .singleton) { _ async in S59Shared(made.next()) }
                    .onResolved { _, _ in }
                container.register((any S59Plugin).self, name: "a") { r async throws in
                    try await S59SharingPlugin("a", shared: r.resolveAsync(S59Shared.self))
                }
                container.register((any S59Plugin).self, name: "b") { _ async throws -> any S59Plugin in
                    throw S59Failure()
                }
            } else {
                container.register(S59Shared.self, scope: .singleton) { _ in S59Shared(made.next()) }
                    .onResolved { _, _ in }
                container.register((any S59Plugin).self, name: "a") { r in
                    try S59SharingPlugin("a", shared: r.resolve(S59Shared.self))
                }
                container.register((any S59Plugin).self, name: "b") { _ throws -> any S59Plugin in throw S59Failure() }
            }
            let error =
                async
                ? await injectionErrorAsync { try await container.resolveAllAsync((any S59Plugin).self) }
                : injectionError { try container.resolveAll((any S59Plugin).self) }
            let one = try? async ? await container.resolveAsync(S59Shared.self) : container.resolve(S59Shared.self)
            let two = try? async ? await container.resolveAsync(S59Shared.self) : container.resolve(S59Shared.self)
            return (error?.code, made.count, one != nil && one === two)
        }
        let sync = await run(async: false)
        let async = await run(async: true)
        #expect(sync.code == .factoryFailed && async.code == .factoryFailed)
        #expect(sync.made == async.made, "sync made \(sync.made), async made \(async.made)")
        #expect(sync.sameAfter && async.sameAfter)
    }

    /// A singleton whose async factory collects scoped plugins: a captive dependency, reported as
    /// resolveAll reports it from a sync singleton.
    @Test func aSingletonCollectingScopedPluginsIsACaptiveDependency() async throws {
        let container = Container()
        container.register((any S59Plugin).self, name: "scoped", scope: .scoped) { _ async in S59PluginImpl("s") }
        container.register(S59Host.self, scope: .singleton) { r async throws in
            try await S59Host(plugins: r.resolveAllAsync((any S59Plugin).self))
        }
        let scope = container.makeScope()
        let error = await injectionErrorAsync { try await scope.resolveAsync(S59Host.self) }
        try await scope.closeAsync()
        #expect(error?.code == .captiveDependency, "\(error?.message ?? "no error")")
    }

    /// A scope's given value among the registrations collected.
    @Test func aScopeValueIsCollectedByResolveAllAsync() async throws {
        let container = Container()
        container.register(S59Shared.self, providedByScope: nil)
        container.register(S59Shared.self, name: "made") { _ async in S59Shared(2) }
        let given = S59Shared(1)
        let scope = container.makeScope { $0.provide(S59Shared.self, given) }
        let all = try await scope.resolveAllAsync(S59Shared.self)
        let allSync = injectionError { try scope.resolveAll(S59Shared.self) }
        try await scope.closeAsync()
        #expect(all.map(\.serial) == [1, 2])
        #expect(all.first === given)
        #expect(allSync?.code == .asyncResolutionRequired)
    }

    /// validateAsync runs a factory that collects with resolveAllAsync, and reports a plugin's missing
    /// dependency with its path.
    @Test func validateAsyncThroughResolveAllAsync() async throws {
        let container = Container()
        container.register(S59Host.self) { r async throws in
            try await S59Host(plugins: r.resolveAllAsync((any S59Plugin).self))
        }
        container.register((any S59Plugin).self, name: "needy") { r async throws in
            _ = try r.resolve(S59Screen.self)
            return S59PluginImpl("needy")
        }
        let error = await injectionErrorAsync { try await container.validateAsync() }
        #expect(error?.code == .validationFailed, "\(error?.message ?? "none")")
        #expect(error?.message.contains("S59Screen") == true, "\(error?.message ?? "none")")
    }
}

// MARK: - Graph instances read back without a cast

/// Counts live instances, to catch a graph instance released twice or never.
private final class S59Alive: @unchecked Sendable {
    /// The count of live instances made by the running test: each test that checks it counts its
    /// own (`$live.withValue`), so that the tests running beside it do not move it.
    @TaskLocal static var live = Guarded(0)
    let serial: Int
    private let counter: Guarded<Int>
    init(_ serial: Int) {
        self.serial = serial
        counter = Self.live
        counter.add(1)
    }
    deinit { counter.add(-1) }
}

private struct S59Small: Equatable { let serial: Int }

/// Wider than Any's three-word buffer, with references inside.
private struct S59Large {
    let serial: Int
    let name: String
    let numbers: [Int]
    let object: S59Alive
    let extra: (Int, Int, Int)
}

private protocol S59Named { var serial: Int { get } }
private protocol S59Tagged { var tag: String { get } }
private protocol S59ClassBound: AnyObject { var serial: Int { get } }

extension S59Large: S59Named, S59Tagged { var tag: String { name } }
extension S59Small: S59Named {}

private class S59Base: S59ClassBound {
    let serial: Int
    let object: S59Alive
    init(_ serial: Int) {
        self.serial = serial
        object = S59Alive(serial)
    }
}
private final class S59Sub: S59Base {}

private struct S59Box<T> {
    let value: T
}

private enum S59Payload {
    case none
    case large(S59Large)
    case small(Int)
}

/// A graph registration of `Service` whose factory makes a new value from a serial, and a
/// transient `[String]` resolving it three times and describing what it got.
private func s59Graph<Service>(
    _ container: Container,
    _ type: Service.Type,
    name: String? = nil,
    made: CallCounter,
    make: @escaping @Sendable (Int) -> Service
) {
    container.register(type, name: name, scope: .graph) { _ in make(made.next()) }
}

struct GraphInstanceAttackTests {
    /// Values of many shapes, each registered `.graph`, resolved three times within one resolve:
    /// built once, and each read back equal to what was built.
    @Test func graphInstancesOfManyShapesComeBackAsBuilt() throws {
        try S59Alive.$live.withValue(Guarded(0)) { () throws in
            let before = S59Alive.live.current
            do {
                let container = Container()
                let made = CallCounter()
                s59Graph(container, S59Small.self, made: made) { S59Small(serial: $0) }
                s59Graph(container, S59Large.self, made: made) {
                    S59Large(
                        serial: $0,
                        name: "large \($0)",
                        numbers: [$0, $0],
                        object: S59Alive($0),
                        extra: ($0, $0, $0)
                    )
                }
                s59Graph(container, (any S59Named).self, name: "small", made: made) { S59Small(serial: $0) }
                s59Graph(container, (any S59Named).self, name: "large", made: made) {
                    S59Large(serial: $0, name: "n", numbers: [], object: S59Alive($0), extra: (0, 0, 0))
                }
                s59Graph(container, (any S59Named & S59Tagged).self, made: made) {
                    S59Large(serial: $0, name: "tagged", numbers: [1], object: S59Alive($0), extra: (1, 2, 3))
                }
                s59Graph(container, (any S59ClassBound).self, made: made) { S59Sub($0) }
                s59Graph(container, S59Base.self, made: made) { S59Sub($0) }
                s59Graph(container, Any.self, name: "large", made: made) {
                    S59Large(serial: $0, name: "any", numbers: [], object: S59Alive($0), extra: (0, 0, 0))
                }
                s59Graph(container, Any.self, name: "optional", made: made) { Optional(S59Small(serial: $0)) as Any }
                s59Graph(container, AnyObject.self, made: made) { S59Alive($0) }
                s59Graph(container, S59Small?.self, name: "some", made: made) { S59Small(serial: $0) }
                s59Graph(container, S59Small?.self, name: "none", made: made) { _ in nil }
                s59Graph(container, S59Alive?.self, made: made) { S59Alive($0) }
                s59Graph(container, (Int, String, [Int], S59Alive).self, made: made) {
                    ($0, "t\($0)", [$0], S59Alive($0))
                }
                s59Graph(container, (@Sendable () -> Int).self, made: made) { serial in
                    let object = S59Alive(serial)
                    return { object.serial }
                }
                s59Graph(container, S59Box<S59Large>.self, made: made) {
                    S59Box(
                        value: S59Large(serial: $0, name: "box", numbers: [], object: S59Alive($0), extra: (0, 0, 0))
                    )
                }
                s59Graph(container, S59Box<Int>.self, made: made) { S59Box(value: $0) }
                s59Graph(container, S59Payload.self, made: made) {
                    .large(S59Large(serial: $0, name: "enum", numbers: [], object: S59Alive($0), extra: (0, 0, 0)))
                }
                s59Graph(container, [S59Alive].self, made: made) { [S59Alive($0), S59Alive($0)] }
                s59Graph(container, [String: S59Small].self, made: made) { ["k": S59Small(serial: $0)] }
                s59Graph(container, String.self, made: made) { String(repeating: "x", count: 40) + "\($0)" }

                container.register([String].self) { r in
                    func thrice<T>(_ type: T.Type, name: String? = nil, _ describe: (T) -> String) throws -> String {
                        let values = try (0..<3).map { _ in try r.resolve(type, name: name) }
                        let descriptions = values.map(describe)
                        return descriptions.allSatisfy { $0 == descriptions[0] }
                            ? descriptions[0] : "differ \(descriptions)"
                    }
                    return try [
                        thrice(S59Small.self) { "\($0.serial)" },
                        thrice(S59Large.self) {
                            "\($0.serial) \($0.name) \($0.numbers) \($0.object.serial) \($0.extra)"
                        },
                        thrice((any S59Named).self, name: "small") { "\($0.serial) \(type(of: $0))" },
                        thrice((any S59Named).self, name: "large") { "\($0.serial) \(type(of: $0))" },
                        thrice((any S59Named & S59Tagged).self) { "\($0.serial) \($0.tag)" },
                        thrice((any S59ClassBound).self) {
                            "\($0.serial) \(ObjectIdentifier($0).hashValue) \($0 is S59Sub)"
                        },
                        thrice(S59Base.self) { "\($0.serial) \(ObjectIdentifier($0).hashValue) \($0 is S59Sub)" },
                        thrice(Any.self, name: "large") { "\(($0 as? S59Large)?.serial ?? -1)" },
                        thrice(Any.self, name: "optional") { "\(($0 as? S59Small?)??.serial ?? -1)" },
                        thrice(AnyObject.self) {
                            "\(($0 as? S59Alive)?.serial ?? -1) \(ObjectIdentifier($0).hashValue)"
                        },
                        thrice(S59Small?.self, name: "some") { "\($0?.serial ?? -1)" },
                        thrice(S59Small?.self, name: "none") { "\($0?.serial ?? -1)" },
                        thrice(S59Alive?.self) {
                            "\($0?.serial ?? -1) \($0.map { ObjectIdentifier($0).hashValue } ?? 0)"
                        },
                        thrice((Int, String, [Int], S59Alive).self) { "\($0.0) \($0.1) \($0.2) \($0.3.serial)" },
                        thrice((@Sendable () -> Int).self) { "\($0())" },
                        thrice(S59Box<S59Large>.self) { "\($0.value.serial) \($0.value.name)" },
                        thrice(S59Box<Int>.self) { "\($0.value)" },
                        thrice(S59Payload.self) {
                            if case .large(let l) = $0 { "\(l.serial) \(l.name)" } else { "wrong" }
                        },
                        thrice([S59Alive].self) { "\($0.map(\.serial)) \($0.map { ObjectIdentifier($0).hashValue })" },
                        thrice([String: S59Small].self) { "\($0)" },
                        thrice(String.self) { $0 },
                    ]
                }
                let described = try container.resolve([String].self)
                #expect(made.count == 21)
                #expect(described.allSatisfy { !$0.hasPrefix("differ") }, "\(described)")
                #expect(described[0] == "1")
                #expect(described[11] == "-1")
                #expect(described[7] == "8")
                #expect(described[8] == "9")
                // A second resolve: new instances.
                let again = try container.resolve([String].self)
                #expect(made.count == 42)
                #expect(again[0] == "22")
            }
            // Every graph instance is released once: no leak, no over-release.
            #expect(S59Alive.live.current == before)
        }
    }

    /// More than 16 graph instances of several shapes in one resolve (the index path), in a sync
    /// part of an async resolution as well as in the async one: each is the one built for its
    /// registration and lookup.
    @Test func manyGraphInstancesOfSeveralShapesInAnAsyncResolutionAndItsSyncParts() async throws {
        try await S59Alive.$live.withValue(Guarded(0)) { () async throws in
            let before = S59Alive.live.current
            do {
                let container = Container()
                let made = CallCounter()
                let names = (0..<20).map { "n\($0)" }
                for name in names {
                    container.register(S59Large.self, name: name, scope: .graph) { _ async in
                        let serial = made.next()
                        return S59Large(
                            serial: serial,
                            name: name,
                            numbers: [serial],
                            object: S59Alive(serial),
                            extra: (1, 2, 3)
                        )
                    }
                    container.register((any S59Named).self, name: name, scope: .graph) { _ in
                        S59Small(serial: made.next())
                    }
                    container.register(S59Alive.self, name: name, scope: .graph) { _ in S59Alive(made.next()) }
                }
                container.register([String].self) { r in
                    // A sync part: it reads what the async one built, and builds the rest into its graph.
                    try names.map { name in
                        let named = try r.resolve((any S59Named).self, name: name)
                        let alive = try r.resolve(S59Alive.self, name: name)
                        return "\(name) \(named.serial) \(alive.serial)"
                    }
                }
                container.register(String.self) { r async throws in
                    var parts: [String] = []
                    for name in names.prefix(10) {
                        let large = try await r.resolveAsync(S59Large.self, name: name)
                        let named = try r.resolve((any S59Named).self, name: name)
                        parts.append("\(name) \(large.serial) \(large.name) \(named.serial)")
                    }
                    let fromSyncPart = try r.resolve([String].self)
                    for name in names {
                        let large = try await r.resolveAsync(S59Large.self, name: name)
                        let named = try r.resolve((any S59Named).self, name: name)
                        let alive = try r.resolve(S59Alive.self, name: name)
                        let again = try await r.resolveAsync(S59Large.self, name: name)
                        guard large.serial == again.serial, large.object === again.object, large.name == name else {
                            return "mismatch at \(name)"
                        }
                        guard fromSyncPart.contains("\(name) \(named.serial) \(alive.serial)") else {
                            return "sync part differs at \(name): \(fromSyncPart)"
                        }
                    }
                    return "ok \(parts.count)"
                }
                #expect(try await container.resolveAsync(String.self) == "ok 10")
                #expect(made.count == 60)
            }
            #expect(S59Alive.live.current == before)
        }
    }

    /// The same `.graph` registration under several names, and a subclass returned for a base
    /// class: one instance per registration, read back as the subclass.
    @Test func oneGraphServiceUnderSeveralNamesAndASubclass() throws {
        let container = Container()
        let made = CallCounter()
        for name in ["a", "b"] {
            container.register(S59Base.self, name: name, scope: .graph) { _ in S59Sub(made.next()) }
        }
        container.register(S59Sub.self, scope: .graph) { r in
            try r.resolve(S59Base.self, name: "a") as! S59Sub  // the same object under another key
        }
        container.register(String.self) { r in
            let a1 = try r.resolve(S59Base.self, name: "a")
            let b1 = try r.resolve(S59Base.self, name: "b")
            let sub = try r.resolve(S59Sub.self)
            let a2 = try r.resolve(S59Base.self, name: "a")
            let b2 = try r.resolve(S59Base.self, name: "b")
            let sub2 = try r.resolve(S59Sub.self)
            return "\(a1 === a2) \(b1 === b2) \(a1 !== b1) \(sub === a1) \(sub2 === sub) \(a1 is S59Sub)"
        }
        #expect(try container.resolve(String.self) == "true true true true true true")
        #expect(made.count == 2)
    }

    /// A graph instance in a child container: lookups from the child and from the parent keep their
    /// own instance (keyed by lookup), for value types too.
    @Test func graphValueInstancesAreKeptPerLookup() throws {
        let parent = Container()
        let made = CallCounter()
        parent.register(S59Large.self, scope: .graph) { _ in
            let serial = made.next()
            return S59Large(serial: serial, name: "p", numbers: [], object: S59Alive(serial), extra: (0, 0, 0))
        }
        let child = parent.makeChild()
        child.register(String.self) { r in
            let fromChild = try r.resolve(S59Large.self)
            let fromParent = try parent.resolve(S59Large.self)  // a resolution nested in this one
            let again = try r.resolve(S59Large.self)
            return "\(fromChild.serial) \(again.serial) \(fromParent.serial)"
        }
        #expect(try child.resolve(String.self) == "1 1 2")
    }
}

// MARK: - Lazy's cancellation, the argument shortcut

private final class S59Node: Sendable {
    let depth: Int
    let children: [S59Node]
    init(depth: Int, children: [S59Node]) {
        self.depth = depth
        self.children = children
    }
    var count: Int { 1 + children.map(\.count).reduce(0, +) }
}

private final class S59LazyHolder: Sendable {
    let lazy: Lazy<S59Shared>
    init(_ lazy: Lazy<S59Shared>) { self.lazy = lazy }
}

struct ArgumentsAndLazyAttackTests {
    /// Recursion with arguments, top level and nested: a tree built by depth ends.
    @Test func recursionWithArgumentsEnds() async throws {
        let container = Container()
        container.register(S59Node.self) { (r: Resolver, depth: Int) in
            let children = try depth == 0 ? [] : (0..<2).map { _ in try r.resolve(S59Node.self, argument: depth - 1) }
            return S59Node(depth: depth, children: children)
        }
        #expect(try container.resolve(S59Node.self, argument: 5).count == 63)
        #expect(try await container.resolveAsync(S59Node.self, argument: 4).count == 31)
    }

    /// A cycle with the same arguments through a captured container: reported, from a sync
    /// resolution and an async one.
    @Test func aCycleWithArgumentsThroughACapturedContainerIsReported() async throws {
        let container = Container()
        container.register(S59Node.self) { [unowned container] (_: Resolver, depth: Int) in
            _ = try container.resolve(S59Node.self, argument: depth)  // the same arguments: a cycle
            return S59Node(depth: depth, children: [])
        }
        let sync = injectionError { try container.resolve(S59Node.self, argument: 3) }
        #expect(sync?.code == .circularDependency, "\(sync?.message ?? "none")")
        let async = await injectionErrorAsync { try await container.resolveAsync(S59Node.self, argument: 3) }
        #expect(async?.code == .circularDependency, "\(async?.message ?? "none")")

        // Through a hop: A(1) -> B -> A(1), the second from a captured container.
        let other = Container()
        other.register(S59Shared.self) { [unowned other] r in
            _ = try other.resolve(S59Node.self, argument: 1)
            return S59Shared()
        }
        other.register(S59Node.self) { (r: Resolver, depth: Int) in
            _ = try r.resolve(S59Shared.self)
            return S59Node(depth: depth, children: [])
        }
        let hop = injectionError { try other.resolve(S59Node.self, argument: 1) }
        #expect(hop?.code == .circularDependency, "\(hop?.message ?? "none")")
        #expect(hop?.resolutionPath.count == 3)
        // A different argument is recursion, which ends at the stack guard or not at all: here it
        // does not recurse further, so it resolves.
    }

    /// A cycle with arguments through an async factory's child task.
    @Test func aCycleWithArgumentsThroughAChildTaskIsReported() async throws {
        let container = Container()
        container.register(S59Node.self) { (r: Resolver, depth: Int) async throws in
            let container = try r.container
            async let again = container.resolveAsync(S59Node.self, argument: depth)
            _ = try await again
            return S59Node(depth: depth, children: [])
        }
        let error = await withWatchdog {
            await injectionErrorAsync { try await container.resolveAsync(S59Node.self, argument: 2) }
        }
        #expect(error??.code == .circularDependency, "\(error??.message ?? "none")")
    }

    /// The same hook with the same argument is a cycle, reported (the shortcut does not skip it).
    @Test func aHookResolvingItsRegistrationWithTheSameArgumentsIsACycle() throws {
        let container = Container()
        container.register(S59Shared.self) { (_: Resolver, serial: Int) in S59Shared(serial) }
            .onResolved { r, shared in _ = try r.resolve(S59Shared.self, argument: shared.serial) }
        let error = injectionError { try container.resolve(S59Shared.self, argument: 1) }
        #expect(error?.code == .circularDependency)
    }

    /// Lazy's cancellation message with a name, through a scope, and the value kept afterwards.
    @Test func aCancelledTaskStopsWaitingForANamedLazyInAScope() async throws {
        let container = Container()
        let (building, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        container.register(S59Shared.self, name: "slow", scope: .scoped) { _ in
            building.signal()
            _ = waited(for: release)
            return S59Shared(7)
        }
        container.register(S59LazyHolder.self) { r in try S59LazyHolder(r.resolve(Lazy<S59Shared>.self, name: "slow")) }
        let scope = container.makeScope()
        let holder = try scope.resolve(S59LazyHolder.self)
        let first = Thread { _ = try? holder.lazy.value }
        first.start()
        #expect(waited(for: building))
        let cancelled = Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            return injectionError { try holder.lazy.value }
        }
        let error = try #require(await cancelled.value)
        release.signal()
        #expect(error.code == .resolutionCancelled)
        #expect(
            error.message.hasPrefix(
                "Resolving S59Shared (name: \"slow\") was cancelled: the task was cancelled while another resolution"
                    + " resolves the first value of a Lazy<S59Shared>"
            ),
            "\(error.message)"
        )
        #expect(error.resolutionPath == [ServiceKey(S59Shared.self, name: "slow")])
        #expect(try holder.lazy.value.serial == 7)
        #expect(await awaitedUntil { !Thread.isMainThread && first.isFinished })
        try await scope.closeAsync()
    }

    /// A cancelled task whose Lazy's first resolve itself waits for another thread's singleton: the
    /// Lazy's gate was free, so this is a sync resolve of its own, which (not being part of an async
    /// one) waits for the singleton rather than stop; it must not claim to wait for a Lazy.
    @Test func aCancelledTaskWaitingInsideALazysResolveWaitsForTheSingleton() async throws {
        let container = Container()
        let (building, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        container.register(S59Shared.self, scope: .singleton) { _ in
            building.signal()
            _ = waited(for: release)
            return S59Shared(3)
        }
        container.register(S59LazyHolder.self) { r in try S59LazyHolder(r.resolve(Lazy<S59Shared>.self)) }
        let first = Thread { _ = try? container.resolve(S59Shared.self) }
        first.start()
        #expect(waited(for: building))
        let holder = try container.resolve(S59LazyHolder.self)
        let releaser = Thread {
            Thread.sleep(forTimeInterval: 0.2)
            release.signal()
        }
        releaser.start()
        let cancelled = Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            return ResolveResult { try holder.lazy.value.serial }
        }
        let result = await cancelled.value
        if case .failed(let error) = result {
            #expect(!error.message.contains("first value of a Lazy"), "\(error.message)")
        } else if case .resolved(let serial) = result {
            #expect(serial == 3)
        }
        #expect(try holder.lazy.value.serial == 3)
    }
}

// MARK: - Lazy and ServiceProvider (ResolutionSource), keepShared

private final class S59Deferred: Sendable {
    let lazy: Lazy<S59Shared>
    let provider: ServiceProvider<S59Shared>
    init(lazy: Lazy<S59Shared>, provider: ServiceProvider<S59Shared>) {
        self.lazy = lazy
        self.provider = provider
    }
}

struct DeferredAndSharedAttackTests {
    private func register(_ container: Container, scope: Scope = .transient, holder: Scope = .transient) {
        container.register(S59Deferred.self, scope: holder) { r in
            try S59Deferred(lazy: r.resolve(), provider: r.resolve())
        }
    }

    @Test func fromAScopeTheyResolveTheScopesInstanceAndFailOnceItIsClosed() async throws {
        let container = Container()
        let made = CallCounter()
        container.register(S59Shared.self, scope: .scoped(to: "request")) { _ in S59Shared(made.next()) }
        register(container)
        let scope = container.makeScope(tag: "request")
        let deferred = try scope.resolve(S59Deferred.self)
        let fromScope = try scope.resolve(S59Shared.self)
        #expect(try deferred.lazy.value === fromScope)
        #expect(try deferred.provider.resolve() === fromScope)
        #expect(try await deferred.provider.resolveAsync() === fromScope)
        try await scope.closeAsync()

        let closedProvider = injectionError { try deferred.provider.resolve() }
        #expect(closedProvider?.code == .scopeClosed)
        #expect(closedProvider?.message.contains("request") == true, "\(closedProvider?.message ?? "")")
        let closedAsync = await injectionErrorAsync { try await deferred.provider.resolveAsync() }
        #expect(closedAsync?.code == .scopeClosed)
        #expect(try deferred.lazy.value === fromScope)  // kept

        // Made in a scope, never read before the scope is released: the scope is gone.
        let scope2 = container.makeScope(tag: "request")
        let deferred2 = try scope2.resolve(S59Deferred.self)
        try await scope2.closeAsync()
        let gone = injectionError { try deferred2.lazy.value }
        #expect(gone?.code == .scopeClosed)
    }

    @Test func fromAReleasedContainerTheyFailWithContainerReleased() async throws {
        var container: Container? = Container()
        container!.register(S59Shared.self) { _ in S59Shared(1) }
        register(container!)
        let deferred = try container!.resolve(S59Deferred.self)
        #expect(try deferred.provider.resolve().serial == 1)
        container = nil
        let error = injectionError { try deferred.provider.resolve() }
        #expect(error?.code == .resolverOutlivedResolution)
        let asyncError = await injectionErrorAsync { try await deferred.provider.resolveAsync() }
        #expect(asyncError?.code == .resolverOutlivedResolution)
        let lazyError = injectionError { try deferred.lazy.value }
        #expect(lazyError?.code == .resolverOutlivedResolution)
    }

    /// Held by a singleton resolved in a scope, they resolve from the container, not the scope.
    @Test func heldByASingletonTheyOutliveTheScope() async throws {
        let container = Container()
        let made = CallCounter()
        container.register(S59Shared.self) { _ in S59Shared(made.next()) }
        register(container, holder: .singleton)
        let scope = container.makeScope()
        let deferred = try scope.resolve(S59Deferred.self)
        try await scope.closeAsync()
        #expect(try deferred.provider.resolve().serial == 1)
        #expect(try deferred.lazy.value.serial == 2)
        #expect(try await deferred.provider.resolveAsync().serial == 3)
    }

    /// An async registration behind a ServiceProvider: resolveAsync runs it; resolve says async.
    /// A Lazy, read synchronously only, is refused when it is resolved.
    @Test func aServiceProviderOfAnAsyncRegistration() async throws {
        let container = Container()
        container.register(S59Shared.self, scope: .scoped) { _ async in S59Shared(9) }
        register(container)
        let scope = container.makeScope()
        let provider = try scope.resolve(ServiceProvider<S59Shared>.self)
        #expect(try await provider.resolveAsync().serial == 9)
        #expect(injectionError { try provider.resolve() }?.code == .asyncResolutionRequired)
        #expect(injectionError { try scope.resolve(S59Deferred.self) }?.code == .asyncResolutionRequired)
        try await scope.closeAsync()
    }

    /// Singletons and weak instances of a child container, sync and async: kept in the child,
    /// shared across its resolves, released with it.
    @Test func singletonsAndWeakInstancesInAChildContainer() async throws {
        let parent = Container()
        try await S59Alive.$live.withValue(Guarded(0)) { () async throws in
            let before = S59Alive.live.current
            do {
                var child: Container? = parent.makeChild()
                let made = CallCounter()
                child!.register(S59Alive.self, name: "sync", scope: .singleton) { _ in S59Alive(made.next()) }
                child!.register(S59Alive.self, name: "async", scope: .singleton) { _ async in S59Alive(made.next()) }
                child!.register(S59Alive.self, name: "weak", scope: .weak) { _ in S59Alive(made.next()) }
                child!.register(S59Alive.self, name: "asyncWeak", scope: .weak) { _ async in S59Alive(made.next()) }
                let sync = try child!.resolve(S59Alive.self, name: "sync")
                let async = try await child!.resolveAsync(S59Alive.self, name: "async")
                var weak: S59Alive? = try child!.resolve(S59Alive.self, name: "weak")
                var asyncWeak: S59Alive? = try await child!.resolveAsync(S59Alive.self, name: "asyncWeak")
                #expect(try child!.resolve(S59Alive.self, name: "sync") === sync)
                #expect(try await child!.resolveAsync(S59Alive.self, name: "async") === async)
                #expect(try child!.resolve(S59Alive.self, name: "weak") === weak)
                #expect(try await child!.resolveAsync(S59Alive.self, name: "asyncWeak") === asyncWeak)
                #expect(try await child!.resolveAllAsync(S59Alive.self).map(\.serial) == [1, 2, 3, 4])
                let weakSerial = weak!.serial
                weak = nil
                asyncWeak = nil
                #expect(try child!.resolve(S59Alive.self, name: "weak").serial != weakSerial)
                _ = try await child!.resolveAsync(S59Alive.self, name: "asyncWeak")
                child = nil
                _ = (sync, async)
            }
            #expect(S59Alive.live.current == before, "child singletons should go with the child")
        }
    }

    /// Singletons built under overrides (async and sync) go to the overrides' store and are
    /// disposed when the call returns; the container's own stay.
    @Test func singletonsUnderOverridesAreTheCallsOwn() async throws {
        let container = Container()
        let log = EventLog()
        container.register((any S59Plugin).self, name: "sync", scope: .singleton) { _ in
            S59DisposablePlugin("sync", log: log)
        }
        container.register((any S59Plugin).self, name: "async", scope: .singleton) { _ async in
            S59DisposablePlugin("async", log: log)
        }
        let own = try await container.resolveAllAsync((any S59Plugin).self)
        let inside = try await container.withOverridesAsync {
            $0.register(S59Shared.self) { _ in S59Shared() }
            $0.register((any S59Plugin).self, name: "async", scope: .singleton) { _ async in
                S59DisposablePlugin("override", log: log)
            }
        } operation: {
            try await container.resolveAllAsync((any S59Plugin).self)
        }
        #expect(ids(inside) == ["sync", "override"])
        #expect(inside[0] as AnyObject === own[0] as AnyObject)
        #expect(log.events == ["disposed override"])
        let after = try await container.resolveAllAsync((any S59Plugin).self)
        #expect(after[1] as AnyObject === own[1] as AnyObject)
    }
}

// MARK: - resolveAllAsync and the caller's actor

/// An executor on a queue of its own, which code running on it can recognise.
private final class S59QueueExecutor: SerialExecutor, @unchecked Sendable {
    static let key = DispatchSpecificKey<Int>()
    let queue = DispatchQueue(label: "s59.actor")
    init() { queue.setSpecific(key: Self.key, value: 59) }
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 59 }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

private actor S59QueueActor {
    let executor = S59QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func resolveAll(_ container: Container) async throws -> Bool {
        _ = try await container.resolveAllAsync((any S59Plugin).self)
        return S59QueueExecutor.isCurrent
    }

    func resolveEach(_ container: Container) async throws {
        _ = try await container.resolveAsync((any S59Plugin).self, name: "first")
        _ = try await container.resolveAsync((any S59Plugin).self, name: "second")
    }
}

struct IsolationAttackTests {
    /// From an actor, the sync factories resolveAllAsync runs after an async one run back on the
    /// actor (the caller's isolation), as resolveAsync's do.
    @Test func syncFactoriesAfterAnAsyncOneRunOnTheCallersActor() async throws {
        let container = Container()
        let onActor = Guarded([String: Bool]())
        container.register((any S59Plugin).self, name: "first") { _ async in
            try? await Task.sleep(for: .milliseconds(5))
            onActor.withLock { $0["first"] = S59QueueExecutor.isCurrent }
            return S59PluginImpl("first")
        }
        container.register((any S59Plugin).self, name: "second") { _ in
            onActor.withLock { $0["second"] = S59QueueExecutor.isCurrent }
            return S59PluginImpl("second")
        }
        let actor = S59QueueActor()
        let backOnActor = try await actor.resolveAll(container)
        let fromResolveAll = onActor.current
        onActor.set([:])
        try await actor.resolveEach(container)
        let fromResolveAsync = onActor.current
        #expect(backOnActor)
        #expect(fromResolveAll == fromResolveAsync, "all \(fromResolveAll), each \(fromResolveAsync)")
        #expect(fromResolveAll["second"] == true)
    }
}

// MARK: - Graph instances through declared registrations (the unspecialised path)

private struct S59Leaf {
    let serial: Int
    let object: S59Alive
    let name: String
    let numbers: [Int]
}

private struct S59Left {
    let leaf: S59Leaf
    let named: any S59Named
}
private struct S59Right {
    let leaf: S59Leaf
    let named: any S59Named
}
private struct S59Top {
    let left: S59Left
    let right: S59Right
    init(left: S59Left, right: S59Right) {
        self.left = left
        self.right = right
    }
}

struct DeclaredGraphAttackTests {
    @Test func aDeclaredDiamondOfGraphValuesSharesItsLeaf() async throws {
        try await S59Alive.$live.withValue(Guarded(0)) { () async throws in
            let before = S59Alive.live.current
            do {
                let container = Container()
                let made = CallCounter()
                container.register(S59Leaf.self, scope: .graph) { _ in
                    let serial = made.next()
                    return S59Leaf(serial: serial, object: S59Alive(serial), name: "leaf \(serial)", numbers: [serial])
                }
                container.register((any S59Named).self, scope: .graph) { _ in
                    S59Large(serial: made.next(), name: "named", numbers: [], object: S59Alive(0), extra: (0, 0, 0))
                }
                container.register(S59Left.self, scope: .graph) { (leaf: S59Leaf, named: any S59Named) in
                    S59Left(leaf: leaf, named: named)
                }
                container.register(S59Right.self, scope: .graph) { (leaf: S59Leaf, named: any S59Named) in
                    S59Right(leaf: leaf, named: named)
                }
                container.register(S59Top.self, S59Top.init)
                for _ in 0..<3 {
                    let top = try container.resolve(S59Top.self)
                    #expect(top.left.leaf.object === top.right.leaf.object)
                    #expect(top.left.leaf.serial == top.right.leaf.serial)
                    #expect(top.left.named.serial == top.right.named.serial)
                    #expect(top.left.leaf.name == "leaf \(top.left.leaf.serial)")
                    let asyncTop = try await container.resolveAsync(S59Top.self)
                    #expect(asyncTop.left.leaf.object === asyncTop.right.leaf.object)
                }
                #expect(made.count == 12)
            }
            #expect(S59Alive.live.current == before)
        }
    }
}

// MARK: - resolveAllAsync: families, scopes, failures

struct ResolveAllAsyncFamilyAttackTests {
    /// A cycle through a captured container's resolveAllAsync, in the factory's own task: the
    /// family's path finds it.
    @Test func aCycleThroughACapturedContainersResolveAllAsyncIsReported() async throws {
        let container = Container()
        container.register(S59Host.self) { r async throws in
            let container = try r.container
            return try await S59Host(plugins: container.resolveAllAsync((any S59Plugin).self))
        }
        container.register((any S59Plugin).self, name: "loop") { r async throws in
            _ = try await r.resolveAsync(S59Host.self)
            return S59PluginImpl("loop")
        }
        let error = try #require(
            await withWatchdog { await injectionErrorAsync { try await container.resolveAsync(S59Host.self) } } ?? nil
        )
        #expect(error.code == .circularDependency, "\(error.message)")
        #expect(error.message.contains("S59Host -> S59Plugin (name: \"loop\") -> S59Host"), "\(error.message)")
    }

    /// Many scopes at once, each collecting async scoped plugins from several tasks: one instance
    /// per scope and registration.
    @Test func manyScopesAtOnceEachBuildTheirScopedPluginsOnce() async throws {
        let container = Container()
        let made = Guarded(0)
        for name in ["a", "b", "c"] {
            container.register((any S59Plugin).self, name: name, scope: .scoped) { _ async in
                made.add(1)
                try? await Task.sleep(for: .milliseconds(2))
                return S59PluginImpl(name)
            }
        }
        let scopes = (0..<8).map { _ in container.makeScope() }
        let results = try await withThrowingTaskGroup(of: (Int, [any S59Plugin]).self) { group in
            for (index, scope) in scopes.enumerated() {
                for _ in 0..<4 {
                    group.addTask { (index, try await scope.resolveAllAsync((any S59Plugin).self)) }
                }
            }
            var all: [(Int, [any S59Plugin])] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(made.current == 24)
        for (index, plugins) in results {
            let first = results.first { $0.0 == index }!.1
            #expect(zip(plugins, first).allSatisfy { $0 as AnyObject === $1 as AnyObject })
        }
        for scope in scopes { try await scope.closeAsync() }
    }

    /// A factory failing after an async scoped instance was built: the scope keeps (or drops) it
    /// as resolveAll does with a sync one.
    @Test func aFailureAfterAScopedInstanceTreatsItAsResolveAllDoes() async throws {
        func run(async: Bool) async throws -> (made: Int, disposed: [String]) {
            let container = Container()
            let made = CallCounter()
            let log = EventLog()
            if async {
                container.register((any S59Plugin).self, name: "a", scope: .scoped) { _ async in
                    made.next()
                    return S59DisposablePlugin("a", log: log)
                }
                container.register((any S59Plugin).self, name: "b") { _ async throws -> any S59Plugin in
                    throw S59Failure()
                }
            } else {
                container.register((any S59Plugin).self, name: "a", scope: .scoped) { _ in
                    made.next()
                    return S59DisposablePlugin("a", log: log)
                }
                container.register((any S59Plugin).self, name: "b") { _ throws -> any S59Plugin in throw S59Failure() }
            }
            let scope = container.makeScope()
            if async {
                _ = await injectionErrorAsync { try await scope.resolveAllAsync((any S59Plugin).self) }
                _ = try await scope.resolveAsync((any S59Plugin).self, name: "a")
            } else {
                _ = injectionError { try scope.resolveAll((any S59Plugin).self) }
                _ = try scope.resolve((any S59Plugin).self, name: "a")
            }
            try await scope.closeAsync()
            return (made.count, log.events)
        }
        let sync = try await run(async: false)
        let async = try await run(async: true)
        #expect(sync.made == async.made, "sync \(sync), async \(async)")
        #expect(sync.disposed == async.disposed, "sync \(sync), async \(async)")
    }

    /// A scoped registration of another tag among those collected: the same error as resolveAll.
    @Test func aMismatchedTagIsReportedAsByResolveAll() async throws {
        let container = Container()
        container.register((any S59Plugin).self, name: "a") { _ in S59PluginImpl("a") }
        container.register((any S59Plugin).self, name: "b", scope: .scoped(to: "session")) { _ in S59PluginImpl("b") }
        let scope = container.makeScope(tag: "request")
        let sync = injectionError { try scope.resolveAll((any S59Plugin).self) }
        let async = await injectionErrorAsync { try await scope.resolveAllAsync((any S59Plugin).self) }
        try await scope.closeAsync()
        #expect(sync?.code == async?.code)
        #expect(sync?.message == async?.message)
        #expect(sync?.code == .scopeMismatch, "\(sync?.message ?? "")")
    }
}

// MARK: - resolveAllAsync: gates held for the whole collection

private protocol S59Other: Sendable { var id: String { get } }
private final class S59OtherImpl: S59Other {
    let id: String
    init(_ id: String) { self.id = id }
}
private final class S59SA: Sendable {}
private final class S59SB: Sendable {}

struct GateAttackTests {
    /// Two resolveAllAsync calls that each hold an unpublished singleton (unhooked, but built after
    /// a hooked transient whose hook has not run, so published only when the collection completes)
    /// and then want the other's: a wait-for cycle, reported as circularWait to one of them, not a
    /// hang; the other completes. (Hooked singletons would not do: those are built one resolution
    /// at a time.)
    @Test func twoCollectionsWaitingForEachOthersSingletonsReportACircularWait() async throws {
        let container = Container()
        let firstHolds = Signal()
        let secondHolds = Signal()
        container.register(S59Shared.self) { _ async in S59Shared() }.onResolved { _, _ in }
        container.register(S59SA.self, scope: .singleton) { _ async in S59SA() }
        container.register(S59SB.self, scope: .singleton) { _ async in S59SB() }
        container.register((any S59Plugin).self, name: "a") { r async throws in
            _ = try await r.resolveAsync(S59Shared.self)
            _ = try await r.resolveAsync(S59SA.self)
            return S59PluginImpl("a")
        }
        container.register((any S59Plugin).self, name: "b") { r async throws in
            firstHolds.signal()
            await secondHolds.wait()
            _ = try await r.resolveAsync(S59SB.self)
            return S59PluginImpl("b")
        }
        container.register((any S59Other).self, name: "b") { r async throws in
            _ = try await r.resolveAsync(S59Shared.self)
            _ = try await r.resolveAsync(S59SB.self)
            return S59OtherImpl("b")
        }
        container.register((any S59Other).self, name: "a") { r async throws in
            secondHolds.signal()
            await firstHolds.wait()
            _ = try await r.resolveAsync(S59SA.self)
            return S59OtherImpl("a")
        }
        let outcomes = await withWatchdog {
            async let first = outcome { try await container.resolveAllAsync((any S59Plugin).self) }
            async let second = outcome { try await container.resolveAllAsync((any S59Other).self) }
            return await [first, second]
        }
        let results = try #require(outcomes)
        let errors = failures(results)
        #expect(errors.count == 1, "\(results)")
        #expect(errors.first?.code == .circularWait, "\(errors.first?.message ?? "")")
    }

    /// The same between two plain async resolutions (no resolveAllAsync), for comparison.
    @Test func twoAsyncResolutionsWaitingForEachOthersSingletonsReportACircularWait() async throws {
        let container = Container()
        let firstHolds = Signal()
        let secondHolds = Signal()
        container.register(S59Shared.self) { _ async in S59Shared() }.onResolved { _, _ in }
        container.register(S59SA.self, scope: .singleton) { _ async in S59SA() }
        container.register(S59SB.self, scope: .singleton) { _ async in S59SB() }
        container.register(S59PluginImpl.self, name: "1") { r async throws in
            _ = try await r.resolveAsync(S59Shared.self)
            _ = try await r.resolveAsync(S59SA.self)
            firstHolds.signal()
            await secondHolds.wait()
            _ = try await r.resolveAsync(S59SB.self)
            return S59PluginImpl("1")
        }
        container.register(S59PluginImpl.self, name: "2") { r async throws in
            _ = try await r.resolveAsync(S59Shared.self)
            _ = try await r.resolveAsync(S59SB.self)
            secondHolds.signal()
            await firstHolds.wait()
            _ = try await r.resolveAsync(S59SA.self)
            return S59PluginImpl("2")
        }
        let outcomes = await withWatchdog {
            async let first = outcome { try await container.resolveAsync(S59PluginImpl.self, name: "1") }
            async let second = outcome { try await container.resolveAsync(S59PluginImpl.self, name: "2") }
            return await [first, second]
        }
        let results = try #require(outcomes)
        let errors = failures(results)
        #expect(errors.count == 1, "\(results)")
        #expect(errors.first?.code == .circularWait, "\(errors.first?.message ?? "")")
    }

    /// A sync factory reading a Lazy that another thread is resolving, in a cancelled task: the
    /// error names the Lazy's service, with the path of the resolution it was read in.
    @Test func aLazyReadInAFactoryOfACancelledTaskHasTheFactorysPath() async throws {
        let container = Container()
        let (building, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        container.register(S59Shared.self) { _ in
            building.signal()
            _ = waited(for: release)
            return S59Shared(5)
        }
        container.register(S59LazyHolder.self, scope: .singleton) { r in try S59LazyHolder(r.resolve()) }
        container.register(S59PluginImpl.self) { r in
            let holder = try r.resolve(S59LazyHolder.self)
            return S59PluginImpl("\(try holder.lazy.value.serial)")
        }
        let holder = try container.resolve(S59LazyHolder.self)
        let first = Thread { _ = try? holder.lazy.value }
        first.start()
        #expect(waited(for: building))
        let cancelled = Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            return injectionError { try container.resolve(S59PluginImpl.self) }
        }
        let error = await cancelled.value
        release.signal()
        #expect(error?.code == .resolutionCancelled)
        #expect(
            error?.resolutionPath == [ServiceKey(S59PluginImpl.self, name: nil), ServiceKey(S59Shared.self, name: nil)]
        )
        #expect(error?.message.contains("first value of a Lazy<S59Shared>") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("Path: S59PluginImpl -> S59Shared.") == true, "\(error?.message ?? "")")
        #expect(try container.resolve(S59PluginImpl.self).id == "5")
    }

    /// resolveAllAsync's service type inferred from the result.
    @Test func resolveAllAsyncInfersItsServiceType() async throws {
        let container = Container()
        container.register((any S59Plugin).self, name: "a") { _ async in S59PluginImpl("a") }
        let plugins: [any S59Plugin] = try await container.resolveAllAsync()
        #expect(ids(plugins) == ["a"])
    }
}

// MARK: - Graph instances: forwarding, hooks, configure

private protocol S59Shape { var serial: Int { get } }
private struct S59Square: S59Shape {
    let serial: Int
    let object: S59Alive
}
private final class S59Circle: S59Shape, S59Plugin {
    let serial: Int
    var id: String { "circle \(serial)" }
    init(_ serial: Int) { self.serial = serial }
}

struct GraphMoreAttackTests {
    /// A `.graph` value forwarded to a protocol: the forwarded key hands on the graph's instance.
    @Test func aForwardedGraphValueIsTheGraphsInstance() async throws {
        let container = Container()
        let made = CallCounter()
        container.register(S59Square.self, scope: .graph) { _ in
            let serial = made.next()
            return S59Square(serial: serial, object: S59Alive(serial))
        }
        .implements((any S59Shape).self)
        container.register(S59Circle.self, scope: .graph) { _ async in S59Circle(made.next()) }
            .implements((any S59Shape).self, name: "circle")
            .implements((any S59Plugin).self, name: "circle")
        container.register(String.self) { r async throws in
            let square = try r.resolve(S59Square.self)
            let shape = try r.resolve((any S59Shape).self)
            let circle = try await r.resolveAsync(S59Circle.self)
            let circleShape = try await r.resolveAsync((any S59Shape).self, name: "circle")
            let plugins = try await r.resolveAllAsync((any S59Plugin).self)
            let sameSquare = (shape as? S59Square)?.object === square.object
            let sameCircle = (circleShape as? S59Circle) === circle && (plugins.first as? S59Circle) === circle
            return "\(sameSquare) \(sameCircle) \(made.count)"
        }
        #expect(try await container.resolveAsync(String.self) == "true true 2")
    }

    /// A graph value read back in a hook, and a configure on the first resolve of a graph value.
    @Test func aGraphValueInAHookAndConfigured() throws {
        let container = Container()
        let made = CallCounter()
        let seen = Guarded([Int]())
        container.register(S59Large.self, scope: .graph) { _ in
            let serial = made.next()
            return S59Large(serial: serial, name: "v", numbers: [], object: S59Alive(serial), extra: (0, 0, 0))
        }
        container.register(S59Leaf.self) { r in
            let large = try r.resolve(S59Large.self)
            return S59Leaf(serial: large.serial, object: large.object, name: large.name, numbers: [])
        }
        .onResolved { r, leaf in
            let large = try r.resolve(S59Large.self)
            seen.withLock { $0 += [large.serial, large.object === leaf.object ? 1 : 0] }
        }
        container.register(String.self) { r in
            let first = try r.resolve(S59Large.self) {
                $0 = S59Large(serial: 100, name: "configured", numbers: [1], object: $0.object, extra: (1, 1, 1))
            }
            let leaf = try r.resolve(S59Leaf.self)
            return "\(first.serial) \(first.name) \(leaf.serial) \(leaf.name)"
        }
        #expect(try container.resolve(String.self) == "100 configured 100 configured")
        #expect(seen.current == [100, 1])
        #expect(made.count == 1)
    }
}
