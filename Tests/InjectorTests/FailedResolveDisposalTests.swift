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

private final class Channel: Disposable, Sendable {
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func dispose() throws {
        log.record("dispose \(name)")
    }
}

private enum ChannelError: Error { case refused }

private final class Exchange: Sendable {
    init(first: Channel, second: Channel) {}
}

/// A resolve that fails hands its caller nothing: in a scope, the disposable transients it built
/// before failing are the scope's, disposed when it closes, sync and async.
@Suite struct FailedResolveDisposalTests {
    /// `Exchange`, built from `Channel` "a" and "b", whose factory throws.
    private func container(log: EventLog) -> Container {
        let container = Container()
        container.register(Channel.self, name: "a") { _ in Channel("a", log: log) }
        container.register(Channel.self, name: "b") { _ in throw ChannelError.refused }
        container.register(Exchange.self) { r in
            try Exchange(first: r.resolve(Channel.self, name: "a"), second: r.resolve(Channel.self, name: "b"))
        }
        return container
    }

    @Test func aFailedResolveInAScopeLeavesWhatItBuiltToTheScope() throws {
        let log = EventLog()
        let container = container(log: log)
        let error = injectionError {
            try container.withScope { scope in
                defer { log.record("closing") }
                return try scope.resolve(Exchange.self)
            }
        }
        #expect(error?.code == .factoryFailed)
        #expect(log.events == ["closing", "dispose a"])
    }

    @Test func aFailedAsyncResolveInAScopeLeavesWhatItBuiltToTheScope() async throws {
        let log = EventLog()
        let container = container(log: log)
        let error = await injectionErrorAsync {
            try await container.withScopeAsync { scope in
                defer { log.record("closing") }
                return try await scope.resolveAsync(Exchange.self)
            }
        }
        #expect(error?.code == .factoryFailed)
        #expect(log.events == ["closing", "dispose a"])
    }
}
