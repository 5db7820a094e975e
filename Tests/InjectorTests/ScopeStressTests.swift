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

import Foundation
import Testing

@testable import Injector

// Many threads and tasks serving requests at once: request scopes open and close while shared,
// weak and scoped services are resolved. CI runs this suite under ThreadSanitizer.

private let threadCount = 6
private let taskCount = 6
private let requestsEach = 150

/// Counts the instances made and disposed, and refuses a second disposal of one instance.
private final class Census: Sendable {
    let made = CallCounter()
    let disposed = CallCounter()
    let disposedTwice = CallCounter()
}

private final class StressSettings: Sendable {}
private final class StressPool: Sendable {}
private final class StressPresence: Sendable {}
private final class StressSession: Disposable, Sendable {
    private let census: Census
    private let disposals = Guarded(0)
    init(_ census: Census) {
        self.census = census
        census.made.next()
    }
    func dispose() {
        if disposals.add(1) == 1 {
            census.disposed.next()
        } else {
            census.disposedTwice.next()
        }
    }
}
private final class StressHandler: Sendable {
    let settings: StressSettings
    let session: StressSession
    let presence: StressPresence
    init(settings: StressSettings, session: StressSession, presence: StressPresence) {
        self.settings = settings
        self.session = session
        self.presence = presence
    }
}

private struct StressRig {
    let container = Container()
    let census = Census()
    let settingsCalls = CallCounter()
    let poolCalls = CallCounter()

    init() {
        let (census, settingsCalls, poolCalls) = (census, settingsCalls, poolCalls)
        container.register(StressSettings.self, scope: .singleton) { _ in
            settingsCalls.next()
            return StressSettings()
        }
        container.register(StressPool.self, scope: .singleton) { _ in
            poolCalls.next()
            await Task.yield()
            return StressPool()
        }
        container.register(StressPresence.self, scope: .weak) { _ in StressPresence() }
        container.register(StressSession.self, scope: .scoped(to: "request")) { _ in StressSession(census) }
        container.register(StressHandler.self) { r in
            try StressHandler(
                settings: r.resolve(StressSettings.self),
                session: r.resolve(StressSession.self),
                presence: r.resolve(StressPresence.self)
            )
        }
    }

    /// Serves one request on this thread: a scope, two resolves that share its session, a close.
    func serveRequest() throws {
        let scope = container.makeScope(tag: "request")
        let first = try scope.resolve(StressHandler.self)
        let second = try scope.resolve(StressHandler.self)
        guard first.session === second.session, first.settings === second.settings else {
            throw StressBroken()
        }
        try scope.close()
    }

    /// Serves one request in this task, with the async singleton too.
    func serveRequestAsync() async throws {
        let scope = container.makeScope(tag: "request")
        let handler = try await scope.resolveAsync(StressHandler.self)
        let pool = try await scope.resolveAsync(StressPool.self)
        guard try await scope.resolveAsync(StressHandler.self).session === handler.session,
            try await container.resolveAsync(StressPool.self) === pool
        else { throw StressBroken() }
        try await scope.closeAsync()
    }
}

private struct StressBroken: Error {}

// Singletons that factories pass on under another key, which no scope may dispose: a class and a
// value (a value has no identity; a copy is recognised by its bytes).
private protocol StressConnection: Sendable {}
private final class StressSharedObject: StressConnection, Disposable, Sendable {
    let disposals: CallCounter
    init(disposals: CallCounter) { self.disposals = disposals }
    func dispose() { disposals.next() }
}
private struct StressSharedValue: StressConnection, Disposable, Sendable {
    let disposals: CallCounter
    func dispose() { disposals.next() }
}
/// Fills the container's filter of shared types, so that a scope checks some instances under
/// the lock and others without it.
private final class StressFiller<Tag>: Sendable {}
private enum FillerA {}
private enum FillerB {}
private enum FillerC {}

struct ScopeStressTests {
    /// Threads and tasks serving requests at once: each shared instance is built once, every
    /// scoped instance is disposed exactly once, and the run ends (a watchdog fails it otherwise).
    @Test func requestsOnManyThreadsAndTasksDisposeEachScopedInstanceOnceAndBuildSharedOnesOnce() async throws {
        let rig = StressRig()
        let failures = CallCounter()

        let finished: Bool? = await withWatchdog(seconds: 60) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<threadCount {
                    group.addTask {
                        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                            Thread {
                                for _ in 0..<requestsEach {
                                    do { try rig.serveRequest() } catch { failures.next() }
                                }
                                continuation.resume()
                            }.start()
                        }
                    }
                }
                for _ in 0..<taskCount {
                    group.addTask {
                        for _ in 0..<requestsEach {
                            do { try await rig.serveRequestAsync() } catch { failures.next() }
                        }
                    }
                }
            }
            return true
        }

        #expect(finished == true)
        #expect(failures.count == 0)
        #expect(rig.settingsCalls.count == 1)
        #expect(rig.poolCalls.count == 1)
        #expect(rig.census.made.count == (threadCount + taskCount) * requestsEach)
        #expect(rig.census.disposed.count == rig.census.made.count)
        #expect(rig.census.disposedTwice.count == 0)
    }

    /// Cold singletons (a class and a value) that scoped and transient registrations pass on
    /// under a protocol, asked for from threads and tasks at once in fresh containers: no scope
    /// disposes them, however the race went, and the container's shutdown disposes each once.
    @Test func coldSingletonsPassedOnFromManyScopesAtOnceAreDisposedOnlyByTheContainer() async throws {
        for round in 0..<20 {
            let objectDisposals = CallCounter()
            let valueDisposals = CallCounter()
            let container = Container()
            container.register(StressFiller<FillerA>.self, scope: .singleton) { _ in StressFiller() }
            container.register(StressFiller<FillerB>.self, scope: .weak) { _ in StressFiller() }
            container.register(StressFiller<FillerC>.self, scope: .singleton) { _ in StressFiller() }
            container.register(StressSharedObject.self, scope: .singleton) { _ in
                StressSharedObject(disposals: objectDisposals)
            }
            container.register(StressSharedValue.self, scope: .singleton) { _ in
                StressSharedValue(disposals: valueDisposals)
            }
            container.register((any StressConnection).self, name: "scoped object", scope: .scoped) { r in
                try r.resolve(StressSharedObject.self)
            }
            container.register((any StressConnection).self, name: "scoped value", scope: .scoped) { r in
                try r.resolve(StressSharedValue.self)
            }
            container.register((any StressConnection).self, name: "object") { r in
                try r.resolve(StressSharedObject.self)
            }
            container.register((any StressConnection).self, name: "value") { r in
                try r.resolve(StressSharedValue.self)
            }
            let names = ["scoped object", "scoped value", "object", "value"]
            let failures = Outcomes()
            // Each worker starts on another name, so that the first resolves of a cold singleton
            // come through every registration; half of them fill the filter first.
            let serve: @Sendable (Int) -> Void = { worker in
                for request in 0..<5 {
                    failures.record {
                        let scope = container.makeScope()
                        if worker.isMultiple(of: 2), request == 0 {
                            _ = try scope.resolve(StressFiller<FillerA>.self)
                            _ = try scope.resolve(StressFiller<FillerB>.self)
                            _ = try scope.resolve(StressFiller<FillerC>.self)
                        }
                        for offset in names.indices {
                            _ = try scope.resolve(
                                (any StressConnection).self,
                                name: names[(worker + offset) % names.count]
                            )
                        }
                        try scope.close()
                        return ()
                    }
                }
            }
            async let tasks: Void = withTaskGroup(of: Void.self) { group in
                for worker in 0..<4 { group.addTask { serve(worker) } }
            }
            let ended = await onThreads((4..<8).map { worker in { serve(worker) } })
            await tasks
            #expect(ended, "round \(round)")
            #expect(failures.errors.isEmpty, "round \(round): \(failures.errors)")
            #expect(failures.values == Array(repeating: "()", count: 8 * 5), "round \(round): \(failures.all)")
            #expect(objectDisposals.count == 0, "round \(round): a scope disposed the class singleton")
            #expect(valueDisposals.count == 0, "round \(round): a scope disposed the value singleton")
            try await container.shutdownAsync()
            #expect(objectDisposals.count == 1, "round \(round)")
            #expect(valueDisposals.count == 1, "round \(round)")
        }
    }
}
