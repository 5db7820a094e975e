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
import Synchronization
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
    private let disposals = Atomic<Int>(0)
    init(_ census: Census) {
        self.census = census
        census.made.next()
    }
    func dispose() {
        if disposals.wrappingAdd(1, ordering: .relaxed).newValue == 1 {
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
}
