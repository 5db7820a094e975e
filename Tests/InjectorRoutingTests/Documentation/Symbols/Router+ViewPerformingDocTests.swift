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

// The swift blocks of the doc comments of Router's view performing methods, verbatim: a perform
// with a configuration, a destination made without being shown, a view module's perform and a deep
// link, each with what its comment says. The fixtures have an `EditorView`, an `EditorScreen` and
// an `EditorModule` of their own, so the comments' live in the namespace below.

/// The doc comments' types, and their tests.
enum ViewPerformingDoc {
    fileprivate struct Note: Sendable { let title: String }
    fileprivate protocol EditorView: AnyObject {
        var note: Note? { get set }
        var readOnly: Bool { get }
    }
    fileprivate final class EditorScreen: EditorView, CustomStringConvertible {
        var note: Note?
        let readOnly: Bool
        init(note: Note? = nil, readOnly: Bool = false) {
            self.note = note
            self.readOnly = readOnly
        }
        var description: String { "EditorScreen(\(note?.title ?? "new note"))" }
    }
    fileprivate protocol EditorModule {
        func makeDestinationWith(_ note: Note, readOnly: Bool) -> (any EditorView)?
    }
    fileprivate struct EditorModuleConfiguration: EditorModule {
        func makeDestinationWith(_ note: Note, readOnly: Bool) -> (any EditorView)? {
            EditorScreen(note: note, readOnly: readOnly)
        }
    }
    fileprivate protocol Clock: Sendable {}
    fileprivate struct SystemClock: Clock {}
}

extension RoutableView where Protocol == any ViewPerformingDoc.EditorView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableViewModule where Protocol == any ViewPerformingDoc.EditorModule {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any ViewPerformingDoc.Clock {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension ViewPerformingDoc {
    @MainActor
    struct ViewPerformingDocTests {
        fileprivate let home = HomeScreen()
        fileprivate let note = Note(title: "Groceries")

        private func makeRouter(host: HeadlessNavigationHost) -> Router {
            let router = Router(container: Container(), host: host)
            router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
            return router
        }

        @Test func aPerformPreparesTheScreenShowsItAndTellsTheSuccessHandler() throws {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = makeRouter(host: host)

            let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
                config.prepareDestination = { $0.note = note }
                config.successHandler = { editor in print("editing", editor.note?.title ?? "") }
            }

            #expect(printed == ["editing Groceries"])
            #expect(route.state == .routed)  // at once on a headless host
            #expect(
                host.description
                    == "HomeScreen (root of a navigation stack)\n└─ EditorScreen(Groceries) (pushed from HomeScreen)"
            )
        }

        @Test func theRouteIsRoutingUntilTheHostSaysTheTransitionHasEnded() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home, completesTransitionsImmediately: false)
            let route = try makeRouter(host: host).perform(to: RoutableView<any EditorView>(), path: .push(from: home))
            #expect(route.state == .routing)
            host.completePendingTransitions()
            #expect(route.state == .routed)
        }

        @Test func aFailedPerformShowsNothing() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = makeRouter(host: host)
            let error = try #require(
                routingError {
                    try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
                        config.prepareDestination = { _ in throw TestFailure("no note") }
                    }
                }
            )
            #expect(error.code == .actionFailed)
            #expect(error.message == "The caller's prepareDestination for RoutableView<EditorView> threw: no note")
            #expect(host.description == "HomeScreen (root of a navigation stack)")
        }

        @Test func makeDestinationPreparesAScreenWithoutShowingItOrTellingObservers() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = makeRouter(host: host)
            var observed: [String] = []
            router.addObserver(for: (any EditorView).self) { observed.append("\($0.event)") }

            let preview = try router.makeDestination(to: RoutableView<any EditorView>())

            #expect(preview is EditorScreen)
            #expect(observed.isEmpty)
            #expect(host.description == "HomeScreen (root of a navigation stack)")
        }

        @Test func aViewModulesPerformPassesTheModuleItsParametersAndShowsTheScreenItMakes() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = Router(container: Container(), host: host)
            router.register(RoutableViewModule<any EditorModule>()) { _ in EditorModuleConfiguration() }

            try router.perform(to: RoutableViewModule<any EditorModule>(), path: .push(from: home)) {
                $0.makeDestinationWith(note, readOnly: false)
            }

            #expect(
                host.description
                    == "HomeScreen (root of a navigation stack)\n└─ EditorScreen(Groceries) (pushed from HomeScreen)"
            )
        }

        @Test func aDeepLinkShowsTheViewRouteWhosePatternMatchesWithTheURLsParameters() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = Router(container: Container(), host: host)
            router.register(RoutableView<any EditorView>()) { (_, parameters: RouteParameters) in
                EditorScreen(note: Note(title: "#\(try parameters.value("id", as: Int.self))"))
            }
            .url("notes://notes/:id")

            try router.perform(url: "notes://notes/42", path: .push(from: home))

            #expect(
                host.description
                    == "HomeScreen (root of a navigation stack)\n└─ EditorScreen(#42) (pushed from HomeScreen)"
            )
        }

        @Test func aDeepLinkThatMatchesNoPatternOrAServiceRouteIsInvalidConfigurationQuotingTheURL() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = Router(container: Container(), host: host)
            router.register(RoutableService<any Clock>()) { _ in SystemClock() }.url("notes://clock")

            let unmatched = try #require(
                routingError { try router.perform(url: "notes://nowhere/1", path: .push(from: home)) }
            )
            #expect(unmatched.code == .invalidConfiguration)
            #expect(
                unmatched.message
                    == "No URL pattern matches the URL \"notes://nowhere/1\". Fix: register a pattern that matches it, "
                    + "or correct the URL."
            )

            let malformed = try #require(routingError { try router.perform(url: "not a url", path: .push(from: home)) })
            #expect(malformed.code == .invalidConfiguration)
            #expect(
                malformed.message
                    == "The URL \"not a url\" contains the whitespace or control character U+0020. Fix: percent-encode "
                    + "it as %20."
            )

            let service = try #require(
                routingError { try router.perform(url: "notes://clock", path: .push(from: home)) }
            )
            #expect(service.code == .invalidConfiguration)
            #expect(
                service.message
                    == "The URL \"notes://clock\" matches RoutableService<Clock>, which is not a view route: there is "
                    + "nothing to show. Fix: perform it with router.perform(url:) or makeDestination(url:as:), without a "
                    + "path."
            )
            #expect(host.description == "HomeScreen (root of a navigation stack)")
        }

        @Test func aDeepLinkThatMatchesTwoEquallySpecificPatternsIsInvalidConfigurationNamingBoth() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = Router(container: Container(), host: host)
            router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }.url("notes://notes/:id")
            router.register(RoutableService<any Clock>()) { _ in SystemClock() }.url("notes://notes/:name")

            let error = try #require(
                routingError { try router.perform(url: "notes://notes/3", path: .push(from: home)) }
            )
            #expect(error.code == .invalidConfiguration)
            #expect(
                error.message
                    == "The URL \"notes://notes/3\" matches 2 equally specific patterns: \"notes://notes/:id\" and "
                    + "\"notes://notes/:name\". Fix: make one of them more specific (a literal segment beats a "
                    + "placeholder, and a placeholder beats \"*\"), or remove all but one."
            )
            #expect(host.description == "HomeScreen (root of a navigation stack)")
        }
    }
}
