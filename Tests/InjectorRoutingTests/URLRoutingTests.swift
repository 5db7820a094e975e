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

/// Routing by URL and identifier through a router: the URL layer's matching is pinned in
/// URLTrieTests; these pin what a router does with it.
@Suite struct URLRoutingTests {
    private func makeRouter(log: EventLog = EventLog()) -> Router {
        let router = Router(container: Container())
        router.register(RoutableService<any Viewer>()) { (_, parameters: RouteParameters) in
            NoteViewer(
                id: try parameters.value("id", as: Int.self),
                tab: try parameters.valueIfPresent("tab", as: String.self)
            )
        }
        .url("app://notes/:id")
        .identifier("viewer")
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .url("app://notes/:id/export")
            .prepare { exporter, context in exporter.format = context.parameters["format"] ?? "text" }
        router.globalErrorHandler = { action, error in log.record("global \(action) \(error.code)") }
        return router
    }

    @Test func aURLsPlaceholdersAndQueryItemsReachTheRouteAsTypedValues() throws {
        let router = makeRouter()

        let viewer = try router.makeDestination(url: "app://notes/42?tab=info%20panel", as: (any Viewer).self)

        #expect(viewer.id == 42)
        #expect((viewer as? NoteViewer)?.tab == "info panel")
    }

    @Test func everyURLCallHandsTheSameParametersToTheRoute() throws {
        let router = makeRouter()

        let made = try router.makeDestination(url: "app://notes/7", as: Any.self) as? NoteViewer
        let performed = try router.perform(url: "app://notes/8", as: (any Viewer).self)
        let later = try router.to(url: "app://notes/9", as: Any.self)
        let keeper = Keeper<Any>()
        try later.perform(successHandler: { keeper.keep($0) })
        let byIdentifier = try router.makeDestination(
            identifier: "viewer",
            parameters: ["id": "10"],
            as: (any Viewer).self
        )

        #expect(made?.id == 7)
        #expect(performed.destination?.id == 8)
        #expect((keeper.kept.first as? NoteViewer)?.id == 9)
        #expect(byIdentifier.id == 10)
    }

    @Test func theRoutesHooksSeeTheURLsParameters() throws {
        let router = makeRouter()

        let exporter = try router.makeDestination(url: "app://notes/3/export?format=pdf", as: (any Exporter).self)

        #expect(exporter.format == "pdf")
    }

    @Test func anUnmatchedURLIsInvalidConfigurationQuotingIt() throws {
        let log = EventLog()
        let router = makeRouter(log: log)

        let error = try #require(routingError { _ = try router.perform(url: "app://settings") })

        #expect(error.code == .invalidConfiguration)
        #expect(error.action == .performRoute)
        #expect(
            error.message == "No URL pattern matches the URL \"app://settings\". Fix: register a pattern that matches "
                + "it, or correct the URL."
        )
        #expect(log.entries == ["global performRoute invalidConfiguration"])
    }

    @Test func aPerformWhoseURLFindsNoRouteTellsTheCallersHandlers() throws {
        let log = EventLog()
        let router = makeRouter(log: log)

        _ = routingError {
            _ = try router.perform(url: "app://nowhere") { config in
                config.errorHandler = { action, error in log.record("error \(action) \(error.code)") }
                config.completionHandler = { _, _ in log.record("completion") }
                config.performerErrorHandler = { _, _ in log.record("performer error") }
            }
        }

        #expect(
            log.entries == [
                "error performRoute invalidConfiguration", "completion", "performer error",
                "global performRoute invalidConfiguration",
            ]
        )
    }

    @Test func aMalformedURLIsInvalidConfigurationQuotingIt() throws {
        let router = makeRouter()

        let error = try #require(routingError { _ = try router.makeDestination(url: "notes/42", as: Any.self) })

        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("The URL \"notes/42\" "))
        #expect(error.message.contains("Fix: "))
    }

    @Test func twoEquallySpecificPatternsMakeTheURLAmbiguous() throws {
        let router = makeRouter()
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hi") }
            .url("app://notes/:slug")

        let error = try #require(routingError { _ = try router.makeDestination(url: "app://notes/5", as: Any.self) })

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The URL \"app://notes/5\" matches 2 equally specific patterns: \"app://notes/:id\" and "
                + "\"app://notes/:slug\". Fix: make one of them more specific (a literal segment beats a placeholder, "
                + "and a placeholder beats \"*\"), or remove all but one."
        )
    }

    @Test func aMissingParameterNamesItAndTheURL() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Viewer>()) { (_, parameters: RouteParameters) in
            NoteViewer(id: try parameters.value("id", as: Int.self), tab: nil)
        }
        .url("app://viewer")

        let error = try #require(
            routingError { _ = try router.makeDestination(url: "app://viewer?tab=x", as: Any.self) }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "RoutableService<Viewer> needs the parameter \"id\" (an Int), which \"app://viewer?tab=x\" does not give; given: "
                + "tab. Fix: add it to the URL (a :id placeholder or ?id=…) or to the parameters."
        )
    }

    @Test func aMistypedParameterNamesItsValueAndType() throws {
        let router = makeRouter()

        let error = try #require(
            routingError { _ = try router.makeDestination(url: "app://notes/forty-two", as: Any.self) }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The parameter \"id\" of \"app://notes/forty-two\" is \"forty-two\", which is not an Int. Fix: pass "
                + "an Int there."
        )
        #expect(error.injectionError?.code == .factoryFailed)
    }

    @Test(arguments: [
        ("42", true), ("-7", true), ("1.5", true), ("+2.5", true), ("1e3", true), ("nan", false), ("inf", false),
        ("-infinity", false), ("x", false), ("0x10", false), ("0x1p4", false), ("", false),
    ])
    func aDoubleParameterIsAFiniteDecimalNumber(text: String, accepted: Bool) throws {
        let parameters = RouteParameters(["ratio": text], source: "app://zoom")
        #expect(((try? parameters.value("ratio", as: Double.self)) != nil) == accepted)
        if !accepted {
            let error = try #require(routingError { _ = try parameters.value("ratio", as: Double.self) })
            #expect(
                error.message
                    == "The parameter \"ratio\" of \"app://zoom\" is \"\(text)\", which is not a Double. Fix: pass a "
                    + "Double there."
            )
        }
    }

    @Test func askingForTheWrongTypeIsInvalidConfiguration() throws {
        let router = makeRouter()

        let error = try #require(
            routingError { _ = try router.makeDestination(url: "app://notes/1", as: (any Exporter).self) }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The route for RoutableService<Viewer> for \"app://notes/1\" made a NoteViewer, not an Exporter as "
                + "asked. Fix: ask for the route's protocol (as: Viewer.self), or for Any."
        )
    }

    @Test func anUnknownIdentifierIsInvalidProtocolListingTheKnownOnes() throws {
        let router = makeRouter()

        let error = try #require(routingError { _ = try router.to(identifier: "editor", as: Any.self) })

        #expect(error.code == .invalidProtocol)
        #expect(
            error.message
                == "No route is registered for the identifier \"editor\". Registered identifiers: \"viewer\". Fix: add "
                + ".identifier(\"editor\") to the route's registration, or list it in its route type's identifiers."
        )
    }

    @Test func anIdentifierOfTwoRoutesIsAmbiguousAndValidationSaysSo() throws {
        let router = makeRouter()
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hi") }
            .identifier("viewer")

        let error = try #require(routingError { _ = try router.makeDestination(identifier: "viewer", as: Any.self) })
        let validation = try #require(routingError { try router.validate() })

        let expected =
            "The identifier \"viewer\" names 2 routes: RoutableService<Viewer>, RoutableService<Greeting>. Fix: give "
            + "each route an identifier of its own."
        #expect(error.code == .invalidConfiguration)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func patternsOfTwoRoutesThatMatchTheSameURLsEquallyAreReportedByValidation() throws {
        let router = makeRouter()
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hi") }
            .url("app://notes/:slug")

        let error = try #require(routingError { try router.validate() })

        #expect(error.problems.count == 1)
        #expect(
            error.problems.first?.message
                == "The URL patterns \"app://notes/:id\" (RoutableService<Viewer>) and \"app://notes/:slug\" "
                + "(RoutableService<Greeting>) match the same URLs equally, so every such URL would fail as ambiguous. "
                + "Fix: make one of them more specific, or give them different literal segments."
        )
    }

    @Test func twoPatternsOfOneRouteThatMatchTheSameURLsEquallyAreReportedByValidation() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hi") }
            .url("app://greetings/:id")
            .url("app://greetings/:greetingID")

        let lookUp = try #require(
            routingError { _ = try router.makeDestination(url: "app://greetings/7", as: Any.self) }
        )
        let error = try #require(routingError { try router.validate() })

        #expect(lookUp.message.contains("matches 2 equally specific patterns"), "every matching URL fails")
        #expect(error.code == .validationFailed)
        #expect(
            error.problems.map(\.message) == [
                "The URL patterns \"app://greetings/:id\" (RoutableService<Greeting>) and \"app://greetings/:greetingID\" "
                    + "(RoutableService<Greeting>) match the same URLs equally, so every such URL would fail as "
                    + "ambiguous. Fix: make one of them more specific, or give them different literal segments."
            ]
        )
    }

    @Test(arguments: ["app://greetings/:id/", "APP://greetings/:id", "app://Greetings/:id"])
    func anotherSpellingOfAPatternOnTheSameRouteIsThePatternAgain(second: String) throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hi") }
            .url("app://greetings/:id")
            .url(second)

        let greeting = try router.makeDestination(url: "app://greetings/7", as: (any Greeting).self)

        #expect(greeting.text == "hi")
        try router.validate()
    }

    @Test func aMalformedPatternIsReportedByValidation() throws {
        let router = makeRouter()
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hi") }
            .url("notes/:id")

        let error = try #require(routingError { try router.validate() })

        #expect(error.code == .validationFailed)
        #expect(error.problems.count == 1)
        #expect(error.problems[0].code == .invalidConfiguration)
        #expect(error.problems[0].message.hasPrefix("The URL pattern \"notes/:id\" "))
        #expect(error.message.hasPrefix("Routing validation found 1 problem:\n1. The URL pattern \"notes/:id\" "))
    }

    @Test func validationListsRoutesThatNeedParametersAsUnchecked() throws {
        let router = makeRouter()

        let report = try router.validate()

        #expect(report.routesNeedingParameters.map(\.description) == ["Viewer"])
        #expect(report.description == "Viewer: needs route parameters")
    }

    @Test func resolvingARouteThatNeedsParametersWithoutItsRouterSaysWhy() throws {
        let container = Container()
        let router = Router(container: container)
        router.register(RoutableService<any Viewer>()) { (_, parameters: RouteParameters) in
            NoteViewer(id: try parameters.value("id", as: Int.self), tab: nil)
        }

        let error = try #require(injectionError { _ = try container.resolve((any Viewer).self) })

        let routing = try #require(error.underlyingError as? RoutingError)
        #expect(routing.code == .invalidConfiguration)
        #expect(
            routing.message
                == "RoutableService<Viewer> needs the parameter \"id\" (an Int), but its registration was resolved without its "
                + "router (directly from the container, or by the container's validate()), which has no parameters to "
                + "give. Fix: make it through the router (router.makeDestination(url:as:) or "
                + "perform(identifier:parameters:)), and validate with router.validate(), which lists such routes as "
                + "needing parameters."
        )
    }

    @Test func anIdentifierOnlyTheReplacedRouteHadIsNoLongerListedAsRegistered() throws {
        let router = makeRouter()
        router.register(RoutableService<any Viewer>(), replacesExisting: true) { _ in NoteViewer(id: 1, tab: nil) }
            .identifier("reader")

        let error = try #require(routingError { _ = try router.to(identifier: "viewer", as: Any.self) })

        #expect(error.code == .invalidProtocol)
        #expect(
            error.message
                == "No route is registered for the identifier \"viewer\". Registered identifiers: \"reader\". Fix: add "
                + ".identifier(\"viewer\") to the route's registration, or list it in its route type's identifiers."
        )
    }

    @Test func aReplacedRouteForgetsTheIdentifiersAndPatternsOfTheOneItReplaced() throws {
        let router = makeRouter()
        router.register(RoutableService<any Viewer>(), replacesExisting: true) { (_, parameters: RouteParameters) in
            NoteViewer(id: -(try parameters.value("id", as: Int.self)), tab: nil)
        }
        .url("app://notes/:id")
        .identifier("viewer")

        let viewer = try router.makeDestination(url: "app://notes/4", as: (any Viewer).self)
        let byIdentifier = try router.makeDestination(
            identifier: "viewer",
            parameters: ["id": "5"],
            as: (any Viewer).self
        )

        #expect(viewer.id == -4)
        #expect(byIdentifier.id == -5)
        try router.validate()
    }

    @Test func anIdentifierOrPatternGivenTwiceForOneRouteIsNotAmbiguous() throws {
        let router = makeRouter()
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hi") }
            .identifier("greeting").identifier("greeting")
            .url("app://greeting").url("app://greeting")

        #expect((try router.makeDestination(identifier: "greeting", as: Any.self) as? PlainGreeting)?.text == "hi")
        #expect((try router.makeDestination(url: "app://greeting", as: Any.self) as? PlainGreeting)?.text == "hi")
    }

    @Test func interceptorsSeeTheURLAndItsParameters() throws {
        let router = makeRouter()
        let seen = EventLog()
        router.addInterceptor(named: "audit") { request in
            seen.record("\(request.url ?? "-") id=\(request.parameters["id"] ?? "-")")
            return .proceed
        }

        _ = try router.makeDestination(url: "app://notes/5?tab=x", as: Any.self)

        #expect(seen.entries == ["app://notes/5?tab=x id=5"])
    }
    /// A route's parameters reach its factory out of the container's sight, so the container cannot
    /// refuse a shared scope as it does for resolve-time arguments: a scoped route taking parameters
    /// must not hand the destination built from one URL's parameters to a call with another's.
    /// Parameters reach the factory out of the container's sight: a shared destination built from
    /// one call's parameters would answer every later call, whatever its own.
    @Test func aSharedRouteGivenParametersIsRefused() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Viewer>(), scope: .scoped) { (_, parameters: RouteParameters) in
            NoteViewer(id: try parameters.value("id", as: Int.self), tab: nil)
        }
        .url("app://notes/:id")
        let request = router.container.makeScope()
        defer { try? request.close() }

        let error = try #require(
            routingError {
                _ = try router.resolving(in: request).makeDestination(url: "app://notes/1", as: (any Viewer).self)
            }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "RoutableService<Viewer> (the route registered at InjectorRoutingTests/URLRoutingTests.swift:391) "
                + "was given the parameters [id=1] from \"app://notes/1\", but it is a scoped registration: the "
                + "container shares its destination, which would be built from the first call's parameters and handed "
                + "to every later call, whatever theirs. Fix: register the route .transient (or .graph), or pass it "
                + "no parameters."
        )
    }
}
