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

// Values given to a lifetime scope when it is made: the request, a trace id.

private struct RequestInfo: Sendable { let path: String }
private final class RequestHandler: Sendable {
    let info: RequestInfo
    let traceID: String
    init(info: RequestInfo, traceID: String) {
        self.info = info
        self.traceID = traceID
    }
}
private final class SharedCache: Sendable {}

private func registerHandler(in container: Container) {
    container.register(RequestHandler.self, scope: .scoped) { r in
        try RequestHandler(info: r.resolve(RequestInfo.self), traceID: r.resolve(String.self, name: "trace id"))
    }
}

struct ScopeValueTests {
    /// Values given to a scope resolve in it, for the scope and for the factories it runs.
    @Test func valuesGivenToAScopeResolveInIt() throws {
        let container = Container()
        registerHandler(in: container)

        let request = container.makeScope(tag: "request") { values in
            values.provide(RequestInfo.self, RequestInfo(path: "/notes"))
            values.provide(String.self, name: "trace id", "abc-123")
        }
        let handler = try request.resolve(RequestHandler.self)

        #expect(try request.resolve(RequestInfo.self).path == "/notes")
        #expect(handler.info.path == "/notes")
        #expect(handler.traceID == "abc-123")
    }

    /// They are the scope's only: another scope and the container do not see them.
    @Test func valuesAreVisibleInTheirScopeOnly() throws {
        let container = Container()
        _ = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(path: "/notes")) }
        let other = container.makeScope()

        let fromOther = try #require(injectionError { try other.resolve(RequestInfo.self) })
        let fromContainer = try #require(injectionError { try container.resolve(RequestInfo.self) })

        #expect(fromOther.code == .missingRegistration)
        #expect(fromContainer.code == .missingRegistration)
        #expect(fromContainer.message.hasPrefix("No registration for RequestInfo."))
    }

    /// A declared value that a scope was not given is an error that says how to give it.
    @Test func declaredValueNotGivenToTheScopeIsReported() throws {
        let container = Container()
        let line = #line + 1
        container.register(RequestInfo.self, providedByScope: "request")
        registerHandler(in: container)
        let request = container.makeScope(tag: "request")

        let error = try #require(injectionError { try request.resolve(RequestHandler.self) })

        #expect(error.code == .scopeValueMissing)
        #expect(
            error.message
                == "RequestInfo is a value provided by lifetime scopes (declared at"
                + " InjectorTests/ScopeValueTests.swift:\(line)), but the scope \"request\" was not given one."
                + " Path: RequestHandler -> RequestInfo. Fix: give it when making the scope:"
                + " container.makeScope(tag: \"request\") { $0.provide(RequestInfo.self, …) }."
        )
    }

    /// A declared value resolves from scopes given it, and from no container.
    @Test func declaredValueResolvesFromScopesGivenIt() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: "request")
        let request = container.makeScope(tag: "request") { $0.provide(RequestInfo.self, RequestInfo(path: "/a")) }

        let error = try #require(injectionError { try container.resolve(RequestInfo.self) })

        #expect(try request.resolve(RequestInfo.self).path == "/a")
        #expect(error.code == .scopeMismatch)
    }

    /// A singleton may not depend on a value given to a scope: it would keep it past the scope.
    @Test func singletonDependingOnAScopeValueIsACaptiveDependency() throws {
        let container = Container()
        container.register(SharedCache.self, scope: .singleton) { r in
            _ = try r.resolve(RequestInfo.self)
            return SharedCache()
        }
        let request = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(path: "/a")) }

        let error = try #require(injectionError { try request.resolve(SharedCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message.hasPrefix(
                "Captive dependency: SharedCache (.singleton) depends on RequestInfo (.scoped), which would then"
                    + " outlive its lifetime scope. Path: SharedCache -> RequestInfo."
            )
        )
    }

    /// Validation lists a declared value, and what needs it, as provided by scopes: not checked,
    /// not a problem.
    @Test func validationListsDeclaredValuesAsProvidedByScopes() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: "request")
        container.register(String.self, name: "trace id", providedByScope: "request")
        registerHandler(in: container)

        let report = try container.validate()

        #expect(
            report.unchecked.map(\.description) == [
                "RequestInfo: provided by lifetime scopes",
                #"String (name: "trace id"): provided by lifetime scopes"#,
                "RequestHandler: needs a value provided by lifetime scopes",
            ]
        )
    }
}
