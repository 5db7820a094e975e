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

/// Saving what the headless host shows, as JSON, and restoring it on a fresh host in one call: the
/// same hierarchy, or an error naming what is missing and nothing shown.
@MainActor
@Suite struct HeadlessNavigationHostSavedNavigationTests {
    let home = HomeScreen()
    let host: HeadlessNavigationHost
    let router: Router

    init() {
        host = HeadlessNavigationHost(navigationStackWith: home)
        router = Router(container: Container(), host: host)
        Self.registerRoutes(on: router)
    }

    /// The app's view routes, registered alike on every launch.
    static func registerRoutes(on router: Router, except left: Set<String> = []) {
        let serials = Counter()
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: serials.next()) }
        if !left.contains("sign-in") {
            router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        }
        if !left.contains("notes") {
            router.register(RoutableView<any NoteView>()) { (_, parameters: RouteParameters) in
                NoteScreen(noteID: try parameters.value("id", as: Int.self))
            }
            .url("notes://notes/:id")
        }
    }

    /// Home, an editor pushed, a note opened by URL with `show`, sign-in presented as a sheet.
    func performFlow() throws {
        let editor = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let note = try router.perform(url: "notes://notes/7", path: .show(from: try #require(editor.destination)))
        try router.perform(
            to: RoutableView<any SignInView>(),
            path: .presentAsSheet(from: try #require(note.destination as AnyObject?))
        )
    }

    @Test func aFlowSavedAsJSONIsRestoredOnAFreshHostAsTheSameHierarchy() throws {
        try performFlow()
        let hierarchy = """
            HomeScreen (root of a navigation stack)
            └─ EditorScreen #1 (pushed from HomeScreen)
               └─ NoteScreen #7 (pushed from EditorScreen #1 by show)
                  └─ SignInScreen (presented as a sheet from NoteScreen #7)
            """
        #expect(host.description == hierarchy)

        let saved = try host.savedNavigation()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(saved)
        let decoded = try JSONDecoder().decode(SavedNavigation.self, from: json)

        #expect(
            String(decoding: json, as: UTF8.self)
                == #"{"screens":[{"source":0,"style":{"push":{}},"view":"EditorView"},"#
                + #"{"source":2,"style":{"show":{}},"url":"notes:\/\/notes\/7"},"#
                + #"{"source":3,"style":{"presentAsSheet":{}},"view":"SignInView"}]}"#
        )
        #expect(decoded == saved)
        let restoredHost = HeadlessNavigationHost(navigationStackWith: HomeScreen())
        let restoredRouter = Router(container: Container(), host: restoredHost)
        Self.registerRoutes(on: restoredRouter)

        let routes = try restoredHost.restore(decoded, through: restoredRouter)

        #expect(restoredHost.description == hierarchy)
        #expect(routes.map(\.state) == [.routed, .routed, .routed])
        try routes[1].removeRoute()
        #expect(
            restoredHost.description
                == "HomeScreen (root of a navigation stack)\n└─ EditorScreen #1 (pushed from HomeScreen)"
        )
        #expect(try restoredHost.savedNavigation().screens.count == 1)
    }

    @Test func restoringRoutesNoLongerRegisteredNamesEachAndShowsNothing() throws {
        try performFlow()
        let saved = try host.savedNavigation()
        let restoredHost = HeadlessNavigationHost(navigationStackWith: HomeScreen())
        let restoredRouter = Router(container: Container(), host: restoredHost)
        Self.registerRoutes(on: restoredRouter, except: ["sign-in", "notes"])
        restoredRouter.register(RoutableView<any Renamed.EditorView>()) { _ in Renamed.EditorScreen() }

        let error = try #require(routingError { try restoredHost.restore(saved, through: restoredRouter) })

        #expect(error.code == .invalidProtocol)
        #expect(error.action == .lookUp)
        #expect(
            error.message
                == "The saved navigation cannot be restored: the router has no view route for RoutableView<EditorView> "
                + "(2 view protocols have that name), the URL \"notes://notes/7\" and RoutableView<SignInView>. "
                + "Nothing was shown. Fix: register a view route for each (one per protocol name), or discard the saved "
                + "navigation."
        )
        #expect(restoredHost.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aRestoreThatFailsMidwayRemovesWhatItShowedAndThrowsThePerformsError() throws {
        try performFlow()
        let saved = try host.savedNavigation()
        let restoredHost = HeadlessNavigationHost(navigationStackWith: HomeScreen())
        let restoredRouter = Router(container: Container(), host: restoredHost)
        Self.registerRoutes(on: restoredRouter)
        restoredRouter.addInterceptor(named: "signed-in") { request in
            request.isRouting(to: RoutableView<any SignInView>()) ? .refuse("already signed in") : .proceed
        }

        let error = try #require(routingError { try restoredHost.restore(saved, through: restoredRouter) })

        #expect(error.code == .refused)
        #expect(
            error.message
                == "The interceptor \"signed-in\" refused RoutableView<SignInView>: already signed in"
        )
        #expect(restoredHost.description == "HomeScreen (root of a navigation stack)")
    }

    /// A saved screen with a URL is found by its URL only: one that matches nothing is missing, even
    /// when its view name would pick one of two protocols (a payload the host never writes).
    @Test func aSavedURLThatMatchesNothingIsMissingWhateverItsViewName() throws {
        router.register(RoutableView<any Renamed.EditorView>()) { _ in Renamed.EditorScreen() }
        let json = #"{"screens":[{"source":0,"style":{"push":{}},"view":"EditorView","url":"nowhere://x"}]}"#
        let saved = try JSONDecoder().decode(SavedNavigation.self, from: Data(json.utf8))

        let error = try #require(routingError { try host.restore(saved, through: router) })

        #expect(error.code == .invalidProtocol)
        #expect(
            error.message
                == "The saved navigation cannot be restored: the router has no view route for the URL "
                + "\"nowhere://x\". Nothing was shown. Fix: register a view route for each (one per protocol name), "
                + "or discard the saved navigation."
        )
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    /// A restore that fails midway takes away what it showed even when a removal hook of a route it
    /// performed throws: the caller, who gets no route back, could not remove it.
    @Test func aRestoreThatFailsMidwayTakesAwayWhatItShowedDespiteAThrowingRemovalHook() throws {
        let restoredHost = HeadlessNavigationHost(navigationStackWith: HomeScreen())
        let restoredRouter = Router(container: Container(), host: restoredHost)
        restoredRouter.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
            .onRemove { _, _ in throw TestFailure("remove hook") }
        let signInLine = #line + 1
        restoredRouter.register(RoutableView<any SignInView>()) { _ in throw TestFailure("sign-in down") }
        let json =
            #"{"screens":[{"source":0,"style":{"push":{}},"view":"EditorView"},"#
            + #"{"source":2,"style":{"push":{}},"view":"SignInView"}]}"#
        let saved = try JSONDecoder().decode(SavedNavigation.self, from: Data(json.utf8))

        let error = try #require(routingError { try restoredHost.restore(saved, through: restoredRouter) })

        #expect(error.code == .destinationUnavailable)
        #expect(
            error.message
                == "RoutableView<SignInView> (the route registered at InjectorRoutingTests/"
                + "HeadlessNavigationHostSavedNavigationTests.swift:\(signInLine)) could not make its destination."
                + " The factory of SignInView threw: sign-in down. The error is the underlyingError; fix the factory"
                + " or what it depends on."
        )
        #expect(restoredHost.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func savingScreensNoRouteCanShowAgainNamesEachScreen() throws {
        let editor = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.prepareDestination = { $0.title = "Groceries" }
        }
        let signIn = SignInViewScreen()
        host.perform(
            ViewTransition(style: .presentModally, source: try #require(editor.destination), destination: signIn)
        ) { _ in }

        let error = try #require(routingError { _ = try host.savedNavigation() })

        #expect(error.code == .invalidConfiguration)
        #expect(error.action == .lookUp)
        #expect(
            error.message
                == "The navigation cannot be saved: EditorScreen #1 (pushed from HomeScreen) was prepared by the "
                + "caller's prepareDestination, a closure; SignInScreen (presented modally from EditorScreen #1) was "
                + "not shown by a route. Fix: show the screens to save with view routes performed by protocol or URL, "
                + "without a preparation of the caller's (a URL's parameters can carry what it set)."
        )
    }

    @Test func savingAScreenWhoseSourceLeftOrAGivenScreenNamesEach() throws {
        let signIn = try router.perform(to: RoutableView<any SignInView>(), path: .addAsChild(of: home))
        let child = try #require(signIn.destination)
        let editor = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: child))
        try host.removeFromParent(child)
        try router.perform(
            onDestination: EditorScreen(serial: 9),
            for: RoutableView<any EditorView>(),
            path: .presentModally(from: try #require(editor.destination))
        )

        let error = try #require(routingError { _ = try host.savedNavigation() })

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The navigation cannot be saved: EditorScreen #1 (pushed from SignInScreen) was shown from a screen "
                + "that is no longer shown; EditorScreen #9 (presented modally from EditorScreen #1) was given to "
                + "perform(onDestination:for:path:), and restoring cannot make it again. Fix: show the screens to save "
                + "with view routes performed by protocol or URL, without a preparation of the caller's (a URL's "
                + "parameters can carry what it set)."
        )
    }

    @Test func aSavedNavigationFromASplitScreenDoesNotFitAHostWithout() throws {
        let list = HomeScreen()
        let splitHost = HeadlessNavigationHost(
            splitScreenWith: list,
            detail: SignInViewScreen(),
            detailInNavigationStack: true
        )
        let splitRouter = Router(container: Container(), host: splitHost)
        Self.registerRoutes(on: splitRouter)
        try splitRouter.perform(to: RoutableView<any EditorView>(), path: .push(from: try #require(splitHost.detail)))
        let saved = try splitHost.savedNavigation()
        #expect(saved.screens.map(\.source) == [1])

        let error = try #require(routingError { try host.restore(saved, through: router) })

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The saved navigation does not fit this host: RoutableView<EditorView> is shown from the split "
                + "screen's detail, which this host does not have. Nothing was shown. Fix: restore it on a host made "
                + "as the one that saved it."
        )
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aSavedScreenShownFromOneAfterItIsRefusedAsNotFittingTheHost() throws {
        let json = #"{"screens":[{"source":2,"style":{"push":{}},"view":"EditorView"}]}"#
        let saved = try JSONDecoder().decode(SavedNavigation.self, from: Data(json.utf8))

        let error = try #require(routingError { try host.restore(saved, through: router) })

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The saved navigation does not fit this host: RoutableView<EditorView> is shown from screen 2 of "
                + "the saved navigation, which this host does not have. Nothing was shown. Fix: restore it on a host "
                + "made as the one that saved it."
        )
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }
}

/// A view protocol named as the fixtures' `EditorView`: a saved navigation names protocols by name.
enum Renamed {
    protocol EditorView: AnyObject {}
    final class EditorScreen: EditorView {}
}

extension RoutableView where Protocol == any Renamed.EditorView {
    init() { self.init(declaredProtocol: Protocol.self) }
}
