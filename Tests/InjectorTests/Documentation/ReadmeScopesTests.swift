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

// The docs' "Scopes and lifetimes": singleton and graph lifetimes, a request's lifetime scope and
// the order it disposes in, what the sync forms refuse, a scope dropped unclosed, who disposes an
// existing instance, values given to a scope, and the captive dependency it refuses.

// The README declares the tag at file scope; `private` keeps it to this file (the checker does not
// count the modifier), which swift-format would otherwise move onto the member.
// swift-format-ignore: NoAccessLevelOnExtensionDeclaration
private extension ScopeTag { static let request: ScopeTag = "request" }

/// What the services of this file record when they are built and disposed. Task-local, so that
/// tests running in parallel each see their own, and the README's factories take no log.
private enum Recording {
    @TaskLocal static var log = EventLog()
}

private final class Database: Sendable {
    let path: String
    init(path: String) throws { self.path = path }
}
private final class UnitOfWork: Sendable {
    let db: Database
    init(db: Database) throws { self.db = db }
}
/// Needs two units of work in one resolve: with `.graph`, they are the same one.
private struct Checkout {
    let debit: UnitOfWork
    let credit: UnitOfWork
}

private final class RequestContext: Disposable, Sendable {
    let log = Recording.log
    func dispose() { log.record("RequestContext") }
}
private final class Transaction: Disposable, Sendable {
    let log = Recording.log
    let db: Database
    init(db: Database) throws { self.db = db }
    func dispose() { log.record("Transaction") }
}
private struct RequestInfo: Sendable { let user: String }
private final class NoteHandler {
    let context: RequestContext?
    let transaction: Transaction?
    let info: RequestInfo?
    private let log = Recording.log

    init(context: RequestContext, transaction: Transaction) {
        (self.context, self.transaction, self.info) = (context, transaction, nil)
    }
    init(info: RequestInfo) { (self.context, self.transaction, self.info) = (nil, nil, info) }

    func handle(_ body: String) throws { log.record("handled \(body) for \(info?.user ?? "anyone")") }
    func handle(_ body: String) async throws -> String { "saved \(body)" }
}

/// A singleton that holds a request's context through a transient: a captive dependency.
private struct NoteCache: Sendable { let formatter: Formatter }
private struct Formatter: Sendable { let context: RequestContext }

private struct HandlerFailure: Error, Equatable {}

/// Only an async disposal can dispose it.
private final class UploadQueue: AsyncDisposable, Sendable {
    let log = Recording.log
    func disposeAsync() async { log.record("UploadQueue") }
}

/// The database, as the README's first block registers it, for the blocks that need one.
private func makeContainer() -> Container {
    let container = Container()
    container.register(Database.self, scope: .singleton) { _ in try Database(path: "notes.db") }
    return container
}

/// The README's request registrations: a tagged scoped context, an untagged scoped transaction and
/// a transient handler using both.
private func registerRequestServices(in container: Container) {
    container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext() }
    container.register(Transaction.self, scope: .scoped) { r in try Transaction(db: r.resolve(Database.self)) }
    container.register(NoteHandler.self) { r in
        try NoteHandler(context: r.resolve(RequestContext.self), transaction: r.resolve(Transaction.self))
    }
}

@Suite struct ReadmeScopesTests {
    @Test func aSingletonIsBuiltOnceAndAGraphInstanceIsSharedWithinOneResolve() throws {
        let container = Container()

        // README begins
        container.register(Database.self, scope: .singleton) { _ in try Database(path: "notes.db") }
        container.register(UnitOfWork.self, scope: .graph) { r in try UnitOfWork(db: r.resolve(Database.self)) }
        // README ends
        container.register(Checkout.self) { r in
            try Checkout(debit: r.resolve(UnitOfWork.self), credit: r.resolve(UnitOfWork.self))
        }

        let first = try container.resolve(UnitOfWork.self)
        let second = try container.resolve(UnitOfWork.self)
        #expect(first !== second)  // a graph instance is dropped when its resolve returns
        #expect(first.db === second.db)  // the singleton is shared
        #expect(first.db.path == "notes.db")
        let checkout = try container.resolve(Checkout.self)
        #expect(checkout.debit === checkout.credit)  // one per top-level resolve
        #expect(checkout.debit !== first)
    }

    /// The docs' request scope: the handler gets the request's context and transaction, and
    /// closing the scope disposes the transaction, then the context.
    @Test func aRequestScopeDisposesTheTransactionThenTheContext() throws {
        let log = EventLog()
        try Recording.$log.withValue(log) {
            let container = makeContainer()
            let body = "groceries"
            var seen: (handler: NoteHandler, scope: LifetimeScope)?

            // README begins
            container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext() }
            container.register(Transaction.self, scope: .scoped) { r in try Transaction(db: r.resolve(Database.self)) }
            container.register(NoteHandler.self) { r in
                try NoteHandler(context: r.resolve(RequestContext.self), transaction: r.resolve(Transaction.self))
            }

            try container.withScope(tag: .request) { request in
                let handler = try request.resolve(NoteHandler.self)  // this request's context and transaction
                try handler.handle(body)
                // The test's: the scope's instances are this request's, shared within it.
                seen = (handler, request)
                let again = try request.resolve(NoteHandler.self)
                #expect(again !== handler)
                #expect(again.transaction === handler.transaction)
                #expect(again.context === handler.context)
                #expect(log.events == ["handled groceries for anyone"])
            }  // closed: Transaction disposed, then RequestContext
            // README pauses

            #expect(log.events == ["handled groceries for anyone", "Transaction", "RequestContext"])
            let (handler, scope) = try #require(seen)
            #expect(scope.isClosed)
            #expect(handler.transaction?.db === (try container.resolve(Database.self)))
        }
    }

    /// The docs' request scope in async code: `withScopeAsync` returns what the operation
    /// returns, and closes the scope as the sync form does.
    @Test func anAsyncRequestScopeReturnsTheResponseAndDisposesTheSame() async throws {
        let log = EventLog()
        try await Recording.$log.withValue(log) {
            let container = makeContainer()
            registerRequestServices(in: container)
            let body = "groceries"

            // README resumes
            // In async code:
            let response = try await container.withScopeAsync(tag: .request) { request in
                try await request.resolve(NoteHandler.self).handle(body)
            }
            // README ends

            #expect(response == "saved groceries")
            #expect(log.events == ["Transaction", "RequestContext"])
        }
    }

    /// When the operation throws, its error is the one thrown, and the scope closes all the same.
    @Test func aScopeWhoseOperationThrowsClosesAndRethrowsTheOperationsError() {
        let log = EventLog()
        Recording.$log.withValue(log) {
            let container = makeContainer()
            registerRequestServices(in: container)

            #expect(throws: HandlerFailure()) {
                try container.withScope(tag: .request) { request in
                    _ = try request.resolve(NoteHandler.self)
                    throw HandlerFailure()
                }
            }
            #expect(log.events == ["Transaction", "RequestContext"])
        }
    }

    /// A scope made with `makeScope(tag:)` is closed by its owner; closing it twice does nothing, and
    /// resolving from it once closed is `scopeClosed`.
    @Test func closingAScopeTwiceDisposesOnce() throws {
        let log = EventLog()
        try Recording.$log.withValue(log) {
            let container = makeContainer()
            registerRequestServices(in: container)
            let scope = container.makeScope(tag: .request)
            _ = try scope.resolve(NoteHandler.self)

            try scope.close()
            try scope.close()

            #expect(log.events == ["Transaction", "RequestContext"])
            let error = injectionError { try scope.resolve(NoteHandler.self) }
            #expect(error?.code == .scopeClosed)
            #expect(
                error?.message == "NoteHandler was resolved from the scope \"request\" after it was closed; its"
                    + " instances are disposed. Fix: resolve what the work needs before closing the scope, or make"
                    + " a new one with container.makeScope(tag: \"request\")."
            )
        }
    }

    /// The sync forms refuse an instance only an async disposal can dispose: `close()` before
    /// anything is disposed, leaving the scope open; `withScope` after disposing the others.
    @Test func theSyncFormsRefuseAnAsyncDisposableInstance() throws {
        let log = EventLog()
        try Recording.$log.withValue(log) {
            let container = makeContainer()
            registerRequestServices(in: container)
            container.register(UploadQueue.self, scope: .scoped) { _ in UploadQueue() }

            let scope = container.makeScope(tag: .request)
            _ = try scope.resolve(NoteHandler.self)
            _ = try scope.resolve(UploadQueue.self)
            let closing = injectionError { try scope.close() }
            #expect(closing?.code == .asyncDisposalRequired)
            #expect(
                closing?.message == "The scope \"request\" holds instances that only an async disposal can dispose"
                    + " (AsyncDisposable): UploadQueue. Nothing was disposed, and the scope stays open. Fix: use try"
                    + " await scope.closeAsync(), or make them Disposable as well."
            )
            #expect(log.events == [])
            #expect(!scope.isClosed)

            let withScope = injectionError {
                try container.withScope(tag: .request) { request in
                    _ = try request.resolve(NoteHandler.self)
                    _ = try request.resolve(UploadQueue.self)
                }
            }
            #expect(withScope?.code == .asyncDisposalRequired)
            #expect(
                withScope?.message == "The scope \"request\" holds instances that only an async disposal can dispose"
                    + " (AsyncDisposable): UploadQueue. withScope closed it all the same: the others were disposed;"
                    + " these were dropped undisposed. Fix: use try await container.withScopeAsync, or make them"
                    + " Disposable as well."
            )
            #expect(log.events == ["Transaction", "RequestContext"])
        }
    }

    /// A scope dropped without closing is reported to the diagnostics handler, naming its tag and
    /// what it never disposed; it does not dispose them.
    @Test func aScopeDroppedWithoutClosingIsReported() throws {
        let log = EventLog()
        try Recording.$log.withValue(log) {
            let container = makeContainer()
            registerRequestServices(in: container)
            let problems = ReceivedProblems()
            container.setDiagnosticsHandler { problems.receive($0) }

            do {
                let scope = container.makeScope(tag: .request)
                _ = try scope.resolve(NoteHandler.self)
            }

            #expect(problems.received.map(\.code) == [.scopeNotClosed])
            #expect(
                problems.received.first?.message == "The scope \"request\" was released without being closed: 2"
                    + " disposable instances it owned will never be disposed: RequestContext, Transaction. Fix: run"
                    + " the work in container.withScope { … } (withScopeAsync in async code), which closes the scope"
                    + " on every path, or close it on every path yourself (try await scope.closeAsync())."
            )
            #expect(log.events == [])
        }
    }

    /// An existing instance is registered with its owner: `.container` disposes it at shutdown,
    /// resolved or not; `.caller` never; no scope does.
    @Test func anExistingInstanceIsDisposedByTheContainerOnlyWhenItOwnsIt() throws {
        let log = EventLog()
        try Recording.$log.withValue(log) {
            let container = Container()
            container.register(RequestContext.self, instance: RequestContext(), ownedBy: .container)
            container.register(Transaction.self, instance: try Transaction(db: Database(path: "x")), ownedBy: .caller)

            try container.withScope(tag: .request) { request in
                _ = try request.resolve(Transaction.self)
            }
            #expect(log.events == [])
            try container.shutdown()
            #expect(log.events == ["RequestContext"])
        }
    }

    /// A scoped service resolved from the container, which has no scope to own it, or from a scope
    /// with another tag, is a `scopeMismatch`.
    @Test func aScopedServiceOutsideItsScopeIsAScopeMismatch() {
        let container = makeContainer()
        registerRequestServices(in: container)

        let fromContainer = injectionError { try container.resolve(RequestContext.self) }
        #expect(fromContainer?.code == .scopeMismatch)
        #expect(
            fromContainer?.message == "RequestContext is .scoped(to: .request), but was resolved from a container,"
                + " outside any lifetime scope, so nothing would own its instance. Fix: resolve from a lifetime scope:"
                + " let scope = container.makeScope(tag: \"request\"); try scope.resolve(…)."
        )

        let session = container.makeScope(tag: "session")
        defer { try? session.close() }
        let fromSession = injectionError { try session.resolve(NoteHandler.self) }
        #expect(fromSession?.code == .scopeMismatch)
        #expect(
            fromSession?.message == "RequestContext is .scoped(to: .request), but was resolved from the scope"
                + " \"session\". Path: NoteHandler -> RequestContext. Fix: resolve it from a scope made with"
                + " container.makeScope(tag: \"request\"), or register it as .scoped to let any scope own it."
        )
    }

    /// The docs' captive dependency, with the message it quotes.
    @Test func aSingletonHoldingARequestsContextIsACaptiveDependency() {
        let container = Container()
        container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext() }
        container.register(Formatter.self) { r in try Formatter(context: r.resolve(RequestContext.self)) }
        container.register(NoteCache.self, scope: .singleton) { r in try NoteCache(formatter: r.resolve(Formatter.self))
        }

        let scope = container.makeScope(tag: .request)
        defer { try? scope.close() }
        let error = injectionError { try scope.resolve(NoteCache.self) }

        #expect(error?.code == .captiveDependency)
        #expect(
            error?.message == "Captive dependency: NoteCache (.singleton) depends on RequestContext (.scoped(to:"
                + " .request)), which would then outlive its lifetime scope. Path: NoteCache -> Formatter ->"
                + " RequestContext. Fix: give NoteCache a scope no longer than RequestContext's (.scoped(to: .request)"
                + " or .transient), give RequestContext a longer one, or pass RequestContext to the methods of"
                + " NoteCache that use it rather than hold it."
        )
        #expect(
            error.map { "\($0.code): \($0.message)" }
                == "captiveDependency: Captive dependency: NoteCache (.singleton) depends on RequestContext"
                + " (.scoped(to: .request)), which would then outlive its lifetime scope. Path: NoteCache -> Formatter ->"
                + " RequestContext. Fix: give NoteCache a scope no longer than RequestContext's (.scoped(to: .request) or"
                + " .transient), give RequestContext a longer one, or pass RequestContext to the methods of NoteCache that use it rather than hold it."
        )
    }

    /// A value given to a scope resolves in it, for the factories resolving through it.
    @Test func aValueGivenToAScopeReachesTheFactoriesResolvingThroughIt() throws {
        let log = EventLog()
        try Recording.$log.withValue(log) {
            let container = Container()
            container.register(NoteHandler.self) { r in try NoteHandler(info: r.resolve(RequestInfo.self)) }
            let info = RequestInfo(user: "ada")
            let body = "groceries"

            // README begins
            container.register(RequestInfo.self, providedByScope: .request)
            // The README's layout, which swift-format would break apart.
            // swift-format-ignore
            try container.withScope(tag: .request) { $0.provide(RequestInfo.self, info) } operation: { request in
                try request.resolve(NoteHandler.self).handle(body)  // its factory resolves RequestInfo
            }
            // README ends

            #expect(log.events == ["handled groceries for ada"])
        }
    }

    /// A scope not given the value says how to give it (`scopeValueMissing`), and `validate()` lists
    /// the value, and what needs it, as provided by scopes.
    @Test func aScopeValueNotGivenIsReportedAndValidationListsIt() throws {
        let container = Container()
        container.register(NoteHandler.self) { r in try NoteHandler(info: r.resolve(RequestInfo.self)) }
        let declared = #line + 1
        container.register(RequestInfo.self, providedByScope: .request)

        let error = injectionError {
            try container.withScope(tag: .request) { try $0.resolve(NoteHandler.self) }
        }
        #expect(error?.code == .scopeValueMissing)
        #expect(
            error?.message == "RequestInfo is a value provided by lifetime scopes (declared at"
                + " InjectorTests/ReadmeScopesTests.swift:\(declared)), but the scope \"request\" was not given one."
                + " Path: NoteHandler -> RequestInfo. Fix: give it when making the scope:"
                + " container.makeScope(tag: \"request\") { $0.provide(RequestInfo.self, …) }."
        )

        let report = try container.validate()
        #expect(
            report.unchecked.map(\.description) == [
                "NoteHandler: needs a value provided by lifetime scopes", "RequestInfo: provided by lifetime scopes",
            ]
        )
    }
}
