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

// The snippet of Router/addInterceptor(named:_:)'s doc comment (Sources/InjectorRouting/Router/
// Router+Interceptors.swift), and what the comment says: interceptors run in the order they were
// added; a redirect hands a call for Any the other route's destination (its own interceptors
// included), and fails a call that cannot return it as redirected; a redirect loop fails as a cycle; a refusal or a throwing interceptor fails it as
// refused; interceptors belong to one router; preparing a destination made elsewhere passes none.

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

private final class InterceptorsDocSession: Sendable {
    let isSignedIn: Bool
    init(isSignedIn: Bool) { self.isSignedIn = isSignedIn }
}

private struct NoSession: Error, CustomStringConvertible {
    var description: String { "no session" }
}

@Suite struct RouterInterceptorsDocTests {
    private func makeRouter(log: EventLog) -> Router {
        let router = Router(container: Container())
        router.register(RoutableService<any EditorService>()) { _ in
            log.record("editor made")
            return PlainEditorService()
        }
        .identifier("editor")
        router.register(RoutableService<any SignInService>()) { _ in
            log.record("sign-in made")
            return PlainSignInService()
        }
        return router
    }

    @Test func theSignInInterceptorRedirectsTheEditorToSignInUntilTheSessionIsSignedIn() throws {
        for isSignedIn in [false, true] {
            let log = EventLog()
            let router = makeRouter(log: log)
            let session = InterceptorsDocSession(isSignedIn: isSignedIn)
            router.addInterceptor(named: "logging") { request in
                log.record("logging saw \(request)")
                return .proceed
            }

            router.addInterceptor(named: "sign-in") { request in
                guard request.isRouting(to: RoutableService<EditorService>()), !session.isSignedIn else {
                    return .proceed
                }
                return .redirect(to: RoutableService<SignInService>())
            }

            let editor = try router.makeDestination(identifier: "editor", as: Any.self)

            if isSignedIn {
                #expect(editor is PlainEditorService)
                #expect(
                    log.entries == [
                        #"logging saw RoutableService<EditorService> for identifier "editor""#, "editor made",
                    ]
                )
            } else {
                #expect(editor is PlainSignInService)
                // The redirect passes the interceptors too, the one added before the sign-in one first.
                #expect(
                    log.entries == [
                        #"logging saw RoutableService<EditorService> for identifier "editor""#,
                        "logging saw RoutableService<SignInService>", "sign-in made",
                    ]
                )
            }
        }
    }

    @Test func redirectsThatLeadBackFailAsACycle() throws {
        let router = makeRouter(log: EventLog())
        router.addInterceptor(named: "to sign-in") { request in
            request.isRouting(to: RoutableService<any EditorService>())
                ? .redirect(to: RoutableService<any SignInService>()) : .proceed
        }
        router.addInterceptor(named: "to editor") { request in
            request.isRouting(to: RoutableService<any SignInService>())
                ? .redirect(to: RoutableService<any EditorService>()) : .proceed
        }

        let error = routingError { _ = try router.makeDestination(identifier: "editor", as: Any.self) }

        #expect(error?.code == .cycle)
        #expect(
            error?.message
                == "The interceptor \"to sign-in\" redirected RoutableService<EditorService> for identifier \"editor\" to "
                + "RoutableService<SignInService>, which failed: Interceptors redirect in a loop: EditorService -> "
                + "SignInService -> EditorService (the last redirect by \"to editor\"). Fix: let an interceptor proceed "
                + "for the route it redirects to."
        )
    }

    @Test func aRefusalOrAThrowingInterceptorFailsTheCallAsRefused() throws {
        let refusing = makeRouter(log: EventLog())
        refusing.addInterceptor(named: "closed") { _ in .refuse("closed for the night") }
        let throwing = makeRouter(log: EventLog())
        throwing.addInterceptor(named: "session") { _ in throw NoSession() }

        let refused = routingError { _ = try refusing.makeDestination(to: RoutableService<any EditorService>()) }
        let thrown = routingError { _ = try throwing.makeDestination(to: RoutableService<any EditorService>()) }

        #expect(refused?.code == .refused)
        #expect(
            refused?.message
                == "The interceptor \"closed\" refused RoutableService<EditorService>: closed for the night"
        )
        #expect(thrown?.code == .refused)
        #expect(
            thrown?.message
                == "The interceptor \"session\" threw while deciding on RoutableService<EditorService>: no session"
        )
    }

    @Test func interceptorsBelongToTheirRouterAndPreparingAMadeDestinationPassesNone() throws {
        let guarded = makeRouter(log: EventLog())
        guarded.addInterceptor(named: "closed") { _ in .refuse("closed") }
        let other = makeRouter(log: EventLog())

        _ = try other.makeDestination(to: RoutableService<any EditorService>())
        let route = try guarded.prepare(destination: PlainEditorService(), for: RoutableService<any EditorService>())
        #expect(route.state == .routed)
    }
}
