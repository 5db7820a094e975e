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

/// View routes on the headless host, as an app navigates: the route's state and the host's
/// hierarchy after every step.
@MainActor
@Suite struct HeadlessViewRoutingTests {
    let home = HomeScreen()
    let host: HeadlessNavigationHost
    let router: Router

    init() {
        host = HeadlessNavigationHost(navigationStackWith: home)
        router = Router(container: Container(), host: host)
        let serials = Counter()
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: serials.next()) }
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        router.register(RoutableView<any NoteView>()) { (_, parameters: RouteParameters) in
            NoteScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("notes://notes/:id")
    }

    @Test func aPushedEditorIsPoppedByRemovingItsRoute() throws {
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        #expect(route.state == .routed)
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ EditorScreen #1 (pushed from HomeScreen)
                """
        )

        try route.removeRoute()

        #expect(route.state == .removed)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func anInterceptorPresentsSignInBeforeTheEditorAndADeepLinkOpensANote() throws {
        var signedIn = false
        let session = Keeper<Bool>()
        router.addInterceptor(named: "sign-in") { request in
            guard request.isRouting(to: RoutableView<any EditorView>()), session.kept.isEmpty else { return .proceed }
            return .redirect(to: RoutableView<any SignInView>(), style: .presentModally)
        }
        let editor = try router.to(RoutableView<any EditorView>(), path: .push(from: home))

        let redirected = try #require(routingError { try editor.perform() })
        #expect(redirected.code == .redirected)
        #expect(editor.state == .unrouted)
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ SignInScreen (presented modally from HomeScreen)
                """
        )

        let signIn = try #require(host.presentedScreen(of: home))
        try host.dismiss(signIn)
        signedIn = true
        session.keep(signedIn)
        try editor.perform()
        let note = try router.perform(url: "notes://notes/7", path: .push(from: try #require(editor.destination)))

        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ EditorScreen #1 (pushed from HomeScreen)
                   └─ NoteScreen #7 (pushed from EditorScreen #1)
                """
        )
        try note.removeRoute()
        try editor.removeRoute()
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aViewPerformRedirectedToAServiceRouteIsInvalidConfigurationAndShowsNothing() throws {
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        router.addInterceptor(named: "export") { request in
            request.isRouting(to: RoutableView<any EditorView>())
                ? .redirect(to: RoutableService<any Exporter>()) : .proceed
        }

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The interceptor \"export\" redirected RoutableView<EditorView>, a view route, to "
                + "RoutableService<Exporter>, a service route: a view is redirected to another view, which is shown in "
                + "its place, and a service is not a screen. Nothing was made. Fix: redirect to a view route, or refuse "
                + "the call."
        )
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aRedirectWithAStyleOnTheMakeDestinationPathIsInvalidSourceNotAGoneSource() throws {
        router.addInterceptor(named: "sign-in") { request in
            request.isRouting(to: RoutableView<any EditorView>())
                ? .redirect(to: RoutableView<any SignInView>(), style: .presentModally) : .proceed
        }

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .makeDestination) }
        )

        #expect(error.code == .invalidSource)
        #expect(
            error.message
                == "The interceptor \"sign-in\" redirected RoutableView<EditorView> to RoutableView<SignInView>, which "
                + "failed: RoutableView<SignInView> cannot be shown with the style presentModally: the perform's path, "
                + "makeDestination, has no source screen to show it from. Fix: redirect without a style (the "
                + "destination is then made, not shown), or perform along a path from a screen."
        )
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aScreenPoppedWithTheOneBelowItCannotBeRemovedAndSaysWhy() throws {
        let first = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let second = try router.perform(
            to: RoutableView<any EditorView>(),
            path: .push(from: try #require(first.destination))
        )

        try host.popToRoot(ofStackContaining: home)

        #expect(!second.canRemove)
        #expect(
            second.removalRefusal
                == "its destination EditorScreen #2 is gone: it is no longer shown (popped, dismissed or removed by the "
                + "user) and nothing else holds it"
        )
        let error = try #require(routingError { try second.removeRoute() })
        #expect(error.code == .actionFailed)
        #expect(error.message.hasPrefix("RoutableView<EditorView> cannot be removed: its destination EditorScreen #2"))
        #expect(second.state == .routed)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aScreenPoppedButStillHeldCannotBeRemovedAndTheHostSaysWhy() throws {
        let keeper = Keeper<any EditorView>()  // what the app still holds after the user popped both
        let first = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.successHandler = { keeper.keep($0) }
        }
        let second = try router.perform(
            to: RoutableView<any EditorView>(),
            path: .push(from: try #require(first.destination))
        ) { config in config.successHandler = { keeper.keep($0) } }

        try host.popToRoot(ofStackContaining: home)

        #expect(second.removalRefusal?.contains("it was popped") == true, "\(second.removalRefusal ?? "")")
        let error = try #require(routingError { try second.removeRoute() })
        #expect(error.code == .actionFailed)
        #expect(second.state == .routed)
    }

    @Test func aPushWithoutANavigationStackIsInvalidSourceAndChangesNothing() throws {
        let plain = HeadlessNavigationHost(root: home)
        let router = Router(container: Container(), host: plain)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) }
        )

        #expect(error.code == .invalidSource)
        #expect(
            error.message.hasPrefix(
                "RoutableView<EditorView> could not be performed on the path push(from: HomeScreen): "
            )
        )
        #expect(plain.description == "HomeScreen (root)")
    }

    @Test func presentingFromAScreenThatAlreadyPresentsIsInvalidSource() throws {
        try router.perform(to: RoutableView<any SignInView>(), path: .presentModally(from: home))

        let error = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .presentAsSheet(from: home)) }
        )

        #expect(error.code == .invalidSource)
        #expect(host.presentedScreen(of: home) is SignInViewScreen)
    }

    @Test func showingAScreenThatIsShownAlreadyIsDestinationAlreadyShown() throws {
        let editor = EditorScreen(serial: 5)
        try router.perform(onDestination: editor, for: RoutableView<any EditorView>(), path: .push(from: home))

        let error = try #require(
            routingError {
                try router.perform(onDestination: editor, for: RoutableView<any EditorView>(), path: .push(from: home))
            }
        )

        #expect(error.code == .destinationAlreadyShown)
        #expect(
            error.message
                == "RoutableView<EditorView> could not be performed on the path push(from: HomeScreen): EditorScreen #5 is already shown "
                + "(pushed from HomeScreen), so it cannot be pushed from HomeScreen too: a screen is shown in one place "
                + "at a time; remove it first, or show a new one."
        )
    }

    @Test func aDeclaredSeguePerformsItsStyleAndAnUndeclaredOneIsSegueNotPerformed() throws {
        try host.declareSegue("showEditor", on: home, style: .push)

        let route = try router.perform(
            to: RoutableView<any EditorView>(),
            path: .performSegue(from: home, identifier: "showEditor")
        )
        let error = try #require(
            routingError {
                try router.perform(
                    to: RoutableView<any SignInView>(),
                    path: .performSegue(from: home, identifier: "signIn")
                )
            }
        )

        #expect(route.state == .routed)
        #expect(host.description.contains("EditorScreen #1 (pushed from HomeScreen by segue \"showEditor\")"))
        #expect(error.code == .segueNotPerformed)
        #expect(
            error.message
                == "RoutableView<SignInView> could not be performed on the path performSegue(from: HomeScreen, identifier: \"signIn\"): "
                + "HomeScreen declares no segue \"signIn\" (it declares \"showEditor\"): declare it with "
                + "declareSegue(\"signIn\", on:style:) before performing it."
        )
        try route.removeRoute()
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func showDetailAddAsChildAndAddAsSubviewAreUndoneByRemoval() throws {
        let primary = HomeScreen()
        let split = HeadlessNavigationHost(splitScreenWith: primary, detail: EditorScreen(serial: 0))
        let router = Router(container: Container(), host: split)
        let serials = Counter()
        router.register(RoutableView<any EditorView>(), supportedPaths: [.showDetail, .addAsChild, .addAsSubview]) {
            _ in
            EditorScreen(serial: serials.next())
        }
        let before = split.description

        let detail = try router.perform(to: RoutableView<any EditorView>(), path: .showDetail(from: primary))
        let child = try router.perform(to: RoutableView<any EditorView>(), path: .addAsChild(of: primary))
        #expect(split.description.contains("EditorScreen #1 (detail of the split screen"))
        #expect(split.description.contains("EditorScreen #2 (child of HomeScreen)"))

        try child.removeRoute()
        try detail.removeRoute()

        #expect(split.description == before)
    }
}
