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
import Hummingbird
import HummingbirdTesting
import Injector
import NIOCore
import Synchronization
import Testing

@testable import NotesServerCore

// The request-scope middleware in its simplest form, as the repository's README and the DocC article
// *Using Injector in a server* write it (`withScopeAsync`), verbatim, in front of the example's own
// routes and container. It reaches internals of NotesServerCore (the unit of work's commit and
// rollback, the services' initialiser), hence the testable import. The example's real middleware
// keeps the scope open until the body is written; these close it when `next` returns, as the docs
// say.

// The README's. swift-format would put each parameter on a line of its own, unlike the README.
// swift-format-ignore
private struct RequestScopeMiddleware: RouterMiddleware {
    let container: Container

    func handle(_ request: Request, context: AppRequestContext,
                next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        let info = RequestInfo(id: context.id, logger: context.logger)
        return try await container.withScopeAsync(tag: .request) { $0.provide(RequestInfo.self, info) } operation: { scope in
            var context = context
            context.services = ScopedRequestServices(scope: scope)   // handlers: scope.resolve(NotesService.self)
            do {
                let response = try await next(request, context)
                if response.status.code < 400 { try await info.unitOfWork?.commit() } else { info.unitOfWork?.rollback() }
                return response
            } catch {
                info.unitOfWork?.rollback()
                throw error                                          // the scope closes all the same
            }
        }                                                            // closed: the unit of work is disposed
    }
}

// The article's, the same but for its comments.
// swift-format-ignore
private struct ArticleRequestScopeMiddleware: RouterMiddleware {
    let container: Container

    func handle(_ request: Request, context: AppRequestContext,
                next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        let info = RequestInfo(id: context.id, logger: context.logger)
        return try await container.withScopeAsync(tag: .request) { $0.provide(RequestInfo.self, info) } operation: { scope in
            var context = context
            context.services = ScopedRequestServices(scope: scope)
            do {
                let response = try await next(request, context)
                if response.status.code < 400 { try await info.unitOfWork?.commit() } else { info.unitOfWork?.rollback() }
                return response
            } catch {
                info.unitOfWork?.rollback()
                throw error   // the handler's error is the one thrown; the scope closes all the same
            }
        }
    }
}

/// Which document's middleware a test drives.
enum MiddlewareDocument: String, CaseIterable, CustomTestStringConvertible {
    case readme = "the README"
    case article = "the article"

    var testDescription: String { rawValue }
}

/// What the probe routes saw of their request scopes: each scope (kept, so that no two can share an
/// address), whether it was open while the handler ran, and whether it was closed by the time the
/// response body was written.
private final class ScopeProbe: Sendable {
    struct Visit: Sendable {
        let scope: LifetimeScope
        let openInHandler: Bool
        let unitOfWork: Int
        let sameUnitOfWorkOnSecondResolve: Bool
    }

    private let visits = Mutex<[Visit]>([])
    private let writes = Mutex<[Bool]>([])

    var seen: [Visit] { visits.withLock { $0 } }
    var closedWhenBodyWritten: [Bool] { writes.withLock { $0 } }

    /// The request's scope, as the middleware handed it to the handlers.
    func visit(_ context: AppRequestContext) throws -> LifetimeScope {
        let scope = try #require((context.services as? ScopedRequestServices)?.scope)
        let first = try context.notes().unitOfWork
        let second = try context.notes().unitOfWork
        visits.withLock {
            $0.append(
                Visit(
                    scope: scope,
                    openInHandler: !scope.isClosed,
                    unitOfWork: first.id,
                    sameUnitOfWorkOnSecondResolve: first === second
                )
            )
        }
        return scope
    }

    func bodyWritten(closed: Bool) { writes.withLock { $0.append(closed) } }
}

/// The example's server (its container and audit) behind `document`'s middleware: the notes API
/// under `/notes`, and probe routes under `/probe` that record the scope they run in.
private func withDocumentedMiddleware(
    _ document: MiddlewareDocument,
    _ body: @escaping @Sendable (any TestClientProtocol, NotesServer, ScopeProbe) async throws -> Void
) async throws {
    switch document {
    case .readme: try await withMiddleware({ RequestScopeMiddleware(container: $0) }, body)
    case .article: try await withMiddleware({ ArticleRequestScopeMiddleware(container: $0) }, body)
    }
}

private func withMiddleware<Middleware: RouterMiddleware<AppRequestContext>>(
    _ middleware: (Container) -> Middleware,
    _ body: @escaping @Sendable (any TestClientProtocol, NotesServer, ScopeProbe) async throws -> Void
) async throws {
    let server = try makeServer()
    let problems = Mutex<[String]>([])
    server.container.setDiagnosticsHandler { problem in problems.withLock { $0.append(problem.message) } }
    let probe = ScopeProbe()

    let router = Router(context: AppRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    NotesRoutes.add(to: router.group("notes").add(middleware: middleware(server.container)))
    let probes = router.group("probe").add(middleware: middleware(server.container))
    probes.get("scope") { _, context -> Response in
        let scope = try probe.visit(context)
        let text = ByteBuffer(string: "scoped")
        return Response(
            status: .ok,
            body: ResponseBody(contentLength: text.readableBytes) { writer in
                probe.bodyWritten(closed: scope.isClosed)
                try await writer.write(text)
                try await writer.finish(nil)
            }
        )
    }
    probes.post("fail") { _, context -> HTTPResponse.Status in
        _ = try probe.visit(context)
        try context.notes().unitOfWork.stage { _ in Issue.record("a failed request's write was committed") }
        throw HTTPError(.conflict, message: "The handler failed.")
    }
    probes.post("refuse") { _, context -> HTTPResponse.Status in
        _ = try probe.visit(context)
        try context.notes().unitOfWork.stage { _ in Issue.record("a refused request's write was committed") }
        return .badRequest
    }

    try await Application(router: router).test(.router) { client in try await body(client, server, probe) }
    try await server.container.shutdownAsync()
    #expect(problems.withLock { $0 } == [])
}

@Suite("The request-scope middleware of the README and the server article", .timeLimit(.minutes(1)))
struct DocumentedMiddlewareTests {
    @Test(
        "each request runs in a scope of its own, open in the handler, closed once when it ends",
        arguments: MiddlewareDocument.allCases
    )
    func oneScopePerRequest(document: MiddlewareDocument) async throws {
        try await withDocumentedMiddleware(document) { client, server, probe in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await client.execute(uri: "/probe/scope", method: .get) { response in
                            #expect(response.status == .ok)
                            #expect(String(buffer: response.body) == "scoped")
                        }
                    }
                }
                try await group.waitForAll()
            }

            let visits = probe.seen
            #expect(visits.count == 8)
            #expect(Set(visits.map { ObjectIdentifier($0.scope) }).count == 8)  // never shared
            #expect(Set(visits.map(\.unitOfWork)).count == 8)
            #expect(visits.allSatisfy { $0.openInHandler && $0.sameUnitOfWorkOnSecondResolve })
            #expect(visits.allSatisfy { $0.scope.isClosed })
            // Closed when `next` returned, before Hummingbird wrote the body.
            #expect(probe.closedWhenBodyWritten == Array(repeating: true, count: 8))
            // Each request's unit of work was disposed once, when its scope closed, committed.
            let records = server.audit.records
            #expect(records.count == 8)
            #expect(records.values.allSatisfy { $0.unitOfWorkDisposals.count == 1 })
            #expect(server.audit.snapshot.committed == 8)
        }
    }

    @Test("a created note is committed before its 201 leaves", arguments: MiddlewareDocument.allCases)
    func commitBeforeTheResponse(document: MiddlewareDocument) async throws {
        try await withDocumentedMiddleware(document) { client, server, _ in
            try await client.execute(
                uri: "/notes",
                method: .post,
                headers: jsonHeaders,
                body: json(#"{"title": "Groceries", "body": "milk"}"#)
            ) { response in
                #expect(response.status == .created)
                #expect(server.audit.snapshot.committed == 1)
            }
            try await client.execute(uri: "/notes", method: .get) { response in
                let notes = try response.decode(NoteList.self).notes
                #expect(notes.map(\.title) == ["Groceries"])
            }
            // A second note with the title is refused at commit (409): rolled back, nothing saved.
            try await client.execute(
                uri: "/notes",
                method: .post,
                headers: jsonHeaders,
                body: json(#"{"title": "Groceries"}"#)
            ) { response in
                #expect(response.status == .conflict)
            }
            let totals = server.audit.snapshot
            #expect(totals.unitsOfWorkDisposed == 3)
            #expect(totals.committed == 2)
            #expect(totals.rolledBack == 1)
        }
    }

    @Test(
        "when the handler throws, its error is the response's, and the scope closes all the same",
        arguments: MiddlewareDocument.allCases
    )
    func handlerThrows(document: MiddlewareDocument) async throws {
        try await withDocumentedMiddleware(document) { client, server, probe in
            try await client.execute(uri: "/probe/fail", method: .post) { response in
                #expect(response.status == .conflict)
                #expect(response.error?.message == "The handler failed.")
            }
            // A 4xx answer from a handler that did not throw is rolled back too.
            try await client.execute(uri: "/probe/refuse", method: .post) { response in
                #expect(response.status == .badRequest)
            }

            #expect(probe.seen.count == 2)
            #expect(probe.seen.allSatisfy { $0.scope.isClosed })
            let totals = server.audit.snapshot
            #expect(totals.unitsOfWorkDisposed == 2)
            #expect(totals.rolledBack == 2)
            #expect(totals.committed == 0)
            #expect(server.audit.violations == [])
        }
    }
}
