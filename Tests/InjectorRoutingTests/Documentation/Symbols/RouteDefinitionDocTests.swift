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

// The swift blocks of RouteDefinition's doc comments, verbatim, and what the comments say of a
// route written as a type. The fixtures have an `Editor` and a `NoteEditor` of their own, so the
// comments' live in the namespace below.

/// The doc comments' types, and their tests.
enum RouteDefinitionDoc {
    fileprivate protocol Editor: AnyObject { var id: Int { get } }
    fileprivate final class NoteStore: Sendable {
        let isOpen: Bool
        init(isOpen: Bool) { self.isOpen = isOpen }
    }
    fileprivate final class NoteEditor: Editor {
        let id: Int
        let store: NoteStore
        var autosave = false
        init(id: Int, store: NoteStore) {
            self.id = id
            self.store = store
        }
    }
    fileprivate enum EditorError: Error { case storeClosed }

    fileprivate struct EditorRoute: RouteDefinition {
        var urlPatterns: [String] { ["app://notes/:id/edit"] }

        func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> NoteEditor {
            try NoteEditor(id: parameters.value("id", as: Int.self), store: resolver.resolve(NoteStore.self))
        }

        func prepare(_ editor: inout NoteEditor, context: RouteContext) throws {
            editor.autosave = true
        }

        func verify(_ editor: NoteEditor, context: RouteContext) throws {
            guard editor.store.isOpen else { throw EditorError.storeClosed }
        }
    }

    fileprivate struct NotesDidSync: RouteEvent { let changedIDs: [Int] }
    fileprivate final class NoteCache: Sendable {
        let invalidated = EventLog()
        func invalidate(_ ids: [Int]) { invalidated.record("\(ids)") }
    }
    fileprivate struct SyncingEditorRoute: RouteDefinition {
        let cache: NoteCache
        func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> NoteEditor {
            NoteEditor(id: 0, store: NoteStore(isOpen: true))
        }

        func handleEvents(_ events: inout RouteEventHandlers) {
            events.on(NotesDidSync.self) { event in cache.invalidate(event.changedIDs) }
        }
    }
}

extension RoutableService where Protocol == any RouteDefinitionDoc.Editor {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension RouteDefinitionDoc {
    struct RouteDefinitionDocTests {
        private func makeRouter(storeIsOpen: Bool) -> Router {
            let container = Container()
            container.register(NoteStore.self) { _ in NoteStore(isOpen: storeIsOpen) }
            let router = Router(container: container)

            router.register(RoutableService<Editor>(), route: EditorRoute())
            return router
        }

        @Test func theRouteMakesItsDestinationFromTheURLsParametersAndTheContainerThenPreparesIt() throws {
            let router = makeRouter(storeIsOpen: true)
            let route = try router.perform(url: "app://notes/42/edit", as: (any Editor).self)
            #expect(route.state == .routed)
            let editor = try #require(
                router.makeDestination(url: "app://notes/42/edit", as: (any Editor).self) as? NoteEditor
            )
            #expect(editor.id == 42)
            #expect(editor.store.isOpen)
            #expect(editor.autosave)
        }

        @Test func aThrowingVerifyFailsThePerformWithInvalidConfigurationAndTheErrorsText() throws {
            let router = makeRouter(storeIsOpen: false)
            let error = try #require(
                routingError { _ = try router.perform(url: "app://notes/42/edit", as: (any Editor).self) }
            )
            #expect(error.code == .invalidConfiguration)
            #expect(
                error.message
                    == "The destination of RoutableService<Editor> (EditorRoute) is not ready: its verify check threw: "
                    + "storeClosed. Fix: give it what the check asks for, in the configuration's prepareDestination "
                    + "or the route's prepare hook."
            )
        }

        @Test func theRoutesEventHandlersAreToldOfTheEventsSentToTheRouter() {
            let cache = NoteCache()
            let router = Router(container: Container())
            router.register(RoutableService<any Editor>(), route: SyncingEditorRoute(cache: cache))

            #expect(router.send(NotesDidSync(changedIDs: [4, 7])) == 1)
            #expect(cache.invalidated.entries == ["[4, 7]"])
        }
    }
}
