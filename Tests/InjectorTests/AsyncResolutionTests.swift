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

// Async factories: registered with an `async` closure, resolved with `resolveAsync`, which resolves
// sync registrations too. A sync resolve cannot run an async factory and says so.

// MARK: - Test doubles (private to this file)

/// A connection pool whose set-up suspends.
private final class ConnectionPool: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// A sync service.
private final class WallClock: Sendable {}

/// Built by an async factory from a sync dependency and an async one.
private struct NoteRepository: Sendable {
    let pool: ConnectionPool
    let clock: WallClock
}

/// Built by a sync factory that (wrongly) asks for an async registration.
private struct NightlyReport: Sendable { let pool: ConnectionPool }

/// A per-request connection, disposed asynchronously when its scope closes.
private final class RequestConnection: AsyncDisposable, Sendable {
    let serial: Int
    let log: EventLog
    init(serial: Int, log: EventLog) {
        self.serial = serial
        self.log = log
    }
    func disposeAsync() async throws {
        await Task.yield()
        log.record("disposed \(serial)")
    }
}

/// What a failing async factory throws.
private struct HandshakeError: Error, CustomStringConvertible { var description: String { "handshake refused" } }
private final class MessageBroker: Sendable {}
private struct BrokerClient: Sendable { let broker: MessageBroker }

// A cycle: Publisher -> Subscriber -> Publisher, both built by async factories.
private final class FeedPublisher: Sendable {
    let subscriber: FeedSubscriber
    init(subscriber: FeedSubscriber) { self.subscriber = subscriber }
}
private final class FeedSubscriber: Sendable {
    let publisher: FeedPublisher
    init(publisher: FeedPublisher) { self.publisher = publisher }
}

private struct Greeting: Sendable { let text: String }

private struct Draft: Sendable {
    var title: String
    var serial: Int
}

/// Prepared by an onResolved hook: `clock` is written once, by the hook, before anyone reads it.
private final class SyncJournal: @unchecked Sendable {
    var clock: WallClock?
}

/// Asks for a `ConnectionPool` twice, in one async factory.
private struct OrderService: Sendable {
    let first: ConnectionPool
    let second: ConnectionPool
}

/// Registers `ConnectionPool` with an async factory that suspends before building.
private func registerPool(in container: Container, scope: Scope = .transient, calls: CallCounter = CallCounter()) {
    container.register(ConnectionPool.self, scope: scope) { _ in
        await Task.yield()
        return ConnectionPool(serial: calls.next())
    }
}

/// The `InjectionError` `body` threw; the test fails if it threw none, or another error.
private func thrownError<T>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async throws -> InjectionError {
    try await #require(throws: InjectionError.self, sourceLocation: sourceLocation) { _ = try await body() }
}

/// The fix a sync resolve of an async registration suggests.
private let resolveAsyncFix =
    "Fix: resolve it with try await resolveAsync(ConnectionPool.self), from the"
    + " container or scope you resolve from (r.resolveAsync in an async factory); a sync factory that needs"
    + " it must become async too."

// MARK: - Tests

struct AsyncResolutionTests {
    // MARK: Resolving

    /// An async factory runs through `container.resolveAsync`.
    @Test func asyncFactoryIsResolvedWithResolveAsync() async throws {
        let container = Container()
        let calls = CallCounter()
        registerPool(in: container, calls: calls)

        let first = try await container.resolveAsync(ConnectionPool.self)
        let second = try await container.resolveAsync(ConnectionPool.self)

        #expect(first.serial == 1)
        #expect(second.serial == 2)
        #expect(calls.count == 2)
    }

    /// An async factory resolves sync dependencies with `try r.resolve` and async ones with
    /// `try await r.resolveAsync`.
    @Test func asyncFactoryResolvesSyncAndAsyncDependencies() async throws {
        let container = Container()
        registerPool(in: container, scope: .singleton)
        container.register(WallClock.self, scope: .singleton) { _ in WallClock() }
        container.register(NoteRepository.self) { r in
            let clock = try r.resolve(WallClock.self)
            return try await NoteRepository(pool: r.resolveAsync(ConnectionPool.self), clock: clock)
        }

        let repository = try await container.resolveAsync(NoteRepository.self)

        #expect(repository.clock === (try container.resolve(WallClock.self)))
        #expect(repository.pool === (try await container.resolveAsync(ConnectionPool.self)))
    }

    /// `resolveAsync` resolves sync registrations, sharing their singletons with sync resolves.
    @Test func syncRegistrationResolvesThroughResolveAsync() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(WallClock.self, scope: .singleton) { _ in
            calls.next()
            return WallClock()
        }

        let asyncClock = try await container.resolveAsync(WallClock.self)
        let syncClock = try container.resolve(WallClock.self)

        #expect(asyncClock === syncClock)
        #expect(calls.count == 1)
    }

    /// In async code, the sync `resolve` is still called without `await`: the async spelling has
    /// its own name and does not shadow it. (This test would not compile otherwise.)
    @Test func syncResolveNeedsNoAwaitInAsyncCode() async throws {
        let container = Container()
        container.register(WallClock.self, scope: .singleton) { _ in WallClock() }
        let scope = container.makeScope()
        await Task.yield()

        let clock = try container.resolve(WallClock.self)
        let scopedClock = try scope.resolve(WallClock.self)

        #expect(clock === scopedClock)
        try await scope.closeAsync()
    }

    // MARK: Sync resolve of an async registration

    /// A sync resolve of an async registration is refused, saying to use `resolveAsync`.
    @Test func syncResolveOfAnAsyncRegistrationRequiresResolveAsync() throws {
        let container = Container()
        let calls = CallCounter()
        registerPool(in: container, calls: calls)

        let error = try #require(injectionError { try container.resolve(ConnectionPool.self) })

        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message == """
                ConnectionPool has an async factory, which a sync resolve cannot run. Fix: resolve it with try \
                await resolveAsync(ConnectionPool.self), from the container or scope you resolve from \
                (r.resolveAsync in an async factory); a sync factory that needs it must become async too.
                """
        )
        #expect(error.resolutionPath.map(\.description) == ["ConnectionPool"])
        #expect(calls.count == 0)
    }

    /// The fix of a sync resolve refused names the key's name and arguments, so that it can be
    /// followed as written.
    @Test func theAsyncResolveTheFixSuggestsHasTheKeysNameAndArguments() throws {
        let container = Container()
        container.register(ConnectionPool.self, name: "replica") { _ async in ConnectionPool(serial: 1) }
        container.register(ConnectionPool.self) { (_: Resolver, serial: Int, _: String) async in
            ConnectionPool(serial: serial)
        }

        let named = try #require(injectionError { try container.resolve(ConnectionPool.self, name: "replica") })
        let withArguments = try #require(
            injectionError { try container.resolve(ConnectionPool.self, arguments: 5, "db") }
        )

        #expect(named.code == .asyncResolutionRequired)
        #expect(
            named.message
                == "ConnectionPool (name: \"replica\") has an async factory, which a sync resolve cannot run. Fix:"
                + " resolve it with try await resolveAsync(ConnectionPool.self, name: \"replica\"), from the"
                + " container or scope you resolve from (r.resolveAsync in an async factory); a sync factory that"
                + " needs it must become async too."
        )
        #expect(withArguments.code == .asyncResolutionRequired)
        #expect(
            withArguments.message
                == "ConnectionPool (arguments: Int, String) has an async factory, which a sync resolve cannot run."
                + " Fix: resolve it with try await resolveAsync(ConnectionPool.self, arguments: …), from the"
                + " container or scope you resolve from (r.resolveAsync in an async factory); a sync factory that"
                + " needs it must become async too."
        )
    }

    /// A sync factory depending on an async registration is refused too, with the path.
    @Test func syncFactoryDependingOnAnAsyncRegistrationRequiresResolveAsync() throws {
        let container = Container()
        registerPool(in: container, scope: .singleton)
        container.register(NightlyReport.self) { r in try NightlyReport(pool: r.resolve(ConnectionPool.self)) }

        let error = try #require(injectionError { try container.resolve(NightlyReport.self) })

        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message == "ConnectionPool has an async factory, which a sync resolve cannot run."
                + " Path: NightlyReport -> ConnectionPool. " + resolveAsyncFix
        )
        #expect(error.resolutionPath.map(\.description) == ["NightlyReport", "ConnectionPool"])
    }

    /// A sync resolve from a scope of an async scoped registration is refused the same way.
    @Test func syncScopeResolveOfAnAsyncScopedRegistrationRequiresResolveAsync() throws {
        let container = Container()
        registerPool(in: container, scope: .scoped)

        let error = try #require(injectionError { try container.makeScope().resolve(ConnectionPool.self) })

        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message == "ConnectionPool has an async factory, which a sync resolve cannot run. "
                + resolveAsyncFix
        )
    }

    // MARK: Shared instances

    /// An async singleton is built once and shared by later `resolveAsync` calls.
    @Test func asyncSingletonIsBuiltOnceAndShared() async throws {
        let container = Container()
        let calls = CallCounter()
        registerPool(in: container, scope: .singleton, calls: calls)

        let first = try await container.resolveAsync(ConnectionPool.self)
        let second = try await container.resolveAsync(ConnectionPool.self)
        let fromScope = try await container.makeScope().resolveAsync(ConnectionPool.self)

        #expect(first === second)
        #expect(first === fromScope)
        #expect(calls.count == 1)
    }

    /// Once an async singleton is built, a sync resolve still throws rather than return it: whether a
    /// sync resolve works must not depend on what ran before.
    @Test func syncResolveOfABuiltAsyncSingletonStillThrows() async throws {
        let container = Container()
        let calls = CallCounter()
        registerPool(in: container, scope: .singleton, calls: calls)
        _ = try await container.resolveAsync(ConnectionPool.self)

        let error = try #require(injectionError { try container.resolve(ConnectionPool.self) })

        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message == "ConnectionPool has an async factory, which a sync resolve cannot run. "
                + resolveAsyncFix
        )
        #expect(calls.count == 1)
    }

    /// An async scoped service has one instance per scope, which the scope disposes when it closes.
    @Test func asyncScopedServiceIsOnePerScopeAndDisposedOnClose() async throws {
        let container = Container()
        let calls = CallCounter()
        let log = EventLog()
        container.register(RequestConnection.self, scope: .scoped) { _ in
            await Task.yield()
            return RequestConnection(serial: calls.next(), log: log)
        }
        let first = container.makeScope()
        let second = container.makeScope()

        let a = try await first.resolveAsync(RequestConnection.self)
        let b = try await first.resolveAsync(RequestConnection.self)
        let c = try await second.resolveAsync(RequestConnection.self)
        try await first.closeAsync()

        #expect(a === b)
        #expect(a !== c)
        #expect(calls.count == 2)
        #expect(log.events == ["disposed \(a.serial)"])
        try await second.closeAsync()
        #expect(log.events == ["disposed \(a.serial)", "disposed \(c.serial)"])
    }

    /// An async weak instance is shared while held and built anew once released.
    @Test func asyncWeakInstanceIsSharedWhileHeld() async throws {
        let container = Container()
        let calls = CallCounter()
        registerPool(in: container, scope: .weak, calls: calls)

        weak var released: ConnectionPool?
        do {
            let first = try await container.resolveAsync(ConnectionPool.self)
            let second = try await container.resolveAsync(ConnectionPool.self)
            released = first
            #expect(first === second)
        }
        #expect(released == nil, "the container must not keep a weak instance alive")
        let renewed = try await container.resolveAsync(ConnectionPool.self)

        #expect(renewed.serial == 2)
        #expect(calls.count == 2)
    }

    /// An async graph instance is shared by the nested resolves of one `resolveAsync`, not beyond.
    @Test func asyncGraphInstanceIsSharedWithinOneResolveAsync() async throws {
        let container = Container()
        let calls = CallCounter()
        registerPool(in: container, scope: .graph, calls: calls)
        container.register(OrderService.self) { r in
            let first = try await r.resolveAsync(ConnectionPool.self)
            return try await OrderService(first: first, second: r.resolveAsync(ConnectionPool.self))
        }

        let one = try await container.resolveAsync(OrderService.self)
        let other = try await container.resolveAsync(OrderService.self)

        #expect(one.first === one.second)
        #expect(other.first === other.second)
        #expect(one.first !== other.first)
        #expect(calls.count == 2)
    }

    // MARK: Errors

    /// An error an async factory throws is reported as `factoryFailed`, with the error underlying.
    @Test func asyncFactoryErrorIsReportedAsFactoryFailed() async throws {
        let container = Container()
        container.register(MessageBroker.self) { _ in
            await Task.yield()
            throw HandshakeError()
        }

        let error = try await thrownError { try await container.resolveAsync(MessageBroker.self) }

        #expect(error.code == .factoryFailed)
        #expect(
            error.message == "The factory of MessageBroker threw: handshake refused."
                + " The error is the underlyingError; fix the factory or what it depends on."
        )
        #expect(error.underlyingError is HandshakeError)
        #expect(error.resolutionPath.map(\.description) == ["MessageBroker"])
    }

    /// A failing async dependency is reported with the path from the service asked for.
    @Test func asyncDependencyErrorIsReportedWithThePath() async throws {
        let container = Container()
        container.register(MessageBroker.self, scope: .singleton) { _ in
            await Task.yield()
            throw HandshakeError()
        }
        container.register(BrokerClient.self) { r in
            try await BrokerClient(broker: r.resolveAsync(MessageBroker.self))
        }

        let error = try await thrownError { try await container.resolveAsync(BrokerClient.self) }

        #expect(error.code == .factoryFailed)
        #expect(
            error.message == "The factory of MessageBroker threw: handshake refused."
                + " Path: BrokerClient -> MessageBroker."
                + " The error is the underlyingError; fix the factory or what it depends on."
        )
        #expect(error.underlyingError is HandshakeError)
        #expect(error.resolutionPath.map(\.description) == ["BrokerClient", "MessageBroker"])
    }

    /// A cycle between async factories is reported with the cycle.
    @Test func cycleBetweenAsyncFactoriesIsReported() async throws {
        let container = Container()
        container.register(FeedPublisher.self) { r in
            try await FeedPublisher(subscriber: r.resolveAsync(FeedSubscriber.self))
        }
        container.register(FeedSubscriber.self) { r in
            try await FeedSubscriber(publisher: r.resolveAsync(FeedPublisher.self))
        }

        let error = try await thrownError { try await container.resolveAsync(FeedPublisher.self) }

        #expect(error.code == .circularDependency)
        #expect(
            error.message == """
                Circular dependency: FeedPublisher -> FeedSubscriber -> FeedPublisher. Each of these asks for the \
                next in its factory, so none of them can be built first. Fix: break the cycle with property \
                injection: let one of them receive the other after construction, in an onResolved hook, and give \
                the one resolved back the .graph or .singleton scope so that the hook receives the same instance.
                """
        )
        #expect(error.resolutionPath.map(\.description) == ["FeedPublisher", "FeedSubscriber", "FeedPublisher"])
    }

    /// A cycle between async singletons is reported, not deadlocked on their locks, and reported
    /// again on the next resolve (the locks were released).
    @Test func cycleBetweenAsyncSingletonsIsReportedEveryTime() async throws {
        let container = Container()
        container.register(FeedPublisher.self, scope: .singleton) { r in
            try await FeedPublisher(subscriber: r.resolveAsync(FeedSubscriber.self))
        }
        container.register(FeedSubscriber.self, scope: .singleton) { r in
            try await FeedSubscriber(publisher: r.resolveAsync(FeedPublisher.self))
        }

        let first = try await thrownError { try await container.resolveAsync(FeedSubscriber.self) }
        let second = try await thrownError { try await container.resolveAsync(FeedPublisher.self) }

        #expect(first.code == .circularDependency)
        #expect(first.message.hasPrefix("Circular dependency: FeedSubscriber -> FeedPublisher -> FeedSubscriber."))
        #expect(second.code == .circularDependency)
        #expect(second.message.hasPrefix("Circular dependency: FeedPublisher -> FeedSubscriber -> FeedPublisher."))
    }

    // MARK: Arguments, configure, hooks

    /// An async factory takes resolve-time arguments: one (`argument:`) or several (`arguments:`).
    @Test func asyncFactoryTakesResolveTimeArguments() async throws {
        let container = Container()
        container.register(Greeting.self) { (_, name: String) in
            await Task.yield()
            return Greeting(text: "Hello, \(name)")
        }
        container.register(Greeting.self) { (_, name: String, times: Int) in
            await Task.yield()
            return Greeting(text: Array(repeating: name, count: times).joined(separator: " "))
        }

        let one = try await container.resolveAsync(Greeting.self, argument: "Ada")
        let several = try await container.resolveAsync(Greeting.self, arguments: "hip", 2)

        #expect(one.text == "Hello, Ada")
        #expect(several.text == "hip hip")
    }

    /// An async factory passes a resolve-time argument on through its resolver, in one step.
    @Test func resolverPassesOneArgumentToAnAsyncFactory() async throws {
        struct Banner { let greeting: Greeting }
        let container = Container()
        container.register(Greeting.self) { (_, name: String) in
            await Task.yield()
            return Greeting(text: "Hello, \(name)")
        }
        container.register(Banner.self) { r async throws in
            Banner(greeting: try await r.resolveAsync(Greeting.self, argument: "Grace"))
        }

        let banner = try await container.resolveAsync(Banner.self)

        #expect(banner.greeting.text == "Hello, Grace")
    }

    /// A configure closure shapes an async transient instance before it is returned.
    @Test func configureShapesAnAsyncTransientInstance() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(Draft.self) { _ in
            await Task.yield()
            return Draft(title: "untitled", serial: calls.next())
        }

        let configured = try await container.resolveAsync(Draft.self, configure: { $0.title = "Minutes" })
        let plain = try await container.resolveAsync(Draft.self)

        #expect(configured.title == "Minutes")
        #expect(configured.serial == 1)
        #expect(plain.title == "untitled")
    }

    /// An onResolved hook runs, once, on an instance an async factory built, before it is returned.
    @Test func onResolvedHookRunsForAnAsyncBuiltInstance() async throws {
        let container = Container()
        let hookCalls = CallCounter()
        container.register(WallClock.self, scope: .singleton) { _ in WallClock() }
        container.register(SyncJournal.self) { _ in
            await Task.yield()
            return SyncJournal()
        }
        .onResolved { r, journal in
            hookCalls.next()
            journal.clock = try r.resolve(WallClock.self)
        }

        let journal = try await container.resolveAsync(SyncJournal.self)

        #expect(hookCalls.count == 1)
        #expect(journal.clock === (try container.resolve(WallClock.self)))
    }
}
