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

// The snippet of LifetimeScope's doc comment (LifetimeScope.swift), with the types it assumes: the
// handler's RequestContext is the request's, and closing the scope disposes what it created in
// reverse order of completion; singletons stay shared and the container's, transients stay new.

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
    let clock: Clock
    init(context: RequestContext, clock: Clock) {
        self.context = context
        self.clock = clock
    }
    func handle(_ body: String) async throws { context.log.record("handled \(body)") }
    func dispose() { context.log.record("NoteHandler") }
}
private final class Clock: Disposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() { log.record("Clock") }
}

@Suite struct LifetimeScopeDocTests {
    @Test func aRequestScopeOwnsWhatItCreatedAndDisposesItInReverseCompletionOrder() async throws {
        let log = EventLog()
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in Clock(log: log) }
        container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext(log: log) }
        container.register(NoteHandler.self) { r in
            try NoteHandler(context: r.resolve(RequestContext.self), clock: r.resolve(Clock.self))
        }
        let body = "hello"
        let clock = try container.resolve(Clock.self)

        try await container.withScopeAsync(tag: .request) { request in
            let handler = try request.resolve(NoteHandler.self)  // its RequestContext is the request's
            try await handler.handle(body)
            let other = try request.resolve(NoteHandler.self)
            #expect(other !== handler)  // transients stay new
            #expect(other.context === handler.context)
            #expect(handler.clock === clock)  // singletons stay shared
        }  // disposes in reverse completion order

        #expect(log.events == ["handled hello", "NoteHandler", "NoteHandler", "RequestContext"])
        try await container.shutdownAsync()
        #expect(log.events.last == "Clock")
    }
}
