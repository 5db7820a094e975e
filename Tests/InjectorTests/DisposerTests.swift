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

private class PlainChannel: Channel, @unchecked Sendable {}
private final class ClosingChannel: PlainChannel, Disposable, @unchecked Sendable {
    let disposals: CallCounter
    init(disposals: CallCounter) { self.disposals = disposals }
    func dispose() { disposals.next() }
}
private final class DrainingChannel: Channel, AsyncDisposable {
    let disposals: CallCounter
    init(disposals: CallCounter) { self.disposals = disposals }
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

    /// A registration works out how its instances are disposed once per type and reuses it; one
    /// that makes instances of several types (a plain class, a disposable subclass of it, an
    /// async-only class, a value, each twice, the first type first) disposes each as its own type
    /// says, once, and leaves the plain ones alone.
    @Test func registrationMakingSeveralTypesDisposesEachInstanceAsItsTypeSays() async throws {
        let closings = CallCounter()
        let drainings = CallCounter()
        let flushings = CallCounter()
        let made = CallCounter()
        let container = Container()
        container.register((any Channel).self) { _ -> any Channel in
            switch made.next() % 4 {
            case 1: PlainChannel()
            case 2: ClosingChannel(disposals: closings)
            case 3: DrainingChannel(disposals: drainings)
            default: FlushingChannel(disposals: flushings)
            }
        }
        let scope = container.makeScope()
        for _ in 0..<8 { _ = try scope.resolve((any Channel).self) }

        let error = try #require(throws: InjectionError.self) { try scope.close() }
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The untagged scope holds instances that only an async disposal can dispose (AsyncDisposable): "
                + "Channel, Channel, Channel, Channel. Nothing was disposed, and the scope stays open. Fix: use "
                + "try await scope.closeAsync(), or make them Disposable as well."
        )
        try await scope.closeAsync()

        #expect(closings.count == 2)
        #expect(drainings.count == 2)
        #expect(flushings.count == 2)
    }

    /// The same under a class type, whose instances are of it or of a subclass: the plain ones
    /// are left alone, the disposable subclass's disposed.
    @Test func registrationOfAClassDisposesTheInstancesOfItsDisposableSubclass() throws {
        let closings = CallCounter()
        let made = CallCounter()
        let container = Container()
        container.register(PlainChannel.self) { _ in
            made.next() % 2 == 1 ? PlainChannel() : ClosingChannel(disposals: closings)
        }
        try container.withScope { scope in
            for _ in 0..<4 { _ = try scope.resolve(PlainChannel.self) }
        }

        #expect(closings.count == 2)
    }

    /// A registration of an optional, whose instances are sometimes `nil`: how one is disposed
    /// depends on the value, not only on its type. Each instance is disposed once, and `nil` is
    /// not mistaken for an instance only an async disposal can dispose, whichever comes first.
    @Test(arguments: [true, false])
    func registrationOfAnOptionalDisposesEachInstanceItMakes(nilFirst: Bool) throws {
        let closings = CallCounter()
        let made = CallCounter()
        let container = Container()
        container.register(ClosingChannel?.self) { _ in
            (made.next() % 2 == 1) == nilFirst ? nil : ClosingChannel(disposals: closings)
        }
        try container.withScope { scope in
            for _ in 0..<4 { _ = try scope.resolve(ClosingChannel?.self) }
        }

        #expect(closings.count == 2)
    }

    /// The same for `AnyHashable`, which a cast also looks inside: a plain value first, then a
    /// disposable one, each twice.
    @Test func registrationOfAnyHashableDisposesTheDisposableValuesItWraps() throws {
        let closings = CallCounter()
        let made = CallCounter()
        let container = Container()
        container.register(AnyHashable.self) { _ in
            let number = made.next()
            return number % 2 == 1 ? AnyHashable(number) : AnyHashable(ClosingKey(number: number, disposals: closings))
        }
        try container.withScope { scope in
            for _ in 0..<4 { _ = try scope.resolve(AnyHashable.self) }
        }

        #expect(closings.count == 2)
    }

    /// A scope whose instances are all disposed synchronously, closed asynchronously: each
    /// disposed once, last made first.
    @Test func asyncCloseOfSyncDisposableInstancesDisposesEachOnceInReverse() async throws {
        let log = EventLog()
        let made = CallCounter()
        let container = Container()
        container.register(LoggedChannel.self) { _ in LoggedChannel(number: made.next(), log: log) }
        let scope = container.makeScope()
        for _ in 0..<3 { _ = try scope.resolve(LoggedChannel.self) }

        try await scope.closeAsync()

        #expect(log.events == ["3", "2", "1"])
    }
}

private final class LoggedChannel: Disposable, Sendable {
    let number: Int
    let log: EventLog
    init(number: Int, log: EventLog) { (self.number, self.log) = (number, log) }
    func dispose() { log.record(String(number)) }
}

private struct ClosingKey: Hashable, Disposable {
    let number: Int
    let disposals: CallCounter
    func dispose() { disposals.next() }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.number == rhs.number }
    func hash(into hasher: inout Hasher) { hasher.combine(number) }
}
