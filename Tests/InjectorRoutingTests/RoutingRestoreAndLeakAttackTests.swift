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

// An app team's attack on restoring a saved navigation, child routers' adapters and leak checks.

@Suite("Routing restore and leak attack")
struct RoutingRestoreAndLeakAttackTests {
    // MARK: - Restoring, all or nothing, when an interceptor redirects

    @MainActor private func makeNotesRouter(host: HeadlessNavigationHost, signedIn: Bool) -> Router {
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        router.register(RoutableView<any NoteView>()) { (_, parameters: RouteParameters) in
            NoteScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("restore-attack://notes/:id")
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }
        router.addInterceptor(named: "sign-in") { request in
            guard !signedIn, request.isRouting(to: RoutableView<any NoteView>()) else { return .proceed }
            return .redirect(to: RoutableView<any SignInView>(), style: .presentModally)
        }
        return router
    }

    @Test @MainActor func aRestoreAnInterceptorRedirectsShowsNothing() throws {
        let home = HomeScreen()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = makeNotesRouter(host: host, signedIn: true)
        let note = try router.perform(url: "restore-attack://notes/3", path: .push(from: home))
        try router.perform(
            to: RoutableView<any EditorView>(),
            path: .push(from: try #require(note.destination as AnyObject?))
        )
        let saved = try host.savedNavigation()

        // The next launch: signed out, so the interceptor sends the note to sign-in.
        let restoredHome = HomeScreen()
        let restoredHost = HeadlessNavigationHost(navigationStackWith: restoredHome)
        let restoredRouter = makeNotesRouter(host: restoredHost, signedIn: false)
        let error = try #require(routingError { try restoredHost.restore(saved, through: restoredRouter) })
        #expect(error.code == .redirected)
        #expect(
            error.message
                == "The interceptor \"sign-in\" redirected RoutableView<NoteView> for \"restore-attack://notes/3\" "
                + "to RoutableView<SignInView>, which was performed instead."
        )
        // "Nothing is shown unless everything is."
        #expect(restoredHost.navigationStack(containing: restoredHome)?.count == 1)
        #expect(restoredHost.presentedScreen(of: restoredHome) == nil, "\(restoredHost)")
    }
}
