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

// The snippet of Router/validate()'s doc comment (Sources/InjectorRouting/Router/
// Router+Validation.swift), a test of the routes written as the comment writes it, and what the
// comment says: every problem is reported at once (a malformed pattern, a shared identifier, an
// adapter chain that ends at no route, what the container finds), the container's with its
// InjectionError underneath; a route that needs parameters is listed as unchecked instead.

private protocol ValidationDocStore: Sendable {}
private struct ValidationDocViewer { let id: Int }
private struct ValidationDocPanel {}

extension RoutableService where Protocol == ValidationDocViewer {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == ValidationDocPanel {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// The app's routes: a viewer that needs its URL's `id`, and the fixtures' time source.
private func makeRouter() -> Router {
    let router = Router(container: Container())
    router.container.register((any Clock).self) { _ in FixedClock() }
    router.register(RoutableService<any TimeSource>()) { r in SystemTime(clock: try r.resolve((any Clock).self)) }
    router.register(RoutableService<ValidationDocViewer>()) { (_, parameters: RouteParameters) in
        ValidationDocViewer(id: try parameters.value("id", as: Int.self))
    }
    .url("app://notes/:id")
    return router
}

@Suite struct RouterValidationDocTests {
    @Test func routesAreComplete() throws {
        try makeRouter().validate()
    }

    @Test func aRouteThatNeedsParametersIsListedAsUnchecked() throws {
        let report = try makeRouter().validate()

        #expect(report.routesNeedingParameters.map(\.description) == ["ValidationDocViewer"])
        #expect(report.description.hasPrefix("ValidationDocViewer: needs route parameters"))
    }

    @Test func everyProblemIsReportedAtOnceTheContainersWithItsInjectionErrorUnderneath() throws {
        let router = makeRouter()
        router.register(RoutableService<ValidationDocPanel>()) { r in
            _ = try r.resolve((any ValidationDocStore).self)
            return ValidationDocPanel()
        }
        .identifier("panel")
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }.identifier("panel")
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hi") }.url("app://greet/:")
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())

        let error = routingError { try router.validate() }

        #expect(error?.code == .validationFailed)
        let problems = error?.problems ?? []
        #expect(problems.count == 4)
        #expect(
            problems.map(\.code) == [
                .invalidConfiguration, .invalidConfiguration, .invalidProtocol, .invalidConfiguration,
            ]
        )
        let pattern =
            "The URL pattern \"app://greet/:\" has a \":\" without a placeholder name after it. Fix: name the "
            + "placeholder, as in \":id\", or write a literal colon as %3A."
        let identifier =
            "The identifier \"panel\" names 2 routes: RoutableService<ValidationDocPanel>, "
            + "RoutableService<Exporter>. Fix: give each route an identifier of its own."
        let adapter =
            "RoutableService<NoteLogging> is adapted to RoutableService<Logger> (NoteLogging -> Logger), which has "
            + "no route. Registered routes: RoutableService<Exporter>, RoutableService<Greeting>, "
            + "RoutableService<TimeSource>, RoutableService<ValidationDocPanel>, RoutableService<ValidationDocViewer>. "
            + "Fix: register a route for the chain's end with router.register(RoutableService<Logger>(), …), or adapt "
            + "it to a protocol that has one."
        let container =
            "No registration for ValidationDocStore, needed by ValidationDocPanel -> ValidationDocStore (missing). "
            + "Nothing is registered for ValidationDocStore under any name or arguments. Fix: register it, e.g. "
            + "container.register(ValidationDocStore.self) { r in … }, in this container or one of its parents. "
            + "(Reported by container.validate().)"
        #expect(problems.map(\.message) == [pattern, identifier, adapter, container])
        #expect(problems.contains { $0.underlyingError is InjectionError })
        #expect(
            error?.message
                == "Routing validation found 4 problems:\n1. \(pattern)\n2. \(identifier)\n3. \(adapter)\n"
                + "4. \(container)"
        )
    }
}
