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

// The swift blocks of the doc comments of ViewRoutePath and ViewRoutePaths, verbatim, on the
// fixtures' screens: a push then a modal presentation from the pushed screen, a source gone before
// the perform, and a route's supported paths.

/// The screens the routes made, so that the snippet's `editor` is the one it pushed.
private final class Made: @unchecked Sendable {
    var editors: [EditorScreen] = []
}

/// The doc comment's registration, at file scope, where it fits on one line as the comment writes it.
@MainActor
private func registerEditorForPushAndModalPresentation(on router: Router) {
    router.register(RoutableView<any EditorView>(), supportedPaths: [.push, .presentModally]) { _ in EditorScreen() }
}

@MainActor
struct ViewRoutePathDocTests {
    let home = HomeScreen()

    @Test func aPushThenAModalPresentationFromThePushedScreen() throws {
        let made = Made()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in
            let editor = EditorScreen(serial: 1)
            made.editors.append(editor)
            return editor
        }
        router.register(RoutableView<any SignInView>()) { _ in SignInViewScreen() }

        try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let editor = try #require(made.editors.first)
        try router.perform(to: RoutableView<any SignInView>(), path: .presentModally(from: editor))

        #expect(
            host.description
                == "HomeScreen (root of a navigation stack)\n└─ EditorScreen #1 (pushed from HomeScreen)\n"
                + "   └─ SignInScreen (presented modally from EditorScreen #1)"
        )
    }

    @Test func aSourceGoneByTheTimeTheRoutePerformsFailsItWithInvalidSource() throws {
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
        var gone: HomeScreen? = HomeScreen()
        let route = try router.to(RoutableView<any EditorView>(), path: .push(from: gone!))
        gone = nil

        let error = try #require(routingError { try route.perform() })
        #expect(error.code == .invalidSource)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be performed on the path push(from: HomeScreen): the source HomeScreen is gone (deallocated). "
                + "Fix: perform from a screen that is alive and shown."
        )
    }

    @Test func aRouteSupportsOnlyThePathsItWasRegisteredWith() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        registerEditorForPushAndModalPresentation(on: router)

        let sheet = try #require(
            routingError { try router.perform(to: RoutableView<any EditorView>(), path: .presentAsSheet(from: home)) }
        )
        #expect(sheet.code == .unsupportedPath)
        #expect(
            sheet.message
                == "RoutableView<EditorView> does not support the path presentAsSheet(from: HomeScreen): it supports "
                + "push and presentModally. Fix: use one of those, or add .presentAsSheet to the route's supportedPaths."
        )
        try router.perform(to: RoutableView<any EditorView>(), path: .presentModally(from: home))
        #expect(
            host.description
                == "HomeScreen (root of a navigation stack)\n└─ EditorScreen #0 (presented modally from HomeScreen)"
        )
    }
}
