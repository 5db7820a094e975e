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

// The snippets of the doc comments of Router's URL and identifier methods (Sources/InjectorRouting/
// Router/Router+URLs.swift), and what the comments say: the route receives the URL's placeholders
// and query items, percent-decoded; a malformed, unmatched or ambiguous URL, or a destination of
// another type, is an invalid configuration quoting the URL; an unknown identifier is an invalid
// protocol, a shared one an invalid configuration. The snippets' `NoteViewer` is the fixtures' one,
// routed as a `Viewer`.

private struct Settings {}

extension RoutableService where Protocol == Settings {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// A router with the note viewer's route, under a URL pattern and an identifier.
private func makeRouter() -> Router {
    let router = Router(container: Container())
    router.register(RoutableService<any Viewer>()) { (_, parameters: RouteParameters) in
        NoteViewer(id: try parameters.value("id", as: Int.self), tab: parameters["tab"])
    }
    .url("app://notes/:id")
    .identifier("note-viewer")
    return router
}

/// The identifier snippet, at file scope, where its line fits as the comment writes it.
private func viewerByIdentifier(router: Router) throws -> NoteViewer {
    let viewer = try router.makeDestination(identifier: "note-viewer", parameters: ["id": "42"], as: NoteViewer.self)
    return viewer
}

@Suite struct RouterURLsDocTests {
    @Test func aURLMakesItsRoutesDestinationWithThePlaceholdersAndQueryItems() throws {
        let router = makeRouter()

        let viewer = try router.makeDestination(url: "app://notes/42?tab=info", as: NoteViewer.self)

        #expect(viewer.id == 42)
        #expect(viewer.tab == "info")
        let decoded = try router.makeDestination(url: "app://notes/7?tab=n%C3%B6tes%20x", as: NoteViewer.self)
        #expect(decoded.tab == "nötes x")
    }

    @Test func anUnmatchedAmbiguousOrMalformedURLIsAnInvalidConfigurationQuotingIt() throws {
        let router = makeRouter()
        router.register(RoutableService<Settings>()) { _ in Settings() }.url("app://notes/:name")

        let unmatched = routingError { _ = try router.makeDestination(url: "app://tags/4", as: NoteViewer.self) }
        let ambiguous = routingError { _ = try router.makeDestination(url: "app://notes/4", as: Any.self) }
        let malformed = routingError { _ = try router.makeDestination(url: "app://notes/%zz", as: Any.self) }

        #expect(unmatched?.code == .invalidConfiguration)
        #expect(
            unmatched?.message
                == "No URL pattern matches the URL \"app://tags/4\". Fix: register a pattern that matches it, or "
                + "correct the URL."
        )
        #expect(ambiguous?.code == .invalidConfiguration)
        #expect(
            ambiguous?.message
                == "The URL \"app://notes/4\" matches 2 equally specific patterns: \"app://notes/:id\" and "
                + "\"app://notes/:name\". Fix: make one of them more specific (a literal segment beats a placeholder, "
                + "and a placeholder beats \"*\"), or remove all but one."
        )
        #expect(malformed?.code == .invalidConfiguration)
        #expect(
            malformed?.message
                == "The URL \"app://notes/%zz\" has invalid percent-encoding in \"%zz\". Fix: write \"%\" followed by "
                + "two hexadecimal digits of a UTF-8 byte, and a literal \"%\" as %25."
        )
    }

    @Test func aDestinationOfAnotherTypeThanAskedIsAnInvalidConfiguration() throws {
        let router = makeRouter()

        let error = routingError { _ = try router.makeDestination(url: "app://notes/4", as: Settings.self) }

        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.message
                == "The route for RoutableService<Viewer> for \"app://notes/4\" made a NoteViewer, not a Settings as "
                + "asked. Fix: ask for the route's protocol (as: Viewer.self), or for Any."
        )
    }

    @Test func anIdentifierMakesItsRoutesDestinationWithTheGivenParameters() throws {
        let viewer = try viewerByIdentifier(router: makeRouter())

        #expect(viewer.id == 42)
        #expect(viewer.tab == nil)
    }

    @Test func anUnknownIdentifierIsAnInvalidProtocolAndASharedOneAnInvalidConfiguration() throws {
        let router = makeRouter()
        let unknown = routingError { _ = try router.makeDestination(identifier: "editor", as: NoteViewer.self) }
        router.register(RoutableService<Settings>()) { _ in Settings() }.identifier("note-viewer")
        let shared = routingError { _ = try viewerByIdentifier(router: router) }

        #expect(unknown?.code == .invalidProtocol)
        #expect(
            unknown?.message
                == "No route is registered for the identifier \"editor\". Registered identifiers: \"note-viewer\". "
                + "Fix: add .identifier(\"editor\") to the route's registration, or list it in its route type's "
                + "identifiers."
        )
        #expect(shared?.code == .invalidConfiguration)
        #expect(
            shared?.message
                == "The identifier \"note-viewer\" names 2 routes: RoutableService<Viewer>, RoutableService<Settings>. "
                + "Fix: give each route an identifier of its own."
        )
    }
}
