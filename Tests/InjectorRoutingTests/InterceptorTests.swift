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

@Suite struct InterceptorTests {
    private func makeRouter(log: EventLog) -> Router {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in
            log.record("made Exporter")
            return FileExporter()
        }
        .url("app://export")
        router.register(RoutableService<any SignIn>()) { _ in
            log.record("made SignIn")
            return SignInScreen()
        }
        return router
    }

    private func redirectExportsToSignIn(on router: Router) {
        router.addInterceptor(named: "sign-in") { request in
            request.isRouting(to: RoutableService<any Exporter>())
                ? .redirect(to: RoutableService<any SignIn>()) : .proceed
        }
    }

    @Test func interceptorsRunInTheOrderTheyWereAddedBeforeTheRoute() throws {
        let log = EventLog()
        let router = makeRouter(log: log)
        router.addInterceptor(named: "first") { request in
            log.record("first: \(request)")
            return .proceed
        }
        router.addInterceptor(named: "second") { request in
            log.record("second: \(request.action)")
            return .proceed
        }

        _ = try router.makeDestination(to: RoutableService<any Exporter>())

        #expect(log.entries == ["first: RoutableService<Exporter>", "second: makeDestination", "made Exporter"])
    }

    @Test func anInterceptorCanRefuseAPerform() throws {
        let log = EventLog()
        let router = makeRouter(log: log)
        router.addInterceptor(named: "read-only") { request in
            request.isRouting(to: RoutableService<any Exporter>()) ? .refuse("exports are disabled") : .proceed
        }
        let route = try router.to(RoutableService<any Exporter>())

        let error = try #require(routingError { try route.perform() })

        #expect(error.code == .refused)
        #expect(
            error.message == "The interceptor \"read-only\" refused RoutableService<Exporter>: exports are disabled"
        )
        #expect(route.state == .unrouted)
        #expect(log.entries.isEmpty)  // nothing was made
    }

    @Test func aCallThatCanHoldTheRouteRedirectedToReceivesItsDestination() throws {
        let log = EventLog()
        let router = makeRouter(log: log)
        redirectExportsToSignIn(on: router)

        let made = try router.makeDestination(url: "app://export", as: Any.self)
        let typed = try router.makeDestination(url: "app://export", as: (any SignIn).self)
        let route = try router.perform(url: "app://export")

        #expect(made is SignInScreen)
        #expect(typed is SignInScreen)
        #expect(route.state == .routed)
        #expect(route.destination is SignInScreen)
        #expect(log.entries == ["made SignIn", "made SignIn", "made SignIn"])
    }

    @Test func aCallThatCannotHoldTheRouteRedirectedToFailsAsRedirectedAndMakesNothing() throws {
        let log = EventLog()
        let router = makeRouter(log: log)
        redirectExportsToSignIn(on: router)

        let error = try #require(routingError { _ = try router.perform(to: RoutableService<any Exporter>()) })

        #expect(error.code == .redirected)
        #expect(
            error.message
                == "The interceptor \"sign-in\" redirected RoutableService<Exporter> to RoutableService<SignIn>, whose "
                + "destination this call cannot return (it returns Exporter), so nothing was made. Fix: perform "
                + "RoutableService<SignIn> where this error is caught, or make the call by URL or identifier without "
                + "a type, which returns the destination of the route redirected to."
        )
        #expect(log.entries.isEmpty)
    }

    @Test func aRedirectToARouteThatFailsReportsThatFailure() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }.url("app://export")
        redirectExportsToSignIn(on: router)

        let error = try #require(routingError { _ = try router.perform(url: "app://export") })

        #expect(error.code == .invalidProtocol)
        #expect(
            error.message
                == "The interceptor \"sign-in\" redirected RoutableService<Exporter> for \"app://export\" to "
                + "RoutableService<SignIn>, which failed: No route is registered for RoutableService<SignIn>. "
                + "Registered routes: RoutableService<Exporter>. Fix: register one with "
                + "router.register(RoutableService<SignIn>(), …), or adapt the protocol to one that has a route with "
                + "router.adapt(RoutableService<SignIn>(), to: …)."
        )
    }

    @Test func redirectsThatLoopAreACycleNeverAHang() throws {
        let log = EventLog()
        let router = makeRouter(log: log)
        router.addInterceptor(named: "ping-pong") { request in
            request.isRouting(to: RoutableService<any Exporter>())
                ? .redirect(to: RoutableService<any SignIn>()) : .redirect(to: RoutableService<any Exporter>())
        }

        let error = try #require(routingError { _ = try router.makeDestination(url: "app://export", as: Any.self) })

        #expect(error.code == .cycle)
        #expect(
            error.message.hasSuffix(
                "Interceptors redirect in a loop: Exporter -> SignIn -> Exporter (the last redirect by \"ping-pong\"). "
                    + "Fix: let an interceptor proceed for the route it redirects to."
            )
        )
        #expect(log.entries.isEmpty)
    }

    @Test func aServiceCallRedirectedToAViewRouteIsInvalidConfigurationAndMakesNothing() throws {
        let log = EventLog()
        let router = makeRouter(log: log)
        router.register(RoutableView<any EditorView>()) { _ in
            log.record("made EditorScreen")
            return EditorScreen()
        }
        router.addInterceptor(named: "to-view") { request in
            request.isRouting(to: RoutableService<any Exporter>())
                ? .redirect(to: RoutableView<any EditorView>()) : .proceed
        }

        let error = try #require(routingError { _ = try router.makeDestination(to: RoutableService<any Exporter>()) })

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The interceptor \"to-view\" redirected RoutableService<Exporter>, a service route, to "
                + "RoutableView<EditorView>, a view route: a service call has no path to show a view along. Nothing was "
                + "made. Fix: redirect to a service route, or refuse the call."
        )
        #expect(log.entries.isEmpty)
    }

    @Test func anInterceptorThatThrowsRefusesThePerform() throws {
        let router = makeRouter(log: EventLog())
        router.addInterceptor(named: "audit") { _ in throw TestFailure("audit log unavailable") }

        let error = try #require(routingError { _ = try router.makeDestination(to: RoutableService<any Exporter>()) })

        #expect(error.code == .refused)
        #expect(
            error.message
                == "The interceptor \"audit\" threw while deciding on RoutableService<Exporter>: audit log unavailable"
        )
    }

    @Test func interceptorsBelongToOneRouter() throws {
        let container = Container()
        let log = EventLog()
        let guarded = makeRouter(log: log)
        guarded.addInterceptor(named: "deny") { _ in .refuse("no") }
        let open = Router(container: container)
        open.register(RoutableService<any Exporter>()) { _ in FileExporter() }

        #expect(throws: RoutingError.self) { _ = try guarded.makeDestination(to: RoutableService<any Exporter>()) }
        _ = try open.makeDestination(to: RoutableService<any Exporter>())
    }
}
