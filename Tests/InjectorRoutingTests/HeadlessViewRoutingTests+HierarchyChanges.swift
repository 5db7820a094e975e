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

/// View routes whose hierarchy changes under them: the user pops a screen, or an observer or a
/// removal hook changes the hierarchy between the route's checks and its transition.
extension HeadlessViewRoutingTests {
    @Test func aRouteWhoseScreenTheUserPoppedPerformsAgain() throws {
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        try host.pop(try #require(route.destination))  // the user taps Back

        try route.perform()

        #expect(route.state == .routed)
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ EditorScreen #2 (pushed from HomeScreen)
                """
        )
        try route.removeRoute()
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aRouteAboveARemovedOnePerformsAgain() throws {
        let first = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let editor = try #require(first.destination)
        let second = try router.perform(to: RoutableView<any SignInView>(), path: .push(from: editor))
        try first.removeRoute()  // pops the sign-in screen too

        let error = try #require(routingError { try second.perform() })  // its source went too
        try second.perform(path: .push(from: home))

        #expect(error.code == .invalidSource)
        #expect(
            error.message
                == "RoutableView<SignInView> could not be performed on the path push(from: EditorScreen #1): "
                + "EditorScreen #1 is not in the hierarchy (it was popped), so SignInScreen cannot be pushed from it: "
                + "perform the transition from a screen that is shown."
        )
        #expect(second.state == .routed)
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ SignInScreen (pushed from HomeScreen)
                """
        )
    }

    @Test func aRouteWhoseSourceIsGoneWhileItsScreenLivesOnPerformsAgain() throws {
        let (route, kept) = try signInPushedFromAFreedEditor()
        try route.perform(path: .push(from: home))

        #expect(route.state == .routed)
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ SignInScreen (pushed from HomeScreen)
                """
        )
        withExtendedLifetime(kept) {}  // the screen lived on through the test
    }

    @Test func removingARouteWhoseScreenTheUserPoppedSaysSoOnce() throws {
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let editor = try #require(route.destination)
        try host.pop(editor)

        let error = try #require(routingError { try route.removeRoute() })

        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be removed: EditorScreen #1 is no longer in HomeScreen's "
                + "navigation stack: it was popped. Nothing is left to undo."
        )
        #expect(route.state == .routed)
    }

    @Test func anObserverThatPopsTheSourceFailsThePerformInsteadOfTheHost() throws {
        let first = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let editor = try #require(first.destination)
        var told: [String] = []
        router.addObserver(for: (any SignInView).self) { observation in
            told.append("\(observation.event)")
            if observation.event == .willPerform { _ = try? self.host.pop(editor) }
        }
        let second = try router.to(RoutableView<any SignInView>(), path: .push(from: editor))

        let error = try #require(routingError { try second.perform() })

        #expect(error.code == .invalidSource)
        #expect(
            error.message
                == "RoutableView<SignInView> could not be performed on the path push(from: EditorScreen #1): "
                + "EditorScreen #1 is not in the hierarchy (it was popped), so SignInScreen cannot be pushed from it: "
                + "perform the transition from a screen that is shown. The host allowed it when the route checked, "
                + "before a willPerform observer changed the hierarchy. Nothing was shown. Fix: let observers and "
                + "hooks watch, and change the hierarchy once the route's transition has ended (from its success "
                + "handler)."
        )
        #expect(told == ["willPerform"])
        #expect(second.state == .unrouted)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
        try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))  // no transition left in flight
    }

    @Test func aRemovalHookThatPopsTheScreenFailsTheRemovalAndTheRouteStaysRouted() throws {
        let host = host
        router.register(RoutableView<any EditorView>(), replacesExisting: true) { _ in EditorScreen(serial: 1) }
            .onRemove { editor, _ in
                let screen = UncheckedBox(editor as AnyObject)
                MainActor.assumeIsolated { _ = try? host.pop(screen.value) }
            }
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))

        let error = try #require(routingError { try route.removeRoute() })

        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<EditorView> could not be removed: EditorScreen #1 is no longer in HomeScreen's "
                + "navigation stack: it was popped. Nothing is left to undo. The host allowed it when the route "
                + "checked, before a willRemove observer or a removal hook changed the hierarchy. Nothing was undone, "
                + "and the route stays routed. Fix: let observers and hooks watch, and change the hierarchy once the "
                + "route's transition has ended (from its success handler)."
        )
        #expect(route.state == .routed)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
        try router.perform(to: RoutableView<any SignInView>(), path: .push(from: home))  // no transition left in flight
    }
}

/// Carries a main-actor screen through a `@Sendable` hook that runs on the main actor.
private final class UncheckedBox: @unchecked Sendable {
    let value: AnyObject
    init(_ value: AnyObject) { self.value = value }
}
