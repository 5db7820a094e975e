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
/// A disposable value given to a scope, which records whether anything disposed it.
private final class Connection: Disposable, @unchecked Sendable {
    var isDisposed = false
    func dispose() { isDisposed = true }
}
/// A connection as a class-bound protocol, to give a scope an existential of a class.
private protocol Resource: Disposable, AnyObject, Sendable {}
extension Connection: Resource {}
/// Holds what it was given, to hand on a scope's value under another key.
private final class ConnectionUser: Sendable {
    let connection: Connection
    init(connection: Connection) { self.connection = connection }
}

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

    /// A registration of the same type and name, made any other way than as a value scopes
    /// provide, wins over the value (as documented: declare values with `providedByScope:`).
    @Test func aRegistrationOfTheValuesKeyWinsOverTheValue() throws {
        let container = Container()
        container.register(RequestInfo.self) { _ in RequestInfo(path: "/registered") }

        let request = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(path: "/given")) }

        #expect(try request.resolve(RequestInfo.self).path == "/registered")
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

    /// A scope given the value under another name says so: the name is what it lacks.
    @Test func aValueGivenUnderAnotherNameIsNamedInTheError() throws {
        let container = Container()
        let line = #line + 1
        container.register(RequestInfo.self, providedByScope: "request")
        registerHandler(in: container)
        let request = container.makeScope(tag: "request") {
            $0.provide(RequestInfo.self, name: "current", RequestInfo(path: "/"))
            $0.provide(String.self, name: "trace id", "t1")
        }

        let error = try #require(injectionError { try request.resolve(RequestHandler.self) })

        #expect(error.code == .scopeValueMissing)
        #expect(
            error.message
                == "RequestInfo is a value provided by lifetime scopes (declared at"
                + " InjectorTests/ScopeValueTests.swift:\(line)), but the scope \"request\" was not given one. It"
                + " was given RequestInfo (name: \"current\"): a name tells values apart. Path: RequestHandler ->"
                + " RequestInfo. Fix: give it when making the scope: container.makeScope(tag: \"request\") {"
                + " $0.provide(RequestInfo.self, …) }."
        )
    }

    /// The fixes for a named value give it under its name, as `provide(_:name:_:)` takes it.
    @Test func theFixesForANamedValueProvideItUnderItsName() throws {
        let container = Container()
        let line = #line + 1
        container.register(RequestInfo.self, name: "origin", providedByScope: "request")
        let request = container.makeScope(tag: "request")
        let session = container.makeScope(tag: "session") {
            $0.provide(RequestInfo.self, name: "origin", RequestInfo(path: "/a"))
        }

        let missing = try #require(injectionError { try request.resolve(RequestInfo.self, name: "origin") })
        let outside = try #require(injectionError { try container.resolve(RequestInfo.self, name: "origin") })
        let otherTag = try #require(injectionError { try session.resolve(RequestInfo.self, name: "origin") })

        let declared = "RequestInfo (name: \"origin\") is a value provided by lifetime scopes"
        let site = "(declared at InjectorTests/ScopeValueTests.swift:\(line))"
        let provide = "{ $0.provide(RequestInfo.self, name: \"origin\", …) }"
        #expect(missing.code == .scopeValueMissing)
        #expect(
            missing.message
                == "\(declared) \(site), but the scope \"request\" was not given one. Fix: give it when making"
                + " the scope: container.makeScope(tag: \"request\") \(provide)."
        )
        #expect(outside.code == .scopeMismatch)
        #expect(
            outside.message
                == "\(declared) tagged \"request\" \(site), but was resolved from a container, outside any lifetime"
                + " scope. Fix: resolve it from a scope given one: container.makeScope(tag: \"request\") \(provide)."
        )
        #expect(otherTag.code == .scopeMismatch)
        #expect(
            otherTag.message
                == "\(declared) tagged \"request\" \(site), but was resolved from the scope \"session\". Fix:"
                + " resolve it from a scope made with container.makeScope(tag: \"request\") \(provide), or declare"
                + " it with providedByScope: nil to let a scope of any tag be given it."
        )
    }

    /// A declared value resolves from scopes given it, and from no container.
    @Test func declaredValueResolvesFromScopesGivenIt() throws {
        let container = Container()
        let line = #line + 1
        container.register(RequestInfo.self, providedByScope: "request")
        let request = container.makeScope(tag: "request") { $0.provide(RequestInfo.self, RequestInfo(path: "/a")) }

        let error = try #require(injectionError { try container.resolve(RequestInfo.self) })

        #expect(try request.resolve(RequestInfo.self).path == "/a")
        #expect(error.code == .scopeMismatch)
        #expect(
            error.message
                == "RequestInfo is a value provided by lifetime scopes tagged \"request\" (declared at"
                + " InjectorTests/ScopeValueTests.swift:\(line)), but was resolved from a container, outside any"
                + " lifetime scope. Fix: resolve it from a scope given one: container.makeScope(tag: \"request\")"
                + " { $0.provide(RequestInfo.self, …) }."
        )
    }

    /// A declared value asked of a scope of another tag is reported as a value, with where it was
    /// declared and how to give it, not as a scoped registration to re-register.
    @Test func declaredValueAskedOfAScopeOfAnotherTagIsReportedAsAValue() throws {
        let container = Container()
        let line = #line + 1
        container.register(RequestInfo.self, providedByScope: "request")
        registerHandler(in: container)
        let session = container.makeScope(tag: "session") { $0.provide(RequestInfo.self, RequestInfo(path: "/a")) }

        let error = try #require(injectionError { try session.resolve(RequestHandler.self) })

        #expect(error.code == .scopeMismatch)
        #expect(
            error.message
                == "RequestInfo is a value provided by lifetime scopes tagged \"request\" (declared at"
                + " InjectorTests/ScopeValueTests.swift:\(line)), but was resolved from the scope \"session\"."
                + " Path: RequestHandler -> RequestInfo. Fix: resolve it from a scope made with"
                + " container.makeScope(tag: \"request\") { $0.provide(RequestInfo.self, …) }, or declare it with"
                + " providedByScope: nil to let a scope of any tag be given it."
        )
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

    /// A declared value resolves as the very instance the scope was given, every time, in one
    /// resolution or another, and in a scope of another tag it is a mismatch, as a scoped service is.
    @Test func declaredValueIsTheGivenInstanceInEveryResolution() throws {
        let container = Container()
        container.register(Connection.self, providedByScope: "request")
        container.register(ConnectionUser.self) { r in try ConnectionUser(connection: r.resolve(Connection.self)) }
        let given = Connection()
        let request = container.makeScope(tag: "request") { $0.provide(Connection.self, given) }
        let job = container.makeScope(tag: "job") { $0.provide(Connection.self, given) }

        #expect(try request.resolve(Connection.self) === given)
        #expect(try request.resolve(ConnectionUser.self).connection === given)
        #expect(try request.resolve(Connection.self) === given)
        #expect(injectionError { _ = try job.resolve(Connection.self) }?.code == .scopeMismatch)
    }

    /// A scope disposes no value it was given, even one a factory hands on under another key, in
    /// the resolution that first asked for the value or in a later one: the value is its giver's.
    @Test func aValueHandedOnUnderAnotherKeyIsNotDisposedByTheScope() throws {
        let container = Container()
        container.register(Connection.self, providedByScope: nil)
        container.register(Connection.self, name: "handed on", scope: .scoped) { r in try r.resolve(Connection.self) }
        let first = Connection()
        let second = Connection()
        let sameResolution = container.makeScope { $0.provide(Connection.self, first) }
        let laterResolution = container.makeScope { $0.provide(Connection.self, second) }

        #expect(try sameResolution.resolve(Connection.self, name: "handed on") === first)
        _ = try laterResolution.resolve(Connection.self)
        #expect(try laterResolution.resolve(Connection.self, name: "handed on") === second)
        try sameResolution.close()
        try laterResolution.close()

        #expect(!first.isDisposed)
        #expect(!second.isDisposed)
    }

    /// A value given as an existential of a class is recognised by its object when a factory hands
    /// it on as its class: the scope does not dispose it.
    @Test func aValueGivenAsAnExistentialAndHandedOnIsNotDisposedByTheScope() throws {
        let container = Container()
        container.register(Connection.self, scope: .scoped) { r in
            try #require(r.resolve((any Resource).self) as? Connection)
        }
        let given = Connection()
        let scope = container.makeScope { $0.provide((any Resource).self, given) }

        #expect(try scope.resolve(Connection.self) === given)
        try scope.close()

        #expect(!given.isDisposed)
    }

    /// A scope given several values recognises each of them handed on under another key.
    @Test func aValueHandedOnFromAScopeGivenSeveralIsNotDisposedByTheScope() throws {
        let container = Container()
        container.register(Connection.self, name: "handed on", scope: .scoped) { r in
            try r.resolve(Connection.self, name: "second")
        }
        let first = Connection()
        let second = Connection()
        let scope = container.makeScope { values in
            values.provide(Connection.self, name: "first", first)
            values.provide(String.self, name: "trace id", "abc-123")
            values.provide(Connection.self, name: "second", second)
        }

        #expect(try scope.resolve(Connection.self, name: "handed on") === second)
        try scope.close()

        #expect(!first.isDisposed)
        #expect(!second.isDisposed)
    }

    /// A declared value's hooks run once per scope that resolves it, with the value given.
    @Test func hooksOfADeclaredValueRunOncePerScope() throws {
        let container = Container()
        let prepared = Locked.make([ObjectIdentifier]())
        container.register(Connection.self, providedByScope: nil)
            .onResolved { _, connection in prepared.withLock { $0.append(ObjectIdentifier(connection)) } }
        let given = Connection()
        let request = container.makeScope { $0.provide(Connection.self, given) }

        _ = try request.resolve(Connection.self)
        _ = try request.resolve(Connection.self)

        #expect(prepared.withLock { $0 } == [ObjectIdentifier(given)])
    }

    /// A second value given for the same type and name replaces the first, whether the first was
    /// the scope's first value or a later one.
    @Test func aSecondValueForTheSameKeyReplacesTheFirst() throws {
        let container = Container()
        let request = container.makeScope { values in
            values.provide(RequestInfo.self, RequestInfo(path: "/old"))
            values.provide(String.self, name: "trace id", "old")
            values.provide(RequestInfo.self, RequestInfo(path: "/new"))
            values.provide(String.self, name: "trace id", "new")
        }

        #expect(try request.resolve(RequestInfo.self).path == "/new")
        #expect(try request.resolve(String.self, name: "trace id") == "new")
    }
}
