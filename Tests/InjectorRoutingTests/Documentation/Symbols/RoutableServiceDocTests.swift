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

// The snippets of the doc comments of RoutableService and RoutableServiceModule
// (Sources/InjectorRouting/Declarations/RoutableService.swift), with the types they assume, and what
// the comments say of declarations. The routing tests' fixtures have an `EditorModule`, an `Editor`
// and a `Note` of their own, so the module snippet's live in the namespace below.

private protocol TimeService: Sendable { var now: Int { get } }

extension RoutableService where Protocol == TimeService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

private struct FixedTimeService: TimeService { let now: Int }

/// The module snippet's types, and the tests.
enum RoutableServiceDocs {
    fileprivate struct Note { let text: String }
    fileprivate protocol Editor {
        var note: Note { get }
        var readOnly: Bool { get }
    }
    fileprivate struct NoteEditor: Editor {
        let note: Note
        let readOnly: Bool
    }

    fileprivate protocol EditorModule {
        func makeDestinationWith(_ note: Note, readOnly: Bool) throws -> any Editor
    }

    fileprivate struct EditorModuleConfiguration: EditorModule {
        func makeDestinationWith(_ note: Note, readOnly: Bool) throws -> any Editor {
            NoteEditor(note: note, readOnly: readOnly)
        }
    }

    /// A second protocol named `Clock`, besides the fixtures' one.
    fileprivate protocol Clock: Sendable { var now: Int { get } }
    fileprivate struct LaterClock: Clock { let now = 9 }
}

extension RoutableServiceModule {
    /// The snippet's `EditorModule` for the declaring extension below, in this file only.
    fileprivate typealias EditorModule = RoutableServiceDocs.EditorModule
}

extension RoutableServiceModule where Protocol == EditorModule {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension RoutableService where Protocol == any RoutableServiceDocs.Clock {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension RoutableServiceDocs {
    @Suite struct RoutableServiceDocTests {
        @Test func aProtocolDeclaredRoutableIsRoutedToThroughItsDeclaredInit() throws {
            let router = Router(container: Container())
            router.register(RoutableService<TimeService>()) { _ in FixedTimeService(now: 12) }

            let time = try router.makeDestination(to: RoutableService<TimeService>())  // compiles

            #expect(time.now == 12)
        }

        @Test func aModuleRouteIsDeclaredTheSameWayAndMakesItsDestinationWithTheCallersParameters() throws {
            let router = Router(container: Container())
            router.register(RoutableServiceModule<EditorModule>()) { _ in EditorModuleConfiguration() }
            let note = Note(text: "groceries")

            let editor = try router.makeDestination(to: RoutableServiceModule<EditorModule>()) {
                try $0.makeDestinationWith(note, readOnly: true)
            }

            #expect(editor.note.text == "groceries")
            #expect(editor.readOnly)
        }

        @Test func twoProtocolsWithTheSameNameAreTwoRoutes() throws {
            let router = Router(container: Container())
            router.register(RoutableService<any InjectorRoutingTests.Clock>()) { _ in FixedClock(now: 7) }
            router.register(RoutableService<any RoutableServiceDocs.Clock>()) { _ in LaterClock() }

            #expect(try router.makeDestination(to: RoutableService<any InjectorRoutingTests.Clock>()).now == 7)
            #expect(try router.makeDestination(to: RoutableService<any RoutableServiceDocs.Clock>()).now == 9)
        }
    }
}
