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

// The snippets of ScopeValues's doc comment and of Container.makeScope(tag:providing:) and
// register(_:name:providedByScope:)'s (ScopeValues.swift), with the types they assume: values given
// to a scope resolve inside it only, for the scope and its factories, and the scope does not
// dispose them; a declared value missing, or resolved elsewhere, is an error saying where it comes from.

extension ScopeTag {
    fileprivate static let request: ScopeTag = "request"
}

private final class RequestInfo: Disposable, Sendable {
    let user: String
    let log = EventLog()
    init(user: String) { self.user = user }
    func dispose() { log.record("RequestInfo") }
}
private final class NoteHandler: Sendable {
    let request: RequestInfo
    let traceID: String
    let log: EventLog
    init(request: RequestInfo, traceID: String = "", log: EventLog = EventLog()) {
        self.request = request
        self.traceID = traceID
        self.log = log
    }
    func handle(_ body: String) { log.record("\(request.user) \(traceID) \(body)") }
}

@Suite struct ScopeValuesDocTests {
    @Test func valuesGivenToAScopeResolveInsideItForItsFactories() throws {
        let container = Container()
        let log = EventLog()
        container.register(NoteHandler.self) { r in
            try NoteHandler(
                request: r.resolve(RequestInfo.self),
                traceID: r.resolve(String.self, name: "trace id"),
                log: log
            )
        }
        let info = RequestInfo(user: "ada")
        let traceID = "t-1"
        let body = "hello"

        try container.withScope(tag: .request) { values in
            values.provide(RequestInfo.self, info)
            values.provide(String.self, name: "trace id", traceID)
        } operation: { request in
            try request.resolve(NoteHandler.self).handle(body)  // its factory resolves RequestInfo
        }

        #expect(log.events == ["ada t-1 hello"])
        #expect(info.log.events.isEmpty)  // the scope does not dispose them
        #expect(throws: InjectionError.self) { try container.resolve(RequestInfo.self) }
    }

    @Test func makeScopeProvidingGivesTheScopeItsValues() throws {
        let container = Container()
        let info = RequestInfo(user: "ada")
        let request = container.makeScope(tag: .request) { $0.provide(RequestInfo.self, info) }
        #expect(try request.resolve(RequestInfo.self) === info)
        try request.close()
        #expect(info.log.events.isEmpty)
    }

    @Test func aDeclaredValueResolvesFromTheScopeGivenOneAndNowhereElse() throws {
        let container = Container()
        let declared = #line + 1
        container.register(RequestInfo.self, providedByScope: .request)
        container.register(NoteHandler.self, scope: .scoped(to: .request)) { r in
            try NoteHandler(request: r.resolve(RequestInfo.self))
        }
        let info = RequestInfo(user: "ada")

        try container.withScope(tag: .request) {
            $0.provide(RequestInfo.self, info)
        } operation: { request throws in
            #expect(try request.resolve(NoteHandler.self).request === info)
        }
        let notGiven = try #require(
            injectionError { try container.withScope(tag: .request) { try $0.resolve(NoteHandler.self) } }
        )
        #expect(notGiven.code == .scopeValueMissing)
        #expect(
            notGiven.message == "RequestInfo is a value provided by lifetime scopes (declared at"
                + " InjectorTests/ScopeValuesDocTests.swift:\(declared)), but the scope \"request\" was not given one."
                + " Path: NoteHandler -> RequestInfo. Fix: give it when making the scope: container.makeScope(tag:"
                + " \"request\") { $0.provide(RequestInfo.self, …) }."
        )
        let otherTag = try #require(
            injectionError {
                try container.withScope(tag: "session") {
                    $0.provide(RequestInfo.self, info)
                } operation: {
                    try $0.resolve(RequestInfo.self)
                }
            }
        )
        #expect(otherTag.code == .scopeMismatch)
        #expect(
            otherTag.message == "RequestInfo is a value provided by lifetime scopes tagged \"request\" (declared at"
                + " InjectorTests/ScopeValuesDocTests.swift:\(declared)), but was resolved from the scope \"session\"."
                + " Fix: resolve it from a scope made with container.makeScope(tag: \"request\") {"
                + " $0.provide(RequestInfo.self, …) }, or declare it with providedByScope: nil to let a scope of any"
                + " tag be given it."
        )
        let fromContainer = try #require(injectionError { try container.resolve(RequestInfo.self) })
        #expect(fromContainer.code == .scopeMismatch)
        #expect(
            fromContainer.message == "RequestInfo is a value provided by lifetime scopes tagged \"request\" (declared"
                + " at InjectorTests/ScopeValuesDocTests.swift:\(declared)), but was resolved from a container, outside"
                + " any lifetime scope. Fix: resolve it from a scope given one: container.makeScope(tag: \"request\") {"
                + " $0.provide(RequestInfo.self, …) }."
        )

        let report = try container.validate()
        #expect(
            report.description == """
                Validated 0 registrations.
                Not checked:
                - RequestInfo: provided by lifetime scopes
                - NoteHandler: needs a value provided by lifetime scopes
                """
        )
    }
}
