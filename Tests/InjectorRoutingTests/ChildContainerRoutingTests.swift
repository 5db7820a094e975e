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

/// A router over a child container sees the routes of the router over its parent, as the child
/// container sees the parent's registrations, and may replace them with its own.
@Suite struct ChildContainerRoutingTests {
    private func makeParentRouter(_ parent: Container) -> Router {
        let router = Router(container: parent)
        router.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: 1) }
            .identifier("exporter")
            .url("app://export")
            .prepare { exporter, _ in exporter.steps.append("parent's preparation") }
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hello") }.url("app://greeting")
        return router
    }

    @Test func aRouterOverAChildContainerPerformsTheRoutesOfTheRouterOverItsParent() throws {
        let parent = Container()
        let child = withExtendedLifetime(makeParentRouter(parent)) { Router(container: parent.makeChild()) }

        let made = try child.makeDestination(to: RoutableService<any Exporter>())
        let byURL = try child.makeDestination(url: "app://export", as: (any Exporter).self)
        let byIdentifier = try child.makeDestination(identifier: "exporter", as: (any Exporter).self)

        #expect(made.steps == ["parent's preparation"])
        #expect(byURL.steps == ["parent's preparation"])
        #expect(byIdentifier.steps == ["parent's preparation"])
    }

    @Test func aRouterOverAChildContainerSeesRoutesTheParentsRouterRegistersAfterItIsMade() throws {
        let parent = Container()
        let parentRouter = makeParentRouter(parent)
        let child = Router(container: parent.makeChild())
        child.register(RoutableService<any Clock>()) { _ in FixedClock(now: 2) }.url("app://clock")
        #expect(try child.makeDestination(to: RoutableService<any Exporter>()).steps == ["parent's preparation"])

        // Registered on the parent's router after the child's has routed: seen, as a child container
        // sees its parent's later registrations; the child's own route for a protocol stays first.
        parentRouter.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
            .identifier("logger")
            .url("app://logger")
        parentRouter.register(RoutableService<any Clock>()) { _ in FixedClock(now: 9) }.url("app://clock/parent")
        let intercepted = Counter()
        parentRouter.addInterceptor(named: "parent's guard") { _ in
            intercepted.next()
            return .proceed
        }

        #expect(try child.makeDestination(to: RoutableService<any Logger>()) is ConsoleLogger)
        #expect(try child.makeDestination(identifier: "logger", as: Any.self) is ConsoleLogger)
        #expect(try child.makeDestination(url: "app://logger", as: Any.self) is ConsoleLogger)
        #expect(try child.makeDestination(to: RoutableService<any Clock>()).now == 2)
        #expect((try child.makeDestination(url: "app://clock", as: Any.self) as? FixedClock)?.now == 2)
        #expect(try parentRouter.makeDestination(to: RoutableService<any Clock>()).now == 9)
        #expect(intercepted.value == 6)
        let replaced = try #require(
            routingError { _ = try child.makeDestination(url: "app://clock/parent", as: Any.self) }
        )
        #expect(replaced.code == .invalidConfiguration)
        #expect(
            replaced.message
                == "No URL pattern matches the URL \"app://clock/parent\". Patterns for its scheme and host are "
                + "\"app://clock\". Fix: register a pattern that matches it, or correct the URL."
        )
    }

    @Test func aChildRoutersOwnRouteReplacesTheParentsForItsProtocolAndTheParentNeverSeesIt() throws {
        let parent = Container()
        let parentRouter = makeParentRouter(parent)
        let child = Router(container: parent.makeChild())
        child.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: 2) }
            .url("app://export/pdf")
            .prepare { exporter, _ in exporter.steps.append("child's preparation") }

        let childExporter = try child.makeDestination(to: RoutableService<any Exporter>()) as? FileExporter
        let parentExporter = try parentRouter.makeDestination(to: RoutableService<any Exporter>()) as? FileExporter

        #expect(childExporter?.serial == 2)
        #expect(childExporter?.steps == ["child's preparation"])
        #expect(parentExporter?.serial == 1)
        #expect(parentExporter?.steps == ["parent's preparation"])
        // The parent's other routes stay; the replaced one's URL patterns and identifiers go with it.
        #expect((try child.makeDestination(url: "app://greeting", as: Any.self) as? PlainGreeting)?.text == "hello")
        #expect((try child.makeDestination(url: "app://export/pdf", as: Any.self) as? FileExporter)?.serial == 2)
        let replaced = try #require(routingError { _ = try child.makeDestination(url: "app://export", as: Any.self) })
        #expect(replaced.code == .invalidConfiguration)
        #expect(
            replaced.message
                == "No URL pattern matches the URL \"app://export\". Patterns for its scheme and host are "
                + "\"app://export/pdf\". Fix: register a pattern that matches it, or correct the URL."
        )
        let unmatched = try #require(
            routingError { _ = try parentRouter.makeDestination(url: "app://export/pdf", as: Any.self) }
        )
        #expect(unmatched.code == .invalidConfiguration)
        #expect(
            unmatched.message
                == "No URL pattern matches the URL \"app://export/pdf\". Patterns for its scheme and host are "
                + "\"app://export\". Fix: register a pattern that matches it, or correct the URL."
        )
    }

    @Test func validatingAChildRouterChecksTheParentsRoutesWithItsOwn() throws {
        let parent = Container()
        let parentRouter = makeParentRouter(parent)
        let child = withExtendedLifetime(parentRouter) { Router(container: parent.makeChild()) }
        child.register(RoutableService<any Clock>()) { _ in FixedClock() }.identifier("exporter")

        let error = try #require(routingError { _ = try child.validate() })

        #expect(error.code == .validationFailed)
        #expect(
            error.message
                == "Routing validation found 1 problem:\n1. The identifier \"exporter\" names 2 routes: "
                + "RoutableService<Exporter>, RoutableService<Clock>. Fix: give each route an identifier of its own."
        )
    }
}
