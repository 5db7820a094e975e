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

// Overrides meeting lifetime scopes and collections: what is built under an override stays with
// the call, and what exists only as an override is collected too.

private protocol Clock: Sendable { var now: Int { get } }
private struct FixedClock: Clock { let now: Int }
private final class RequestSession: Disposable, Sendable {
    let clock: any Clock
    let log: EventLog
    init(clock: any Clock, log: EventLog) {
        self.clock = clock
        self.log = log
    }
    func dispose() { log.record("disposed session at \(clock.now)") }
}
private protocol Connection: Sendable {}
private final class GivenConnection: Connection, Disposable, Sendable {
    let disposals = Guarded(0)
    let log: EventLog?
    init(log: EventLog? = nil) { self.log = log }
    func dispose() {
        disposals.add(1)
        log?.record("disposed connection")
    }
}
/// A disposable value, recognised by its type and bytes: the counter it shares with its copies.
private struct GivenHandle: Disposable, Sendable {
    let disposals: CallCounter
    func dispose() { disposals.next() }
}
private protocol Plugin { var name: String { get } }
private struct NamedPlugin: Plugin { let name: String }

@Suite struct OverrideLifetimeTests {
    /// A scoped instance resolved under an override, from a scope made before the call, is built
    /// for the call: after it, the scope builds its own, without the override. Both are the scope's,
    /// disposed when it closes, last completed first.
    @Test func scopedInstanceBuiltUnderAnOverrideIsNotResolvedAfterTheCall() throws {
        let log = EventLog()
        let container = Container()
        container.register(Clock.self) { _ in FixedClock(now: 0) }
        container.register(RequestSession.self, scope: .scoped) { r in
            try RequestSession(clock: r.resolve(Clock.self), log: log)
        }
        let scope = container.makeScope()

        let inside = try container.withOverrides {
            $0.register(Clock.self) { _ in FixedClock(now: 7) }
        } operation: {
            let first = try scope.resolve(RequestSession.self)
            #expect(try scope.resolve(RequestSession.self) === first)  // still one per scope inside
            return first
        }
        #expect(inside.clock.now == 7)
        #expect(log.events.isEmpty)

        let after = try scope.resolve(RequestSession.self)
        #expect(after !== inside)
        #expect(after.clock.now == 0)
        try scope.close()
        #expect(log.events == ["disposed session at 0", "disposed session at 7"])
    }

    /// A scope made and closed inside the call disposes the scoped instances it made there.
    @Test func scopeClosedInsideTheCallDisposesItsScopedInstances() throws {
        let log = EventLog()
        let container = Container()
        container.register(Clock.self) { _ in FixedClock(now: 0) }
        container.register(RequestSession.self, scope: .scoped) { r in
            try RequestSession(clock: r.resolve(Clock.self), log: log)
        }

        try container.withOverrides {
            $0.register(Clock.self) { _ in FixedClock(now: 7) }
        } operation: {
            let scope = container.makeScope()
            _ = try scope.resolve(RequestSession.self)
            try scope.close()
            #expect(log.events == ["disposed session at 7"])
        }
        #expect(log.events == ["disposed session at 7"])
    }

    /// resolveAll inside the call collects the registrations that exist only as overrides, after
    /// the container's own, and uses the override of a key both have.
    @Test func resolveAllCollectsOverrideOnlyRegistrations() throws {
        let container = Container()
        container.register(Plugin.self, name: "spelling") { _ in NamedPlugin(name: "spelling") }
        container.register(Plugin.self, name: "grammar") { _ in NamedPlugin(name: "grammar") }

        let names = try container.withOverrides { overrides in
            overrides.register(Plugin.self, name: "grammar") { _ in NamedPlugin(name: "fake grammar") }
            overrides.register(Plugin.self, name: "word count") { _ in NamedPlugin(name: "word count") }
        } operation: {
            try container.resolveAll(Plugin.self).map(\.name)
        }

        #expect(names == ["spelling", "fake grammar", "word count"])
        #expect(try container.resolveAll(Plugin.self).map(\.name) == ["spelling", "grammar"])
    }
}

extension OverrideLifetimeTests {
    /// A task started inside an override call that outlives it (an unstructured `Task`, which
    /// inherits the call's task-local binding) resolves without the override once the call has
    /// returned, whether or not another override is running on the container meanwhile; and builds
    /// no singleton into the ended call's store, which nothing would dispose.
    @Test func aTaskThatOutlivesAnOverrideCallResolvesWithoutIt() async throws {
        let log = EventLog()
        let container = Container()
        container.register((any Clock).self) { _ in FixedClock(now: 1) }
        container.register(RequestSession.self, scope: .singleton) { r in
            RequestSession(clock: try r.resolve((any Clock).self), log: log)
        }
        let go = Signal()
        let escaped = try await container.withOverridesAsync {
            $0.register((any Clock).self) { _ in FixedClock(now: 99) }
        } operation: {
            Task {
                await go.wait()
                let clock = try container.resolve((any Clock).self).now
                return (clock, try container.resolve(RequestSession.self).clock.now)
            }
        }
        let (otherRunning, release) = (Signal(), Signal())
        let other = Task {  // another test's override, running meanwhile on the same container
            try await container.withOverridesAsync {
                $0.register(Int.self) { _ in 1 }
            } operation: {
                otherRunning.signal()
                await release.wait()
            }
        }
        await otherRunning.wait()

        go.signal()
        let (clock, sessionClock) = try await escaped.value
        release.signal()
        try await other.value

        #expect(clock == 1)
        #expect(sessionClock == 1)
        try await container.shutdownAsync()
        #expect(log.events == ["disposed session at 1"])
    }

    /// An instance given to the overrides as the caller's is never disposed, even handed on under
    /// another key by a singleton built for the call or by a scope's transient.
    @Test func anInstanceGivenAsTheCallersIsNeverDisposed() async throws {
        let container = Container()
        container.register(GivenConnection.self) { _ in GivenConnection() }
        container.register((any Connection).self, name: "shared", scope: .singleton) { r in
            try r.resolve(GivenConnection.self)
        }
        container.register((any Connection).self, name: "per request") { r in try r.resolve(GivenConnection.self) }
        let mine = GivenConnection()

        try await container.withOverridesAsync {
            $0.register(GivenConnection.self, instance: mine, ownedBy: .caller)
        } operation: {
            _ = try await container.resolveAsync((any Connection).self, name: "shared")
            try await container.withScopeAsync { _ = try $0.resolve((any Connection).self, name: "per request") }
        }
        #expect(mine.disposals.current == 0)
    }

    /// An instance given to the overrides as the container's is disposed when the call returns,
    /// after what was built for the call, sync and async.
    @Test func anInstanceGivenAsTheContainersIsDisposedWhenTheCallReturns() async throws {
        let container = Container()
        let log = EventLog()
        container.register(GivenConnection.self) { _ in GivenConnection() }
        container.register(RequestSession.self, scope: .singleton) { _ in
            RequestSession(clock: FixedClock(now: 1), log: log)
        }
        let (theirs, alsoTheirs) = (GivenConnection(log: log), GivenConnection(log: log))

        try container.withOverrides {
            $0.register(GivenConnection.self, instance: theirs, ownedBy: .container)
        } operation: {
            _ = try container.resolve(GivenConnection.self)
            _ = try container.resolve(RequestSession.self)
        }
        try await container.withOverridesAsync {
            $0.register(GivenConnection.self, instance: alsoTheirs, ownedBy: .container)
        } operation: {
            _ = try await container.resolveAsync(GivenConnection.self)
        }

        #expect(theirs.disposals.current == 1)
        #expect(alsoTheirs.disposals.current == 1)
        #expect(log.events == ["disposed session at 1", "disposed connection", "disposed connection"])
    }

    /// A task cancelled while `withOverridesAsync` disposes what it built does not cut an async
    /// disposal short: they run in a task of their own, as a scope's do.
    @Test func aCancellationWhileTheCallDisposesDoesNotReachAnAsyncDisposal() async throws {
        let container = Container()
        let flush = SlowFlush()
        let request = Task {
            try await container.withOverridesAsync {
                $0.register(SlowFlush.self, scope: .singleton) { _ in flush }
            } operation: {
                _ = try await container.resolveAsync(SlowFlush.self)
                return "done"
            }
        }
        #expect(await awaited(flush.started, seconds: 30))
        request.cancel()
        let result = await withWatchdog(seconds: 30) { (try? await request.value) ?? "threw" }

        #expect(flush.outcome.current == "flushed")
        #expect(result == "done")
    }

    /// An instance given as the container's to the overrides and to what already owns it (the
    /// container, or a call around this one) is disposed once, by its first owner: an object, and
    /// a disposable value, which is recognised by its type and bytes, as everywhere in the library.
    @Test(arguments: [false, true])
    func anInstanceGivenAsTheContainersTwiceIsDisposedOnce(asValue: Bool) throws {
        if asValue {
            let (inBoth, inNested) = (GivenHandle(disposals: CallCounter()), GivenHandle(disposals: CallCounter()))
            try expectDisposedOnce(inBoth, inNested) { $0.disposals.count }
        } else {
            try expectDisposedOnce(GivenConnection(), GivenConnection()) { $0.disposals.current }
        }
    }

    /// Gives `inBoth` as the container's to the container and to a call, and `inNested` to a call
    /// and to a call inside it, and expects each disposed once, by its first owner, as `disposals`
    /// counts an instance's disposals.
    private func expectDisposedOnce<Given: Sendable>(
        _ inBoth: Given,
        _ inNested: Given,
        disposals: (Given) -> Int
    ) throws {
        let container = Container()
        container.register(Given.self, instance: inBoth, ownedBy: .container)

        try container.withOverrides {
            $0.register(Given.self, name: "also", instance: inBoth, ownedBy: .container)
            $0.register(Given.self, name: "outer", instance: inNested, ownedBy: .container)
        } operation: {
            try container.withOverrides {
                $0.register(Given.self, name: "inner", instance: inNested, ownedBy: .container)
            } operation: {
                _ = try container.resolve(Given.self, name: "inner")
            }
            #expect(disposals(inNested) == 0)
            _ = try container.resolve(Given.self, name: "also")
        }
        #expect(disposals(inBoth) == 0)
        #expect(disposals(inNested) == 1)
        try container.shutdown()
        #expect(disposals(inBoth) == 1)
    }
}
