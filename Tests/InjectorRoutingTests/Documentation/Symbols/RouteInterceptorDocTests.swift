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

// The snippet of InterceptorDecision's doc comment (Sources/InjectorRouting/Interceptors/
// RouteInterceptor.swift), and what its decisions do: proceed, redirect (a call for Any returns the
// other route's destination; a call for the original protocol fails with redirected, nothing made),
// refuse (refused, with the reason in the message).

private protocol EditorService: AnyObject, Sendable {}
private protocol SignInService: AnyObject, Sendable {}
private final class PlainEditorService: EditorService {}
private final class PlainSignInService: SignInService {}

extension RoutableService where Protocol == any EditorService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any SignInService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

private final class InterceptorDocSession: Sendable {
    private let signIns = Counter()
    var isSignedIn: Bool { signIns.value > 0 }
    func signIn() { _ = signIns.next() }
}

/// The snippet's interceptor, at file scope, where its guard line fits as the comment writes it.
private func addSignInInterceptor(to router: Router, session: InterceptorDocSession) {
    router.addInterceptor(named: "sign-in") { request in
        guard request.isRouting(to: RoutableService<EditorService>()), !session.isSignedIn else { return .proceed }
        return .redirect(to: RoutableService<SignInService>())
    }
}

@Suite struct RouteInterceptorDocTests {
    @Test func aRedirectHandsACallForAnyTheOtherRoutesDestinationAndFailsOneThatCannotHoldIt() throws {
        let router = Router(container: Container())
        let log = EventLog()
        router.register(RoutableService<any EditorService>()) { _ in PlainEditorService() }.identifier("editor")
        router.register(RoutableService<any SignInService>()) { _ in
            log.record("sign-in made")
            return PlainSignInService()
        }
        let session = InterceptorDocSession()
        addSignInInterceptor(to: router, session: session)

        let error = routingError { _ = try router.makeDestination(to: RoutableService<any EditorService>()) }

        #expect(error?.code == .redirected)
        #expect(
            error?.message
                == "The interceptor \"sign-in\" redirected RoutableService<EditorService> to "
                + "RoutableService<SignInService>, whose destination this call cannot return (it returns EditorService), "
                + "so nothing was made. Fix: perform RoutableService<SignInService> where this error is caught, or make "
                + "the call by URL or identifier without a type, which returns the destination of the route "
                + "redirected to."
        )
        #expect(log.entries.isEmpty)
        #expect(try router.makeDestination(identifier: "editor", as: Any.self) is PlainSignInService)
        #expect(log.entries == ["sign-in made"])

        session.signIn()
        _ = try router.makeDestination(to: RoutableService<any EditorService>())  // proceeds
        #expect(try router.makeDestination(identifier: "editor", as: Any.self) is PlainEditorService)
        #expect(log.entries == ["sign-in made"])
    }

    @Test func aRefusalFailsTheCallAsRefusedWithTheReasonInTheMessage() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any EditorService>()) { _ in PlainEditorService() }
        router.addInterceptor(named: "read-only") { _ in .refuse("the notes are read-only") }

        let error = routingError { _ = try router.makeDestination(to: RoutableService<any EditorService>()) }

        #expect(error?.code == .refused)
        #expect(
            error?.message
                == "The interceptor \"read-only\" refused RoutableService<EditorService>: the notes are read-only"
        )
    }
}
