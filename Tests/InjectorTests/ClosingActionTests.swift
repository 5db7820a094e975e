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

// `LifetimeScope.afterClosing(_:)`, the package hook the routing layer's leak checks of scoped
// screens start from: each action runs exactly once, after the close's disposals, and never for a
// close that was refused.

private final class Session: Tracked, @unchecked Sendable {}
private final class AuditTrail: AsyncDisposable, Sendable {  // only an async disposal can dispose it
    func disposeAsync() async throws {}
}
private struct Socket: Disposable {  // its disposal always throws
    struct Failure: Error {}
    func dispose() throws { throw Failure() }
}

private func closeSynchronously(_ scope: LifetimeScope) throws { try scope.close() }

@Suite struct ClosingActionTests {
    @Test func anActionRunsOnceTheScopeHasClosedAfterItsDisposals() async throws {
        let container = Container()
        let log = EventLog()
        container.register(Session.self, scope: .scoped) { _ in Session(log) }
        let scope = container.makeScope()
        _ = try scope.resolve(Session.self)
        scope.afterClosing { log.record("first action") }
        scope.afterClosing { log.record("second action") }
        #expect(log.events.isEmpty)

        try await scope.closeAsync()
        try await scope.closeAsync()  // closing a closed scope runs nothing again

        #expect(log.events == ["Session", "first action", "second action"])
    }

    @Test(arguments: [false, true])
    func anActionAddedToAClosedScopeRunsAtOnce(closedSynchronously: Bool) async throws {
        let scope = Container().makeScope()
        if closedSynchronously { try closeSynchronously(scope) } else { try await scope.closeAsync() }
        let log = EventLog()

        scope.afterClosing { log.record("action") }

        #expect(log.events == ["action"])
    }

    @Test func aRefusedSyncCloseRunsNoActionAndTheAsyncCloseThatFollowsDoes() async throws {
        let container = Container()
        container.register(AuditTrail.self, scope: .scoped) { _ in AuditTrail() }
        let scope = container.makeScope()
        _ = try scope.resolve(AuditTrail.self)
        let log = EventLog()
        scope.afterClosing { log.record("action") }

        let error = try #require(injectionError { try closeSynchronously(scope) })
        #expect(error.code == .asyncDisposalRequired)
        #expect(log.events.isEmpty)
        try await scope.closeAsync()

        #expect(log.events == ["action"])
    }

    @Test func aCloseWhoseDisposalFailsStillRunsTheActions() async throws {
        let container = Container()
        container.register(Socket.self, scope: .scoped) { _ in Socket() }
        let scope = container.makeScope()
        _ = try scope.resolve(Socket.self)
        let log = EventLog()
        scope.afterClosing { log.record("action") }

        let error = try #require(await injectionErrorAsync { try await scope.closeAsync() })

        #expect(error.code == .disposalFailed)
        #expect(scope.isClosed)
        #expect(log.events == ["action"])
    }

    @Test func aScopeReleasedWithoutClosingRunsNoAction() {
        let log = EventLog()
        weak var released: LifetimeScope?
        do {
            let scope = Container().makeScope()
            released = scope
            scope.afterClosing { log.record("action") }
        }
        #expect(released == nil)
        #expect(log.events.isEmpty)
    }

    /// A thread adds actions as soon as it sees the scope closed, racing the end of the close:
    /// whichever of the two finds the other, every action runs exactly once.
    @Test func actionsAddedWhileAnotherThreadFinishesClosingTheScopeEachRunOnce() async throws {
        let added = CallCounter()
        let ran = CallCounter()
        for _ in 0..<500 {
            let scope = Container().makeScope()
            let adder: @Sendable () -> Void = {
                while !scope.isClosed {}  // the close has begun: its actions may be running now
                for _ in 0..<3 {
                    _ = added.next()
                    scope.afterClosing { _ = ran.next() }
                }
            }
            let closer: @Sendable () -> Void = { try? closeSynchronously(scope) }
            #expect(await onThreads([adder, closer]))
        }

        #expect(ran.count == added.count)
    }
}
