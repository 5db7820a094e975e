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

// The swift block of `ViewRouteRegistration`'s doc comment, verbatim, and what it says: the URL
// opens the route, and its preparation runs on the screen with the URL's parameters.

@MainActor
struct ViewRouteRegistrationDocTests {
    let home = HomeScreen()

    @Test func aViewRoutesURLAndPreparationReachTheScreen() throws {
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
            .url("app://notes/:id/edit")
            .prepare { editor, context in editor.title = context.parameters["title"] ?? "Untitled" }

        let titled = try router.perform(url: "app://notes/7/edit?title=Groceries", path: .push(from: home))
        let untitled = try router.perform(url: "app://notes/8/edit", path: .push(from: home))

        #expect((titled.destination as? any EditorView)?.title == "Groceries")
        #expect((untitled.destination as? any EditorView)?.title == "Untitled")
    }
}
