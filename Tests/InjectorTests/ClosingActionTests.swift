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
// screens start from: each action runs exactly once, after the close's disposals, on every close
// path (withScope dropping an async-only instance, withScopeAsync when cancelled), and never for a
// close that was refused; actions may re-enter the scope.

private final class Session: Tracked, @unchecked Sendable {}
private final class AuditTrail: AsyncDisposable, Sendable {  // only an async disposal can dispose it
    func disposeAsync() async throws {}
}
private struct Socket: Disposable {  // its disposal always throws
    struct Failure: Error {}
    func dispose() throws { throw Failure() }
}

private final class Ledger: Tracked, @unchecked Sendable {}
private final class Journal: AsyncDisposable, Sendable {
    func disposeAsync() async throws {}
}
private final class Reentrant: Disposable, @unchecked Sendable {
    let scope: LifetimeScope
    let log: EventLog
    init(scope: LifetimeScope, log: EventLog) {
        self.scope = scope
        self.log = log
    }
    func dispose() throws {
        log.record("dispose")
        scope.afterClosing { [log] in log.record("added by a disposal") }
    }
}
/// A scoped instance that, going away, asks for an action after its scope's close.
private final class Farewell: @unchecked Sendable {  // only `let`s and a weak reference
    weak var scope: LifetimeScope?
    let log: EventLog
    init(scope: LifetimeScope, log: EventLog) {
        self.scope = scope
        self.log = log
    }
    deinit {
        scope?.afterClosing { [log] in log.record("added by a deinit") }
    }
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
        #expect(
            error.message
                == "The untagged scope holds instances that only an async disposal can dispose (AsyncDisposable): "
                + "AuditTrail. Nothing was disposed, and the scope stays open. Fix: use try await "
                + "scope.closeAsync(), or make them Disposable as well."
        )
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
        #expect(
            error.message
                == "Disposing what the untagged scope owned: its one disposal threw.\n"
                + "- Disposing Socket threw: Failure(). The error is the underlyingError."
        )
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

    @Test func withScopeRunsTheActionsEvenWhenItDropsAnAsyncOnlyInstance() throws {
        let container = Container()
        container.register(Journal.self, scope: .scoped) { _ in Journal() }
        let log = EventLog()
        let error = try #require(
            injectionError {
                try container.withScope { scope in
                    _ = try scope.resolve(Journal.self)
                    scope.afterClosing { log.record("action") }
                }
            }
        )
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The untagged scope holds instances that only an async disposal can dispose (AsyncDisposable): "
                + "Journal. withScope closed it all the same: the others were disposed; these were dropped "
                + "undisposed. Fix: use try await container.withScopeAsync, or make them Disposable as well."
        )
        #expect(log.events == ["action"])
    }

    @Test func withScopeAsyncRunsTheActionsWhenCancelled() async throws {
        let container = Container()
        container.register(Ledger.self, scope: .scoped) { _ in Ledger(EventLog()) }
        let log = EventLog()
        let task = Task {
            try await container.withScopeAsync { scope in
                _ = try scope.resolve(Ledger.self)
                scope.afterClosing { log.record("action") }
                withUnsafeCurrentTask { $0?.cancel() }
                try Task.checkCancellation()
            }
        }
        _ = await task.result
        #expect(log.events == ["action"])
    }

    @Test func anActionCanAddActionsCloseAgainAndResolveWithoutHanging() async throws {
        let container = Container()
        container.register(Ledger.self, scope: .scoped) { _ in Ledger(EventLog()) }
        let scope = container.makeScope()
        let log = EventLog()
        scope.afterClosing {
            log.record("first")
            scope.afterClosing { log.record("nested") }
            do { try scope.close() } catch { log.record("close threw") }
            do { _ = try scope.resolve(Ledger.self) } catch let error as InjectionError {
                log.record("resolve: \(error.code)")
            } catch {}
        }
        scope.afterClosing { log.record("second") }
        try await scope.closeAsync()
        #expect(log.events == ["first", "nested", "resolve: scopeClosed", "second"])
    }

    @Test func anActionAddedByADisposalRunsAfterTheClose() throws {
        let container = Container()
        let log = EventLog()
        let scope = container.makeScope()
        container.register(Reentrant.self, scope: .scoped) { _ in Reentrant(scope: scope, log: log) }
        _ = try scope.resolve(Reentrant.self)
        try scope.close()
        #expect(log.events == ["dispose", "added by a disposal"])
    }

    @Test func aCloseRefusedForAResolutionInUseRunsNothingUntilItCloses() throws {
        let container = Container()
        let scope = container.makeScope()
        let log = EventLog()
        scope.afterClosing { log.record("action") }
        container.register(Ledger.self, scope: .scoped) { _ in
            #expect((try? scope.close()) == nil)
            return Ledger(EventLog())
        }
        _ = try scope.resolve(Ledger.self)
        #expect(log.events.isEmpty)
        try scope.close()
        #expect(log.events == ["action"])
    }

    @Test func manyThreadsAddingWhileOneClosesRunEachActionOnce() async throws {
        let added = CallCounter()
        let ran = CallCounter()
        for _ in 0..<300 {
            let scope = Container().makeScope()
            let adder: @Sendable () -> Void = {
                for _ in 0..<20 {
                    _ = added.next()
                    scope.afterClosing { _ = ran.next() }
                }
            }
            let closer: @Sendable () -> Void = { try? scope.close() }
            #expect(await onThreads([adder, adder, closer, adder]))
            try await scope.closeAsync()
        }
        #expect(ran.count == added.count)
    }
    /// The close releases the scoped instances it drops: one whose deinit adds an action (or does
    /// anything else with its scope) must not find the scope's store locked.
    @Test func aScopedInstanceTheCloseReleasesMayAddAnActionInItsDeinit() async throws {
        let container = Container()
        let log = EventLog()
        let scope = container.makeScope()
        container.register(Farewell.self, scope: .scoped) { _ in Farewell(scope: scope, log: log) }
        _ = try scope.resolve(Farewell.self)

        #expect(await onThreads(seconds: 30, [{ try? closeSynchronously(scope) }]), "the close deadlocked")

        #expect(log.events == ["added by a deinit"])
    }
}
