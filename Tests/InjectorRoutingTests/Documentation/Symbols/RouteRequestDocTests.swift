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

// The snippet of RouteRequest/isRouting(to:)'s doc comment (Sources/InjectorRouting/Interceptors/
// RouteRequest.swift), and what the comment says: a request for a protocol adapted to the service
// routes to it too, so an interceptor that guards a route guards its adapters.

private protocol EditorService: AnyObject, Sendable {}
private protocol NoteEditingService: AnyObject {}
private final class PlainEditorService: EditorService, NoteEditingService {}

extension RoutableService where Protocol == any EditorService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any NoteEditingService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

private final class RouteRequestDocSession: Sendable {
    let isSignedIn: Bool
    init(isSignedIn: Bool) { self.isSignedIn = isSignedIn }
}

@Suite struct RouteRequestDocTests {
    /// An interceptor written with the snippet's condition, refusing where the comment's elision is.
    private func guardEditor(of router: Router, session: RouteRequestDocSession, log: EventLog) {
        router.addInterceptor(named: "sign-in") { request in
            log.record(request.description)
            if request.isRouting(to: RoutableService<EditorService>()) && !session.isSignedIn {
                return .refuse("sign in first")
            }
            return .proceed
        }
    }

    @Test func aRequestRoutesToItsServiceAndToTheProtocolsAdaptedToIt() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any EditorService>()) { _ in PlainEditorService() }
        router.adapt(RoutableService<any NoteEditingService>(), to: RoutableService<any EditorService>())
        let log = EventLog()
        guardEditor(of: router, session: RouteRequestDocSession(isSignedIn: false), log: log)

        let direct = routingError { _ = try router.makeDestination(to: RoutableService<any EditorService>()) }
        let adapted = routingError { _ = try router.makeDestination(to: RoutableService<any NoteEditingService>()) }

        #expect(direct?.code == .refused)
        #expect(direct?.message == "The interceptor \"sign-in\" refused RoutableService<EditorService>: sign in first")
        #expect(adapted?.code == .refused)
        #expect(
            adapted?.message
                == "The interceptor \"sign-in\" refused RoutableService<NoteEditingService>: sign in first"
        )
        #expect(log.entries == ["RoutableService<EditorService>", "RoutableService<NoteEditingService>"])
    }

    @Test func aSignedInSessionPassesTheGuard() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any EditorService>()) { _ in PlainEditorService() }
        guardEditor(of: router, session: RouteRequestDocSession(isSignedIn: true), log: EventLog())

        _ = try router.makeDestination(to: RoutableService<any EditorService>())
    }
}
