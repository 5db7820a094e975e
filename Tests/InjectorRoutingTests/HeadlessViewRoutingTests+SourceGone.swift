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

/// View routes whose source is gone (deallocated) while their screen is still shown: the route
/// removes what is still there to remove, and says why when nothing can.
extension HeadlessViewRoutingTests {
    @Test func aScreenPushedFromAChildScreenThatIsGoneIsPoppedByItsRoute() throws {
        var told: [String] = []
        router.addObserver(for: (any EditorView).self) { observation in
            told.append("\(observation.event) from \(observation.source.map { "\($0)" } ?? "nothing")")
        }
        let route: ViewRoute<any EditorView>
        do {
            let toolbar = HeadlessScreen("ToolbarScreen")
            host.perform(ViewTransition(style: .addAsChild, source: home, destination: toolbar)) { _ in }
            route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: toolbar))
            try host.removeFromParent(toolbar)  // freed here: the host held it, and nothing else does
        }
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ EditorScreen #1 (pushed from ToolbarScreen)
                """
        )
        #expect(route.removalRefusal == nil)

        try route.removeRoute()

        #expect(route.state == .removed)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
        #expect(
            told == [
                "willPerform from ToolbarScreen", "didPerform from ToolbarScreen", "willRemove from nothing",
                "didRemove from nothing",
            ]
        )
    }

    @Test func aRouteWhoseScreenWentAwayWithAReplacedRootCannotBeRemovedAndSaysWhy() throws {
        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let kept = route.destination  // the screen lives on; only the hierarchy let it go

        try host.replaceRoot(with: HeadlessScreen("SignInScreen"))
        let error = try #require(routingError { try route.removeRoute() })

        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be removed: EditorScreen #1 is no longer in HomeScreen's "
                + "navigation stack: it went away with HomeScreen, which was replaced as the root by SignInScreen. "
                + "Nothing is left to undo."
        )
        #expect(host.description == "SignInScreen (root)")
        withExtendedLifetime(kept) {}
    }

    @Test func removingAScreenPoppedWithItsGoneSourceSaysWhatHappenedAndTheRoutePerformsAgain() throws {
        let (route, kept) = try signInPushedFromAFreedEditor()

        let error = try #require(routingError { try route.removeRoute() })
        try route.perform(path: .push(from: home))

        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<SignInView> cannot be removed: SignInScreen is no longer pushed: it was popped with "
                + "EditorScreen #1. Nothing is left to undo."
        )
        #expect(route.state == .routed)
        withExtendedLifetime(kept) {}  // the screen lived on through the test
    }

    @Test func aRouteWithItsOwnTransitionWhoseSourceIsGoneCannotBeRemovedAndPerformsAgain() throws {
        let dock = Keeper<AnyObject>()
        router.register(RoutableView<any EditorView>(), route: DockRoute(dock: dock), replacesExisting: true)
        let route: ViewRoute<any EditorView>
        do {
            let toolbar = HeadlessScreen("ToolbarScreen")
            route = try router.perform(to: RoutableView<any EditorView>(), path: .custom(from: toolbar))
        }

        let error = try #require(routingError { try route.removeRoute() })
        try route.perform(path: .custom(from: home))

        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be removed: its source ToolbarScreen is gone (deallocated), and "
                + "the route's own removal (removeCustomTransition) undoes its transition from it."
        )
        #expect(route.state == .routed)
        #expect(dock.kept.count == 2)
    }
}

/// Routes whose source is gone, on a host that undoes a transition from its source only.
extension HeadlessViewRoutingTests {
    /// A sign-in screen pushed from an editor that the user then popped, going home, which freed
    /// the editor: its route, and the screen, which something keeps alive (as an app may), so that
    /// only its source is gone.
    func signInPushedFromAFreedEditor() throws -> (route: ViewRoute<any SignInView>, screen: any SignInView) {
        let editorRoute = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let route = try router.perform(
            to: RoutableView<any SignInView>(),
            path: .push(from: try #require(editorRoute.destination))
        )
        let screen = try #require(route.destination)
        _ = try host.popToRoot(ofStackContaining: home)
        return (route, screen)
    }
}

@MainActor
@Suite struct SourceGoneOnAHostWithoutOrphanedUndoTests {
    let home = HomeScreen()
    let host = RecordingHost()

    @Test func removingTheRouteSaysTheHostCannotAndTheRoutePerformsAgain() throws {
        let router = Router(container: Container(), host: host)
        let made = Counter()
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: made.next()) }
        let route: ViewRoute<any EditorView>
        do {
            let toolbar = HeadlessScreen("ToolbarScreen")
            route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: toolbar))
        }

        let error = try #require(routingError { try route.removeRoute() })
        try route.perform(path: .push(from: home))

        #expect(error.code == .actionFailed)
        #expect(
            error.message
                == "RoutableView<EditorView> cannot be removed: ToolbarScreen is gone (deallocated), and this host "
                + "undoes a transition from its source only, so it cannot undo push EditorScreen #1 from ToolbarScreen. "
                + "Fix: keep ToolbarScreen alive while EditorScreen #1 is shown, or implement refusal(toUndo:) and "
                + "undo(_:) for an OrphanedTransition in the host."
        )
        #expect(route.state == .routed)
        #expect(
            host.log == [
                "perform push EditorScreen #1 from ToolbarScreen", "perform push EditorScreen #2 from HomeScreen",
            ]
        )
    }
}

/// A route that shows its screen in a dock of its own, which holds it as a platform's would.
private struct DockRoute: ViewRouteDefinition {
    let dock: Keeper<AnyObject>
    var supportedPaths: ViewRoutePaths { [.custom] }

    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> EditorScreen {
        EditorScreen(serial: 3)
    }

    @MainActor func performCustomTransition(
        _ destination: EditorScreen,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        dock.keep(destination)
        completion()
    }

    @MainActor func removeCustomTransition(
        _ destination: EditorScreen,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        completion()
    }
}
