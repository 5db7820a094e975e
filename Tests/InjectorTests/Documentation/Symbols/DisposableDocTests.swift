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

import Injector
import Testing

// The snippets of Disposable's and AsyncDisposable's doc comments (Disposable.swift), with what
// they assume: a scope disposes what it created once, an instance before what it was built from;
// only an async close disposes an AsyncDisposable, and a sync close of a scope holding one is
// refused before anything is disposed; a type that is both is disposed the way the close is.

private final class Socket: Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func close() throws { log.record("socket closed") }
}

private final class Connection: Disposable {
    func dispose() throws { try socket.close() }
}
extension Connection {
    // The snippet's connection has a socket; this one gets it from the test's log.
    fileprivate var socket: Socket { Socket(log: Recording.log) }
}

/// A service built from a connection: disposed before it.
private final class Repository: Disposable {
    let connection: Connection
    init(connection: Connection) { self.connection = connection }
    func dispose() { Recording.log.record("Repository") }
}

private final class EventUploader: AsyncDisposable {
    func disposeAsync() async throws { try await flush() }
}
extension EventUploader {
    fileprivate func flush() async throws {
        await Task.yield()
        Recording.log.record("flushed")
    }
}

private final class Both: Disposable, AsyncDisposable {
    func dispose() { Recording.log.record("dispose") }
    func disposeAsync() async { Recording.log.record("disposeAsync") }
}

/// Where the services of this file record, task-local so that parallel tests each see their own.
private enum Recording {
    @TaskLocal static var log = EventLog()
}

private func makeContainer() -> Container {
    let container = Container()
    container.register(Connection.self, scope: .scoped) { _ in Connection() }
    container.register(Repository.self) { r in Repository(connection: try r.resolve(Connection.self)) }
    container.register(EventUploader.self, scope: .scoped) { _ in EventUploader() }
    container.register(Both.self) { _ in Both() }
    return container
}

@Suite struct DisposableDocTests {
    @Test func aScopeDisposesEachInstanceOnceBeforeWhatItWasBuiltFrom() throws {
        let log = EventLog()
        try Recording.$log.withValue(log) {
            let container = makeContainer()
            let scope = container.makeScope()
            let repository = try scope.resolve(Repository.self)
            #expect(try scope.resolve(Connection.self) === repository.connection)
            try scope.close()
            #expect(log.events == ["Repository", "socket closed"])
        }
    }

    @Test func aSyncCloseRefusesAnAsyncOnlyInstanceBeforeDisposingAnything() async throws {
        let log = EventLog()
        try await Recording.$log.withValue(log) {
            let container = makeContainer()
            let scope = container.makeScope()
            _ = try scope.resolve(Repository.self)
            _ = try scope.resolve(EventUploader.self)
            let error = try #require(injectionError { try closeSynchronously(scope) })
            #expect(error.code == .asyncDisposalRequired)
            #expect(log.events.isEmpty)
            #expect(
                error.message == "The untagged scope holds instances that only an async disposal can dispose"
                    + " (AsyncDisposable): EventUploader. Nothing was disposed, and the scope stays open. Fix: use"
                    + " try await scope.closeAsync(), or make them Disposable as well."
            )

            try await scope.closeAsync()
            #expect(log.events == ["flushed", "Repository", "socket closed"])
        }
    }

    @Test func aTypeThatIsBothIsDisposedTheWayTheCloseIs() async throws {
        let log = EventLog()
        try await Recording.$log.withValue(log) {
            let container = makeContainer()
            let synchronous = container.makeScope()
            _ = try synchronous.resolve(Both.self)
            try closeSynchronously(synchronous)
            let asynchronous = container.makeScope()
            _ = try asynchronous.resolve(Both.self)
            try await asynchronous.closeAsync()
            #expect(log.events == ["dispose", "disposeAsync"])
        }
    }
}

/// The sync close, from a sync context (it is unavailable in async code).
private func closeSynchronously(_ scope: LifetimeScope) throws {
    try scope.close()
}
