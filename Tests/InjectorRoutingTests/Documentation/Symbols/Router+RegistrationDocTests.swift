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

// The snippets of the doc comments of Router's registration methods (Sources/InjectorRouting/Router/
// Router+Registration.swift), and what the comments say of routes: a route is a registration of its
// protocol in the container; a route with parameters gets empty ones when performed by protocol; a
// route type's destination must conform; a module's configuration is made fresh for every perform;
// adapters serve a required protocol with a provided one's route. The routing tests' fixtures have a
// `NoteViewer`, an `Editor` and an `EditorModule` of their own, so the snippets' live in the
// namespace below; the registration snippet uses the fixtures' `Clock` and `SystemTime`.

private protocol TimeService: Sendable { var now: Int { get } }
extension SystemTime: TimeService {}

extension RoutableService where Protocol == TimeService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// The snippets' types, and the tests.
enum RegistrationDocs {
    fileprivate protocol NoteStore: Sendable { var name: String { get } }
    fileprivate struct MemoryNoteStore: NoteStore { let name = "memory" }
    fileprivate struct NoteViewer {
        let id: Int
        let store: any NoteStore
    }

    fileprivate protocol Editor: AnyObject { var title: String { get } }
    fileprivate final class NoteEditor: Editor {
        let title: String
        init(title: String) { self.title = title }
    }
    fileprivate struct EditorRoute: RouteDefinition {
        func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> NoteEditor {
            NoteEditor(title: try resolver.resolve((any NoteStore).self).name)
        }
    }
    fileprivate struct Draft {}
    fileprivate struct DraftRoute: RouteDefinition {
        func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> Draft { Draft() }
    }

    fileprivate struct Note { let text: String }
    fileprivate struct ReadingEditor {
        let note: Note
        let readOnly: Bool
        let configuration: Int
    }
    fileprivate protocol EditorModule {
        func makeDestinationWith(_ note: Note, readOnly: Bool) throws -> ReadingEditor
    }
    fileprivate final class EditorModuleConfiguration: EditorModule {
        private static let serials = Counter()
        let store: any NoteStore
        let serial = EditorModuleConfiguration.serials.next()
        init(store: any NoteStore) { self.store = store }
        func makeDestinationWith(_ note: Note, readOnly: Bool) throws -> ReadingEditor {
            ReadingEditor(note: note, readOnly: readOnly, configuration: serial)
        }
    }
}

extension RoutableService where Protocol == RegistrationDocs.NoteViewer {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any RegistrationDocs.Editor {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableServiceModule where Protocol == any RegistrationDocs.EditorModule {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension RegistrationDocs {
    @Suite struct RouterRegistrationDocTests {
        private func storeContainer() -> Container {
            let container = Container()
            container.register((any NoteStore).self) { _ in MemoryNoteStore() }
            return container
        }

        @Test func aRouteIsARegistrationOfItsProtocolWithTheScopeAsked() throws {
            let container = Container()
            container.register((any Clock).self) { _ in FixedClock(now: 4) }
            let router = Router(container: container)

            router.register(RoutableService<TimeService>(), scope: .singleton) { r in
                SystemTime(clock: try r.resolve(Clock.self))
            }

            let time = try router.makeDestination(to: RoutableService<TimeService>())
            #expect(time.now == 4)
            #expect(try container.resolve((any TimeService).self) as AnyObject === time as AnyObject)
        }

        @Test func aRouteIsTransientByDefault() throws {
            let router = Router(container: Container())
            router.register(RoutableService<any Editor>()) { _ in NoteEditor(title: "a") }

            let first = try router.makeDestination(to: RoutableService<any Editor>())
            let second = try router.makeDestination(to: RoutableService<any Editor>())

            #expect(first !== second)
        }

        @Test func aRouteWithParametersReadsThemFromTheURLAndGetsNoneWhenPerformedByProtocol() throws {
            let router = Router(container: storeContainer())

            router.register(RoutableService<NoteViewer>()) { (r, parameters: RouteParameters) in
                NoteViewer(id: try parameters.value("id", as: Int.self), store: try r.resolve(NoteStore.self))
            }
            .url("app://notes/:id")

            let viewer = try router.makeDestination(url: "app://notes/42", as: NoteViewer.self)
            #expect(viewer.id == 42)
            #expect(viewer.store.name == "memory")

            let error = routingError { _ = try router.makeDestination(to: RoutableService<NoteViewer>()) }
            #expect(error?.code == .invalidConfiguration)
            #expect(
                error?.message
                    == "RoutableService<NoteViewer> needs the parameter \"id\" (an Int), which the call does not give; "
                    + "given: none. Fix: perform it by URL or identifier with the parameter, or give the route a "
                    + "default for it."
            )
        }

        @Test func aRouteTypeMakesItsDestinationThroughTheContainer() throws {
            let router = Router(container: storeContainer())

            router.register(RoutableService<Editor>(), route: EditorRoute())

            #expect(try router.makeDestination(to: RoutableService<any Editor>()).title == "memory")
        }

        @Test func aRouteTypeWhoseDestinationDoesNotConformFailsEachPerformAndValidation() throws {
            let container = Container()
            let router = Router(container: container)
            router.register(RoutableService<any Editor>(), route: DraftRoute())

            for _ in 0..<2 {
                let error = routingError { _ = try router.makeDestination(to: RoutableService<any Editor>()) }
                #expect(error?.code == .invalidConfiguration)
                #expect(
                    error?.message
                        == "DraftRoute made a Draft, which does not conform to Editor, the protocol it is registered "
                        + "for (RoutableService<Editor>). Fix: make the route's Destination conform: extension Draft: "
                        + "Editor {}."
                )
            }
            let validated = injectionError { try container.validate() }
            #expect(validated?.code == .validationFailed)
            #expect(
                validated?.message
                    == "Validation found 1 problem:\n- The route DraftRoute of Editor threw: DraftRoute made a Draft, "
                    + "which does not conform to Editor, the protocol it is registered for (RoutableService<Editor>). "
                    + "Fix: make the route's Destination conform: extension Draft: Editor {}. The error is the "
                    + "underlyingError."
            )
        }

        @Test func aModuleRouteMakesAFreshConfigurationForEveryPerform() throws {
            let router = Router(container: storeContainer())
            let note = Note(text: "groceries")

            router.register(RoutableServiceModule<EditorModule>()) { r in
                EditorModuleConfiguration(store: try r.resolve(NoteStore.self))
            }
            let editor = try router.makeDestination(to: RoutableServiceModule<EditorModule>()) {
                try $0.makeDestinationWith(note, readOnly: true)
            }

            #expect(editor.note.text == "groceries")
            #expect(editor.readOnly)
            let again = try router.makeDestination(to: RoutableServiceModule<EditorModule>()) {
                try $0.makeDestinationWith(note, readOnly: false)
            }
            #expect(again.configuration != editor.configuration)
        }
    }
}

// The adapter snippet's `extension ConsoleLogger: NoteLogging {}` cannot be written here: the
// fixtures' ConsoleLogger conforms to their NoteLogging already. What the comment says of adapters,
// with the fixtures' types:
@Suite struct RouterRegistrationAdapterDocTests {
    @Test func anAdapterServesTheRequiredProtocolWithTheProvidedRoutesDestination() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }

        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())
        let logging = try router.makeDestination(to: RoutableService<any NoteLogging>())

        #expect(logging.log("saved") == "console: saved")
    }

    @Test func adaptersChainAndALoopFailsAsACycleNamingIt() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
        router.adapt(RoutableService<any AuditLogging>(), to: RoutableService<any NoteLogging>())
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())
        #expect(try router.makeDestination(to: RoutableService<any AuditLogging>()).log("x") == "console: x")

        let looping = Router(container: Container())
        looping.adapt(RoutableService<any AuditLogging>(), to: RoutableService<any NoteLogging>())
        looping.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any AuditLogging>())
        let error = routingError { _ = try looping.makeDestination(to: RoutableService<any AuditLogging>()) }
        #expect(error?.code == .cycle)
        #expect(
            error?.message
                == "Adapters lead back to themselves: AuditLogging -> NoteLogging -> AuditLogging (asked for "
                + "RoutableService<AuditLogging>). Fix: adapt one of them to a protocol that has a route of its own."
        )
        let validated = injectionError { try looping.container.validate() }
        #expect(validated?.code == .validationFailed)
        #expect(
            validated?.message
                == "Validation found 1 problem:\n- Circular dependency: AuditLogging -> NoteLogging -> AuditLogging. "
                + "Each of these is adapted to the next, so none of them leads to a route. Fix: adapt one of them to a "
                + "protocol that has a route of its own."
        )
    }

    @Test func adaptingAProtocolWithARouteOfItsOwnIsADuplicateRegistration() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
        let line = #line + 1
        router.register(RoutableService<any NoteLogging>()) { _ in ConsoleLogger() }
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())

        let error = injectionError { try router.container.validate() }
        #expect(error?.code == .validationFailed)
        #expect(
            error?.message
                == "Validation found 1 problem:\n- NoteLogging is registered 2 times: at "
                + "InjectorRoutingTests/Router+RegistrationDocTests.swift:\(line) by router.register, then at "
                + "InjectorRoutingTests/Router+RegistrationDocTests.swift:\(line + 1) by router.adapt. Fix: a protocol "
                + "is served by one registration: its route, one adapter, or a register call. Remove the adapter, or "
                + "the registration it duplicates."
        )
    }
}
