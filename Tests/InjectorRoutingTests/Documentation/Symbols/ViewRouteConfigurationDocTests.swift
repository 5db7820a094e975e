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

// The swift block of ViewRouteConfiguration's doc comment, verbatim, in the main-actor screen it is
// written for, and the order the comment states: the route routed, then the success, completion
// and performer handlers, once the host says the transition has ended; on failure the state back,
// then the error, completion, performer and global handlers. The fixtures have an `EditorView` of
// their own, so the comment's lives in the namespace below.

/// The doc comment's types, and its tests.
enum ViewRouteConfigurationDoc {
    fileprivate struct Note { let title: String }
    fileprivate protocol EditorView: AnyObject { var note: Note? { get set } }
    fileprivate final class EditorScreen: EditorView, CustomStringConvertible {
        var note: Note?
        var description: String { "EditorScreen(\(note?.title ?? "new note"))" }
    }

    /// The main-actor view controller the snippet is written in.
    @MainActor
    fileprivate final class NotesScreen: CustomStringConvertible {
        let router: Router
        var currentEditor: (any EditorView)?
        init(router: Router) { self.router = router }
        nonisolated var description: String { "NotesScreen" }

        func openEditor(with note: Note) throws {
            try router.perform(to: RoutableView<any EditorView>(), path: .push(from: self)) { config in
                config.prepareDestination = { $0.note = note }
                config.successHandler = { editor in self.currentEditor = editor }  // a main-actor view controller
            }
        }
    }
}

extension RoutableView where Protocol == any ViewRouteConfigurationDoc.EditorView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension ViewRouteConfigurationDoc {
    @MainActor
    struct ViewRouteConfigurationDocTests {
        @Test func theScreenIsPreparedAndTheSuccessHandlerRunsOnceTheTransitionHasEnded() throws {
            let home = HomeScreen()
            let host = HeadlessNavigationHost(navigationStackWith: home, completesTransitionsImmediately: false)
            let router = Router(container: Container(), host: host)
            router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
            let notes = NotesScreen(router: router)
            host.perform(ViewTransition(style: .push, source: home, destination: notes)) { _ in }
            host.completePendingTransitions()

            try notes.openEditor(with: Note(title: "Groceries"))
            #expect(notes.currentEditor == nil)  // the push is still in flight
            host.completePendingTransitions()

            #expect(notes.currentEditor?.note?.title == "Groceries")
            #expect(
                host.description
                    == "HomeScreen (root of a navigation stack)\n└─ NotesScreen (pushed from HomeScreen)\n"
                    + "   └─ EditorScreen(Groceries) (pushed from NotesScreen)"
            )
        }

        @Test func onSuccessTheRouteIsRoutedThenTheSuccessCompletionAndPerformerHandlers() throws {
            let log = EventLog()
            let home = HomeScreen()
            let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
            router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
            try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
                config.stateNotifier = { old, new in log.record("\(old) -> \(new)") }
                config.successHandler = { _ in log.record("success") }
                config.completionHandler = { _, _ in log.record("completion") }
                config.performerSuccessHandler = { _ in log.record("performer success") }
            }
            #expect(
                log.entries == [
                    "unrouted -> routing", "routing -> routed", "success", "completion", "performer success",
                ]
            )
        }

        @Test func onFailureTheStateReturnsThenTheErrorCompletionPerformerAndGlobalHandlers() throws {
            let log = EventLog()
            let home = HomeScreen()
            let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
            router.globalErrorHandler = { _, _ in log.record("global") }
            router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
            let error = routingError {
                try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
                    config.prepareDestination = { _ in throw TestFailure("no note") }
                    config.stateNotifier = { old, new in log.record("\(old) -> \(new)") }
                    config.errorHandler = { _, _ in log.record("error") }
                    config.completionHandler = { _, _ in log.record("completion") }
                    config.performerErrorHandler = { _, _ in log.record("performer error") }
                }
            }
            #expect(error?.code == .actionFailed)
            #expect(error?.message == "The caller's prepareDestination for RoutableView<EditorView> threw: no note")
            #expect(
                log.entries == [
                    "unrouted -> routing", "routing -> unrouted", "error", "completion", "performer error", "global",
                ]
            )
        }
    }
}
