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

// MARK: - Test services

private final class RequestContext: Tracked, @unchecked Sendable {}
private final class Transaction: Tracked, @unchecked Sendable {
    let context: RequestContext
    init(_ log: EventLog, context: RequestContext) {
        self.context = context
        super.init(log)
    }
}

/// Only an async disposal can dispose it; records whether its task was cancelled then.
private final class UploadQueue: AsyncDisposable, Sendable {
    let log: EventLog
    init(_ log: EventLog) { self.log = log }
    func disposeAsync() async throws { log.record(Task.isCancelled ? "UploadQueue (cancelled)" : "UploadQueue") }
}

private struct BrokenSocket: Disposable {  // its disposal always throws
    func dispose() throws { throw SocketFailure() }
}
private struct SocketFailure: Error, CustomStringConvertible {
    var description: String { "the socket would not close" }
}
private struct WorkFailure: Error, Equatable, CustomStringConvertible {
    var description: String { "the work failed" }
}

private struct RequestID: Sendable, Equatable {
    let value: Int
}

/// Built by a factory that waits until the test lets it finish.
private final class SlowReport: Sendable {}

/// A container with a request's context and transaction (both scoped, disposable), an async-only
/// upload queue, a socket whose disposal throws, and a request id the scope is given; every
/// problem it reports goes to `problems`.
private func makeContainer(log: EventLog, problems: ReceivedProblems) -> Container {
    let container = Container()
    container.setDiagnosticsHandler { problems.receive($0) }
    container.register(RequestContext.self, scope: .scoped(to: "request")) { _ in RequestContext(log) }
    container.register(Transaction.self, scope: .scoped) { r in
        try Transaction(log, context: r.resolve(RequestContext.self))
    }
    container.register(UploadQueue.self, scope: .scoped) { _ in UploadQueue(log) }
    container.register(BrokenSocket.self) { _ in BrokenSocket() }
    container.register(RequestID.self, providedByScope: "request")
    return container
}

/// What closing a scope with a `BrokenSocket` says when its disposal was the one that threw of
/// `disposed` disposals.
private func brokenSocketMessage(ofDisposals disposed: Int) -> String {
    let outcome =
        disposed == 1
        ? "its one disposal threw." : "1 of \(disposed) disposals threw; every other instance was disposed."
    return "Disposing what the scope \"request\" owned: \(outcome)\n"
        + "- Disposing BrokenSocket threw: the socket would not close. The error is the underlyingError."
}

/// Closes `scope` with the sync close, which async code cannot call directly.
private func closeSynchronously(_ scope: LifetimeScope) throws { try scope.close() }

/// What the sync `withScope` says of an `UploadQueue` it could not dispose.
private let droppedUploadQueueMessage =
    "The scope \"request\" holds instances that only an async disposal can dispose (AsyncDisposable):"
    + " UploadQueue. withScope closed it all the same: the others were disposed; these were dropped"
    + " undisposed. Fix: use try await container.withScopeAsync, or make them Disposable as well."

// MARK: - Tests

@Suite struct WithScopeTests {
    // MARK: Sync

    /// The sync form closes the scope when the operation returns: what it created is disposed, last
    /// completed first, and the scope refuses further resolves.
    @Test func syncFormClosesTheScopeWhenTheOperationReturns() throws {
        let log = EventLog()
        let container = makeContainer(log: log, problems: ReceivedProblems())
        var kept: LifetimeScope?

        let transaction = try container.withScope(tag: "request") { scope in
            kept = scope
            return try scope.resolve(Transaction.self)
        }

        #expect(log.events == ["Transaction", "RequestContext"])
        let scope = try #require(kept)
        #expect(scope.isClosed)
        #expect(scope.tag == "request")
        let error = try #require(injectionError { try scope.resolve(Transaction.self) })
        #expect(error.code == .scopeClosed)
        #expect(
            error.message == "Transaction was resolved from the scope \"request\" after it was closed; its instances"
                + " are disposed. Fix: resolve what the work needs before closing the scope, or make a new one"
                + " with container.makeScope(tag: \"request\")."
        )
        #expect(transaction.context === transaction.context)
    }

    /// The scope is given the values of `providing:`, which resolve inside it.
    @Test func scopeIsGivenItsValues() throws {
        let container = makeContainer(log: EventLog(), problems: ReceivedProblems())

        let id = try container.withScope(tag: "request") {
            $0.provide(RequestID.self, RequestID(value: 7))
        } operation: {
            try $0.resolve(RequestID.self)
        }

        #expect(id == RequestID(value: 7))
    }

    /// When the operation throws, its error is thrown and the scope is closed all the same.
    @Test func syncFormClosesTheScopeWhenTheOperationThrows() throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = makeContainer(log: log, problems: problems)

        #expect(throws: WorkFailure()) {
            try container.withScope(tag: "request") { scope in
                _ = try scope.resolve(Transaction.self)
                throw WorkFailure()
            }
        }

        #expect(log.events == ["Transaction", "RequestContext"])
        #expect(problems.received.isEmpty)
    }

    /// When the operation returns, a disposal that throws is the error thrown; the others still run.
    @Test func syncFormThrowsADisposalFailureWhenTheOperationReturns() throws {
        let log = EventLog()
        let container = makeContainer(log: log, problems: ReceivedProblems())

        let error = try #require(
            injectionError {
                try container.withScope(tag: "request") { scope in
                    _ = try scope.resolve(RequestContext.self)
                    _ = try scope.resolve(BrokenSocket.self)
                }
            }
        )

        #expect(error.code == .disposalFailed)
        #expect(error.message == brokenSocketMessage(ofDisposals: 2))
        #expect(error.underlyingError is SocketFailure)
        #expect(log.events == ["RequestContext"])
    }

    /// When the operation throws and a disposal throws too, the operation's error wins; the disposal's
    /// failure goes to the diagnostics handler, saying which error it followed.
    @Test func syncFormOperationErrorWinsAndTheDisposalFailureIsReported() throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = makeContainer(log: log, problems: problems)

        #expect(throws: WorkFailure()) {
            try container.withScope(tag: "request") { scope in
                _ = try scope.resolve(RequestContext.self)
                _ = try scope.resolve(BrokenSocket.self)
                throw WorkFailure()
            }
        }

        #expect(log.events == ["RequestContext"])
        #expect(problems.received.map(\.code) == [.disposalFailed])
        #expect(
            problems.received.first?.message
                == "Closing the scope \"request\" after its work threw (the work failed) failed too; the work's"
                + " error was thrown. " + brokenSocketMessage(ofDisposals: 2)
        )
        #expect(problems.received.first?.problems.count == 1)
    }

    /// An instance only an async disposal can dispose is refused clearly by the sync form: the
    /// others are disposed, it is dropped, the scope is closed, and the error says to use
    /// `withScopeAsync`. Nothing is reported as a scope left open. The same when it is the scope's
    /// only disposable instance, which leaves the sync form nothing to dispose.
    @Test(arguments: [true, false])
    func syncFormRefusesAnAsyncOnlyDisposable(besideAnotherDisposable: Bool) throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = makeContainer(log: log, problems: problems)
        var kept: LifetimeScope?

        let error = try #require(
            injectionError {
                try container.withScope(tag: "request") { scope in
                    kept = scope
                    if besideAnotherDisposable { _ = try scope.resolve(Transaction.self) }
                    _ = try scope.resolve(UploadQueue.self)
                }
            }
        )

        #expect(error.code == .asyncDisposalRequired)
        #expect(error.message == droppedUploadQueueMessage)
        #expect(log.events == (besideAnotherDisposable ? ["Transaction", "RequestContext"] : []))
        #expect(try #require(kept).isClosed)
        kept = nil
        #expect(problems.received.isEmpty, "the scope was closed: it is not reported as left open")
    }

    /// A scope the sync form closed, leaving an async-only instance undisposed, stays closed: a sync
    /// close of it does nothing, rather than refuse the instance it left.
    @Test func closingAgainAScopeTheSyncFormClosedDoesNothing() throws {
        let log = EventLog()
        let container = makeContainer(log: log, problems: ReceivedProblems())
        var kept: LifetimeScope?
        _ = injectionError {
            try container.withScope(tag: "request") { scope in
                kept = scope
                _ = try scope.resolve(UploadQueue.self)
            }
        }
        let scope = try #require(kept)

        #expect(injectionError { try scope.close() } == nil)
        #expect(scope.isClosed)
        #expect(log.events.isEmpty)
    }

    /// A scope that made nothing disposable closes, in either form, disposing nothing, reporting
    /// nothing, and refusing resolves from then on.
    @Test func aScopeThatMadeNothingDisposableClosesInEitherForm() async throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = makeContainer(log: log, problems: problems)
        let id = RequestID(value: 1)
        let syncScope = container.makeScope(tag: "request") { $0.provide(RequestID.self, id) }
        let asyncScope = container.makeScope(tag: "request") { $0.provide(RequestID.self, id) }
        #expect(try syncScope.resolve(RequestID.self) == id)
        #expect(try asyncScope.resolve(RequestID.self) == id)

        try closeSynchronously(syncScope)
        try await asyncScope.closeAsync()

        for scope in [syncScope, asyncScope] {
            #expect(scope.isClosed)
            let error = try #require(injectionError { try scope.resolve(RequestID.self) })
            #expect(error.code == .scopeClosed)
            #expect(
                error.message == "RequestID was resolved from the scope \"request\" after it was closed; its instances"
                    + " are disposed. Fix: resolve what the work needs before closing the scope, or make a new one"
                    + " with container.makeScope(tag: \"request\")."
            )
        }
        #expect(log.events.isEmpty)
        #expect(problems.received.isEmpty)
    }

    /// The async-only refusal follows the operation's error to the diagnostics handler.
    @Test func syncFormReportsAnAsyncOnlyDisposableAfterTheOperationsError() throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = makeContainer(log: log, problems: problems)

        #expect(throws: WorkFailure()) {
            try container.withScope(tag: "request") { scope in
                _ = try scope.resolve(UploadQueue.self)
                throw WorkFailure()
            }
        }

        #expect(problems.received.map(\.code) == [.asyncDisposalRequired])
        #expect(
            problems.received.first?.message
                == "Closing the scope \"request\" after its work threw (the work failed) failed too; the work's"
                + " error was thrown. " + droppedUploadQueueMessage
        )
    }

    /// A disposal failure and an async-only instance at once: the failure is thrown, the async-only
    /// refusal reported, so that neither is lost.
    @Test func syncFormReportsAnAsyncOnlyDisposableBesideADisposalFailure() throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = makeContainer(log: log, problems: problems)

        let error = try #require(
            injectionError {
                try container.withScope(tag: "request") { scope in
                    _ = try scope.resolve(UploadQueue.self)
                    _ = try scope.resolve(BrokenSocket.self)
                }
            }
        )

        #expect(error.code == .disposalFailed)
        #expect(
            error.message
                == "Disposing what the scope \"request\" owned: the one disposal that ran threw; UploadQueue was not"
                + " disposed: only an async disposal can dispose it.\n- Disposing BrokenSocket threw: the socket would"
                + " not close. The error is the underlyingError."
        )
        #expect(problems.received.map(\.code) == [.asyncDisposalRequired])
        #expect(problems.received.first?.message == droppedUploadQueueMessage)
    }

    /// A sync close that disposes some instances and drops async-only ones does not say that every
    /// other instance was disposed: it names the ones it dropped.
    @Test func syncFormCountsTheDisposalsThatRanAndNamesTheDroppedOnes() throws {
        let log = EventLog()
        let container = makeContainer(log: log, problems: ReceivedProblems())

        let error = try #require(
            injectionError {
                try container.withScope(tag: "request") { scope in
                    _ = try scope.resolve(RequestContext.self)
                    _ = try scope.resolve(UploadQueue.self)
                    _ = try scope.resolve(BrokenSocket.self)
                }
            }
        )

        #expect(error.code == .disposalFailed)
        #expect(
            error.message
                == "Disposing what the scope \"request\" owned: 1 of 2 disposals that ran threw; UploadQueue was not"
                + " disposed: only an async disposal can dispose it.\n- Disposing BrokenSocket threw: the socket would"
                + " not close. The error is the underlyingError."
        )
        #expect(log.events == ["RequestContext"])
    }

    /// A resolution from the scope still running when the operation returns keeps it open: the call
    /// throws `.scopeInUse`, and the scope can be closed once that resolution ends.
    @Test func syncFormThrowsScopeInUseWhileAResolutionFromTheScopeRuns() throws {
        let log = EventLog()
        let container = makeContainer(log: log, problems: ReceivedProblems())
        let started = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        container.register(SlowReport.self) { _ in
            started.signal()
            finish.wait()
            return SlowReport()
        }
        var kept: LifetimeScope?

        let error = try #require(
            injectionError {
                try container.withScope(tag: "request") { scope in
                    kept = scope
                    _ = try scope.resolve(RequestContext.self)
                    Thread {
                        _ = try? scope.resolve(SlowReport.self)
                        finished.signal()
                    }
                    .start()
                    started.wait()
                }
            }
        )
        finish.signal()
        finished.wait()

        #expect(error.code == .scopeInUse)
        #expect(
            error.message == "The scope \"request\" was closed while 1 resolution from it was still running; it"
                + " stays open and nothing was disposed. Fix: close a scope once the work that resolves from it"
                + " has finished (await its tasks first)."
        )
        let scope = try #require(kept)
        #expect(!scope.isClosed)
        try scope.close()
        #expect(log.events == ["RequestContext"])
    }

    // MARK: Async

    /// The async form closes the scope asynchronously when the operation returns: async-only instances
    /// are disposed too.
    @Test func asyncFormClosesTheScopeWhenTheOperationReturns() async throws {
        let log = EventLog()
        let container = makeContainer(log: log, problems: ReceivedProblems())
        let kept = Locked.make(LifetimeScope?.none)

        let transaction = try await container.withScopeAsync(tag: "request") { scope in
            kept.withLock { $0 = scope }
            _ = try await scope.resolveAsync(UploadQueue.self)
            return try scope.resolve(Transaction.self)
        }

        #expect(log.events == ["Transaction", "RequestContext", "UploadQueue"])
        #expect(try #require(kept.withLock { $0 }).isClosed)
        #expect(transaction.context === transaction.context)
    }

    /// The async form gives the scope its values too.
    @Test func asyncFormGivesTheScopeItsValues() async throws {
        let container = makeContainer(log: EventLog(), problems: ReceivedProblems())

        let id = try await container.withScopeAsync(tag: "request") {
            $0.provide(RequestID.self, RequestID(value: 9))
        } operation: {
            try await $0.resolveAsync(RequestID.self)
        }

        #expect(id == RequestID(value: 9))
    }

    /// When the async operation throws, its error is thrown and the scope is closed all the same.
    @Test func asyncFormClosesTheScopeWhenTheOperationThrows() async throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = makeContainer(log: log, problems: problems)

        await #expect(throws: WorkFailure()) {
            try await container.withScopeAsync(tag: "request") { scope in
                _ = try scope.resolve(Transaction.self)
                _ = try scope.resolve(UploadQueue.self)
                throw WorkFailure()
            }
        }

        #expect(log.events == ["UploadQueue", "Transaction", "RequestContext"])
        #expect(problems.received.isEmpty)
    }

    /// A task cancelled while its operation waits still closes the scope, in a task that is not
    /// cancelled, so that an async disposal that checks for cancellation runs to the end.
    @Test func asyncFormClosesTheScopeWhenTheTaskIsCancelled() async throws {
        let log = EventLog()
        let container = makeContainer(log: log, problems: ReceivedProblems())
        let resolved = AsyncStream<Void>.makeStream()

        let task = Task {
            try await container.withScopeAsync(tag: "request") { scope in
                _ = try scope.resolve(Transaction.self)
                _ = try scope.resolve(UploadQueue.self)
                resolved.continuation.yield()
                try await Task.sleep(for: .seconds(60))
            }
        }
        for await _ in resolved.stream { break }
        task.cancel()
        let result = await task.result

        #expect(throws: CancellationError.self) { try result.get() }
        #expect(log.events == ["UploadQueue", "Transaction", "RequestContext"])
    }

    /// A task cancelled before its scope closes closes it in a task that is not cancelled: a sync
    /// disposal that checks for cancellation sees none, as an async one does.
    @Test func aSyncDisposalOfACancelledTasksScopeSeesNoCancellation() async throws {
        let container = Container()
        let seen = Guarded<[Bool]>([])
        container.register(CancellationCheck.self, scope: .scoped) { _ in CancellationCheck(seen: seen) }

        try await Task {
            try await container.withScopeAsync { scope in
                _ = try scope.resolve(CancellationCheck.self)
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }.value

        #expect(seen.current == [false])
    }

    /// A task cancelled while its scope is being closed (a server's client gone during the close)
    /// does not cut an async disposal short: the close runs its async disposals in a task of its
    /// own, and the work's result stands.
    @Test func aCancellationDuringTheCloseDoesNotReachAnAsyncDisposal() async throws {
        let container = Container()
        let flush = SlowFlush()
        container.register(SlowFlush.self, scope: .scoped) { _ in flush }

        let request = Task {
            try await container.withScopeAsync { scope in
                _ = try scope.resolve(SlowFlush.self)
                return "response"
            }
        }
        #expect(await awaited(flush.started, seconds: 30))
        request.cancel()
        let result = await withWatchdog(seconds: 30) { (try? await request.value) ?? "threw" }

        #expect(flush.outcome.current == "flushed")
        #expect(result == "response")
    }

    /// When the async operation returns, a disposal that throws is the error thrown.
    @Test func asyncFormThrowsADisposalFailureWhenTheOperationReturns() async throws {
        let log = EventLog()
        let container = makeContainer(log: log, problems: ReceivedProblems())

        let error = await injectionErrorAsync {
            try await container.withScopeAsync(tag: "request") { scope in
                _ = try scope.resolve(BrokenSocket.self)
                _ = try scope.resolve(UploadQueue.self)
            }
        }

        #expect(error?.code == .disposalFailed)
        #expect(error?.message == brokenSocketMessage(ofDisposals: 2))
        #expect(log.events == ["UploadQueue"])
    }

    /// When the async operation throws and a disposal throws too, the operation's error wins and the
    /// disposal's failure is reported.
    @Test func asyncFormOperationErrorWinsAndTheDisposalFailureIsReported() async throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = makeContainer(log: log, problems: problems)

        await #expect(throws: WorkFailure()) {
            try await container.withScopeAsync(tag: "request") { scope in
                _ = try scope.resolve(BrokenSocket.self)
                throw WorkFailure()
            }
        }

        #expect(problems.received.map(\.code) == [.disposalFailed])
        #expect(
            problems.received.first?.message
                == "Closing the scope \"request\" after its work threw (the work failed) failed too; the work's"
                + " error was thrown. " + brokenSocketMessage(ofDisposals: 1)
        )
    }

    /// The failure that followed the operation's error goes to the nearest handler of the container's
    /// lineage: a child container without one of its own reports to its parent's.
    @Test func disposalFailureAfterTheOperationsErrorGoesToTheNearestHandler() throws {
        let problems = ReceivedProblems()
        let parent = makeContainer(log: EventLog(), problems: problems)
        let child = parent.makeChild()

        #expect(throws: WorkFailure()) {
            try child.withScope(tag: "request") { scope in
                _ = try scope.resolve(BrokenSocket.self)
                throw WorkFailure()
            }
        }

        #expect(problems.received.map(\.code) == [.disposalFailed])
    }
}

/// A sync disposal that notes whether its task is cancelled.
private final class CancellationCheck: Disposable, Sendable {
    let seen: Guarded<[Bool]>
    init(seen: Guarded<[Bool]>) { self.seen = seen }
    func dispose() { seen.withLock { $0.append(Task.isCancelled) } }
}
