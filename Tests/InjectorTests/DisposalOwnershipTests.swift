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

// Who disposes an instance that one registration builds and another passes on.

private protocol Logging: AnyObject, Sendable {}
private final class FileLogger: Logging, Disposable, Sendable {
    let disposals = CallCounter()
    func dispose() { disposals.next() }
}
private final class RequestLog: Logging, Disposable, Sendable {
    let disposals = CallCounter()
    func dispose() { disposals.next() }
}

@Suite struct DisposalOwnershipTests {
    /// A transient registration that passes on a singleton (another key for one instance) does not
    /// make the scope it is resolved from the singleton's owner: the scope's close leaves it alone,
    /// and the container's shutdown disposes it, once.
    @Test func scopeDoesNotDisposeASingletonPassedOnByATransient() throws {
        let container = Container()
        container.register(FileLogger.self, scope: .singleton) { _ in FileLogger() }
        container.register((any Logging).self) { r in try r.resolve(FileLogger.self) }
        let scope = container.makeScope()

        let logging = try scope.resolve((any Logging).self)
        try scope.close()
        let logger = try container.resolve(FileLogger.self)

        #expect(logging === logger)
        #expect(logger.disposals.count == 0)
        try container.shutdown()
        #expect(logger.disposals.count == 1)
    }

    /// The same when the singleton is built by the resolve that passes it on.
    @Test func scopeDoesNotDisposeASingletonBuiltAndPassedOnInOneResolve() throws {
        let container = Container()
        container.register(FileLogger.self, scope: .singleton) { _ in FileLogger() }
        container.register((any Logging).self, name: "file") { r in try r.resolve(FileLogger.self) }
        let scope = container.makeScope()

        let logging = try scope.resolve((any Logging).self, name: "file")
        try scope.close()

        #expect((logging as? FileLogger)?.disposals.count == 0)
        try container.shutdown()
        #expect((logging as? FileLogger)?.disposals.count == 1)
    }

    /// A transient that passes on a scoped instance is disposed once, with the scope.
    @Test func scopedInstancePassedOnByATransientIsDisposedOnce() throws {
        let container = Container()
        container.register(RequestLog.self, scope: .scoped) { _ in RequestLog() }
        container.register((any Logging).self) { r in try r.resolve(RequestLog.self) }
        let scope = container.makeScope()

        let log = try scope.resolve((any Logging).self) as! RequestLog
        try scope.close()

        #expect(log.disposals.count == 1)
    }
}

/// A disposable value-type singleton, reachable under a protocol through a transient.
private protocol Connection: Sendable {}
private struct PooledConnection: Connection, Disposable, Sendable {
    let disposals: CallCounter
    func dispose() { disposals.next() }
}

extension DisposalOwnershipTests {
    /// A value-type singleton that a transient passes on under a protocol is the container's: no
    /// scope disposes it, whether it was built before or by the resolve from the scope, and the
    /// container's shutdown disposes it once.
    @Test(arguments: [true, false])
    func scopeDoesNotDisposeAValueSingletonPassedOnByATransient(builtBefore: Bool) throws {
        let disposals = CallCounter()
        let container = Container()
        container.register(PooledConnection.self, scope: .singleton) { _ in PooledConnection(disposals: disposals) }
        container.register((any Connection).self) { r in try r.resolve(PooledConnection.self) }
        if builtBefore { _ = try container.resolve(PooledConnection.self) }

        for _ in 0..<3 {
            let scope = container.makeScope()
            _ = try scope.resolve((any Connection).self)
            try scope.close()
        }

        #expect(disposals.count == 0)
        try container.shutdown()
        #expect(disposals.count == 1)
    }

    /// A scoped object of a singleton's class, made anew, is the scope's: its type matches the
    /// singletons' filter, and its identity, which is not a singleton's, decides.
    @Test func scopeDisposesAnObjectOfASingletonsClassMadeAnew() throws {
        let container = Container()
        container.register(FileLogger.self, scope: .singleton) { _ in FileLogger() }
        container.register((any Logging).self, scope: .scoped) { r in
            _ = try r.resolve(FileLogger.self)
            return FileLogger()
        }
        let singleton = try container.resolve(FileLogger.self)

        let scope = container.makeScope()
        let scoped = try scope.resolve((any Logging).self) as? FileLogger
        try scope.close()

        #expect(scoped !== singleton)
        #expect(scoped?.disposals.count == 1)
        #expect(singleton.disposals.count == 0)
    }

    /// A weak instance passed on by a transient is not the scope's either.
    @Test func scopeDoesNotDisposeAWeakInstancePassedOnByATransient() throws {
        let container = Container()
        container.register(RequestLog.self, scope: .weak) { _ in RequestLog() }
        container.register((any Logging).self) { r in try r.resolve(RequestLog.self) }
        let held = try container.resolve(RequestLog.self)

        let scope = container.makeScope()
        let logging = try scope.resolve((any Logging).self)
        try scope.close()

        #expect(logging === held)
        #expect(held.disposals.count == 0)
    }

    /// A transient value the factory makes anew (not a singleton passed on) is still the scope's.
    @Test func scopeDisposesATransientValueOfTheSameTypeAsASingleton() throws {
        let shared = CallCounter()
        let fresh = CallCounter()
        let container = Container()
        container.register(PooledConnection.self, scope: .singleton) { _ in PooledConnection(disposals: shared) }
        container.register((any Connection).self) { r in
            _ = try r.resolve(PooledConnection.self)
            return PooledConnection(disposals: fresh)
        }

        let scope = container.makeScope()
        _ = try scope.resolve((any Connection).self)
        try scope.close()

        #expect(fresh.count == 1)
        #expect(shared.count == 0)
    }
}

extension DisposalOwnershipTests {
    /// A scope never disposes a singleton or weak instance of another root container, of another
    /// tree, that a factory hands on through a captured container or as a captured instance: that
    /// container still holds it, and disposes a singleton at its shutdown, once. A class instance
    /// and a value alike, whether it was built before or by the resolve from the scope.
    @Test(arguments: [true, false])
    func scopeDoesNotDisposeASharedInstanceOfAnotherRootContainerHandedOn(builtBefore: Bool) throws {
        let valueDisposals = CallCounter()
        let other = Container()
        other.register(FileLogger.self, scope: .singleton) { _ in FileLogger() }
        other.register(PooledConnection.self, scope: .singleton) { _ in PooledConnection(disposals: valueDisposals) }
        other.register(RequestLog.self, scope: .weak) { _ in RequestLog() }
        let app = Container()
        app.register((any Logging).self, name: "singleton") { _ in try other.resolve(FileLogger.self) }
        app.register((any Connection).self) { _ in try other.resolve(PooledConnection.self) }
        app.register((any Logging).self, name: "weak") { _ in try other.resolve(RequestLog.self) }
        let held = builtBefore ? try other.resolve(RequestLog.self) : nil
        if builtBefore { _ = try other.resolve(PooledConnection.self) }

        let (singleton, weak) = try app.withScope { scope in
            _ = try scope.resolve((any Connection).self)
            let singleton = try scope.resolve((any Logging).self, name: "singleton")
            return try (singleton, scope.resolve((any Logging).self, name: "weak"))
        }
        let captured = try other.resolve(FileLogger.self)
        app.register((any Logging).self, name: "captured") { _ in captured }
        try app.withScope { _ = try $0.resolve((any Logging).self, name: "captured") }

        #expect(singleton === captured)
        #expect(held.map { $0 === weak } != false)
        #expect(captured.disposals.count == 0)
        #expect((weak as? RequestLog)?.disposals.count == 0)
        #expect(valueDisposals.count == 0)
        try other.shutdown()
        #expect(captured.disposals.count == 1)
        #expect(valueDisposals.count == 1)
    }
}

extension DisposalOwnershipTests {
    /// Values have no identity to tell one from another: two scoped values of equal bytes, made by
    /// two registrations, are two values, each disposed.
    @Test func twoScopedValuesOfEqualBytesAreEachDisposed() throws {
        let disposals = CallCounter()
        let container = Container()
        container.register(PooledConnection.self, name: "a", scope: .scoped) { _ in
            PooledConnection(disposals: disposals)
        }
        container.register(PooledConnection.self, name: "b", scope: .scoped) { _ in
            PooledConnection(disposals: disposals)
        }

        try container.withScope { scope in
            _ = try scope.resolve(PooledConnection.self, name: "a")
            _ = try scope.resolve(PooledConnection.self, name: "b")
        }

        #expect(disposals.count == 2)
    }

    /// So a scoped value that another registration returns too is handed over by each, and disposed
    /// by each, as `ScopesAndLifetimes` says: a disposable service shared under two keys is a class.
    @Test func aScopedValueAnotherRegistrationReturnsIsDisposedByEach() throws {
        let disposals = CallCounter()
        let container = Container()
        container.register(PooledConnection.self, scope: .scoped) { _ in PooledConnection(disposals: disposals) }
        container.register((any Connection).self) { r in try r.resolve(PooledConnection.self) }

        try container.withScope { scope in
            _ = try scope.resolve(PooledConnection.self)
            _ = try scope.resolve((any Connection).self)
        }

        #expect(disposals.count == 2)
    }
}
