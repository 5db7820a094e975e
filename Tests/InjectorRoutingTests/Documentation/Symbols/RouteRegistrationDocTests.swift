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

// The swift block of RouteRegistration's doc comment, verbatim: a route registered with an
// identifier, a URL pattern, a preparation and an event handler, each checked. The fixtures have a
// `NoteViewer` of their own, so the comment's lives in the namespace below; what the snippet prints
// is captured by this file's `print`.

/// The doc comment's types, and its tests.
enum RouteRegistrationDoc {
    fileprivate protocol NoteViewer: Sendable {
        var id: Int { get }
        var highlight: String? { get set }
    }
    fileprivate struct StoreNoteViewer: NoteViewer {
        let id: Int
        var highlight: String?
    }
    fileprivate struct NotesDidSync: RouteEvent { let changed: [Int] }
}

extension RoutableService where Protocol == any RouteRegistrationDoc.NoteViewer {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// Another route's destination, of the fixtures' `Viewer`, outside the namespace whose `NoteViewer`
/// hides the fixtures' one.
private func fixtureViewer() -> any Viewer { NoteViewer(id: 1, tab: nil) }

/// What the snippet prints, in this file.
private let printed = EventLog()
private func print(_ items: Any...) { printed.record(items.map { "\($0)" }.joined(separator: " ")) }

extension RouteRegistrationDoc {
    @Suite(.serialized)
    struct RouteRegistrationDocTests {
        private func makeRouter() -> Router {
            let router = Router(container: Container())
            router.register(RoutableService<NoteViewer>()) { (r, parameters: RouteParameters) in
                try StoreNoteViewer(id: parameters.value("id", as: Int.self))
            }
            .identifier("note-viewer")
            .url("app://notes/:id")
            .prepare { viewer, context in viewer.highlight = context.parameters["q"] }
            .onEvent(NotesDidSync.self) { event in print("synced", event.changed) }
            return router
        }

        @Test func theRouteIsPerformedByItsIdentifierAndPreparedWithItsParameters() throws {
            let router = makeRouter()
            let viewer = try router.makeDestination(
                identifier: "note-viewer",
                parameters: ["id": "3", "q": "milk"],
                as: (any NoteViewer).self
            )
            #expect(viewer.id == 3)
            #expect(viewer.highlight == "milk")
        }

        @Test func theRouteIsPerformedByURLsThatMatchItsPattern() throws {
            let router = makeRouter()
            let viewer = try router.makeDestination(url: "app://notes/42?q=eggs", as: (any NoteViewer).self)
            #expect(viewer.id == 42)
            #expect(viewer.highlight == "eggs")
        }

        @Test func twoRoutesWithOneIdentifierFailItsLookUpWithInvalidConfigurationNamingBoth() throws {
            let router = makeRouter()
            router.register(RoutableService<any Viewer>()) { _ in fixtureViewer() }.identifier("note-viewer")

            let error = try #require(
                routingError { _ = try router.makeDestination(identifier: "note-viewer", as: Any.self) }
            )
            #expect(error.code == .invalidConfiguration)
            #expect(
                error.message
                    == "The identifier \"note-viewer\" names 2 routes: RoutableService<NoteViewer>, "
                    + "RoutableService<Viewer>. Fix: give each route an identifier of its own."
            )
        }

        @Test func theRouteHandlesTheEventsSentToTheRouter() {
            printed.clear()
            let router = makeRouter()
            #expect(router.send(NotesDidSync(changed: [4, 7])) == 1)
            #expect(printed.entries == ["synced [4, 7]"])
        }
    }
}
