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

// MARK: - Test doubles (private to this file)

private final class RequestContext: Tracked, @unchecked Sendable {}
private final class Connection: Tracked, @unchecked Sendable {}
private final class AppSettings: Tracked, @unchecked Sendable {}
private final class SecretsReader: Tracked, @unchecked Sendable {}
private final class Formatter: Tracked, @unchecked Sendable {}
private final class Repository: Tracked, @unchecked Sendable {
    let connection: Connection
    init(_ log: EventLog, connection: Connection) {
        self.connection = connection
        super.init(log)
    }
}
private final class Handler: Tracked, @unchecked Sendable {
    let repository: Repository
    init(_ log: EventLog, repository: Repository) {
        self.repository = repository
        super.init(log)
    }
}
private final class Auditor: Tracked, @unchecked Sendable {  // depends on the request's context
    let context: RequestContext
    init(_ log: EventLog, context: RequestContext) {
        self.context = context
        super.init(log)
    }
}
private final class Vault: Tracked, @unchecked Sendable {  // a singleton built from a transient
    let reader: SecretsReader
    init(_ log: EventLog, reader: SecretsReader) {
        self.reader = reader
        super.init(log)
    }
}
private final class Presence: Tracked, @unchecked Sendable {  // a weak service built from a transient
    let formatter: Formatter
    init(_ log: EventLog, formatter: Formatter) {
        self.formatter = formatter
        super.init(log)
    }
}

private protocol Plugin: AnyObject {}
private final class SpellCheck: Tracked, Plugin, @unchecked Sendable {}
private final class WordCount: Tracked, Plugin, @unchecked Sendable {}

private final class AuditTrail: AsyncDisposable, Sendable {  // only an async disposal can dispose it
    let log: EventLog
    init(_ log: EventLog) { self.log = log }
    func disposeAsync() async throws { log.record("AuditTrail") }
}
private final class DualChannel: Disposable, AsyncDisposable, Sendable {  // records which way it was disposed
    let log: EventLog
    init(_ log: EventLog) { self.log = log }
    func dispose() throws { log.record("sync") }
    func disposeAsync() async throws { log.record("async") }
}
private struct DisposalFailure: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) would not close" }
}
private struct Socket: Disposable {  // its disposal always throws
    let name: String
    func dispose() throws { throw DisposalFailure(name: name) }
}
private final class Closer {}  // never built: its factory closes the scope it is resolved from

/// Registers Handler -> Repository (transient) -> Connection, with Connection's scope given.
private func registerChain(in container: Container, log: EventLog, connectionScope: Scope) {
    container.register(Connection.self, scope: connectionScope) { _ in Connection(log) }
    container.register(Repository.self) { r in try Repository(log, connection: r.resolve(Connection.self)) }
    container.register(Handler.self) { r in try Handler(log, repository: r.resolve(Repository.self)) }
}

// The sync close and shutdown, unavailable in async code (`noasync`): an async test calls them here.
private func closeSynchronously(_ scope: LifetimeScope) throws { try scope.close() }
private func shutDownSynchronously(_ container: Container) throws { try container.shutdown() }

// MARK: - Tests

@Suite struct LifetimeScopeTests {
    // MARK: Sharing

    /// A scoped service has one instance per scope, shared by direct and nested resolves in it.
    @Test func scopedServiceHasOneInstancePerScope() throws {
        let container = Container()
        let log = EventLog()
        let calls = CallCounter()
        container.register(RequestContext.self, scope: .scoped) { _ in
            calls.next()
            return RequestContext(log)
        }
        container.register(Auditor.self) { r in try Auditor(log, context: r.resolve(RequestContext.self)) }
        let scope = container.makeScope()
        let other = container.makeScope()

        let first = try scope.resolve(RequestContext.self)
        let auditor = try scope.resolve(Auditor.self)
        let fromOther = try other.resolve(RequestContext.self)

        #expect(try scope.resolve(RequestContext.self) === first)
        #expect(auditor.context === first)
        #expect(fromOther !== first)
        #expect(try other.resolve(Auditor.self).context === fromOther)
        #expect(calls.count == 2)
    }

    /// Singletons are shared by every scope and the container; transients stay new in a scope.
    @Test func singletonsAreSharedAcrossScopesAndTransientsAreNewEachTime() throws {
        let container = Container()
        container.register(AppSettings.self, scope: .singleton) { _ in AppSettings(EventLog()) }
        container.register(Formatter.self) { _ in Formatter(EventLog()) }
        let scope = container.makeScope()
        let other = container.makeScope()

        let settings = try scope.resolve(AppSettings.self)
        #expect(try other.resolve(AppSettings.self) === settings)
        #expect(try container.resolve(AppSettings.self) === settings)
        #expect(try scope.resolve(Formatter.self) !== scope.resolve(Formatter.self))
    }

    /// A `.scoped(to:)` service resolves in a scope with its tag; an untagged `.scoped` one in any scope.
    @Test func taggedScopedNeedsItsTagAndUntaggedScopedResolvesInAnyScope() throws {
        let container = Container()
        container.register(RequestContext.self, scope: .scoped(to: "request")) { _ in RequestContext(EventLog()) }
        container.register(Connection.self, scope: .scoped) { _ in Connection(EventLog()) }
        let request = container.makeScope(tag: "request")
        let session = container.makeScope(tag: "session")
        let untagged = container.makeScope()

        #expect(request.tag == "request")
        #expect(try request.resolve(RequestContext.self) === request.resolve(RequestContext.self))
        let connections = try [request, session, untagged].map { try $0.resolve(Connection.self) }
        #expect(Set(connections.map { ObjectIdentifier($0) }).count == 3)
    }

    // MARK: Scope mismatch

    /// A scoped service resolved from the container, with no scope to own it, is a scope mismatch.
    @Test func scopedServiceFromTheContainerIsAScopeMismatch() throws {
        let container = Container()
        container.register(RequestContext.self, scope: .scoped) { _ in RequestContext(EventLog()) }
        registerChain(in: container, log: EventLog(), connectionScope: .scoped(to: "request"))

        let direct = try #require(injectionError { try container.resolve(RequestContext.self) })
        #expect(direct.code == .scopeMismatch)
        #expect(
            direct.message == "RequestContext is .scoped, but was resolved from a container, outside any lifetime"
                + " scope, so nothing would own its instance. Fix: resolve from a lifetime scope:"
                + " let scope = container.makeScope(); try scope.resolve(…)."
        )
        #expect(direct.resolutionPath.map(\.description) == ["RequestContext"])

        let nested = try #require(injectionError { try container.resolve(Handler.self) })
        #expect(nested.code == .scopeMismatch)
        #expect(
            nested.message == "Connection is .scoped(to: .request), but was resolved from a container, outside any"
                + " lifetime scope, so nothing would own its instance. Path: Handler -> Repository -> Connection."
                + " Fix: resolve from a lifetime scope: let scope = container.makeScope(tag: \"request\");"
                + " try scope.resolve(…)."
        )
        #expect(nested.resolutionPath.map(\.description) == ["Handler", "Repository", "Connection"])
    }

    /// A `.scoped(to:)` service resolved from a scope with another tag, or an untagged one, is a scope mismatch.
    @Test func taggedScopedServiceFromAScopeWithAnotherTagOrNoneIsAScopeMismatch() throws {
        let container = Container()
        registerChain(in: container, log: EventLog(), connectionScope: .scoped(to: "request"))

        let direct = try #require(injectionError { try container.makeScope(tag: "session").resolve(Connection.self) })
        #expect(direct.code == .scopeMismatch)
        #expect(
            direct.message == "Connection is .scoped(to: .request), but was resolved from the scope \"session\"."
                + " Fix: resolve it from a scope made with container.makeScope(tag: \"request\"), or register it as"
                + " .scoped to let any scope own it."
        )
        #expect(direct.resolutionPath.map(\.description) == ["Connection"])

        let nested = try #require(injectionError { try container.makeScope().resolve(Handler.self) })
        #expect(nested.code == .scopeMismatch)
        #expect(
            nested.message == "Connection is .scoped(to: .request), but was resolved from an untagged scope."
                + " Path: Handler -> Repository -> Connection. Fix: resolve it from a scope made with"
                + " container.makeScope(tag: \"request\"), or register it as .scoped to let any scope own it."
        )
        #expect(nested.resolutionPath.map(\.description) == ["Handler", "Repository", "Connection"])
    }

    // MARK: Closing

    /// Resolving from a closed scope throws `.scopeClosed`.
    @Test func resolvingFromAClosedScopeThrowsScopeClosed() throws {
        let container = Container()
        container.register(RequestContext.self, scope: .scoped) { _ in RequestContext(EventLog()) }
        let scope = container.makeScope(tag: "request")
        _ = try scope.resolve(RequestContext.self)
        try scope.close()

        let error = try #require(injectionError { try scope.resolve(RequestContext.self) })
        #expect(scope.isClosed)
        #expect(error.code == .scopeClosed)
        #expect(
            error.message == "RequestContext was resolved from the scope \"request\" after it was closed; its"
                + " instances are disposed. Fix: resolve what the work needs before closing the scope, or make a"
                + " new one with container.makeScope(tag: \"request\")."
        )
        #expect(error.resolutionPath.map(\.description) == ["RequestContext"])
    }

    /// Closing disposes dependents before their dependencies, and a second close does nothing.
    @Test func closeDisposesInReverseCompletionOrderOnce() throws {
        let container = Container()
        let log = EventLog()
        registerChain(in: container, log: log, connectionScope: .scoped)
        container.register(RequestContext.self, scope: .scoped) { _ in RequestContext(log) }
        let scope = container.makeScope()
        _ = try scope.resolve(Handler.self)
        _ = try scope.resolve(RequestContext.self)

        try scope.close()
        try scope.close()
        #expect(log.events == ["RequestContext", "Handler", "Repository", "Connection"])
    }

    /// A scoped instance resolved many times, or one instance under two registrations, is disposed once.
    @Test func eachInstanceIsDisposedExactlyOnce() throws {
        let container = Container()
        let log = EventLog()
        let shared = DualChannel(log)
        container.register(DualChannel.self, name: "primary") { _ in shared }
        container.register(DualChannel.self, name: "replica") { _ in shared }
        container.register(RequestContext.self, scope: .scoped) { _ in RequestContext(log) }
        container.register(Auditor.self) { r in try Auditor(log, context: r.resolve(RequestContext.self)) }
        let scope = container.makeScope()

        for _ in 0..<5 { _ = try scope.resolve(RequestContext.self) }
        _ = try scope.resolve(Auditor.self)
        _ = try scope.resolve(DualChannel.self, name: "primary")
        _ = try scope.resolve(DualChannel.self, name: "replica")
        try scope.close()
        #expect(log.events == ["sync", "Auditor", "RequestContext"])
    }

    // MARK: Ownership

    /// A scope disposes the transient and graph instances resolved through it.
    @Test func scopeOwnsTransientAndGraphInstancesResolvedThroughIt() throws {
        let container = Container()
        let log = EventLog()
        container.register(Formatter.self, scope: .graph) { _ in Formatter(log) }
        container.register(Connection.self) { _ in Connection(log) }
        let scope = container.makeScope()
        _ = try scope.resolve(Formatter.self)
        _ = try scope.resolve(Connection.self)

        try scope.close()
        #expect(log.events == ["Connection", "Formatter"])
    }

    /// Singletons, and the transients built for them, are the container's, disposed by its shutdown.
    @Test func singletonsResolvedThroughAScopeAreDisposedByShutdownNotByTheScope() throws {
        let container = Container()
        let log = EventLog()
        registerChain(in: container, log: log, connectionScope: .singleton)
        container.register(SecretsReader.self) { _ in SecretsReader(log) }
        container.register(Vault.self, scope: .singleton) { r in try Vault(log, reader: r.resolve(SecretsReader.self)) }
        let scope = container.makeScope()
        _ = try scope.resolve(Vault.self)
        _ = try scope.resolve(Handler.self)

        try scope.close()
        #expect(log.events == ["Handler", "Repository"])

        try container.shutdown()
        #expect(log.events == ["Handler", "Repository", "Connection", "Vault", "SecretsReader"])
    }

    /// Weak instances, what was built for them, and transients resolved from the container are nobody's.
    @Test func weakInstancesAndTransientsResolvedFromTheContainerAreNeverDisposed() throws {
        let container = Container()
        let log = EventLog()
        container.register(Formatter.self) { _ in Formatter(log) }
        container.register(Presence.self, scope: .weak) { r in try Presence(log, formatter: r.resolve(Formatter.self)) }
        let scope = container.makeScope()
        _ = try scope.resolve(Presence.self)
        _ = try container.resolve(Formatter.self)

        try scope.close()
        try container.shutdown()
        #expect(log.events.isEmpty)
    }

    // MARK: Failures and async disposal

    /// Every disposal runs even when some throw; the failures are reported together, in disposal
    /// order. The same for an async close, which disposes instances that all dispose synchronously
    /// without an async call.
    @Test(arguments: [false, true])
    func failingDisposalsAreAllRunAndReportedTogether(closingAsynchronously: Bool) async throws {
        let container = Container()
        let log = EventLog()
        container.register(Socket.self, name: "first") { _ in Socket(name: "first") }
        container.register(Socket.self, name: "second") { _ in Socket(name: "second") }
        container.register(RequestContext.self, scope: .scoped) { _ in RequestContext(log) }
        let scope = container.makeScope()
        _ = try scope.resolve(Socket.self, name: "first")
        _ = try scope.resolve(RequestContext.self)
        _ = try scope.resolve(Socket.self, name: "second")
        func close() async -> InjectionError? {
            closingAsynchronously
                ? await injectionErrorAsync { try await scope.closeAsync() }
                : injectionError { try closeSynchronously(scope) }
        }

        let error = try #require(await close())
        #expect(error.code == .disposalFailed)
        #expect(log.events == ["RequestContext"])
        #expect(scope.isClosed)
        #expect(
            error.message == "Disposing what the untagged scope owned: 2 of 3 disposals threw; every other"
                + " instance was disposed.\n"
                + "- Disposing Socket (name: \"second\") threw: second would not close. The error is the underlyingError.\n"
                + "- Disposing Socket (name: \"first\") threw: first would not close. The error is the underlyingError."
        )
        try #require(error.problems.count == 2)
        #expect(error.problems.map(\.code) == [.disposalFailed, .disposalFailed])
        #expect(error.problems.map { ($0.underlyingError as? DisposalFailure)?.name } == ["second", "first"])
        #expect(
            error.problems.map { $0.resolutionPath.map(\.description) }
                == [["Socket (name: \"second\")"], ["Socket (name: \"first\")"]]
        )
        #expect(await close() == nil, "a second close does nothing")
    }

    /// A sync close refuses an AsyncDisposable-only instance before disposing anything; the scope stays open.
    @Test func syncCloseWithAnAsyncOnlyDisposableIsRefusedAndLeavesTheScopeOpen() async throws {
        let container = Container()
        let log = EventLog()
        container.register(AuditTrail.self, scope: .scoped) { _ in AuditTrail(log) }
        container.register(RequestContext.self, scope: .scoped) { _ in RequestContext(log) }
        let scope = container.makeScope(tag: "request")
        let trail = try scope.resolve(AuditTrail.self)
        _ = try scope.resolve(RequestContext.self)

        let error = try #require(injectionError { try closeSynchronously(scope) })
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message == "The scope \"request\" holds instances that only an async disposal can dispose"
                + " (AsyncDisposable): AuditTrail. Nothing was disposed, and the scope stays open. Fix: use"
                + " try await scope.closeAsync(), or make them Disposable as well."
        )
        #expect(log.events.isEmpty)
        #expect(!scope.isClosed)
        #expect(try scope.resolve(AuditTrail.self) === trail)

        try await scope.closeAsync()
        #expect(scope.isClosed)
        #expect(log.events == ["RequestContext", "AuditTrail"])
    }

    /// A type both Disposable and AsyncDisposable: a sync close disposes it synchronously, an async one asynchronously.
    @Test func dualDisposableIsDisposedTheWayTheScopeIsClosed() async throws {
        let container = Container()
        let log = EventLog()
        container.register(DualChannel.self, scope: .scoped) { _ in DualChannel(log) }
        let syncScope = container.makeScope()
        let asyncScope = container.makeScope()
        _ = try syncScope.resolve(DualChannel.self)
        _ = try asyncScope.resolve(DualChannel.self)

        try closeSynchronously(syncScope)
        #expect(log.events == ["sync"])
        try await asyncScope.closeAsync()
        #expect(log.events == ["sync", "async"])
    }

    // MARK: Container shutdown

    /// A sync shutdown disposes singletons last completed first, and a second one does nothing.
    @Test func syncShutdownDisposesSingletonsInReverseOrderOnce() throws {
        let container = Container()
        let log = EventLog()
        container.register(AppSettings.self, scope: .singleton) { _ in AppSettings(log) }
        container.register(SecretsReader.self, scope: .singleton) { _ in SecretsReader(log) }
        container.register(Vault.self, scope: .singleton) { r in try Vault(log, reader: r.resolve(SecretsReader.self)) }
        _ = try container.resolve(AppSettings.self)
        _ = try container.resolve(Vault.self)

        try container.shutdown()
        try container.shutdown()
        #expect(log.events == ["Vault", "SecretsReader", "AppSettings"])
    }

    /// A sync shutdown refuses an AsyncDisposable-only singleton; an async one disposes it, once.
    @Test func asyncShutdownDisposesAsyncDisposableSingletonsOnce() async throws {
        let container = Container()
        let log = EventLog()
        container.register(AuditTrail.self, scope: .singleton) { _ in AuditTrail(log) }
        container.register(AppSettings.self, scope: .singleton) { _ in AppSettings(log) }
        _ = try container.resolve(AuditTrail.self)
        _ = try container.resolve(AppSettings.self)

        let error = try #require(injectionError { try shutDownSynchronously(container) })
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message == "The container holds instances that only an async disposal can dispose"
                + " (AsyncDisposable): AuditTrail. Nothing was disposed. Fix: use"
                + " try await container.shutdownAsync(), or make them Disposable as well."
        )
        #expect(log.events.isEmpty)

        try await container.shutdownAsync()
        try await container.shutdownAsync()
        #expect(log.events == ["AppSettings", "AuditTrail"])
    }

    // MARK: Scope in use

    /// Closing a scope from inside a resolution from it throws `.scopeInUse` and leaves it open.
    @Test func closingAScopeWhileItResolvesThrowsScopeInUse() throws {
        let container = Container()
        let log = EventLog()
        let scope = container.makeScope()
        container.register(RequestContext.self, scope: .scoped) { _ in RequestContext(log) }
        container.register(Closer.self) { _ in
            try scope.close()
            return Closer()
        }
        let context = try scope.resolve(RequestContext.self)

        let error = try #require(injectionError { try scope.resolve(Closer.self) })
        #expect(error.code == .scopeInUse)
        #expect(
            error.message == "An untagged scope was closed while 1 resolution from it was still running;"
                + " it stays open and nothing was disposed. Fix: close a scope once the work that resolves from it"
                + " has finished (await its tasks first)."
        )
        #expect(!scope.isClosed)
        #expect(log.events.isEmpty)
        #expect(try scope.resolve(RequestContext.self) === context)
        try scope.close()
        #expect(log.events == ["RequestContext"])
    }

    /// `.scopeInUse` counts every resolution running from the scope, nested ones included.
    @Test func scopeInUseCountsNestedResolutions() throws {
        let container = Container()
        let scope = container.makeScope(tag: "request")
        container.register(Closer.self) { _ in
            try scope.close()
            return Closer()
        }
        container.register(Formatter.self) { _ in
            _ = try scope.resolve(Closer.self)
            return Formatter(EventLog())
        }

        let error = try #require(injectionError { try scope.resolve(Formatter.self) })
        #expect(error.code == .scopeInUse)
        #expect(
            error.message.hasPrefix(
                "The scope \"request\" was closed while 2 resolutions from it were still running; it stays open"
            )
        )
        #expect(!scope.isClosed)
    }

    // MARK: resolveAll and child containers

    /// resolveAll from a scope shares scoped registrations within it and gives the scope what it made.
    @Test func resolveAllFromAScopeSharesScopedInstancesAndOwnsThem() throws {
        let container = Container()
        let log = EventLog()
        container.register(Plugin.self, name: "spelling", scope: .scoped) { _ in SpellCheck(log) }
        container.register(Plugin.self, name: "count") { _ in WordCount(log) }
        let scope = container.makeScope()

        let first = try scope.resolveAll(Plugin.self)
        let second = try scope.resolveAll(Plugin.self)
        try #require(first.count == 2 && second.count == 2)
        #expect(first[0] === second[0])
        #expect(first[1] !== second[1])
        try scope.close()
        #expect(log.events == ["WordCount", "WordCount", "SpellCheck"])
        let error = try #require(injectionError { try scope.resolveAll(Plugin.self) })
        #expect(error.code == .scopeClosed)
        #expect(error.message.hasPrefix("Plugin was resolved from an untagged scope after it was closed;"))
    }

    /// A child container's scope sees the child's registrations and the parent's, and owns both.
    @Test func childContainerScopeSeesChildRegistrations() throws {
        let parent = Container()
        let log = EventLog()
        parent.register(Connection.self, scope: .scoped) { _ in Connection(log) }
        let child = parent.makeChild()
        child.register(Repository.self, scope: .scoped) { r in
            try Repository(log, connection: r.resolve(Connection.self))
        }
        let scope = child.makeScope()

        let repository = try scope.resolve(Repository.self)

        #expect(scope.container === child)
        #expect(try scope.resolve(Connection.self) === repository.connection)
        let missing = try #require(injectionError { try parent.makeScope().resolve(Repository.self) })
        #expect(missing.code == .missingRegistration)
        #expect(
            missing.message == "No registration for Repository. Nothing is registered for Repository under any"
                + " name or arguments. Fix: register it, e.g. container.register(Repository.self) { r in … }, in this"
                + " container or one of its parents."
        )
        try scope.close()
        #expect(log.events == ["Repository", "Connection"])
    }
}

/// A request's disposable instances, and what the diagnostics handler received.
private final class LeakedTransaction: Disposable, Sendable {
    func dispose() {}
}
private final class LeakedConnection: Disposable, Sendable {
    func dispose() {}
}
/// Resolves in a scope and lets it go without closing it.
private func dropScope(from container: Container, tag: ScopeTag?) throws {
    let scope = container.makeScope(tag: tag)
    _ = try scope.resolve(LeakedTransaction.self)
    _ = try scope.resolve(LeakedConnection.self)
    _ = try scope.resolve(LeakedConnection.self)
}

extension LifetimeScopeTests {
    /// A scope released without being closed, holding disposable instances, is reported to the
    /// container's diagnostics handler, naming its tag and what it leaves undisposed.
    @Test func scopeReleasedWithoutClosingIsReported() throws {
        let container = Container()
        let problems = ReceivedProblems()
        container.setDiagnosticsHandler { problems.receive($0) }
        container.register(LeakedTransaction.self, scope: .scoped) { _ in LeakedTransaction() }
        container.register(LeakedConnection.self) { _ in LeakedConnection() }

        try dropScope(from: container.makeChild(), tag: "request")
        let closed = container.makeScope()
        _ = try closed.resolve(LeakedTransaction.self)
        try closed.close()

        #expect(problems.received.map(\.code) == [.scopeNotClosed])
        #expect(
            problems.received.first?.message
                == "The scope \"request\" was released without being closed: 3 disposable instances it owned will"
                + " never be disposed: LeakedTransaction, LeakedConnection (2 instances). Fix: run the work in"
                + " container.withScope { … } (withScopeAsync in async code), which closes the scope on every path,"
                + " or close it on every path yourself (try await scope.closeAsync())."
        )
    }
}

extension LifetimeScopeTests {
    /// A scope with many scoped registrations (more than its store searches one by one) keeps one
    /// instance of each, and disposes every one of them once when it closes.
    @Test func aScopeWithManyScopedRegistrationsKeepsOneInstanceOfEach() throws {
        let container = Container()
        let log = EventLog()
        let names = (0..<40).map { "instance \($0)" }
        for name in names {
            container.register(RequestContext.self, name: name, scope: .scoped) { _ in RequestContext(log) }
        }
        let scope = container.makeScope()

        let first = try names.map { try scope.resolve(RequestContext.self, name: $0) }
        let again = try names.reversed().map { try scope.resolve(RequestContext.self, name: $0) }
        try scope.close()

        #expect(Set(first.map(ObjectIdentifier.init)).count == names.count)
        #expect(again.reversed().map(ObjectIdentifier.init) == first.map(ObjectIdentifier.init))
        #expect(log.events == Array(repeating: "RequestContext", count: names.count))
    }
}
