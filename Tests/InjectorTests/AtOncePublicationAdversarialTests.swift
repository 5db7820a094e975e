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

// Attacks on publication at once: a singleton or weak instance is published when its own
// construction completes, unless something it may hold awaits the end of the resolution. Each test
// bounds its waits, so that a hang fails it.

// MARK: - Test doubles (private to this file)

private final class AdvFlag: Sendable {
    private let value = Guarded(false)
    func set() { value.set(true) }
    var isSet: Bool { value.current }
}

/// A graph-scoped part whose `onResolved` hook marks it.
private final class AdvPart: Sendable {
    let hooked = AdvFlag()
}
private final class AdvSibling: Sendable {
    let part: AdvPart
    init(part: AdvPart) { self.part = part }
}
/// A singleton holding the graph-scoped part.
private final class AdvHolder: Sendable {
    let part: AdvPart
    init(part: AdvPart) { self.part = part }
}
private final class AdvRoot: Sendable {}

/// A value shared by threads, behind a lock.
private typealias AdvBox = Guarded

/// What threads saw, from any thread.
private final class Seen: Sendable {
    private let values = Guarded<[Bool]>([])
    func add(_ value: Bool) { values.withLock { $0.append(value) } }
    var all: [Bool] { values.withLock { $0 } }
}

private final class AdvFirst: Disposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() { log.record("AdvFirst") }
}
private final class AdvSecond: Disposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() { log.record("AdvSecond") }
}
private final class AdvFailingRoot: Sendable {}
private struct AdvRefused: Error {}

private final class AdvShared: Sendable {}
private final class AdvAsyncShared: Sendable {}
/// Asked for by one test only, so that its wait at the gate is told apart from other tests'.
private final class AdvGateWaitedAt: Sendable {}
private final class AdvFlaky: Sendable {}
private final class AdvCrossA: Sendable {}
private final class AdvCrossB: Sendable {}
private final class AdvOverridden: Sendable {}

private final class AdvNode: Sendable {
    let children: [AdvNode]
    init(children: [AdvNode]) { self.children = children }
    var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}
private final class AdvAsyncNode: Sendable {
    let children: [AdvAsyncNode]
    init(children: [AdvAsyncNode]) { self.children = children }
    var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}
private final class AdvLoop: Sendable {}
private final class AdvPathNode: Sendable {}
/// An argument that is a class, not `Hashable`.
private final class AdvToken: Sendable {
    let name: String
    init(name: String) { self.name = name }
}
private final class AdvTokenNode: Sendable {}
private final class AdvChain: Sendable {}

/// Runs `body` on a thread of its own with `stackSize` bytes of stack; its result, or `nil` if it
/// did not end within `seconds`.
private func onThread<Result: Sendable>(
    stackSize: Int,
    seconds: Double = 30,
    _ body: @escaping @Sendable () -> Result
) async -> Result? {
    let result = AdvBox<Result?>(nil)
    let ended = await onThreadsWithStack(stackSize: stackSize, seconds: seconds) {
        let value = body()
        result.withLock { $0 = value }
    }
    return ended ? result.withLock { $0 } : nil
}

private func onThreadsWithStack(stackSize: Int, seconds: Double, _ body: @escaping @Sendable () -> Void) async -> Bool {
    let done = Signal()
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    return await awaited(done, seconds: seconds)
}

// MARK: - Tests

@Suite(.timeLimit(.minutes(1)))
struct AtOncePublicationAdversarialTests {
    /// A singleton whose factory takes a graph-scoped part that a sibling built earlier in the same
    /// resolve, whose hook has not run yet: a thread the root's factory waits for must not get the
    /// singleton before the part's hook ran.
    @Test func singletonHoldingAGraphPartWithAPendingHookIsNotSeenBeforeTheHook() async throws {
        let container = Container()
        let seen = Seen()
        let observed = DispatchSemaphore(value: 0)
        let builds = CallCounter()
        container.register(AdvPart.self, scope: .graph) { _ in AdvPart() }
            .onResolved { _, part in part.hooked.set() }
        container.register(AdvSibling.self) { r in AdvSibling(part: try r.resolve(AdvPart.self)) }
        container.register(AdvHolder.self, scope: .singleton) { r in
            builds.next()
            return AdvHolder(part: try r.resolve(AdvPart.self))
        }
        container.register(AdvRoot.self) { r in
            let sibling = try r.resolve(AdvSibling.self)
            let holder = try r.resolve(AdvHolder.self)
            #expect(sibling.part === holder.part)
            let thread = Thread {
                if let other = try? container.resolve(AdvHolder.self) { seen.add(other.part.hooked.isSet) }
                observed.signal()
            }
            thread.start()
            // If the singleton were published now, the thread would get it at once.
            _ = waited(for: observed, seconds: 0.5)
            return AdvRoot()
        }
        _ = try container.resolve(AdvRoot.self)
        #expect(waitedUntil { seen.all.count == 1 })
        #expect(seen.all == [true], "a thread saw the singleton before its part's hook ran")
        #expect(builds.count == 1)
    }

    /// The same, async: an async singleton taking the graph part a sibling built, seen by a
    /// detached task the root's factory waits for.
    @Test func asyncSingletonHoldingAGraphPartWithAPendingHookIsNotSeenBeforeTheHook() async throws {
        let container = Container()
        let seen = Seen()
        let builds = CallCounter()
        container.register(AdvPart.self, scope: .graph) { _ in AdvPart() }
            .onResolved { _, part in part.hooked.set() }
        container.register(AdvSibling.self) { r in AdvSibling(part: try await r.resolveAsync(AdvPart.self)) }
        container.register(AdvHolder.self, scope: .singleton) { r async throws in
            builds.next()
            return AdvHolder(part: try await r.resolveAsync(AdvPart.self))
        }
        container.register(AdvRoot.self) { r async throws in
            _ = try await r.resolveAsync(AdvSibling.self)
            _ = try await r.resolveAsync(AdvHolder.self)
            Task.detached {
                if let other = try? await container.resolveAsync(AdvHolder.self) { seen.add(other.part.hooked.isSet) }
            }
            _ = await awaitedUntil(seconds: 0.5) { !seen.all.isEmpty }
            return AdvRoot()
        }
        _ = try await container.resolveAsync(AdvRoot.self)
        #expect(await awaitedUntil { seen.all.count == 1 })
        #expect(seen.all == [true], "a task saw the singleton before its part's hook ran")
        #expect(builds.count == 1)
    }

    /// Finished singletons are published at once: a thread the root's factory waits for gets them,
    /// the root's failure keeps them, and shutdown disposes each once, in reverse completion order.
    @Test func finishedSingletonsOutliveAFailedResolveAndAreDisposedOnceInReverseOrder() async throws {
        let container = Container()
        let log = EventLog()
        let firstBuilds = CallCounter()
        let secondBuilds = CallCounter()
        container.register(AdvFirst.self, scope: .singleton) { _ in
            firstBuilds.next()
            return AdvFirst(log: log)
        }
        container.register(AdvSecond.self, scope: .singleton) { _ in
            secondBuilds.next()
            return AdvSecond(log: log)
        }
        let sameOnThread = AdvFlag()
        let ended = DispatchSemaphore(value: 0)
        container.register(AdvFailingRoot.self) { r in
            let first = try r.resolve(AdvFirst.self)
            let second = try r.resolve(AdvSecond.self)
            let thread = Thread {
                if let a = try? container.resolve(AdvFirst.self), let b = try? container.resolve(AdvSecond.self),
                    a === first, b === second
                {
                    sameOnThread.set()
                }
                ended.signal()
            }
            thread.start()
            #expect(waited(for: ended), "a thread the factory waits for waited for a finished singleton")
            throw AdvRefused()
        }
        for _ in 0..<3 {
            let error = try #require(injectionError { try container.resolve(AdvFailingRoot.self) })
            #expect(error.code == .factoryFailed)
        }
        #expect(sameOnThread.isSet)
        #expect(try container.resolve(AdvFirst.self) === container.resolve(AdvFirst.self))
        #expect(firstBuilds.count == 1)
        #expect(secondBuilds.count == 1)
        try await container.shutdownAsync()
        #expect(log.events == ["AdvSecond", "AdvFirst"])
    }

    /// A singleton whose own construction fails publishes nothing, however many threads ask: the
    /// next resolve builds anew, and every success is the one instance.
    @Test func failedSharedConstructionPublishesNothingUnderARace() async throws {
        let container = Container()
        let calls = CallCounter()
        let successes = CallCounter()
        container.register(AdvFlaky.self, scope: .singleton) { _ in
            let call = calls.next()
            Thread.sleep(forTimeInterval: 0.01)
            if call <= 2 { throw AdvRefused() }
            successes.next()
            return AdvFlaky()
        }
        let instances = AdvBox<[ObjectIdentifier]>([])
        let outcomes = Outcomes()
        let ended = await onThreads(
            (0..<8).map { _ in
                {
                    outcomes.record {
                        let flaky = try container.resolve(AdvFlaky.self)
                        instances.withLock { $0.append(ObjectIdentifier(flaky)) }
                        return flaky
                    }
                }
            }
        )
        #expect(ended)
        #expect(outcomes.errors.allSatisfy { $0.code == .factoryFailed }, "\(outcomes.all)")
        let later = try container.resolve(AdvFlaky.self)
        instances.withLock { $0.append(ObjectIdentifier(later)) }
        #expect(Set(instances.withLock { $0 }).count == 1)
        #expect(successes.count == 1)
    }

    /// One sync and one async singleton, asked for from threads, `async let`, a task group,
    /// detached tasks, a child container and a lifetime scope at once: each is built once.
    @Test func sharedInstancesAreBuiltOnceHoweverTheyAreAskedFor() async throws {
        let container = Container()
        let syncBuilds = CallCounter()
        let asyncBuilds = CallCounter()
        container.register(AdvShared.self, scope: .singleton) { _ in
            syncBuilds.next()
            Thread.sleep(forTimeInterval: 0.02)
            return AdvShared()
        }
        container.register(AdvAsyncShared.self, scope: .singleton) { r async throws in
            asyncBuilds.next()
            _ = try await r.resolveAsync(AdvShared.self)
            try await Task.sleep(for: .milliseconds(20))
            return AdvAsyncShared()
        }
        let child = container.makeChild()
        let scope = container.makeScope()
        let syncSeen = AdvBox<Set<ObjectIdentifier>>([])
        let asyncSeen = AdvBox<Set<ObjectIdentifier>>([])
        let threads = Task {
            await onThreads(
                (0..<4).map { index in
                    {
                        let source: @Sendable () throws -> AdvShared =
                            switch index % 3 {
                            case 0: { try container.resolve(AdvShared.self) }
                            case 1: { try child.resolve(AdvShared.self) }
                            default: { try scope.resolve(AdvShared.self) }
                            }
                        if let shared = try? source() { syncSeen.withLock { _ = $0.insert(ObjectIdentifier(shared)) } }
                    }
                }
            )
        }
        async let a = container.resolveAsync(AdvAsyncShared.self)
        async let b = child.resolveAsync(AdvAsyncShared.self)
        async let c = scope.resolveAsync(AdvShared.self)
        let detached = Task.detached { try await container.resolveAsync(AdvAsyncShared.self) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        let shared = try await container.resolveAsync(AdvAsyncShared.self)
                        asyncSeen.withLock { _ = $0.insert(ObjectIdentifier(shared)) }
                    } else {
                        let shared = try await scope.resolveAsync(AdvShared.self)
                        syncSeen.withLock { _ = $0.insert(ObjectIdentifier(shared)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        for shared in try await [a, b, detached.value] {
            asyncSeen.withLock { _ = $0.insert(ObjectIdentifier(shared)) }
        }
        let fromScope = try await c
        syncSeen.withLock { _ = $0.insert(ObjectIdentifier(fromScope)) }
        #expect(await threads.value)
        #expect(syncSeen.withLock { $0.count } == 1)
        #expect(asyncSeen.withLock { $0.count } == 1)
        #expect(syncBuilds.count == 1)
        #expect(asyncBuilds.count == 1)
        try await scope.closeAsync()
    }

    /// Under test overrides (a side store), a singleton asked for by many tasks of the operation is
    /// built once for the call.
    @Test func sharedInstanceUnderOverridesIsBuiltOnceForTheCall() async throws {
        let container = Container()
        let builds = CallCounter()
        container.register(AdvOverridden.self) { _ in AdvOverridden() }
        container.register(AdvShared.self, scope: .singleton) { r in
            builds.next()
            _ = try r.resolve(AdvOverridden.self)
            Thread.sleep(forTimeInterval: 0.01)
            return AdvShared()
        }
        let seen = try await container.withOverridesAsync { overrides in
            overrides.register(AdvOverridden.self) { _ in AdvOverridden() }
        } operation: {
            try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<8 {
                    group.addTask { ObjectIdentifier(try await container.resolveAsync(AdvShared.self)) }
                }
                var seen = Set<ObjectIdentifier>()
                for try await id in group { seen.insert(id) }
                return seen
            }
        }
        #expect(seen.count == 1)
        #expect(builds.count == 1)
    }

    /// Thread 1 inside A's factory asks for B while thread 2 inside B's factory asks for A, both
    /// singletons that would be published at once: a wait that can never end is reported as
    /// `circularWait` naming both paths, never a hang.
    @Test func crossedWaitBetweenAtOnceSingletonsIsReported() async throws {
        let container = Container()
        let aInside = AdvFlag()
        let bInside = AdvFlag()
        container.register(AdvCrossA.self, scope: .singleton) { r in
            aInside.set()
            _ = waitedUntil { bInside.isSet }
            _ = try r.resolve(AdvCrossB.self)
            return AdvCrossA()
        }
        container.register(AdvCrossB.self, scope: .singleton) { r in
            bInside.set()
            _ = waitedUntil { aInside.isSet }
            _ = try r.resolve(AdvCrossA.self)
            return AdvCrossB()
        }
        let outcomes = Outcomes()
        let ended = await onThreads([
            { outcomes.record { try container.resolve(AdvCrossA.self) } },
            { outcomes.record { try container.resolve(AdvCrossB.self) } },
        ])
        #expect(ended)
        let waits = outcomes.errors.filter { $0.code == .circularWait }
        try #require(waits.count == 1, "\(outcomes.all)")
        let message = waits[0].message
        #expect(message.contains("AdvCrossA -> AdvCrossB"), "\(message)")
        #expect(message.contains("AdvCrossB -> AdvCrossA"), "\(message)")
        #expect(outcomes.values.isEmpty, "A and B need each other: neither can be built")
    }

    /// A task cancelled before it asks starts no shared factory, sync or async.
    @Test func cancelledTaskStartsNoSharedFactory() async throws {
        let container = Container()
        let syncBuilds = CallCounter()
        let asyncBuilds = CallCounter()
        container.register(AdvShared.self, scope: .singleton) { _ in
            syncBuilds.next()
            return AdvShared()
        }
        container.register(AdvAsyncShared.self, scope: .singleton) { _ async in
            asyncBuilds.next()
            return AdvAsyncShared()
        }
        let codes = await Task { () -> [InjectionError.Code?] in
            withUnsafeCurrentTask { $0?.cancel() }
            let asyncError = await injectionErrorAsync { try await container.resolveAsync(AdvAsyncShared.self) }
            let syncInAsync = await injectionErrorAsync { try await container.resolveAsync(AdvShared.self) }
            return [asyncError?.code, syncInAsync?.code]
        }.value
        #expect(codes == [.resolutionCancelled, .resolutionCancelled])
        #expect(asyncBuilds.count == 0)
        #expect(syncBuilds.count == 0)
        _ = try await container.resolveAsync(AdvAsyncShared.self)
        #expect(asyncBuilds.count == 1)
    }

    /// A task waiting at the gate of an async singleton another task is building stops with
    /// `resolutionCancelled` when cancelled; the builder still publishes the one instance.
    @Test func cancelledTaskWaitingAtAnAsyncGateStops() async throws {
        let container = Container()
        let builds = CallCounter()
        let inside = Signal()
        let release = Signal()
        container.register(AdvGateWaitedAt.self, scope: .singleton) { _ async in
            builds.next()
            inside.signal()
            await release.wait()
            return AdvGateWaitedAt()
        }
        let builder = Task { try await container.resolveAsync(AdvGateWaitedAt.self) }
        #expect(await awaited(inside))
        let waiter = Task { await injectionErrorAsync { try await container.resolveAsync(AdvGateWaitedAt.self) }?.code }
        // Cancelled once it waits at the gate, however late it gets there on a loaded machine.
        #expect(await awaitedUntil { InstanceGates.waits().contains { $0.serviceType == AdvGateWaitedAt.self } })
        waiter.cancel()
        let code = await withWatchdog { await waiter.value }
        #expect(code.flatMap { $0 } == .resolutionCancelled)
        release.signal()
        let built = try await builder.value
        #expect(try await container.resolveAsync(AdvGateWaitedAt.self) === built)
        #expect(builds.count == 1)
    }

    /// Recursion through arguments builds a tree by depth, sync and async.
    @Test func recursionWithArgumentsBuildsATree() async throws {
        let container = Container()
        container.register(AdvNode.self) { (r: Resolver, depth: Int) in
            guard depth > 0 else { return AdvNode(children: []) }
            return AdvNode(children: [
                try r.resolve(AdvNode.self, argument: depth - 1), try r.resolve(AdvNode.self, argument: depth - 1),
            ])
        }
        container.register(AdvAsyncNode.self) { (r: Resolver, depth: Int, label: String) async throws in
            guard depth > 0 else { return AdvAsyncNode(children: []) }
            return AdvAsyncNode(children: [
                try await r.resolveAsync(AdvAsyncNode.self, arguments: depth - 1, label + "l"),
                try await r.resolveAsync(AdvAsyncNode.self, arguments: depth - 1, label + "r"),
            ])
        }
        #expect(try container.resolve(AdvNode.self, argument: 6).count == 127)
        #expect(try await container.resolveAsync(AdvAsyncNode.self, arguments: 5, "root").count == 63)
    }

    /// A re-entry with the same arguments is a cycle, reported at once with its loop, each factory
    /// having run once: with an `Int`, and with an array of strings deeper than the frames' index.
    @Test func sameArgumentsReentryIsACycle() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(AdvLoop.self) { (r: Resolver, n: Int) in
            calls.next()
            _ = try r.resolve(AdvLoop.self, argument: n == 0 ? 3 : n - 1)
            return AdvLoop()
        }
        let error = try #require(injectionError { try container.resolve(AdvLoop.self, argument: 3) })
        #expect(error.code == .circularDependency)
        #expect(error.resolutionPath.count == 5, "\(error.message)")
        #expect(calls.count == 4)

        // Two branches 40 deep (past the index of 32 frames, back under it, past it again); the
        // second re-enters with the arguments of its 10th ancestor.
        let pathCalls = CallCounter()
        container.register(AdvPathNode.self) { (r: Resolver, path: [String]) in
            pathCalls.next()
            if path.count < 40 {
                _ = try r.resolve(AdvPathNode.self, argument: path + ["a"])
                if path.count == 25 { _ = try r.resolve(AdvPathNode.self, argument: path + ["b"]) }
            } else if path.contains("b") {
                _ = try r.resolve(AdvPathNode.self, argument: Array(path.prefix(30)))
            }
            return AdvPathNode()
        }
        let deep = try #require(injectionError { try container.resolve(AdvPathNode.self, argument: [String]()) })
        #expect(deep.code == .circularDependency)
        #expect(deep.resolutionPath.count == 41 + 1, "\(deep.message)")
        #expect(deep.message.contains("The loop is"), "\(deep.message)")
        // The first branch (41 nodes) and the second, from depth 26 to 40 (15 nodes), each once.
        #expect(pathCalls.count == 41 + 15)
    }

    /// Arguments that are not `Hashable` (a class) are taken as other arguments: a re-entry with the
    /// same one recurses until the stack guard stops it, an error and not a crash, on a thread with
    /// a small stack.
    @Test func nonHashableArgumentsRecurseToTooDeep() async throws {
        let container = Container()
        container.register(AdvTokenNode.self) { (r: Resolver, token: AdvToken, label: String) in
            _ = try r.resolve(AdvTokenNode.self, arguments: token, label)
            return AdvTokenNode()
        }
        let code = await onThread(stackSize: 256 << 10) {
            injectionError { try container.resolve(AdvTokenNode.self, arguments: AdvToken(name: "t"), "same") }?.code
        }
        #expect(code == .resolutionTooDeep)
    }

    /// A chain 2,000 deep through arguments, on a thread with 256 KiB of stack, is refused with
    /// `resolutionTooDeep`, not a crash; sync and async.
    @Test func deepChainWithArgumentsOnASmallStackIsTooDeep() async throws {
        let container = Container()
        container.register(AdvChain.self) { (r: Resolver, n: Int, tags: [String]) in
            if n < 2000 { _ = try r.resolve(AdvChain.self, arguments: n + 1, tags) }
            return AdvChain()
        }
        let code = await onThread(stackSize: 256 << 10) {
            injectionError { try container.resolve(AdvChain.self, arguments: 0, ["x", "y"]) }?.code
        }
        #expect(code == .resolutionTooDeep)
    }
}
