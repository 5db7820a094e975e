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

// The snippets of the Injector catalog's ScopesAndLifetimes.md, verbatim, with the types they
// assume, and what the article says around them (lifetime scopes, disposal, captive dependencies,
// async factories): if the article's code stops compiling or doing what it says, this fails.
// (.ci/check-snippets finds each snippet's lines here.)

extension ScopeTag {
    fileprivate static let request: ScopeTag = "request"
}

extension ScopeTag {
    fileprivate static let session: ScopeTag = "session"
}

/// What the instances built by the current test record, and their serial numbers: a task-local, so
/// that the tests, which run in parallel, keep their records apart.
private final class Recorder: Sendable {
    @TaskLocal static var current = Recorder()

    let log = EventLog()
    private let serials = CallCounter()
    func nextSerial() -> Int { serials.next() }
}

private final class Database: Sendable {}

private final class RequestContext: Disposable, Sendable {
    private let recorder = Recorder.current
    let serial = Recorder.current.nextSerial()
    func dispose() throws { recorder.log.record("RequestContext #\(serial)") }
}

private final class Transaction: Disposable, Sendable {
    private let recorder = Recorder.current
    let serial = Recorder.current.nextSerial()
    let db: Database
    init(db: Database) { self.db = db }
    func dispose() throws { recorder.log.record("Transaction #\(serial)") }
}

private struct Body { let text: String }
private struct Response: Equatable {
    let status: Int
    let text: String
}
private enum HandlerError: Error, Equatable { case emptyBody }

private final class NoteHandler {
    let context: RequestContext
    let transaction: Transaction
    init(context: RequestContext, transaction: Transaction) {
        self.context = context
        self.transaction = transaction
    }

    func handle(_ body: Body) async throws -> Response {
        await Task.yield()
        guard !body.text.isEmpty else { throw HandlerError.emptyBody }
        return Response(
            status: 201,
            text: "\(body.text) (context #\(context.serial), transaction #\(transaction.serial))"
        )
    }
}

/// Releasing it needs `await`, and its disposal checks for cancellation.
private final class AuditTrail: AsyncDisposable, Sendable {
    private let recorder = Recorder.current
    func disposeAsync() async throws {
        await Task.yield()
        try Task.checkCancellation()
        recorder.log.record("AuditTrail")
    }
}

private struct DiskFull: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}
private final class Upload: Disposable, Sendable {
    func dispose() throws { throw DiskFull() }
}

/// The captor of the article's captive-dependency message, and what it goes through.
private final class NoteCache: Sendable {
    init(formatter: Formatter) {}
}
private final class Formatter: Sendable {
    init(context: RequestContext) {}
}

/// A pool that needs asynchronous set-up: connecting takes a while, or until `opening` is signalled.
private final class DatabasePool: Sendable {
    private init() {}
    static func connect(after opening: Signal? = nil) async throws -> DatabasePool {
        Recorder.current.log.record("connect")
        if let opening { await opening.wait() } else { try await Task.sleep(for: .milliseconds(20)) }
        return DatabasePool()
    }
}

/// Runs a test with a recorder of its own.
private struct Recording: TestTrait, TestScoping {
    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Recorder.$current.withValue(Recorder()) { try await function() }
    }
}
extension Trait where Self == Recording {
    fileprivate static var recording: Self { Self() }
}

/// The sync forms are unavailable in async code: the async tests reach them through these.
private func closeSynchronously(_ scope: LifetimeScope) throws { try scope.close() }
private func withScopeSynchronously<Result>(
    _ container: Container,
    operation: (LifetimeScope) throws -> Result
) throws -> Result {
    try container.withScope(tag: .request, operation: operation)
}

/// The article's request registrations, on a container with the database they need.
private func makeContainer() -> Container {
    let container = Container()
    container.register(Database.self, scope: .singleton) { _ in Database() }
    container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext() }
    container.register(Transaction.self, scope: .scoped) { r in try Transaction(db: r.resolve(Database.self)) }
    container.register(NoteHandler.self) { r in
        try NoteHandler(context: r.resolve(RequestContext.self), transaction: r.resolve(Transaction.self))
    }
    return container
}

struct ScopesAndLifetimesSnippetTests {
    // MARK: Lifetime scopes

    @Test(.recording) func eachRequestRunsInAScopeOfItsOwnThatIsClosedWhenTheHandlerReturns() async throws {
        let recorder = Recorder.current
        let container = Container()
        container.register(Database.self, scope: .singleton) { _ in Database() }

        container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext() }
        container.register(Transaction.self, scope: .scoped) { r in try Transaction(db: r.resolve(Database.self)) }
        container.register(NoteHandler.self) { r in
            try NoteHandler(context: r.resolve(RequestContext.self), transaction: r.resolve(Transaction.self))
        }

        func handle(_ body: Body) async throws -> Response {
            try await container.withScopeAsync(tag: .request) { request in
                let handler = try request.resolve(NoteHandler.self)  // one RequestContext and Transaction per request
                return try await handler.handle(body)
            }  // closed here, whatever the handler did
        }

        #expect(
            try await handle(Body(text: "Buy milk"))
                == Response(status: 201, text: "Buy milk (context #1, transaction #2)")
        )
        // Closed when the handler returned: disposed in reverse order of completion.
        #expect(recorder.log.events == ["Transaction #2", "RequestContext #1"])
        #expect(
            try await handle(Body(text: "Call Sam"))
                == Response(status: 201, text: "Call Sam (context #3, transaction #4)")
        )
        #expect(recorder.log.events.suffix(2) == ["Transaction #4", "RequestContext #3"])
    }

    @Test func withinOneScopeAScopedRegistrationHasOneInstanceSingletonsAreSharedAndTransientsNew() throws {
        let container = makeContainer()
        let (first, second, database) = try container.withScope(tag: .request) { request in
            try (request.resolve(NoteHandler.self), request.resolve(NoteHandler.self), request.resolve(Database.self))
        }
        #expect(first !== second)
        #expect(first.context === second.context)
        #expect(first.transaction === second.transaction)
        #expect(first.transaction.db === database)
        let other = try container.withScope(tag: .request) { try $0.resolve(NoteHandler.self) }
        #expect(other.context !== first.context)
        #expect(other.transaction.db === database)
    }

    @Test(.recording) func whenTheHandlerThrowsItsErrorIsThrownAndTheScopeIsClosedAllTheSame() async throws {
        let recorder = Recorder.current
        let container = makeContainer()
        await #expect(throws: HandlerError.emptyBody) {
            try await container.withScopeAsync(tag: .request) { request in
                try await request.resolve(NoteHandler.self).handle(Body(text: ""))
            }
        }
        #expect(recorder.log.events == ["Transaction #2", "RequestContext #1"])
    }

    @Test func aFailureToCloseAfterTheOperationThrewGoesToTheDiagnosticsHandlerNamingTheOperationsError() async throws {
        let container = makeContainer()
        container.register(Upload.self, scope: .scoped) { _ in Upload() }
        let received = ReceivedProblems()
        container.setDiagnosticsHandler { received.receive($0) }

        await #expect(throws: HandlerError.emptyBody) {
            try await container.withScopeAsync(tag: .request) { request in
                _ = try request.resolve(Upload.self)
                throw HandlerError.emptyBody
            }
        }
        #expect(received.received.map(\.code) == [.disposalFailed])
        #expect(
            received.received.map(\.message) == [
                #"Closing the scope "request" after its work threw (emptyBody) failed too; the work's error was "#
                    + #"thrown. Disposing what the scope "request" owned: its one disposal threw.\#n- Disposing "#
                    + "Upload threw: the disk is full. The error is the underlyingError."
            ]
        )
    }

    @Test func aFailureToCloseAfterTheOperationReturnedIsThrown() async throws {
        let container = makeContainer()
        container.register(Upload.self, scope: .scoped) { _ in Upload() }
        let error = try #require(
            await injectionErrorAsync {
                try await container.withScopeAsync(tag: .request) { _ = try $0.resolve(Upload.self) }
            }
        )
        #expect(error.code == .disposalFailed)
        #expect(
            error.message
                == #"Disposing what the scope "request" owned: its one disposal threw."#
                + "\n- Disposing Upload threw: the disk is full. The error is the underlyingError."
        )
    }

    @Test(.recording) func theSyncFormDisposesTheOthersDropsAnAsyncOnlyInstanceAndSaysToUseTheAsyncForm() throws {
        let recorder = Recorder.current
        let container = makeContainer()
        container.register(AuditTrail.self, scope: .scoped) { _ in AuditTrail() }
        var scope: LifetimeScope?
        let error = try #require(
            injectionError {
                try container.withScope(tag: .request) { request in
                    scope = request
                    _ = try request.resolve(AuditTrail.self)
                    _ = try request.resolve(NoteHandler.self)
                }
            }
        )
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == #"The scope "request" holds instances that only an async disposal can dispose (AsyncDisposable): "#
                + "AuditTrail. withScope closed it all the same: the others were disposed; these were dropped "
                + "undisposed. Fix: use try await container.withScopeAsync, or make them Disposable as well."
        )
        #expect(recorder.log.events == ["Transaction #2", "RequestContext #1"])  // not "AuditTrail"
        #expect(scope?.isClosed == true)
    }

    @Test(.recording) func aCancelledTaskStillClosesItsScopeAndTheDisposalRunsToTheEnd() async throws {
        let recorder = Recorder.current
        let container = makeContainer()
        container.register(AuditTrail.self, scope: .scoped) { _ in AuditTrail() }
        let task = Task {
            try await container.withScopeAsync(tag: .request) { request in
                _ = try request.resolve(AuditTrail.self)
                withUnsafeCurrentTask { $0?.cancel() }
                #expect(Task.isCancelled)
            }
        }
        try await task.value
        #expect(recorder.log.events == ["AuditTrail"])
    }

    @Test(.recording) func aScopeMadeToCloseYourselfIsClosedWithCloseOrCloseAsync() async throws {
        let recorder = Recorder.current
        let container = makeContainer()
        container.register(AuditTrail.self, scope: .scoped) { _ in AuditTrail() }

        let scope = container.makeScope(tag: .request)
        _ = try scope.resolve(NoteHandler.self)
        try closeSynchronously(scope)
        #expect(scope.isClosed)
        #expect(recorder.log.events == ["Transaction #2", "RequestContext #1"])

        let streaming = container.makeScope(tag: .request)
        _ = try streaming.resolve(AuditTrail.self)
        _ = try streaming.resolve(NoteHandler.self)
        // A sync close is refused before anything is disposed; the scope stays open.
        let refused = try #require(injectionError { try closeSynchronously(streaming) })
        #expect(refused.code == .asyncDisposalRequired)
        #expect(
            refused.message
                == #"The scope "request" holds instances that only an async disposal can dispose (AsyncDisposable): "#
                + "AuditTrail. Nothing was disposed, and the scope stays open. Fix: use try await "
                + "scope.closeAsync(), or make them Disposable as well."
        )
        #expect(!streaming.isClosed)
        #expect(recorder.log.events.count == 2)
        try await streaming.closeAsync()
        #expect(recorder.log.events.suffix(3) == ["Transaction #4", "RequestContext #3", "AuditTrail"])
        // Closing twice does nothing the second time; resolving from a closed scope is an error.
        try await streaming.closeAsync()
        #expect(recorder.log.events.count == 5)
        let closed = try #require(injectionError { try streaming.resolve(NoteHandler.self) })
        #expect(closed.code == .scopeClosed)
        #expect(
            closed.message
                == #"NoteHandler was resolved from the scope "request" after it was closed; its instances are "#
                + "disposed. Fix: resolve what the work needs before closing the scope, or make a new one with "
                + #"container.makeScope(tag: "request")."#
        )
    }

    @Test func aScopedServiceOutsideAScopeOrInAScopeWithAnotherTagIsAScopeMismatch() throws {
        let container = makeContainer()

        let outside = try #require(injectionError { try container.resolve(Transaction.self) })
        #expect(outside.code == .scopeMismatch)
        #expect(
            outside.message
                == "Transaction is .scoped, but was resolved from a container, outside any lifetime scope, so nothing "
                + "would own its instance. Fix: resolve from a lifetime scope: let scope = container.makeScope(); "
                + "try scope.resolve(…)."
        )
        let otherTag = try #require(
            injectionError { try container.withScope(tag: .session) { try $0.resolve(RequestContext.self) } }
        )
        #expect(otherTag.code == .scopeMismatch)
        #expect(
            otherTag.message
                == #"RequestContext is .scoped(to: .request), but was resolved from the scope "session". Fix: resolve "#
                + #"it from a scope made with container.makeScope(tag: "request"), or register it as .scoped to let "#
                + "any scope own it."
        )
        // An untagged scoped registration resolves in any scope.
        #expect(throws: Never.self) { try container.withScope(tag: .session) { try $0.resolve(Transaction.self) } }
        #expect(throws: Never.self) { try container.withScope { try $0.resolve(Transaction.self) } }
    }

    // MARK: Disposal

    @Test(.recording) func failingDisposalsDoNotStopTheOthersAndAreReportedTogether() throws {
        let recorder = Recorder.current
        let container = makeContainer()
        container.register(Upload.self, name: "first", scope: .scoped) { _ in Upload() }
        container.register(Upload.self, name: "second", scope: .scoped) { _ in Upload() }
        let scope = container.makeScope(tag: .request)
        _ = try scope.resolve(Upload.self, name: "first")
        _ = try scope.resolve(NoteHandler.self)
        _ = try scope.resolve(Upload.self, name: "second")

        let error = try #require(injectionError { try scope.close() })
        #expect(error.code == .disposalFailed)
        #expect(error.problems.map(\.code) == [.disposalFailed, .disposalFailed])
        #expect(
            error.message
                == #"Disposing what the scope "request" owned: 2 of 4 disposals threw; every other instance was "#
                + #"disposed.\#n- Disposing Upload (name: "second") threw: the disk is full. The error is the "#
                + #"underlyingError.\#n- Disposing Upload (name: "first") threw: the disk is full. The error is "#
                + "the underlyingError."
        )
        #expect(recorder.log.events == ["Transaction #2", "RequestContext #1"])
    }

    @Test(.recording) func theContainerDisposesItsSingletonsWhenItShutsDown() throws {
        let recorder = Recorder.current
        let container = Container()
        container.register(Database.self, scope: .singleton) { _ in Database() }
        container.register(Transaction.self, scope: .singleton) { r in try Transaction(db: r.resolve(Database.self))
        }
        container.register(RequestContext.self) { _ in RequestContext() }
        _ = try container.withScope { try $0.resolve(Transaction.self) }
        #expect(recorder.log.events.isEmpty)  // not the scope's
        _ = try container.resolve(RequestContext.self)  // the caller's
        try container.shutdown()
        #expect(recorder.log.events == ["Transaction #1"])
    }

    // MARK: Captive dependencies

    @Test func aSingletonThatDependsOnAScopedServiceIsRefusedNamingBothLifetimesAndThePath() throws {
        let container = makeContainer()
        container.register(NoteCache.self, scope: .singleton) { r in try NoteCache(formatter: r.resolve(Formatter.self))
        }
        container.register(Formatter.self) { r in try Formatter(context: r.resolve(RequestContext.self)) }

        let resolved = try #require(
            injectionError { try container.withScope(tag: .request) { try $0.resolve(NoteCache.self) } }
        )
        #expect(resolved.code == .captiveDependency)
        #expect(
            resolved.message
                == "Captive dependency: NoteCache (.singleton) depends on RequestContext (.scoped(to: .request)), "
                + "which would then outlive its lifetime scope. Path: NoteCache -> Formatter -> RequestContext. "
                + "Fix: give NoteCache a scope no longer than RequestContext's (.scoped(to: .request) or "
                + ".transient), give RequestContext a longer one, or pass RequestContext to the methods of NoteCache that use it rather than hold it."
        )
        let validated = try #require(injectionError { try container.validate() })
        #expect(validated.problems.map(\.code) == [.captiveDependency])
    }

    // MARK: Async factories

    @Test(.recording) func anAsyncSingletonIsResolvedWithResolveAsyncAndItsFactoryRunsOnce() async throws {
        let recorder = Recorder.current
        let container = Container()

        container.register(DatabasePool.self, scope: .singleton) { _ in try await DatabasePool.connect() }
        let pool = try await container.resolveAsync(DatabasePool.self)

        let pools = try await withThrowingTaskGroup(of: DatabasePool.self) { group in
            for _ in 0..<8 { group.addTask { try await container.resolveAsync(DatabasePool.self) } }
            return try await group.reduce(into: [DatabasePool]()) { $0.append($1) }
        }
        #expect(pools.allSatisfy { $0 === pool })
        #expect(recorder.log.events == ["connect"])
        let sync = try #require(injectionError { try container.resolve(DatabasePool.self) })
        #expect(sync.code == .asyncResolutionRequired)
        #expect(
            sync.message == "DatabasePool has an async factory, which a sync resolve cannot run. Fix: resolve it with"
                + " try await resolveAsync(DatabasePool.self), from the container or scope you resolve from"
                + " (r.resolveAsync in an async factory); a sync factory that needs it must become async too."
        )
    }

    @Test(.recording) func aCancelledTaskNeverStartsASharedFactoryAndStopsWaitingForOne() async throws {
        let recorder = Recorder.current
        let container = Container()
        let opening = Signal()  // the pool connects only once the test says so
        container.register(DatabasePool.self, scope: .singleton) { _ in try await DatabasePool.connect(after: opening) }

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await injectionErrorAsync { try await container.resolveAsync(DatabasePool.self) }
        }
        let never = try #require(await cancelledFirst.value)
        #expect(never.code == .resolutionCancelled)
        let nothingBuilt =
            "Nothing was built for this resolve; the instance is built once, by a task that is not cancelled. Fix: "
            + "nothing, if the task was meant to stop; otherwise, do not cancel it while it resolves."
        #expect(
            never.message
                == "Resolving DatabasePool was cancelled: the task was cancelled before it would have started building "
                + "its shared instance: a cancelled task starts no shared factory. " + nothingBuilt
        )
        #expect(recorder.log.events.isEmpty)

        let building = Task { try await container.resolveAsync(DatabasePool.self) }
        while recorder.log.events.isEmpty { await Task.yield() }
        let waiting = Task { await injectionErrorAsync { try await container.resolveAsync(DatabasePool.self) } }
        waiting.cancel()
        let stopped = try #require(await waiting.value)
        #expect(stopped.code == .resolutionCancelled)
        #expect(
            stopped.message
                == "Resolving DatabasePool was cancelled: the task was cancelled, and another resolution is building "
                + "its shared instance: a cancelled task does not wait for it. " + nothingBuilt
        )
        opening.signal()
        _ = try await building.value
        #expect(recorder.log.events == ["connect"])
    }
}
