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

// The snippet of RouteParameters' doc comment (Sources/InjectorRouting/Parameters/
// RouteParameters.swift), and what it says: a route reads the URL's placeholders and query items as
// typed values, and receives the same parameters whichever API performed it. The routing tests'
// fixtures have a `NoteViewer` of their own, so the snippet's lives in the namespace below.

/// The snippet's types, and the tests.
enum RouteParametersDocs {
    fileprivate protocol NoteStore: Sendable { var name: String { get } }
    fileprivate struct MemoryNoteStore: NoteStore { let name = "memory" }
    fileprivate struct NoteViewer {
        let id: Int
        let store: any NoteStore
    }
}

extension RoutableService where Protocol == RouteParametersDocs.NoteViewer {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension RouteParametersDocs {
    @Suite struct RouteParametersDocTests {
        @Test func aRouteReadsTheURLsPlaceholderAsATypedValueAndSeesItsQueryItems() throws {
            let container = Container()
            container.register((any NoteStore).self) { _ in MemoryNoteStore() }
            let router = Router(container: container)
            let seen = EventLog()
            router.addInterceptor(named: "log") { request in
                seen.record(request.parameters.description)
                return .proceed
            }

            router.register(RoutableService<NoteViewer>()) { (r, parameters: RouteParameters) in
                NoteViewer(id: try parameters.value("id", as: Int.self), store: try r.resolve(NoteStore.self))
            }
            .url("app://notes/:id")
            .identifier("note-viewer")

            let viewer = try router.makeDestination(url: "app://notes/42?tab=info", as: NoteViewer.self)

            #expect(viewer.id == 42)
            #expect(viewer.store.name == "memory")
            #expect(seen.entries == ["[id=42, tab=info] from \"app://notes/42?tab=info\""])

            // The same parameters, by identifier.
            let byIdentifier = try router.makeDestination(
                identifier: "note-viewer",
                parameters: ["id": "42", "tab": "info"],
                as: NoteViewer.self
            )
            #expect(byIdentifier.id == 42)
        }

        @Test func aMissingOrMistypedParameterIsAnInvalidConfigurationQuotingTheURL() throws {
            let parameters = RouteParameters(["id": "forty-two"], source: "app://notes/forty-two")

            let mistyped = routingError { _ = try parameters.value("id", as: Int.self) }
            let missing = routingError { _ = try parameters.value("tab", as: String.self) }

            #expect(mistyped?.code == .invalidConfiguration)
            #expect(
                mistyped?.message
                    == "The parameter \"id\" of \"app://notes/forty-two\" is \"forty-two\", which is not an Int. "
                    + "Fix: pass an Int there."
            )
            #expect(missing?.code == .invalidConfiguration)
            #expect(
                missing?.message
                    == "The route needs the parameter \"tab\" (a String), which \"app://notes/forty-two\" does not give; "
                    + "given: id. Fix: add it to the URL (a :tab placeholder or ?tab=…) or to the parameters."
            )
            #expect(try parameters.valueIfPresent("tab", as: String.self) == nil)
        }
    }
}
