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

protocol RestoreAttackCloudExport: AnyObject, Sendable {}
extension RoutableService where Protocol == any RestoreAttackCloudExport {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension FileExporter: RestoreAttackCloudExport {}

protocol RestoreAttackPlayerView: AnyObject {}
/// A screen that holds a resource (a player): its lifetime scope disposes it when it closes.
final class RestoreAttackPlayerScreen: RestoreAttackPlayerView, Disposable {
    func dispose() throws {}
}
extension RoutableView where Protocol == any RestoreAttackPlayerView {
    init() { self.init(declaredProtocol: Protocol.self) }
}

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

    // MARK: - A child router that adapts a protocol its parent routes

    @Test func aChildRoutersAdapterServesAProtocolItsParentRoutes() throws {
        let parent = Container()
        let parentRouter = Router(container: parent)
        parentRouter.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: 1) }
            .prepare { exporter, _ in exporter.steps.append("parent's preparation") }
        let child = parent.makeChild()
        let childRouter = Router(container: child)
        // The feature module served by this child container exports to the cloud instead.
        childRouter.register(RoutableService<any RestoreAttackCloudExport>()) { _ in FileExporter(serial: 2) }
            .prepare { exporter, _ in (exporter as? FileExporter)?.steps.append("cloud preparation") }
        childRouter.adapt(RoutableService<any Exporter>(), to: RoutableService<any RestoreAttackCloudExport>())

        let fromContainer = try child.resolve((any Exporter).self) as? FileExporter
        let routed = try childRouter.makeDestination(to: RoutableService<any Exporter>()) as? FileExporter
        // The container and the router agree on which route serves the protocol, and its hooks with it.
        #expect(fromContainer?.serial == routed?.serial)
        #expect(routed?.serial == 2)
        #expect(routed?.steps == ["cloud preparation"])
        // The parent's router still serves it with its own route.
        let parents = try parentRouter.makeDestination(to: RoutableService<any Exporter>()) as? FileExporter
        #expect(parents?.serial == 1)
        #expect(parents?.steps == ["parent's preparation"])
    }

    // MARK: - Leak checks and what keeps a screen on purpose

    /// A router over a fresh container, its host showing `home`, whose leak reports `watch` records.
    @MainActor private func watchedRouter(over home: HomeScreen) -> (Router, Container, LeakWatch) {
        let watch = LeakWatch(clock: ManualClock())
        let container = Container()
        let router = Router(
            container: container,
            host: HeadlessNavigationHost(navigationStackWith: home),
            clock: watch.clock
        )
        router.leakHandler = { watch.leaks.record($0.description) }
        return (router, container, watch)
    }

    @Test @MainActor func aScreenATestOverrideKeepsAsASingletonIsNotReportedAsALeak() async throws {
        let home = HomeScreen()
        let (router, container, watch) = watchedRouter(over: home)
        router.register(RoutableView<any PanelView>()) { _ in PanelScreen() }
        // A test swaps in a shared double: the container keeps it on purpose, as it does a singleton route's.
        try await container.withOverridesAsync {
            $0.register((any PanelView).self, scope: .singleton) { _ in PanelScreen() }
        } operation: {
            let route = try router.perform(to: RoutableView<any PanelView>(), path: .push(from: home))
            try route.removeRoute()
            await watch.expectNothingReported("the override's singleton was reported: \(watch.leaks.entries)")
        }
    }

    @Test @MainActor func aTransientScreenItsScopeKeepsToDisposeIsNotReportedBeforeTheScopeCloses() async throws {
        let home = HomeScreen()
        let (router, container, watch) = watchedRouter(over: home)
        router.register(RoutableView<any RestoreAttackPlayerView>()) { _ in RestoreAttackPlayerScreen() }
        let session = container.makeScope()
        let route = try router.resolving(in: session)
            .perform(to: RoutableView<any RestoreAttackPlayerView>(), path: .push(from: home))
        weak let screen = route.destination
        try route.removeRoute()
        // The session scope owns the transient disposable screen (to dispose it at close), on purpose.
        await watch.expectNothingReported()
        #expect(screen != nil)
        try await session.closeAsync()
        await watch.settle()
        #expect(screen == nil)
    }
}
