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

// The snippets of the doc comments of Router's performing methods (Sources/InjectorRouting/Router/
// Router+Performing.swift), and what the comments say: makes keep no route; a perform returns the
// route, routed, and performs again with a fresh destination; `to` returns it unrouted, or throws
// invalidProtocol; preparing a destination made elsewhere runs the preparations but not the factory;
// a module makes its destination with the caller's parameters. The routing tests' fixtures have an
// `Exporter`, an `Editor` and an `EditorModule` of their own, so the snippets' live in the namespace
// below.

private protocol TimeService: Sendable { var now: Int { get } }
private struct FixedTimeService: TimeService { let now: Int }

extension RoutableService where Protocol == TimeService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// The snippets' types, and the tests.
enum PerformingDocs {
    fileprivate enum ExportFormat { case text, pdf }
    fileprivate protocol Exporter: AnyObject, Sendable { var format: ExportFormat { get set } }
    fileprivate final class FileExporter: Exporter, @unchecked Sendable {  // prepared before it is shared
        var format = ExportFormat.text
        let serial: Int
        init(serial: Int) { self.serial = serial }
    }

    fileprivate protocol Editor: AnyObject { var steps: [String] { get set } }
    fileprivate final class NoteEditor: Editor {
        var steps: [String] = []
    }

    fileprivate struct Note { let text: String }
    fileprivate struct ReadingEditor {
        let note: Note
        let readOnly: Bool
    }
    fileprivate protocol EditorModule {
        func makeDestinationWith(_ note: Note, readOnly: Bool) throws -> ReadingEditor?
    }
    fileprivate struct EditorModuleConfiguration: EditorModule {
        func makeDestinationWith(_ note: Note, readOnly: Bool) throws -> ReadingEditor? {
            note.text.isEmpty ? nil : ReadingEditor(note: note, readOnly: readOnly)
        }
    }
}

extension RoutableService where Protocol == any PerformingDocs.Exporter {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any PerformingDocs.Editor {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableServiceModule where Protocol == any PerformingDocs.EditorModule {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension PerformingDocs {
    @Suite struct RouterPerformingDocTests {
        private func exporterRouter() -> Router {
            let router = Router(container: Container())
            let serials = Counter()
            router.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: serials.next()) }
            return router
        }

        @Test func makeDestinationMakesAndPreparesADestinationOrThrowsAfterTheGlobalHandlerWasTold() throws {
            let router = Router(container: Container())
            let told = EventLog()
            router.globalErrorHandler = { action, error in told.record("\(action) \(error.code)") }

            let error = routingError { _ = try router.makeDestination(to: RoutableService<TimeService>()) }
            #expect(error?.code == .invalidProtocol)
            #expect(
                error?.message
                    == "No route is registered for RoutableService<TimeService>. Fix: register one with "
                    + "router.register(RoutableService<TimeService>(), …), or adapt the protocol to one that has a "
                    + "route with router.adapt(RoutableService<TimeService>(), to: …)."
            )
            #expect(told.entries == ["makeDestination invalidProtocol"])

            router.register(RoutableService<TimeService>()) { _ in FixedTimeService(now: 5) }
            let time = try router.makeDestination(to: RoutableService<TimeService>())
            #expect(time.now == 5)
        }

        @Test func makeDestinationRunsTheCallersPreparation() throws {
            let router = exporterRouter()

            let exporter = try router.makeDestination(to: RoutableService<Exporter>()) { config in
                config.prepareDestination = { $0.format = .pdf }
            }

            #expect(exporter.format == .pdf)
        }

        @Test func performReturnsTheRouteRoutedAndPerformsItAgainWithAFreshDestination() throws {
            let router = exporterRouter()
            let printed = EventLog()
            let print: @Sendable (String) -> Void = { printed.record($0) }
            let keeper = Keeper<any Exporter>()  // a route holds its object destination weakly

            let route = try router.perform(to: RoutableService<Exporter>()) { config in
                config.prepareDestination = { $0.format = .pdf }
                config.successHandler = { exporter in print("ready") }
                config.completionHandler = { _, result in
                    if case .success(let exporter) = result { keeper.keep(exporter) }
                }
            }

            #expect(route.state == .routed)
            let first = try #require(route.destination)
            #expect(first.format == .pdf)
            #expect(printed.entries == ["ready"])

            try route.perform()
            let second = try #require(route.destination)
            #expect(second !== first)
            #expect(second.format == .pdf)
            #expect(printed.entries == ["ready", "ready"])
            #expect(keeper.kept.count == 2)
        }

        @Test func toReturnsTheRouteUnroutedOrThrowsInvalidProtocol() throws {
            let router = exporterRouter()

            let route = try router.to(RoutableService<Exporter>())
            #expect(route.state == .unrouted)
            try route.perform()
            #expect(route.state == .routed)

            let error = routingError { _ = try Router(container: Container()).to(RoutableService<Exporter>()) }
            #expect(error?.code == .invalidProtocol)
            #expect(
                error?.message
                    == "No route is registered for RoutableService<Exporter>. Fix: register one with "
                    + "router.register(RoutableService<Exporter>(), …), or adapt the protocol to one that has a route "
                    + "with router.adapt(RoutableService<Exporter>(), to: …)."
            )
            #expect(error?.action == .lookUp)
        }

        @Test func aFailedPerformLeavesTheRouteUnroutedAfterTheHandlersWereTold() throws {
            let router = Router(container: Container())
            let told = EventLog()
            let line = #line + 1
            router.register(RoutableService<any Exporter>()) { _ in throw TestFailure("disk full") }
            router.globalErrorHandler = { action, error in told.record("global \(action) \(error.code)") }
            let route = try router.to(RoutableService<any Exporter>()) { config in
                config.errorHandler = { action, error in told.record("route \(action) \(error.code)") }
            }

            let error = routingError { try route.perform() }

            #expect(error?.code == .destinationUnavailable)
            #expect(
                error?.message
                    == "RoutableService<Exporter> (the route registered at "
                    + "InjectorRoutingTests/Router+PerformingDocTests.swift:\(line)) could not make its destination. "
                    + "The factory of Exporter threw: disk full. The error is the underlyingError; fix the factory or "
                    + "what it depends on."
            )
            #expect(route.state == .unrouted)
            #expect(
                told.entries == [
                    "route performRoute destinationUnavailable", "global performRoute destinationUnavailable",
                ]
            )
        }

        @Test func preparingAValueKeepsThePreparedCopyAsTheRoutesDestination() throws {
            let router = Router(container: Container())
            router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "made") }
                .prepare { greeting, _ in greeting.text += ", prepared" }
            let restored: any Greeting = PlainGreeting(text: "restored")

            let route = try router.prepare(destination: restored, for: RoutableService<any Greeting>())

            #expect(route.destination?.text == "restored, prepared")
            #expect(restored.text == "restored")
            #expect(route.state == .routed)
            #expect(!route.canRemove)
        }

        @Test func prepareRunsTheCallersThenTheRoutesPreparationsButNotTheFactory() throws {
            let router = Router(container: Container())
            let made = Counter()
            router.register(RoutableService<any Editor>()) { _ in
                _ = made.next()
                return NoteEditor()
            }
            .prepare { editor, _ in editor.steps.append("route") }
            .verify { editor, _ in
                guard editor.steps.contains("route") else { throw TestFailure("unprepared") }
            }
            let restoredEditor: any Editor = NoteEditor()

            let route = try router.prepare(destination: restoredEditor, for: RoutableService<Editor>()) { config in
                config.prepareDestination = { $0.steps.append("caller") }
            }

            #expect(made.value == 0)
            #expect(restoredEditor.steps == ["caller", "route"])
            #expect(route.state == .routed)
            #expect(!route.canRemove)
            #expect(route.destination === restoredEditor)

            let plain = try router.prepare(destination: restoredEditor, for: RoutableService<any Editor>())
            #expect(plain.destination === restoredEditor)
            #expect(restoredEditor.steps == ["caller", "route", "route"])
        }

        @Test func snippetPreparesARestoredEditor() throws {
            let router = Router(container: Container())
            router.register(RoutableService<any Editor>()) { _ in NoteEditor() }
                .prepare { editor, _ in editor.steps.append("route") }
            let restoredEditor: any Editor = NoteEditor()

            let route = try router.prepare(destination: restoredEditor, for: RoutableService<Editor>())

            #expect(route.destination === restoredEditor)
            #expect(restoredEditor.steps == ["route"])
        }

        @Test func aModuleMakesTheDestinationWithTheCallersParametersOrFailsNamingTheModule() throws {
            let router = Router(container: Container())
            router.register(RoutableServiceModule<any EditorModule>()) { _ in EditorModuleConfiguration() }
            let note = Note(text: "groceries")

            let editor = try router.makeDestination(to: RoutableServiceModule<EditorModule>()) {
                try $0.makeDestinationWith(note, readOnly: true)
            }

            #expect(editor.note.text == "groceries")
            #expect(editor.readOnly)

            let nothing = routingError {
                _ = try router.makeDestination(to: RoutableServiceModule<any EditorModule>()) {
                    try $0.makeDestinationWith(Note(text: ""), readOnly: true)
                }
            }
            #expect(nothing?.code == .destinationUnavailable)
            #expect(
                nothing?.message
                    == "The module RoutableServiceModule<EditorModule> made nothing: its makeDestinationWith returned "
                    + "nil. Fix: pass it everything the module needs, or check the module's configuration for why it "
                    + "declined."
            )
            let thrown = routingError {
                _ = try router.makeDestination(to: RoutableServiceModule<any EditorModule>()) { _ -> ReadingEditor? in
                    throw TestFailure("no note")
                }
            }
            #expect(thrown?.code == .destinationUnavailable)
            #expect(
                thrown?.message
                    == "The module RoutableServiceModule<EditorModule> could not make its destination: no note"
            )
        }
    }
}
