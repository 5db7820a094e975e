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

// What a scope calls to dispose an instance it took charge of, whatever type the registration
// names: a class instance or a value, under its own type or an existential of a protocol that is
// not class-bound, disposable synchronously, asynchronously or both.

private protocol Channel: Sendable {}
private final class DuplexChannel: Channel, Disposable, AsyncDisposable, Sendable {
    let syncDisposals = CallCounter()
    let asyncDisposals = CallCounter()
    func dispose() { syncDisposals.next() }
    func disposeAsync() async { asyncDisposals.next() }
}
private struct FlushingChannel: Channel, AsyncDisposable {
    let disposals: CallCounter
    func disposeAsync() async { disposals.next() }
}

@Suite struct DisposerTests {
    /// A class instance that is both disposable kinds, registered as an existential: an async
    /// close calls `disposeAsync` once and never `dispose`.
    @Test func classInstanceUnderAnExistentialIsDisposedAsynchronouslyByAnAsyncClose() async throws {
        let container = Container()
        container.register((any Channel).self, scope: .scoped) { _ in DuplexChannel() }
        let scope = container.makeScope()
        let channel = try #require(try scope.resolve((any Channel).self) as? DuplexChannel)

        try await scope.closeAsync()

        #expect(channel.asyncDisposals.count == 1)
        #expect(channel.syncDisposals.count == 0)
    }

    /// The same instance, closed synchronously: `dispose` once, `disposeAsync` never.
    @Test func classInstanceUnderAnExistentialIsDisposedSynchronouslyByASyncClose() throws {
        let container = Container()
        container.register((any Channel).self, scope: .scoped) { _ in DuplexChannel() }
        let channel = try container.withScope { scope in
            try #require(try scope.resolve((any Channel).self) as? DuplexChannel)
        }

        #expect(channel.syncDisposals.count == 1)
        #expect(channel.asyncDisposals.count == 0)
    }

    /// A value that only an async disposal can dispose, under an existential and under its own
    /// type: each instance disposed once by the async close, and the sync close refuses, naming
    /// both.
    @Test func asyncOnlyValuesAreDisposedOnceAndRefusedByASyncClose() async throws {
        let disposals = CallCounter()
        let container = Container()
        container.register((any Channel).self) { _ in FlushingChannel(disposals: disposals) }
        container.register(FlushingChannel.self) { _ in FlushingChannel(disposals: disposals) }
        let scope = container.makeScope()
        _ = try scope.resolve((any Channel).self)
        _ = try scope.resolve(FlushingChannel.self)

        let error = try #require(throws: InjectionError.self) { try scope.close() }
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The untagged scope holds instances that only an async disposal can dispose (AsyncDisposable): "
                + "Channel, FlushingChannel. Nothing was disposed, and the scope stays open. Fix: use try await "
                + "scope.closeAsync(), or make them Disposable as well."
        )
        #expect(disposals.count == 0)

        try await scope.closeAsync()
        #expect(disposals.count == 2)
    }
}
