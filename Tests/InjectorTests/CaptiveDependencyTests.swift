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

// A singleton or weak service must not hold a scoped one: it would keep it past the scope that
// owns (and disposes) it. The container refuses such a captive dependency, however it is reached.

// MARK: - Test doubles (private to this file)

extension ScopeTag {
    fileprivate static let captiveRequest: ScopeTag = "request"
}

/// What a request owns: the scoped service the others try to hold.
private final class RequestContext: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// A singleton holding a `RequestContext`: the captor.
private final class ResponseCache: Sendable {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
}

/// A weak-scoped service holding a `RequestContext`.
private final class SessionMonitor: Sendable {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
}

// A chain ending in a `RequestContext`: ReportCache (singleton) -> ReportFormatter (transient)
// -> ReportSession (graph) -> RequestContext (scoped).
private final class ReportSession: Sendable {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
}
private final class ReportFormatter: Sendable {
    let session: ReportSession
    init(session: ReportSession) { self.session = session }
}
private final class ReportCache: Sendable {
    let formatter: ReportFormatter
    init(formatter: ReportFormatter) { self.formatter = formatter }
}

/// A singleton that asks for a `RequestContext` in its onResolved hook, not in its factory.
private final class AuditTrail: Sendable {}

/// A transient that receives a `RequestContext` in its onResolved hook (written once, by the hook,
/// before anyone reads it), and a singleton holding one.
private final class RequestAwareFormatter: @unchecked Sendable {
    var context: RequestContext?
}
private final class FormatterCache: Sendable {
    let formatter: RequestAwareFormatter
    init(formatter: RequestAwareFormatter) { self.formatter = formatter }
}

/// A singleton holding a tagged scoped service.
private final class TokenCache: Sendable {
    let token: RequestToken
    init(token: RequestToken) { self.token = token }
}
private final class RequestToken: Sendable {}

/// Shared by the whole container.
private final class SystemClock: Sendable {}

/// Scoped services that hold a singleton, another scoped service, or are transient.
private final class RequestHandler: Sendable {
    let clock: SystemClock
    let context: RequestContext
    init(clock: SystemClock, context: RequestContext) {
        self.clock = clock
        self.context = context
    }
}
private final class RequestLogger: Sendable {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
}

/// The message of a captive dependency error, as the container words it.
private func captiveMessage(
    holder: String,
    holderScope: String,
    captive: String,
    captiveScope: String,
    path: String
) -> String {
    "Captive dependency: \(holder) (.\(holderScope)) depends on \(captive) (.\(captiveScope)),"
        + " which would then outlive its lifetime scope. Path: \(path)."
        + " Fix: give \(holder) a scope no longer than \(captive)'s (.\(captiveScope) or .transient),"
        + " give \(captive) a longer one, or pass \(captive) to the methods of \(holder) that use it rather than hold it."
}

/// Registers `RequestContext` as `.scoped`, counting its factory calls.
private func registerRequestContext(in container: Container, calls: CallCounter = CallCounter()) {
    container.register(RequestContext.self, scope: .scoped) { _ in RequestContext(serial: calls.next()) }
}

// MARK: - Tests

struct CaptiveDependencyTests {
    // MARK: Refused

    /// A singleton whose factory resolves a scoped service is refused, naming both and the path.
    @Test func singletonDependingOnScopedServiceIsCaptive() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(ResponseCache.self, scope: .singleton) { r in
            try ResponseCache(context: r.resolve(RequestContext.self))
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(ResponseCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message == """
                Captive dependency: ResponseCache (.singleton) depends on RequestContext (.scoped), which would \
                then outlive its lifetime scope. Path: ResponseCache -> RequestContext. Fix: give ResponseCache \
                a scope no longer than RequestContext's (.scoped or .transient), give RequestContext a longer one, or pass RequestContext to the methods of ResponseCache that use it rather than hold it.
                """
        )
        #expect(error.resolutionPath.map(\.description) == ["ResponseCache", "RequestContext"])
    }

    /// Transient and graph services between the singleton and the scoped one do not hide the
    /// captive: the path shows every step, and the singleton is named as the captor.
    @Test func singletonReachingScopedServiceThroughTransientAndGraphIsCaptive() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(ReportSession.self, scope: .graph) { r in
            try ReportSession(context: r.resolve(RequestContext.self))
        }
        container.register(ReportFormatter.self, scope: .transient) { r in
            try ReportFormatter(session: r.resolve(ReportSession.self))
        }
        container.register(ReportCache.self, scope: .singleton) { r in
            try ReportCache(formatter: r.resolve(ReportFormatter.self))
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(ReportCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message
                == captiveMessage(
                    holder: "ReportCache",
                    holderScope: "singleton",
                    captive: "RequestContext",
                    captiveScope: "scoped",
                    path: "ReportCache -> ReportFormatter -> ReportSession -> RequestContext"
                )
        )
        #expect(
            error.resolutionPath.map(\.description)
                == ["ReportCache", "ReportFormatter", "ReportSession", "RequestContext"]
        )
    }

    /// A weak-scoped service outlives lifetime scopes too: holding a scoped one is refused.
    @Test func weakServiceDependingOnScopedServiceIsCaptive() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(SessionMonitor.self, scope: .weak) { r in
            try SessionMonitor(context: r.resolve(RequestContext.self))
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(SessionMonitor.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message
                == captiveMessage(
                    holder: "SessionMonitor",
                    holderScope: "weak",
                    captive: "RequestContext",
                    captiveScope: "scoped",
                    path: "SessionMonitor -> RequestContext"
                )
        )
        #expect(error.resolutionPath.map(\.description) == ["SessionMonitor", "RequestContext"])
    }

    /// A singleton's onResolved hook resolving a scoped service is refused as its factory would be;
    /// the error says it came from the hook.
    @Test func singletonHookResolvingScopedServiceIsCaptive() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(AuditTrail.self, scope: .singleton) { _ in AuditTrail() }
            .onResolved { r, _ in _ = try r.resolve(RequestContext.self) }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(AuditTrail.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message == "While running an onResolved hook of AuditTrail: "
                + captiveMessage(
                    holder: "AuditTrail",
                    holderScope: "singleton",
                    captive: "RequestContext",
                    captiveScope: "scoped",
                    path: "AuditTrail -> RequestContext"
                )
        )
        #expect(error.resolutionPath.map(\.description) == ["AuditTrail", "RequestContext"])
    }

    /// A singleton holding a transient whose onResolved hook injects a scoped service holds that
    /// scoped service captive too: refused, although the hook runs after the singleton's factory.
    @Test func singletonHoldingATransientWhoseHookInjectsAScopedServiceIsCaptive() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(RequestAwareFormatter.self) { _ in RequestAwareFormatter() }
            .onResolved { r, formatter in formatter.context = try r.resolve(RequestContext.self) }
        container.register(FormatterCache.self, scope: .singleton) { r in
            try FormatterCache(formatter: r.resolve(RequestAwareFormatter.self))
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(FormatterCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(error.message.contains("FormatterCache (.singleton) depends on RequestContext (.scoped)"))
        #expect(error.resolutionPath.map(\.description).last == "RequestContext")
    }

    /// A singleton's hook resolving a transient whose own hook injects a scoped service is refused:
    /// the singleton would hold the transient, and through it the scoped service.
    @Test func singletonHookReachingScopedServiceThroughATransientsHookIsCaptive() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(RequestAwareFormatter.self) { _ in RequestAwareFormatter() }
            .onResolved { r, formatter in formatter.context = try r.resolve(RequestContext.self) }
        container.register(AuditTrail.self, scope: .singleton) { _ in AuditTrail() }
            .onResolved { r, _ in _ = try r.resolve(RequestAwareFormatter.self) }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(AuditTrail.self) })

        #expect(error.code == .captiveDependency)
        #expect(error.message.contains("AuditTrail (.singleton) depends on RequestContext (.scoped)"))
        #expect(error.resolutionPath.map(\.description).last == "RequestContext")
    }

    /// Resolved from the root container, a singleton asking for a scoped service is still reported
    /// as a captive dependency, not as a scoped service resolved outside a scope.
    @Test func singletonDependingOnScopedServiceIsCaptiveWhenResolvedFromTheContainer() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(ResponseCache.self, scope: .singleton) { r in
            try ResponseCache(context: r.resolve(RequestContext.self))
        }

        let error = try #require(injectionError { try container.resolve(ResponseCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message
                == captiveMessage(
                    holder: "ResponseCache",
                    holderScope: "singleton",
                    captive: "RequestContext",
                    captiveScope: "scoped",
                    path: "ResponseCache -> RequestContext"
                )
        )
        #expect(error.resolutionPath.map(\.description) == ["ResponseCache", "RequestContext"])
    }

    /// Through transients from the root container too, the singleton is named as the captor.
    @Test func singletonReachingScopedServiceThroughATransientIsCaptiveFromTheContainer() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(ReportSession.self, scope: .graph) { r in
            try ReportSession(context: r.resolve(RequestContext.self))
        }
        container.register(ReportFormatter.self) { r in try ReportFormatter(session: r.resolve(ReportSession.self)) }
        container.register(ReportCache.self, scope: .singleton) { r in
            try ReportCache(formatter: r.resolve(ReportFormatter.self))
        }

        let error = try #require(injectionError { try container.resolve(ReportCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(error.message.contains("ReportCache (.singleton) depends on RequestContext (.scoped)"))
        #expect(
            error.resolutionPath.map(\.description)
                == ["ReportCache", "ReportFormatter", "ReportSession", "RequestContext"]
        )
    }

    /// An async singleton asking for a scoped service through `resolveAsync` is refused the same way.
    @Test func asyncSingletonDependingOnScopedServiceIsCaptive() async throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(ResponseCache.self, scope: .singleton) { r in
            await Task.yield()
            return try await ResponseCache(context: r.resolveAsync(RequestContext.self))
        }
        let scope = container.makeScope()

        let error = try await #require(throws: InjectionError.self) {
            try await scope.resolveAsync(ResponseCache.self)
        }

        #expect(error.code == .captiveDependency)
        #expect(
            error.message
                == captiveMessage(
                    holder: "ResponseCache",
                    holderScope: "singleton",
                    captive: "RequestContext",
                    captiveScope: "scoped",
                    path: "ResponseCache -> RequestContext"
                )
        )
        #expect(error.resolutionPath.map(\.description) == ["ResponseCache", "RequestContext"])
    }

    /// The message shows a tagged scoped service's tag.
    @Test func captiveMessageShowsTheTagOfATaggedScopedService() throws {
        let container = Container()
        container.register(RequestToken.self, scope: .scoped(to: .captiveRequest)) { _ in RequestToken() }
        container.register(TokenCache.self, scope: .singleton) { r in
            try TokenCache(token: r.resolve(RequestToken.self))
        }
        let scope = container.makeScope(tag: .captiveRequest)

        let error = try #require(injectionError { try scope.resolve(TokenCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message
                == captiveMessage(
                    holder: "TokenCache",
                    holderScope: "singleton",
                    captive: "RequestToken",
                    captiveScope: "scoped(to: .request)",
                    path: "TokenCache -> RequestToken"
                )
        )
        #expect(error.resolutionPath.map(\.description) == ["TokenCache", "RequestToken"])
    }

    /// After a captive error nothing is published: the singleton is refused again (its factory runs
    /// again), and the scope goes on serving, and closing, normally.
    @Test func scopeStaysUsableAfterACaptiveError() throws {
        let container = Container()
        let contextCalls = CallCounter()
        let cacheCalls = CallCounter()
        registerRequestContext(in: container, calls: contextCalls)
        container.register(ResponseCache.self, scope: .singleton) { r in
            cacheCalls.next()
            return try ResponseCache(context: r.resolve(RequestContext.self))
        }
        container.register(SystemClock.self, scope: .singleton) { _ in SystemClock() }
        let scope = container.makeScope()

        let first = try #require(injectionError { try scope.resolve(ResponseCache.self) })
        let second = try #require(injectionError { try scope.resolve(ResponseCache.self) })
        let context = try scope.resolve(RequestContext.self)
        let clock = try scope.resolve(SystemClock.self)

        #expect(first.code == .captiveDependency)
        #expect(
            first.message == "Captive dependency: ResponseCache (.singleton) depends on RequestContext (.scoped),"
                + " which would then outlive its lifetime scope. Path: ResponseCache -> RequestContext. Fix: give"
                + " ResponseCache a scope no longer than RequestContext's (.scoped or .transient), give RequestContext a longer one, or pass RequestContext to the methods of ResponseCache that use it rather than hold it."
        )
        #expect(second.code == .captiveDependency)
        #expect(second.message == first.message)
        #expect(cacheCalls.count == 2)
        #expect(contextCalls.count == 1, "the refused resolutions must not have built a RequestContext")
        #expect(try scope.resolve(RequestContext.self) === context)
        #expect(try container.resolve(SystemClock.self) === clock)
        try scope.close()
        #expect(scope.isClosed)
    }

    // MARK: Allowed

    /// A scoped service may hold a singleton: the singleton outlives it.
    @Test func scopedServiceMayDependOnASingleton() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(SystemClock.self, scope: .singleton) { _ in SystemClock() }
        container.register(RequestHandler.self, scope: .scoped) { r in
            try RequestHandler(clock: r.resolve(SystemClock.self), context: r.resolve(RequestContext.self))
        }
        let first = container.makeScope()
        let second = container.makeScope()

        let firstHandler = try first.resolve(RequestHandler.self)
        let secondHandler = try second.resolve(RequestHandler.self)

        #expect(firstHandler !== secondHandler)
        #expect(firstHandler.clock === secondHandler.clock)
        #expect(try container.resolve(SystemClock.self) === firstHandler.clock)
    }

    /// A singleton whose factory failed, and whose error the factory asking for it caught, holds
    /// nothing: the scoped service resolved next in the same resolution is not its captive.
    @Test func scopedServiceResolvedAfterASingletonFailedIsNotCaptive() throws {
        struct ClockUnavailable: Error {}
        let container = Container()
        registerRequestContext(in: container)
        container.register(SystemClock.self, scope: .singleton) { _ in throw ClockUnavailable() }
        container.register(RequestLogger.self) { r in
            _ = try? r.resolve(SystemClock.self)
            return try RequestLogger(context: r.resolve(RequestContext.self))
        }
        let scope = container.makeScope()

        let logger = try scope.resolve(RequestLogger.self)

        #expect(logger.context === (try scope.resolve(RequestContext.self)))
    }

    /// A scoped service may hold another scoped service: both belong to the same scope.
    @Test func scopedServiceMayDependOnAnotherScopedService() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(RequestLogger.self, scope: .scoped) { r in
            try RequestLogger(context: r.resolve(RequestContext.self))
        }
        let first = container.makeScope()
        let second = container.makeScope()

        let logger = try first.resolve(RequestLogger.self)
        let otherLogger = try second.resolve(RequestLogger.self)

        #expect(logger.context === (try first.resolve(RequestContext.self)))
        #expect(otherLogger.context === (try second.resolve(RequestContext.self)))
        #expect(logger.context !== otherLogger.context)
    }

    /// A transient service resolved in a scope may hold a scoped one: each transient gets the
    /// scope's instance.
    @Test func transientServiceMayDependOnAScopedServiceInAScope() throws {
        let container = Container()
        registerRequestContext(in: container)
        container.register(RequestLogger.self, scope: .transient) { r in
            try RequestLogger(context: r.resolve(RequestContext.self))
        }
        let scope = container.makeScope()

        let first = try scope.resolve(RequestLogger.self)
        let second = try scope.resolve(RequestLogger.self)

        #expect(first !== second)
        #expect(first.context === second.context)
        #expect(first.context === (try scope.resolve(RequestContext.self)))
    }

    /// A graph-scoped instance built with a scoped one, handed later in the same resolution to a
    /// singleton being built, would carry the scoped instance into the singleton: refused.
    @Test func graphInstanceHoldingAScopedOneIsCaptiveInASingleton() throws {
        let container = Container()
        container.register(ValidatedConnection.self, scope: .scoped) { _ in ValidatedConnection() }
        container.register(GraphHolder.self, scope: .graph) { r in
            _ = try r.resolve(ValidatedConnection.self)
            return GraphHolder()
        }
        container.register(FirstCache.self, scope: .singleton) { r in
            _ = try r.resolve(GraphHolder.self)
            return FirstCache()
        }
        container.register(Page.self) { r in
            _ = try r.resolve(GraphHolder.self)
            _ = try r.resolve(FirstCache.self)
            return Page()
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(Page.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message == "Captive dependency: FirstCache (.singleton) depends on GraphHolder (.graph), which"
                + " this resolution built with the scoped ValidatedConnection: FirstCache would keep it past its lifetime"
                + " scope. Path: Page -> FirstCache -> GraphHolder. Fix: give FirstCache a scope no longer than"
                + " ValidatedConnection's, or pass GraphHolder to the methods of FirstCache that use it rather than hold it."
        )
        #expect(error.resolutionPath.map(\.description) == ["Page", "FirstCache", "GraphHolder"])
    }

    /// Validation reports a captive dependency once per holder: two singletons holding one scoped
    /// service are two problems.
    @Test func validationReportsEachSingletonHoldingAScopedService() throws {
        let container = Container()
        container.register(ValidatedConnection.self, scope: .scoped) { _ in ValidatedConnection() }
        container.register(FirstCache.self, scope: .singleton) { r in
            _ = try r.resolve(ValidatedConnection.self)
            return FirstCache()
        }
        container.register(SecondCache.self, scope: .singleton) { r in
            _ = try r.resolve(ValidatedConnection.self)
            return SecondCache()
        }

        let error = try #require(injectionError { try container.validate() })

        #expect(error.code == .validationFailed)
        #expect(error.problems.map(\.code) == [.captiveDependency, .captiveDependency])
        let captive = { (holder: String) in
            "Captive dependency: \(holder) (.singleton) depends on ValidatedConnection (.scoped), which would then"
                + " outlive its lifetime scope. Path: \(holder) -> ValidatedConnection. Fix: give \(holder) a scope no"
                + " longer than ValidatedConnection's (.scoped or .transient), give ValidatedConnection a longer one, or pass ValidatedConnection to the methods of \(holder) that use it rather than hold it."
        }
        #expect(
            error.message == "Validation found 2 problems:\n- \(captive("FirstCache"))\n- \(captive("SecondCache"))"
        )
        #expect(
            error.problems.map { $0.resolutionPath.map(\.description) } == [
                ["FirstCache", "ValidatedConnection"], ["SecondCache", "ValidatedConnection"],
            ]
        )
    }
}

private final class ValidatedConnection: Sendable {}
private final class FirstCache: Sendable {}
private final class SecondCache: Sendable {}
private final class GraphHolder: Sendable {}
private final class Page: Sendable {}
