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

import Foundation
import Injector
import InjectorRouting
import Testing

// The snippets of the InjectorRouting catalog's ViewRoutingWithoutUIKit.md that compile on Linux,
// verbatim, with the types they assume, and what the article says of view routes: if the article's
// code stops compiling or doing what it says, this fails. (.ci/check-snippets finds each snippet's
// lines here.) The article's UIKit host sketch needs UIKit: its non-UIKit part, a host written as
// the sketch is, against the real `NavigationHost`, is checked at the end of this file.
//
// The routing tests' fixtures have an `EditorView`, an `EditorScreen` and a `HomeScreen` of their
// own, so the article's live in the namespace below; its declaring extension finds the article's
// `EditorView` through the typealias of this file that follows it.

/// The article's types, and its tests.
enum ViewRoutingArticle {
    fileprivate struct Note { let text: String }
    fileprivate protocol NoteStore: Sendable {}
    fileprivate struct MemoryNoteStore: NoteStore {}

    @MainActor
    fileprivate protocol EditorView: AnyObject { var note: Note? { get set } }

    fileprivate final class HomeScreen: CustomStringConvertible {
        var description: String { "HomeScreen" }
    }
    @MainActor
    fileprivate final class EditorScreen: EditorView {  // a UIViewController in an app
        let store: any NoteStore
        var note: Note?
        init(store: any NoteStore) { self.store = store }
    }
    fileprivate protocol NoteDetailView: AnyObject { var noteID: Int { get } }
    fileprivate final class NoteDetailScreen: NoteDetailView, CustomStringConvertible {
        let noteID: Int
        init(noteID: Int) { self.noteID = noteID }
        var description: String { "NoteDetailScreen(#\(noteID))" }
    }
    fileprivate final class SettingsScreen: CustomStringConvertible {
        var description: String { "SettingsScreen" }
    }
}

extension ViewRoutingArticle.EditorScreen: @MainActor CustomStringConvertible {
    var description: String { "EditorScreen(\(note?.text ?? "new note"))" }
}

extension RoutableView {
    /// The article's `EditorView` for the declaring extension below, in this file only.
    fileprivate typealias EditorView = ViewRoutingArticle.EditorView
}

extension RoutableView where Protocol == any EditorView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension RoutableView where Protocol == any ViewRoutingArticle.NoteDetailView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// The article's first example, at file scope, where its registration line fits as the article
/// writes it; what it prints is captured.
@MainActor
@Test func viewRoutingArticlePushesTheEditorOnTheHeadlessHostAndItsRemovalPopsBackToHome() throws {
    typealias HomeScreen = ViewRoutingArticle.HomeScreen
    typealias EditorView = ViewRoutingArticle.EditorView
    typealias EditorScreen = ViewRoutingArticle.EditorScreen
    typealias NoteStore = ViewRoutingArticle.NoteStore
    let container = Container()
    container.register((any NoteStore).self) { _ in ViewRoutingArticle.MemoryNoteStore() }
    let note = ViewRoutingArticle.Note(text: "Groceries")
    var printed: [String] = []
    func print(_ item: Any) { printed.append("\(item)") }

    let home = HomeScreen()
    let host = HeadlessNavigationHost(navigationStackWith: home)
    let router = Router(container: container, host: host)
    router.register(RoutableView<any EditorView>()) { r in EditorScreen(store: try r.resolve((any NoteStore).self)) }

    let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
        config.prepareDestination = { $0.note = note }
    }
    print(host)  // the hierarchy, one line per screen, with how it got there
    try route.removeRoute()  // pops back to home

    #expect(printed == ["HomeScreen (root of a navigation stack)\n└─ EditorScreen(Groceries) (pushed from HomeScreen)"])
    #expect(host.description == "HomeScreen (root of a navigation stack)")
    #expect(route.state == .removed)
}

extension ViewRoutingArticle {
    @MainActor
    struct ViewRoutingWithoutUIKitSnippetTests {
        fileprivate let home = HomeScreen()

        private func makeRouter(host: HeadlessNavigationHost) -> Router {
            let container = Container()
            container.register((any NoteStore).self) { _ in MemoryNoteStore() }
            let router = Router(container: container, host: host)
            router.register(RoutableView<any EditorView>()) { r in
                EditorScreen(store: try r.resolve((any NoteStore).self))
            }
            return router
        }

        @Test func aDeepLinkMakesItsScreenFromTheURLsTypedParametersAndItsRouteRemovesIt() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = makeRouter(host: host)

            router.register(RoutableView<any NoteDetailView>()) { (_, parameters: RouteParameters) in
                NoteDetailScreen(noteID: try parameters.value("id", as: Int.self))
            }
            .url("notes://notes/:id")

            let deepLink = try router.perform(url: "notes://notes/7", path: .push(from: home))
            #expect(
                host.description
                    == "HomeScreen (root of a navigation stack)\n└─ NoteDetailScreen(#7) (pushed from HomeScreen)"
            )
            try deepLink.removeRoute()

            #expect(host.description == "HomeScreen (root of a navigation stack)")
            #expect(deepLink.state == .removed)
        }

        // MARK: Paths

        @Test func showPushesInsideANavigationStackAndPresentsModallyOutsideOne() throws {
            let stacked = HeadlessNavigationHost(navigationStackWith: home)
            _ = try makeRouter(host: stacked).perform(to: RoutableView<any EditorView>(), path: .show(from: home))
            #expect(
                stacked.description
                    == "HomeScreen (root of a navigation stack)\n└─ EditorScreen(new note) (pushed from HomeScreen by show)"
            )

            let bare = HeadlessNavigationHost(root: home)
            _ = try makeRouter(host: bare).perform(to: RoutableView<any EditorView>(), path: .show(from: home))
            #expect(
                bare.description
                    == "HomeScreen (root)\n└─ EditorScreen(new note) (presented modally from HomeScreen by show)"
            )
        }

        @Test func aPathTheRouteDoesNotDeclareIsUnsupported() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = Router(container: Container(), host: host)
            router.register(RoutableView<any NoteDetailView>(), supportedPaths: .push) { _ in
                NoteDetailScreen(noteID: 1)
            }
            let error = try #require(
                routingError {
                    _ = try router.perform(to: RoutableView<any NoteDetailView>(), path: .presentModally(from: home))
                }
            )
            #expect(error.code == .unsupportedPath)
            #expect(
                error.message
                    == "RoutableView<NoteDetailView> does not support the path presentModally(from: HomeScreen): it "
                    + "supports only push. Fix: use one of those, or add .presentModally to the route's supportedPaths."
            )
        }

        @Test func removalPopsWhatWasPushedAboveTooAndARouteWhoseScreenWentWithTheOneBelowCannotBeRemoved() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = makeRouter(host: host)
            router.register(RoutableView<any NoteDetailView>()) { _ in NoteDetailScreen(noteID: 3) }
            var shown: [AnyObject] = []
            let editor = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
                config.successHandler = { shown.append($0) }
            }
            let editorScreen = try #require(shown.first)
            let detail = try router.perform(to: RoutableView<any NoteDetailView>(), path: .push(from: editorScreen)) {
                config in config.successHandler = { shown.append($0) }  // kept alive, as a screen's owner would
            }

            try editor.removeRoute()

            #expect(host.description == "HomeScreen (root of a navigation stack)")
            #expect(detail.canRemove == false)
            #expect(
                detail.removalRefusal
                    == "NoteDetailScreen(#3) is no longer in EditorScreen(new note)'s navigation stack: it was popped "
                    + "with EditorScreen(new note). Nothing is left to undo."
            )
        }

        // MARK: The order of things

        @Test func performingAndRemovingTellObserversAndHandlersInTheArticlesOrder() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = makeRouter(host: host)
            var log: [String] = []
            router.addObserver(for: (any EditorView).self) { observation in log.append("\(observation.event)") }
            router.addObserver(for: EditorScreen.self) { log.append("then \($0.event)") }  // a concrete type
            let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
                config.stateNotifier = { old, new in log.append("\(old) -> \(new)") }
                config.successHandler = { _ in log.append("success") }
            }
            try route.removeRoute(successHandler: { log.append("removed") })
            _ = try router.makeDestination(to: RoutableView<any EditorView>())  // tells no observer

            #expect(
                log == [
                    "unrouted -> routing", "willPerform", "then willPerform", "routing -> routed", "didPerform",
                    "then didPerform", "success", "routed -> removing", "willRemove", "then willRemove",
                    "removing -> removed", "didRemove", "then didRemove", "removed",
                ]
            )
        }

        @Test func oneViewTransitionAtATimeAndARouteStaysRoutingUntilTheHostSaysItEnded() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home, completesTransitionsImmediately: false)
            let router = makeRouter(host: host)
            let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
            #expect(route.state == .routing)

            let error = try #require(
                routingError { _ = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) }
            )
            #expect(error.code == .unbalancedTransition)
            #expect(
                error.message
                    == "RoutableView<EditorView> cannot be performed while RoutableView<EditorView> is still in flight: "
                    + "one view transition at a time per router. Fix: perform or remove it from the other route's "
                    + "success handler, once its transition has ended."
            )

            #expect(host.completePendingTransitions() == 1)
            #expect(route.state == .routed)
        }

        @Test func aRefusedTransitionLeavesTheHierarchyAsItWasAndTellsNoObserver() throws {
            let host = HeadlessNavigationHost(root: home)
            let router = makeRouter(host: host)
            var told: [String] = []
            router.addObserver(for: (any EditorView).self) { told.append("\($0.event)") }

            let outside = try #require(
                routingError { _ = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) }
            )
            #expect(outside.code == .invalidSource)
            #expect(
                outside.message
                    == "RoutableView<EditorView> could not be performed on the path push(from: HomeScreen): HomeScreen is in no "
                    + "navigation stack, so EditorScreen(new note) cannot be pushed from it: push from a screen in a "
                    + "navigation stack, or use show, which presents outside one."
            )
            let gone = try #require(
                routingError {
                    _ = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: SettingsScreen()))
                }
            )
            #expect(gone.code == .invalidSource)
            #expect(
                gone.message
                    == "RoutableView<EditorView> cannot be performed on the path push(from: SettingsScreen): the source SettingsScreen is gone "
                    + "(deallocated). Fix: perform from a screen that is alive and shown."
            )
            let segue = try #require(
                routingError {
                    _ = try router.perform(
                        to: RoutableView<any EditorView>(),
                        path: .performSegue(from: home, identifier: "edit")
                    )
                }
            )
            #expect(segue.code == .segueNotPerformed)
            #expect(
                segue.message
                    == "RoutableView<EditorView> could not be performed on the path performSegue(from: HomeScreen, identifier: \"edit\"): "
                    + "HomeScreen declares no segue \"edit\" (it declares none): declare it with "
                    + "declareSegue(\"edit\", on:style:) before performing it."
            )

            #expect(host.description == "HomeScreen (root)")
            #expect(told.isEmpty)
        }

        @Test func aScreenAlreadyShownCannotBeShownAgain() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = Router(container: Container(), host: host)
            router.register(RoutableView<any NoteDetailView>()) { _ in NoteDetailScreen(noteID: 1) }
            let screen = NoteDetailScreen(noteID: 1)
            let view = RoutableView<any NoteDetailView>()
            _ = try router.perform(onDestination: screen, for: view, path: .push(from: home))
            let error = try #require(
                routingError {
                    _ = try router.perform(onDestination: screen, for: view, path: .presentModally(from: home))
                }
            )
            #expect(error.code == .destinationAlreadyShown)
            #expect(
                error.message
                    == "RoutableView<NoteDetailView> could not be performed on the path presentModally(from: HomeScreen): "
                    + "NoteDetailScreen(#1) is already shown (pushed from HomeScreen), so it cannot be presented "
                    + "modally from HomeScreen too: a screen is shown in one place at a time; remove it first, or show "
                    + "a new one."
            )
        }

        // MARK: Saving and restoring navigation

        @Test func aSavedNavigationIsRestoredAsJSONOnAFreshHostThroughARouterWithTheSameRoutes() throws {
            // The app's routes: the editor, and note details opened by URL.
            func makeRouter(host: HeadlessNavigationHost) -> Router {
                let router = self.makeRouter(host: host)
                router.register(RoutableView<any NoteDetailView>()) { (_, parameters: RouteParameters) in
                    NoteDetailScreen(noteID: try parameters.value("id", as: Int.self))
                }
                .url("notes://notes/:id")
                return router
            }
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = makeRouter(host: host)
            let editor = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
            try router.perform(url: "notes://notes/7", path: .presentAsSheet(from: try #require(editor.destination)))

            let saved = try host.savedNavigation()
            let data = try JSONEncoder().encode(saved)

            // At the next launch: a fresh host, and a router with the same routes.
            let restoredHost = HeadlessNavigationHost(navigationStackWith: HomeScreen())
            let restoredRouter = makeRouter(host: restoredHost)
            let decoded = try JSONDecoder().decode(SavedNavigation.self, from: data)
            let routes = try restoredHost.restore(decoded, through: restoredRouter)  // to remove them later

            #expect(
                restoredHost.description == """
                    HomeScreen (root of a navigation stack)
                    └─ EditorScreen(new note) (pushed from HomeScreen)
                       └─ NoteDetailScreen(#7) (presented as a sheet from EditorScreen(new note))
                    """
            )
            #expect(restoredHost.description == host.description)
            try routes[0].removeRoute()
            #expect(restoredHost.description == "HomeScreen (root of a navigation stack)")
        }

        @Test func savingAScreenTheCallerPreparedThrowsNamingIt() throws {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            try makeRouter(host: host).perform(to: RoutableView<any EditorView>(), path: .push(from: home)) {
                config in config.prepareDestination = { $0.note = Note(text: "Groceries") }
            }

            let error = try #require(routingError { _ = try host.savedNavigation() })

            #expect(error.code == .invalidConfiguration)
            #expect(
                error.message
                    == "The navigation cannot be saved: EditorScreen(Groceries) (pushed from HomeScreen) was prepared "
                    + "by the caller's prepareDestination, a closure. Fix: show the screens to save with view routes "
                    + "performed by protocol or URL, without a preparation of the caller's (a URL's parameters can "
                    + "carry what it set)."
            )
        }

        // MARK: Observers and leaks

        @Test func aDestinationStillAliveAfterTheGracePeriodOnTheRoutersClockIsReported() async throws {
            let clock = ManualClock()
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let container = Container()
            container.register((any NoteStore).self) { _ in MemoryNoteStore() }
            let router = Router(container: container, host: host, clock: clock)
            router.register(RoutableView<any EditorView>()) { r in
                EditorScreen(store: try r.resolve((any NoteStore).self))
            }
            #expect(router.leakGracePeriod == .seconds(2))
            var leaks: [String] = []
            router.leakHandler = { leaks.append($0.description) }
            var kept: [any EditorView] = []
            let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
                config.successHandler = { kept.append($0) }
            }
            try route.removeRoute()
            await clock.untilIdle()  // the leak check sleeps on the clock

            clock.advance(by: .seconds(2))
            await clock.untilIdle()  // and reports once woken, however late it runs

            #expect(
                leaks == [
                    "EditorScreen of RoutableView<EditorView> is still alive 2.0 seconds after its route was removed: "
                        + "something still holds it (a closure capturing it strongly, a delegate, a cache). Fix: hold "
                        + "it weakly, or let go of it when the screen goes away."
                ]
            )
            #expect(kept.count == 1)
        }
    }
}

// MARK: - A platform host, written as the article's UIKit sketch is

/// The article's UIKit host sketch, with what UIKit does in it done by a headless host: its
/// refusals, its `show` turned into a push inside a navigation stack, and its completions, against
/// the real `NavigationHost`. (The sketch itself needs UIKit, so it is listed in
/// .ci/unpinned-snippets; this checks the part of it that is this package's API.)
@MainActor
private final class SketchedNavigationHost: NavigationHost {
    let screens: HeadlessNavigationHost
    init(screens: HeadlessNavigationHost) { self.screens = screens }

    func refusal(toPerform transition: ViewTransition) -> ViewTransitionRefusal? {
        let source = transition.source
        guard screens.contains(source) else {
            return ViewTransitionRefusal(.sourceNotInHierarchy, "the source is not a view controller")
        }
        if case .push = transition.style, screens.navigationStack(containing: source) == nil {
            return ViewTransitionRefusal(.noNavigationStack, "\(source) is in no navigation controller")
        }
        if transition.style == .presentModally, screens.presentedScreen(of: source) != nil {
            return ViewTransitionRefusal(.alreadyPresenting, "\(source) already presents a screen")
        }
        return nil
    }

    func perform(_ transition: ViewTransition, completion: @escaping @MainActor (ViewTransition) -> Void) {
        let source = transition.source
        let destination = transition.destination
        switch transition.style {
        case .show where screens.navigationStack(containing: source) != nil:
            perform(ViewTransition(style: .push, source: source, destination: destination), completion: completion)
        default:
            screens.perform(transition, completion: completion)
        }
    }

    func refusal(toUndo transition: ViewTransition) -> ViewTransitionRefusal? { nil }

    func undo(_ transition: ViewTransition, completion: @escaping @MainActor () -> Void) {
        screens.undo(transition, completion: completion)
    }
}

extension ViewRoutingArticle.ViewRoutingWithoutUIKitSnippetTests {
    private func makeSketchedRouter(screens: HeadlessNavigationHost) -> Router {
        let container = Container()
        container.register((any ViewRoutingArticle.NoteStore).self) { _ in ViewRoutingArticle.MemoryNoteStore() }
        let router = Router(container: container, host: SketchedNavigationHost(screens: screens))
        router.register(RoutableView<any ViewRoutingArticle.EditorView>()) { r in
            ViewRoutingArticle.EditorScreen(store: try r.resolve((any ViewRoutingArticle.NoteStore).self))
        }
        return router
    }

    @Test func aHostWrittenAsTheSketchShowsWithAPushInsideAStackAndUndoesWhatItPerformed() throws {
        let screens = HeadlessNavigationHost(navigationStackWith: home)
        let router = makeSketchedRouter(screens: screens)
        let route = try router.perform(to: RoutableView<any ViewRoutingArticle.EditorView>(), path: .show(from: home))
        #expect(
            screens.description
                == "HomeScreen (root of a navigation stack)\n└─ EditorScreen(new note) (pushed from HomeScreen)"
        )
        try route.removeRoute()
        #expect(screens.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aHostWrittenAsTheSketchRefusesAsItSaysAndTheRouterTurnsItsRefusalsIntoErrorCodes() throws {
        let screens = HeadlessNavigationHost(root: home)
        let router = makeSketchedRouter(screens: screens)
        let view = RoutableView<any ViewRoutingArticle.EditorView>()

        let push = try #require(routingError { _ = try router.perform(to: view, path: .push(from: home)) })
        #expect(push.code == .invalidSource)
        #expect(
            push.message
                == "RoutableView<EditorView> could not be performed on the path push(from: HomeScreen): HomeScreen is in no navigation "
                + "controller"
        )
        _ = try router.perform(to: view, path: .presentModally(from: home))
        let again = try #require(routingError { _ = try router.perform(to: view, path: .presentModally(from: home)) })
        #expect(again.code == .invalidSource)
        #expect(
            again.message
                == "RoutableView<EditorView> could not be performed on the path presentModally(from: HomeScreen): HomeScreen already "
                + "presents a screen"
        )
        let settings = ViewRoutingArticle.SettingsScreen()  // alive, in no hierarchy
        let elsewhere = try #require(
            routingError { _ = try router.perform(to: view, path: .presentModally(from: settings)) }
        )
        #expect(elsewhere.code == .invalidSource)
        #expect(
            elsewhere.message
                == "RoutableView<EditorView> could not be performed on the path presentModally(from: SettingsScreen): the source is not a "
                + "view controller"
        )
    }
}
