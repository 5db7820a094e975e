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

// The snippets of Container.withScope(tag:providing:operation:) and
// withScopeAsync(tag:providing:operation:isolation:)'s doc comments (Container+WithScope.swift), with the types
// they assume: the scope is closed when the work ends, what it created disposed in reverse order of
// completion; the work's error wins over a failure to close, which goes to the diagnostics handler.

extension ScopeTag {
    fileprivate static let request: ScopeTag = "request"
}

private final class RequestContext: Disposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() { log.record("RequestContext") }
}
private final class NoteHandler: Disposable, Sendable {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
    func handle(_ body: String) -> String { "saved \(body)" }
    func handle(_ request: Request) async throws -> Response {
        Response(body: "\(context.log.events.count) \(request.path)")
    }
    func dispose() { context.log.record("NoteHandler") }
}
private final class Failing: Disposable, Sendable {
    func dispose() throws { throw Refusal() }
}
private final class UploadOnly: AsyncDisposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func disposeAsync() async { log.record("UploadOnly") }
}
private struct Refusal: Error {}
private struct WorkFailed: Error {}

private struct Request { let path: String }
private struct Response { let body: String }
private struct RequestInfo: Sendable { let user: String }

/// Registers the handler, its context and what it needs, logging disposals to `log`.
private func makeContainer(log: EventLog) -> Container {
    let container = Container()
    container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext(log: log) }
    container.register(NoteHandler.self, scope: .scoped(to: .request)) { r in
        NoteHandler(context: try r.resolve(RequestContext.self))
    }
    container.register(Failing.self, scope: .scoped) { _ in Failing() }
    container.register(UploadOnly.self, scope: .scoped) { _ in UploadOnly(log: log) }
    return container
}

private struct Server {
    let container: Container
    let info: RequestInfo

    // The snippet's layout, which swift-format would break apart.
    // swift-format-ignore
    func handle(_ request: Request) async throws -> Response {
        try await container.withScopeAsync(tag: .request) { $0.provide(RequestInfo.self, info) } operation: { scope in
            try await scope.resolve(NoteHandler.self).handle(request)
        }
    }
}

@Suite struct ContainerWithScopeDocTests {
    @Test func withScopeDisposesWhatTheWorkCreatedInReverseCompletionOrder() throws {
        let log = EventLog()
        let container = makeContainer(log: log)
        let body = "hello"
        var kept: LifetimeScope?

        let saved = try container.withScope(tag: .request) { request in
            try request.resolve(NoteHandler.self).handle(body)  // its RequestContext is the request's
        }  // disposed here, in reverse completion order

        #expect(saved == "saved hello")
        #expect(log.events == ["NoteHandler", "RequestContext"])
        try container.withScope(tag: .request) { kept = $0 }
        let error = try #require(injectionError { try kept?.resolve(NoteHandler.self) })
        #expect(error.code == .scopeClosed)
        #expect(
            error.message == "NoteHandler was resolved from the scope \"request\" after it was closed; its instances"
                + " are disposed. Fix: resolve what the work needs before closing the scope, or make a new one with"
                + " container.makeScope(tag: \"request\")."
        )
    }

    @Test func anAsyncOnlyInstanceIsDroppedAndTheOthersDisposed() throws {
        let log = EventLog()
        let container = makeContainer(log: log)
        let error = try #require(
            injectionError {
                try container.withScope(tag: .request) { request in
                    _ = try request.resolve(UploadOnly.self)
                    _ = try request.resolve(NoteHandler.self)
                }
            }
        )
        #expect(error.code == .asyncDisposalRequired)
        #expect(log.events == ["NoteHandler", "RequestContext"])
        #expect(
            error.message == "The scope \"request\" holds instances that only an async disposal can dispose"
                + " (AsyncDisposable): UploadOnly. withScope closed it all the same: the others were disposed; these"
                + " were dropped undisposed. Fix: use try await container.withScopeAsync, or make them Disposable"
                + " as well."
        )
    }

    @Test func theWorksErrorWinsAndTheFailureToCloseGoesToTheHandler() throws {
        let log = EventLog()
        let container = makeContainer(log: log)
        let problems = ReceivedProblems()
        container.setDiagnosticsHandler(problems.receive)
        #expect(throws: WorkFailed.self) {
            try container.withScope(tag: .request) { request in
                _ = try request.resolve(Failing.self)
                throw WorkFailed()
            }
        }
        #expect(problems.received.map(\.code) == [.disposalFailed])
        #expect(
            problems.received.map(\.message) == [
                "Closing the scope \"request\" after its work threw (WorkFailed()) failed too; the work's error was"
                    + " thrown. Disposing what the scope \"request\" owned: its one disposal threw.\n- Disposing Failing"
                    + " threw: Refusal(). The error is the underlyingError."
            ]
        )

        let error = try #require(
            injectionError { try container.withScope(tag: .request) { try $0.resolve(Failing.self) } }
        )
        #expect(error.code == .disposalFailed)
        #expect(
            error.message == "Disposing what the scope \"request\" owned: its one disposal threw.\n- Disposing Failing"
                + " threw: Refusal(). The error is the underlyingError."
        )
        #expect(problems.received.count == 1)
    }

    @Test func withScopeAsyncRunsARequestAndDisposesAsyncOnlyInstancesToo() async throws {
        let log = EventLog()
        let server = Server(container: makeContainer(log: log), info: RequestInfo(user: "ada"))
        let response = try await server.handle(Request(path: "/notes"))
        #expect(response.body == "0 /notes")
        #expect(log.events == ["NoteHandler", "RequestContext"])

        try await server.container.withScopeAsync(tag: .request) {
            $0.provide(RequestInfo.self, server.info)
        } operation: {
            scope in
            #expect(try scope.resolve(RequestInfo.self).user == "ada")
            _ = try scope.resolve(UploadOnly.self)
        }
        #expect(log.events.last == "UploadOnly")
    }
}
