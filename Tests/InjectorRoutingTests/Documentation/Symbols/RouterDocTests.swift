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
import InjectorRouting
import Testing

// The snippets of Router's doc comments (Sources/InjectorRouting/Router/Router.swift), and what the
// comments say: a route is a registration of its protocol in the container; a router resolving in a
// scope makes that scope's instances, which the scope owns; the global error handler hears every
// routing error, after the route's own handlers. The snippets use the fixtures' `Clock` and
// `SystemTime`.

private protocol TimeService: Sendable { var now: Int { get } }
extension SystemTime: TimeService {}

extension RoutableService where Protocol == TimeService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

private protocol Session: AnyObject, Sendable {
    var started: Bool { get }
    func start() async throws
}
private final class RequestSession: Session, Disposable, @unchecked Sendable {  // used by one request
    let log: EventLog
    private(set) var started = false
    init(log: EventLog) { self.log = log }
    func start() async throws {
        started = true
        log.record("started")
    }
    func dispose() throws { log.record("disposed") }
}

extension RoutableService where Protocol == any Session {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension ScopeTag {
    fileprivate static let request: ScopeTag = "request"
}

private final class RouterDocLogger: Sendable {
    let lines = EventLog()
    func error(_ line: String) { lines.record("error: \(line)") }
}

@Suite struct RouterDocTests {
    @Test func aRouteIsARegistrationOfItsProtocolInTheRoutersContainer() throws {
        let container = Container()
        let router = Router(container: container)
        router.register(RoutableService<TimeService>(), scope: .singleton) { r in
            SystemTime(clock: try r.resolve(Clock.self))
        }
        container.register((any Clock).self) { _ in FixedClock(now: 8) }

        let time = try router.makeDestination(to: RoutableService<TimeService>())

        #expect(time.now == 8)
        #expect(try container.resolve((any TimeService).self) as AnyObject === time as AnyObject)
        #expect(try router.makeDestination(to: RoutableService<TimeService>()) as AnyObject === time as AnyObject)
    }

    @Test func aRouterResolvingInAScopeMakesThatScopesInstancesWhichTheScopeDisposes() async throws {
        let container = Container()
        let router = Router(container: container)
        let log = EventLog()
        router.register(RoutableService<any Session>(), scope: .scoped(to: .request)) { _ in
            RequestSession(log: log)
        }

        try await container.withScopeAsync(tag: .request) { request in
            let session = try router.resolving(in: request).makeDestination(to: RoutableService<Session>())
            try await session.start()
            let again = try router.resolving(in: request).makeDestination(to: RoutableService<Session>())
            #expect(again === session)
            #expect(again.started)
        }

        #expect(log.entries == ["started", "disposed"])
    }

    @Test func routesRegisteredThroughAScopedRouterAreSeenByBoth() throws {
        let container = Container()
        let router = Router(container: container)
        let scope = container.makeScope(tag: .request)
        defer { try? scope.close() }
        try router.resolving(in: scope).register(RoutableService<any Exporter>()) { _ in FileExporter(serial: 3) }

        #expect(try router.makeDestination(to: RoutableService<any Exporter>()) is FileExporter)
        #expect(try container.resolve((any Exporter).self) is FileExporter)
    }

    @Test func theGlobalErrorHandlerHearsEveryRoutingErrorAfterTheRoutesOwnHandlers() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let logger = RouterDocLogger()

        router.globalErrorHandler = { action, error in logger.error("\(action): \(error.message)") }

        let error = routingError {
            _ = try router.makeDestination(to: RoutableService<TimeService>()) { config in
                config.errorHandler = { _, _ in logger.lines.record("route's handler") }
            }
        }
        _ = routingError { _ = try router.to(RoutableService<TimeService>()) }

        let route = try router.prepare(destination: FileExporter(), for: RoutableService<any Exporter>())
        _ = routingError { try route.removeRoute() }  // prepared elsewhere: not removable

        let message = try #require(error?.message)
        #expect(
            logger.lines.entries == [
                "route's handler", "error: makeDestination: \(message)", "error: lookUp: \(message)",
                "error: removeRoute: RoutableService<Exporter> prepared a destination made elsewhere "
                    + "(prepare(destination:for:)): it did not make it, so it cannot remove it. Fix: remove it where it "
                    + "was made.",
            ]
        )
    }
}
