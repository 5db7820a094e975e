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

// The swift block of ViewRouteDefinition's doc comment, verbatim: a view route with its own
// transition, performed along `ViewRoutePath/custom(from:)` and removed, and refusing the paths it
// does not list.

/// The doc comment's types, and its tests.
enum ViewRouteDefinitionDoc {
    fileprivate protocol NoteStore: Sendable {}
    fileprivate struct MemoryNoteStore: NoteStore {}
    fileprivate protocol InboxView: AnyObject {}
    fileprivate final class InboxScreen: InboxView, CustomStringConvertible {
        let store: any NoteStore
        init(store: any NoteStore) { self.store = store }
        var description: String { "InboxScreen" }
    }

    /// The tabs the route switches: they hold the selected screens, as a tab bar controller does
    /// (the route holds its destination weakly), and say what they selected and deselected.
    @MainActor
    fileprivate final class Tabs {
        var log: [String] = []
        var screens: [AnyObject] = []
        func select(_ screen: AnyObject) {
            screens.append(screen)
            log.append("select \(screen)")
        }
        func deselect(_ screen: AnyObject) {
            screens.removeAll { $0 === screen }
            log.append("deselect \(screen)")
        }
    }

    // The route as the doc comment lays it out, which the formatter would not.
    // swift-format-ignore
    fileprivate struct TabSwitchRoute: ViewRouteDefinition {
        let tabs: Tabs
        var supportedPaths: ViewRoutePaths { [.custom, .makeDestination] }
        func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> InboxScreen {
            InboxScreen(store: try resolver.resolve((any NoteStore).self))
        }
        func performCustomTransition(
            _ destination: InboxScreen, from source: AnyObject, completion: @escaping @MainActor () -> Void
        ) throws {
            tabs.select(destination)
            completion()
        }
        func removeCustomTransition(
            _ destination: InboxScreen, from source: AnyObject, completion: @escaping @MainActor () -> Void
        ) throws {
            tabs.deselect(destination)
            completion()
        }
    }
}

extension RoutableView where Protocol == any ViewRouteDefinitionDoc.InboxView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension ViewRouteDefinitionDoc {
    @MainActor
    struct ViewRouteDefinitionDocTests {
        let home = HomeScreen()
        fileprivate let tabs = Tabs()

        private func makeRouter() -> Router {
            let container = Container()
            container.register((any NoteStore).self) { _ in MemoryNoteStore() }
            let router = Router(container: container, host: HeadlessNavigationHost(navigationStackWith: home))
            router.register(RoutableView<any InboxView>(), route: TabSwitchRoute(tabs: tabs))
            return router
        }

        @Test func theRoutesOwnTransitionShowsTheScreenAndItsRemovalUndoesIt() throws {
            let router = makeRouter()
            let route = try router.perform(to: RoutableView<any InboxView>(), path: .custom(from: home))
            #expect(route.state == .routed)
            #expect(tabs.log == ["select InboxScreen"])

            try route.removeRoute()
            #expect(route.state == .removed)
            #expect(tabs.log == ["select InboxScreen", "deselect InboxScreen"])
            #expect(tabs.screens.isEmpty)
        }

        @Test func aPathTheRouteDoesNotListIsUnsupported() throws {
            let router = makeRouter()
            let error = try #require(
                routingError { try router.perform(to: RoutableView<any InboxView>(), path: .push(from: home)) }
            )
            #expect(error.code == .unsupportedPath)
            #expect(
                error.message
                    == "RoutableView<InboxView> does not support the path push(from: HomeScreen): it supports custom "
                    + "and makeDestination. Fix: use one of those, or add .push to the route's supportedPaths."
            )
            #expect(tabs.log.isEmpty)
            _ = try router.makeDestination(to: RoutableView<any InboxView>())  // makeDestination is listed
        }
    }
}
