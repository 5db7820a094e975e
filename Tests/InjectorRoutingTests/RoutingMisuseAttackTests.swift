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

// Misuse of the routing layer an app team's attack found: tasks started while a route is made, the
// fixes errors suggest for view routes, and routers used with another host's or container's objects.

protocol MisuseFeed: AnyObject, Sendable {}
final class MisuseFeedService: MisuseFeed {}
extension RoutableService where Protocol == any MisuseFeed {
    init() { self.init(declaredProtocol: Protocol.self) }
}

@MainActor protocol MisuseDetailView: AnyObject { var noteID: Int { get } }
@MainActor final class MisuseDetailScreen: MisuseDetailView {
    let noteID: Int
    var follow: Task<Void, Never>?
    init(noteID: Int) { self.noteID = noteID }
}
extension RoutableView where Protocol == any MisuseDetailView {
    init() { self.init(declaredProtocol: Protocol.self) }
}

@MainActor final class MisuseHome {}

protocol MisuseReport: Sendable { var id: Int { get } }
struct MisuseReportValue: MisuseReport { let id: Int }
extension RoutableService where Protocol == any MisuseReport {
    init() { self.init(declaredProtocol: Protocol.self) }
}
protocol MisuseExporter: Sendable { var report: any MisuseReport { get } }
struct MisuseExporterValue: MisuseExporter { let report: any MisuseReport }

/// A protocol a module routes both as a service (its model) and as a view.
protocol MisuseInbox: AnyObject, Sendable {}
final class MisuseInboxScreen: MisuseInbox {}
extension RoutableService where Protocol == any MisuseInbox {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any MisuseInbox {
    init() { self.init(declaredProtocol: Protocol.self) }
}

/// A value behind a lock, set in one task and read in another.
final class MisuseBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

@Suite struct RoutingMisuseAttackTests {
    // MARK: - A task started while a route is made does not inherit the making's stack or parameters

    @Test func aTaskStartedByARoutesFactoryCanLaterPerformThatRouteAgain() async throws {
        let router = Router(container: Container())
        // An app's router has interceptors (sign-in, analytics): the route takes the full pipeline.
        router.addInterceptor(named: "analytics") { _ in .proceed }
        let spawned = MisuseBox<Task<String, Never>?>(nil)
        router.register(RoutableService<any MisuseFeed>()) { _ in
            // A service that starts long-lived work in its init (a sync loop), which later asks for
            // another instance of its own route: no cycle, another task, another time.
            if spawned.value == nil {
                spawned.value = Task {
                    try? await Task.sleep(for: .milliseconds(50))
                    do {
                        _ = try router.makeDestination(to: RoutableService<any MisuseFeed>())
                        return "made"
                    } catch let error as RoutingError {
                        return "\(error.code): \(error.message)"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return MisuseFeedService()
        }
        _ = try router.makeDestination(to: RoutableService<any MisuseFeed>())
        let outcome = await spawned.value!.value
        #expect(outcome == "made")
    }

    @Test @MainActor func aTaskStartedByAScreenMadeByItsRouteCanOpenThatRouteLater() async throws {
        let home = MisuseHome()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        let outcome = MisuseBox<String?>(nil)
        router.register(RoutableView<any MisuseDetailView>()) { (_, parameters: RouteParameters) in
            let screen = MisuseDetailScreen(noteID: try parameters.value("id", as: Int.self))
            // The screen's model follows a "next note" stream and opens each note it is sent.
            if screen.noteID == 1 {
                screen.follow = Task { @MainActor [weak screen] in
                    await Task.yield()
                    guard let screen else { return }
                    do {
                        try router.perform(url: "misuse://notes/2", path: .push(from: screen))
                        outcome.value = "opened"
                    } catch let error as RoutingError {
                        outcome.value = "\(error.code): \(error.message)"
                    } catch {
                        outcome.value = "\(error)"
                    }
                }
            }
            return screen
        }
        .url("misuse://notes/:id")
        let route = try router.perform(url: "misuse://notes/1", path: .push(from: home))
        let screen = try #require(route.destination as? MisuseDetailScreen)
        await screen.follow?.value
        #expect(outcome.value == "opened")
    }

    @Test func aTaskStartedByAParameterisedFactoryDoesNotInheritThatCallsParameters() async throws {
        let container = Container()
        let router = Router(container: container)
        // A service resolved from the container that needs the report: it has no parameters to give.
        container.register((any MisuseExporter).self) { r in
            MisuseExporterValue(report: try r.resolve((any MisuseReport).self))
        }
        let spawned = MisuseBox<Task<String, Never>?>(nil)
        router.register(RoutableService<any MisuseReport>()) { (_, parameters: RouteParameters) in
            let id = try parameters.value("id", as: Int.self)
            if spawned.value == nil {
                spawned.value = Task {
                    try? await Task.sleep(for: .milliseconds(20))
                    do {
                        return "built with \(try container.resolve((any MisuseExporter).self).report.id)"
                    } catch {
                        return "refused"
                    }
                }
            }
            return MisuseReportValue(id: id)
        }
        .url("misuse://reports/:id")
        _ = try router.makeDestination(url: "misuse://reports/7", as: (any MisuseReport).self)
        let outcome = await spawned.value!.value
        // Resolved later, in another task, from the container: no call gave it parameters.
        #expect(outcome == "refused")
    }

    // MARK: - A view route's missing parameter: the fix names a call that shows a view

    @Test @MainActor func aViewRoutesMissingParameterFixNamesACallThatShowsAView() throws {
        let container = Container()
        let router = Router(container: container, host: HeadlessNavigationHost(navigationStackWith: MisuseHome()))
        router.register(RoutableView<any MisuseDetailView>()) { (_, parameters: RouteParameters) in
            MisuseDetailScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("misuse://notes/:id")
        // The calls it named were service calls, which refuse a view route.
        let error = try #require(injectionError { _ = try container.resolve((any MisuseDetailView).self) })
        let routing = try #require(error.underlyingError as? RoutingError)
        #expect(routing.code == .invalidConfiguration)
        #expect(
            routing.message
                == "RoutableView<MisuseDetailView> needs the parameter \"id\" (an Int), but its registration was resolved "
                + "without its router (directly from the container, or by the container's validate()), which has no "
                + "parameters to give. Fix: show it through the router (router.perform(url:path:), on the main actor), "
                + "and validate with router.validate(), which lists such routes as needing parameters."
        )
    }

    @Test @MainActor func aViewRouteMissingAParameterWhenPerformedByProtocolIsNotToldToUseAnIdentifier() throws {
        let home = MisuseHome()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        router.register(RoutableView<any MisuseDetailView>()) { (_, parameters: RouteParameters) in
            MisuseDetailScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("misuse://notes/:id")
        let error = try #require(
            routingError { try router.perform(to: RoutableView<any MisuseDetailView>(), path: .push(from: home)) }
        )
        // No view call takes parameters or an identifier.
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "RoutableView<MisuseDetailView> needs the parameter \"id\" (an Int), which the call does not give; given: "
                + "none. Fix: open it by a URL that gives the parameter, with router.perform(url:path:), or give the "
                + "route a default for it."
        )
    }

    // MARK: - Another host's router, another container's scope

    @Test @MainActor func restoringThroughARouterOfAnotherHostThrowsRatherThanStopsTheApp() throws {
        let home = HomeScreen()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
        let saved = try host.savedNavigation()
        // The next launch's window, restored by mistake through the old window's router.
        let restoredHome = HomeScreen()
        let restored = HeadlessNavigationHost(navigationStackWith: restoredHome)
        let error = try #require(routingError { try restored.restore(saved, through: router) })
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "A saved navigation is restored through a router whose host is another host (HeadlessNavigationHost), "
                + "which would show its screens there. Nothing was shown. Fix: restore it through a router made with "
                + "this host: Router(container:host:)."
        )
        #expect(restored.navigationStack(containing: restoredHome)?.count == 1)
    }

    @Test func aRouterResolvingInAScopeOfAnotherContainerIsRefused() throws {
        let windowA = Container()
        let routerA = Router(container: windowA)
        routerA.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: 1) }
            .prepare { exporter, _ in exporter.steps.append("A's preparation") }
        // Another window's container registers the same protocol (its own router's route).
        let windowB = Container()
        let routerB = Router(container: windowB)
        routerB.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: 2) }
        let sessionB = windowB.makeScope()
        defer { try? sessionB.close() }
        // By mistake, window A's router is asked to resolve in window B's session.
        let error = try #require(
            routingError {
                _ = try routerA.resolving(in: sessionB).makeDestination(to: RoutableService<any Exporter>())
            }
        )
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "router.resolving(in:) was given a lifetime scope of a container that is neither the router's nor one of "
                + "its children: the router's routes would resolve in a container that does not register them, or "
                + "registers others. Fix: make the scope from the router's container or a child of it, or resolve "
                + "through the router of the scope's container."
        )
        // A scope of the router's container's child is the router's.
        let child = windowA.makeChild().makeScope()
        defer { try? child.close() }
        let exporter = try routerA.resolving(in: child).makeDestination(to: RoutableService<any Exporter>())
        #expect(exporter.steps == ["A's preparation"])
    }

    // MARK: - The nearest miss: the protocol routed as another kind

    @Test @MainActor func aViewRouteMissingWhereItsProtocolHasAServiceRouteNamesThatRoute() throws {
        let home = HomeScreen()
        let router = Router(container: Container(), host: HeadlessNavigationHost(navigationStackWith: home))
        // Registered as a service by mistake, then performed as a view.
        router.register(RoutableService<any MisuseInbox>()) { _ in MisuseInboxScreen() }
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 1) }
        let error = try #require(
            routingError { try router.perform(to: RoutableView<any MisuseInbox>(), path: .push(from: home)) }
        )
        #expect(error.code == .invalidProtocol)
        #expect(
            error.message
                == "No route is registered for RoutableView<MisuseInbox>. The protocol has a route of another kind: "
                + "RoutableService<MisuseInbox>. Registered routes: RoutableView<EditorView>. Fix: register one with "
                + "router.register(RoutableView<MisuseInbox>(), …), or adapt the protocol to one that has a route "
                + "with router.adapt(RoutableView<MisuseInbox>(), to: …)."
        )
    }
}
