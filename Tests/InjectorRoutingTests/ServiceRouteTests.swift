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

@Suite struct ServiceRouteTests {
    @Test func aClosureRouteIsAContainerRegistrationOfItsProtocol() throws {
        let container = Container()
        container.register((any Clock).self) { _ in FixedClock(now: 42) }
        let router = Router(container: container)
        router.register(RoutableService<any TimeSource>(), scope: .singleton) { r in
            SystemTime(clock: try r.resolve((any Clock).self))
        }

        let routed = try router.makeDestination(to: RoutableService<any TimeSource>())
        let resolved = try container.resolve((any TimeSource).self)

        #expect(routed.now == 42)
        #expect(routed === resolved)  // one singleton: the route is the container's registration
    }

    @Test func performReturnsARoutedRouteWhoseDestinationWasMade() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }

        let route = try router.perform(to: RoutableService<any Exporter>())

        #expect(route.state == .routed)
        #expect(route.canRemove)
    }

    @Test func toReturnsAnUnroutedRouteThatPerformsLater() throws {
        let router = Router(container: Container())
        let made = Counter()
        router.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: made.next()) }

        let route = try router.to(RoutableService<any Exporter>())
        #expect(route.state == .unrouted)
        #expect(made.value == 0)

        try route.perform()
        #expect(route.state == .routed)
        #expect(made.value == 1)
    }

    @Test func aRoutedServiceRoutePerformsAgainWithAFreshDestination() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let keeper = Keeper<any Exporter>()  // kept alive, so that two objects cannot share an address
        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
            config.successHandler = { keeper.keep($0) }
        }

        try route.perform()

        #expect(route.state == .routed)
        #expect(keeper.kept.count == 2)
        #expect(keeper.kept[0] !== keeper.kept[1])
    }

    @Test func providerHandlersFireOnEveryPerformAndPerformerHandlersOnce() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let log = EventLog()
        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
            config.successHandler = { _ in log.record("provider success") }
            config.completionHandler = { _, result in log.record("provider completion \((try? result.get()) != nil)") }
            config.performerSuccessHandler = { _ in log.record("performer success") }
        }
        try route.perform(successHandler: { _ in log.record("second performer success") })
        try route.perform()

        #expect(
            log.entries == [
                "provider success", "provider completion true", "performer success",
                "provider success", "provider completion true", "second performer success",
                "provider success", "provider completion true",
            ]
        )
    }

    @Test func handlersRunInTheDocumentedOrderOnSuccess() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let log = EventLog()
        try router.perform(to: RoutableService<any Exporter>()) { config in
            config.stateNotifier = { old, new in log.record("state \(old) -> \(new)") }
            config.prepareDestination = { _ in log.record("caller preparation") }
            config.successHandler = { _ in log.record("success") }
            config.completionHandler = { _, _ in log.record("completion") }
            config.performerSuccessHandler = { _ in log.record("performer success") }
        }

        #expect(
            log.entries == [
                "state unrouted -> routing", "caller preparation", "state routing -> routed", "success", "completion",
                "performer success",
            ]
        )
    }

    @Test func aSuccessHandlerThatRemovesTheRouteEndsThatPerformsHandlers() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let (log, successes) = (EventLog(), Counter())
        let box = RouteBox<any Exporter>(nil)
        box.reentrant = try router.to(RoutableService<any Exporter>()) { config in
            config.successHandler = { _ in
                log.record("success")
                if successes.next() == 2 { try? box.reentrant?.removeRoute { log.record("removed") } }
            }
            config.completionHandler = { action, _ in log.record("completion of \(action)") }
        }
        let route = try #require(box.reentrant)

        for perform in 1...3 {
            try route.perform(successHandler: { _ in log.record("caller success \(perform)") })
        }

        #expect(
            log.entries == [
                "success", "completion of performRoute", "caller success 1",
                "success", "removed",
                "success", "completion of performRoute", "caller success 3",
            ]
        )
        #expect(route.state == .routed)
    }

    @Test func aRouteItsStateNotifierRemovesTellsNoSuccessHandler() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let log = EventLog()
        let box = RouteBox<any Exporter>(nil)
        box.reentrant = try router.to(RoutableService<any Exporter>()) { config in
            config.stateNotifier = { old, new in
                log.record("\(old) -> \(new)")
                if new == .routed { try? box.reentrant?.removeRoute() }
            }
            config.successHandler = { _ in log.record("success") }
            config.completionHandler = { _, _ in log.record("completion") }
        }

        try box.reentrant?.perform(successHandler: { _ in log.record("caller success") })

        #expect(box.reentrant?.state == .removed)
        #expect(
            log.entries == [
                "unrouted -> routing", "routing -> routed", "routed -> removing", "removing -> removed",
            ]
        )
    }

    @Test func theCallersPreparationIsSeenByTheSuccessHandler() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let formats = EventLog()

        try router.perform(to: RoutableService<any Exporter>()) { config in
            config.prepareDestination = { $0.format = "pdf" }
            config.successHandler = { formats.record($0.format) }
        }

        #expect(formats.entries == ["pdf"])
    }

    @Test func aFailedMakeCallsEachErrorHandlerOnceAndLeavesTheRouteUnrouted() throws {
        let container = Container()
        let router = Router(container: container)
        router.register(RoutableService<any TimeSource>()) { r in SystemTime(clock: try r.resolve((any Clock).self)) }
        let log = EventLog()
        router.globalErrorHandler = { action, error in log.record("global \(action) \(error.code)") }
        let route = try router.to(RoutableService<any TimeSource>()) { config in
            config.stateNotifier = { old, new in log.record("state \(old) -> \(new)") }
            config.successHandler = { _ in log.record("success") }
            config.errorHandler = { action, error in log.record("error \(action) \(error.code)") }
            config.completionHandler = { _, result in log.record("completion \((try? result.get()) != nil)") }
            config.performerErrorHandler = { _, _ in log.record("performer error") }
        }

        let error = try #require(routingError { try route.perform() })

        #expect(route.state == .unrouted)
        #expect(error.code == .destinationUnavailable)
        #expect(
            error.message.hasPrefix(
                "RoutableService<TimeSource> (the route registered at InjectorRoutingTests/ServiceRouteTests.swift:"
            )
        )
        #expect(error.message.contains("could not make its destination. No registration for Clock"))
        #expect(error.message.contains("TimeSource -> Clock (missing)"))
        #expect(error.injectionError?.code == .missingRegistration)
        #expect(
            log.entries == [
                "state unrouted -> routing", "state routing -> unrouted", "error performRoute destinationUnavailable",
                "completion false", "performer error", "global performRoute destinationUnavailable",
            ]
        )
    }

    @Test func aFailedRePerformReturnsTheRouteToRouted() throws {
        let router = Router(container: Container())
        let made = Counter()
        router.register(RoutableService<any Exporter>()) { _ in
            guard made.next() == 1 else { throw TestFailure("disk full") }
            return FileExporter()
        }
        let route = try router.perform(to: RoutableService<any Exporter>())

        let error = try #require(routingError { try route.perform() })

        #expect(route.state == .routed)
        #expect(error.code == .destinationUnavailable)
        #expect(error.message.contains("disk full"))
    }

    @Test func performingARouteThatIsRoutingIsOverRoute() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let inner = EventLog()
        let box = RouteBox<any Exporter>(nil)
        let reentrant = try router.to(RoutableService<any Exporter>()) { config in
            config.prepareDestination = { _ in
                // The route's own perform is under way: performing it again is an over-route.
                if let error = routingError({ try box.reentrant?.perform() }) {
                    inner.record("\(error.code): \(error.message)")
                }
            }
        }
        box.reentrant = reentrant
        try reentrant.perform()

        #expect(
            inner.entries == [
                "overRoute: RoutableService<Exporter> is being performed already (its state is routing). Fix: perform "
                    + "it again once that perform has finished, or use another route."
            ]
        )
        #expect(reentrant.state == .routed)
    }

    @Test func routesThatMakeEachOtherFromTheirHooksAreACycleNotACrash() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .prepare { _, context in _ = try context.router.makeDestination(to: RoutableService<any Logger>()) }
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
            .prepare { _, context in _ = try context.router.makeDestination(to: RoutableService<any Exporter>()) }
        let global = Counter()
        router.globalErrorHandler = { _, _ in global.next() }

        let error = try #require(routingError { _ = try router.makeDestination(to: RoutableService<any Exporter>()) })

        #expect(error.code == .cycle)  // the loop, not the hook it surfaced in
        #expect(
            error.message
                == "Routes make each other: RoutableService<Exporter> -> RoutableService<Logger> -> "
                + "RoutableService<Exporter>, through their hooks, preparations or interceptors, so the making would "
                + "never end. Fix: let one of them get the other later (when it is used), not while it is being made."
        )
        #expect(global.value == 1)  // one failure, reported once
    }

    @Test func aRouteWhoseFactoryFailsToMakeAnotherRouteNamesBothAndTheFailureIsReportedOnceWhereItArose() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any TimeSource>()) { [unowned router] _ in
            _ = try router.makeDestination(to: RoutableService<any Clock>())
            return SystemTime(clock: FixedClock())
        }
        let global = EventLog()
        router.globalErrorHandler = { action, error in global.record("\(action) \(error.code)") }

        let error = try #require(
            routingError { _ = try router.makeDestination(to: RoutableService<any TimeSource>()) }
        )

        #expect(error.code == .destinationUnavailable)
        #expect(error.message.hasPrefix("RoutableService<TimeSource> (the route registered at "))
        #expect(
            error.message.contains("could not make its destination: No route is registered for RoutableService<Clock>.")
        )
        // Told once, where it arose: the inner lookup, not again as the outer failure.
        #expect(global.entries == ["makeDestination invalidProtocol"])
    }

    @Test func eachRouterIsToldOfAFailureOnceWhenItAroseInAnotherRouter() throws {
        let inner = Router(container: Container())
        let outer = Router(container: Container())
        let told = EventLog()
        inner.globalErrorHandler = { action, error in told.record("inner: \(action) \(error.code)") }
        outer.globalErrorHandler = { action, error in told.record("outer: \(action) \(error.code)") }
        outer.register(RoutableService<any TimeSource>()) { _ in
            _ = try inner.makeDestination(to: RoutableService<any Clock>())
            return SystemTime(clock: FixedClock())
        }

        let error = try #require(routingError { _ = try outer.makeDestination(to: RoutableService<any TimeSource>()) })

        #expect(error.code == .destinationUnavailable)
        #expect(
            told.entries == ["inner: makeDestination invalidProtocol", "outer: makeDestination destinationUnavailable"]
        )
    }

    @Test func removingMovesThroughRemovingToRemovedAndRunsTheRemovalHook() throws {
        let router = Router(container: Container())
        let log = EventLog()
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .onRemove { exporter, context in log.record("removed \(exporter.format) in \(context.action)") }
        let keeper = Keeper<any Exporter>()  // the route holds its destination weakly: someone must keep it
        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
            config.stateNotifier = { old, new in log.record("\(old) -> \(new)") }
            config.successHandler = { keeper.keep($0) }
        }
        log.clear()

        try route.removeRoute(successHandler: { log.record("remove success") })

        #expect(route.state == .removed)
        #expect(route.destination == nil)
        #expect(
            log.entries == [
                "routed -> removing", "removed text in removeRoute", "removing -> removed", "remove success",
            ]
        )
    }

    @Test func removingARouteWhoseDestinationIsGoneRunsNoRemovalHook() throws {
        let router = Router(container: Container())
        let log = EventLog()
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .onRemove { exporter, _ in log.record("removed \(exporter.format)") }
        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
            config.stateNotifier = { old, new in log.record("\(old) -> \(new)") }
        }
        #expect(route.destination == nil)  // nothing kept the exporter: the route held it weakly
        log.clear()

        try route.removeRoute(successHandler: { log.record("remove success") })

        #expect(route.state == .removed)
        #expect(log.entries == ["routed -> removing", "removing -> removed", "remove success"])
    }

    @Test func aRemovedRouteCanBePerformedAgain() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let route = try router.perform(to: RoutableService<any Exporter>())
        try route.removeRoute()

        try route.perform()

        #expect(route.state == .routed)
    }

    @Test func removingARouteThatIsNotRoutedFailsWithActionFailed() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let route = try router.to(RoutableService<any Exporter>())
        let log = EventLog()
        router.globalErrorHandler = { action, error in log.record("global \(action) \(error.code)") }

        let error = try #require(
            routingError {
                try route.removeRoute(errorHandler: { action, _ in log.record("performer \(action)") })
            }
        )

        #expect(error.code == .actionFailed)
        #expect(error.action == .removeRoute)
        #expect(
            error.message
                == "RoutableService<Exporter> cannot be removed: its state is unrouted, and only a routed route can be "
                + "removed. Fix: check canRemove before removing."
        )
        #expect(log.entries == ["performer removeRoute", "global removeRoute actionFailed"])
        #expect(route.state == .unrouted)
    }

    @Test func aFailingRemovalHookLeavesTheRouteRouted() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .onRemove { _, _ in throw TestFailure("still exporting") }
        let keeper = Keeper<any Exporter>()
        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
            config.successHandler = { keeper.keep($0) }
        }

        let error = try #require(routingError { try route.removeRoute() })

        #expect(route.state == .routed)
        #expect(error.code == .actionFailed)
        #expect(error.message == "The removal hook of RoutableService<Exporter> threw: still exporting")
    }

    @Test func performingARoutedRouteAgainRunsTheRemovalHookOfTheDestinationItReplaces() throws {
        let router = Router(container: Container())
        let made = Counter()
        let log = EventLog()
        router.register(RoutableService<any Exporter>()) { _ in FileExporter(serial: made.next()) }
            .onRemove { exporter, context in
                log.record("removed #\((exporter as! FileExporter).serial) in \(context.action)")
            }
        let keeper = Keeper<any Exporter>()
        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
            config.successHandler = { keeper.keep($0) }
        }

        try route.perform()

        #expect(route.state == .routed)
        #expect((route.destination as? FileExporter)?.serial == 2)
        #expect(log.entries == ["removed #1 in removeRoute"])
        try route.removeRoute()
        #expect(log.entries == ["removed #1 in removeRoute", "removed #2 in removeRoute"])
    }

    @Test func performingASharedRouteAgainKeepsItsDestinationWithoutRemovingIt() throws {
        let router = Router(container: Container())
        let log = EventLog()
        router.register(RoutableService<any Exporter>(), scope: .singleton) { _ in FileExporter() }
            .onRemove { _, _ in log.record("removed") }
        let route = try router.perform(to: RoutableService<any Exporter>())

        try route.perform()

        #expect(route.state == .routed)
        #expect(log.entries.isEmpty, "the singleton is the destination still: nothing to undo")
    }

    @Test func performingASharedRouteOpenedByURLAgainKeepsItsDestinationWithoutRemovingIt() throws {
        let router = Router(container: Container())
        let log = EventLog()
        router.register(RoutableService<any Logger>(), scope: .singleton) { _ in ConsoleLogger() }
            .url("app://log")
            .onRemove { _, _ in log.record("removed logger") }
        let keeper = Keeper<Any>()
        let route = try router.perform(url: "app://log") { $0.successHandler = { keeper.keep($0) } }

        try route.perform()

        #expect(log.entries.isEmpty, "the destination, typed Any, is the singleton still")
        #expect(route.destination is ConsoleLogger)
    }

    @Test func aRouteOpenedByURLWhoseDestinationIsGoneHasNone() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }.url("app://export")

        let route = try router.perform(url: "app://export")  // nothing keeps the exporter

        #expect(route.destination == nil)
    }

    @Test func aFailingRemovalHookOfAReplacedDestinationIsReportedAndThePerformSucceeds() throws {
        let router = Router(container: Container())
        let told = EventLog()
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .onRemove { _, _ in throw TestFailure("still exporting") }
        router.globalErrorHandler = { action, error in told.record("global \(action): \(error.message)") }
        let keeper = Keeper<any Exporter>()
        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
            config.successHandler = { keeper.keep($0) }
            config.errorHandler = { action, error in told.record("route \(action) \(error.code)") }
        }

        try route.perform()

        #expect(route.state == .routed)
        #expect(keeper.kept.count == 2)
        #expect(
            told.entries == [
                "route removeRoute actionFailed",
                "global removeRoute: The removal hook of RoutableService<Exporter> threw: still exporting",
            ]
        )
    }

    @Test func performingARouteThatIsBeingRemovedFails() throws {
        let router = Router(container: Container())
        let box = RouteBox<any Exporter>(nil)
        let seen = EventLog()
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .onRemove { _, _ in
                if let error = routingError({ try box.reentrant?.perform() }) { seen.record("\(error.code)") }
            }
        let keeper = Keeper<any Exporter>()
        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
            config.successHandler = { keeper.keep($0) }
        }
        box.reentrant = route

        try route.removeRoute()

        #expect(seen.entries == ["actionFailed"])
        #expect(route.state == .removed)
    }

    @Test func aRouteDoesNotKeepAnObjectDestinationAlive() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }

        let route = try router.perform(to: RoutableService<any Exporter>())

        #expect(route.destination == nil)  // transient: nobody else holds it
    }

    @Test func aRouteKeepsASingletonDestinationAsLongAsTheContainerDoes() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), scope: .singleton) { _ in FileExporter() }

        let route = try router.perform(to: RoutableService<any Exporter>())

        #expect(route.destination != nil)
    }

    @Test func aRouteKeepsACopyOfAValueDestination() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Greeting>()) { _ in PlainGreeting(text: "hello") }

        let route = try router.perform(to: RoutableService<any Greeting>()) { config in
            config.prepareDestination = { $0.text += ", world" }
        }

        #expect(route.destination?.text == "hello, world")
    }

    @Test func aLookupThatFindsNoRouteIsInvalidProtocolAndReachesTheGlobalHandler() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
        let log = EventLog()
        router.globalErrorHandler = { action, error in log.record("\(action) \(error.code)") }

        let error = try #require(routingError { _ = try router.to(RoutableService<any TimeSource>()) })

        #expect(error.code == .invalidProtocol)
        #expect(
            error.message
                == "No route is registered for RoutableService<TimeSource>. Registered routes: "
                + "RoutableService<Exporter>. Fix: register one with router.register(RoutableService<TimeSource>(), "
                + "…), or adapt the protocol to one that has a route with router.adapt(RoutableService<TimeSource>(), "
                + "to: …)."
        )
        #expect(log.entries == ["lookUp invalidProtocol"])
    }

    @Test func makeDestinationOfAnUnroutedProtocolFailsEvenIfTheContainerHasIt() throws {
        let container = Container()
        container.register((any Clock).self) { _ in FixedClock() }
        let router = Router(container: container)

        let error = try #require(routingError { _ = try router.makeDestination(to: RoutableService<any Clock>()) })

        #expect(error.code == .invalidProtocol)
        #expect(error.message.hasPrefix("No route is registered for RoutableService<Clock>."))
    }

    @Test func routesAreKeyedByTypeIdentityNotByName() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any First.Clock>()) { _ in First.Tick() }
        router.register(RoutableService<any Second.Clock>()) { _ in Second.Tock() }

        #expect(try router.makeDestination(to: RoutableService<any First.Clock>()).name == "tick")
        #expect(try router.makeDestination(to: RoutableService<any Second.Clock>()).name == "tock")
    }

    @Test func aRouterResolvingInAScopeMakesScopedDestinationsThere() throws {
        let container = Container()
        let router = Router(container: container)
        router.register(RoutableService<any Exporter>(), scope: .scoped) { _ in FileExporter() }
        let request = container.makeScope()

        let first = try router.resolving(in: request).makeDestination(to: RoutableService<any Exporter>())
        let second = try router.resolving(in: request).makeDestination(to: RoutableService<any Exporter>())
        let fromRoot = try #require(
            routingError { _ = try router.makeDestination(to: RoutableService<any Exporter>()) }
        )

        #expect(first === second)
        #expect(fromRoot.code == .destinationUnavailable)
        #expect(fromRoot.injectionError?.code == .scopeMismatch)
        try request.close()
    }
}

/// Two protocols with one name, in two namespaces.
enum First {
    protocol Clock { var name: String { get } }
    struct Tick: Clock { let name = "tick" }
}
enum Second {
    protocol Clock { var name: String { get } }
    struct Tock: Clock { let name = "tock" }
}
extension RoutableService where Protocol == any First.Clock {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Second.Clock {
    init() { self.init(declaredProtocol: Protocol.self) }
}

/// Lets a preparation or hook reach a route made after it.
final class RouteBox<Destination>: @unchecked Sendable {
    let route: ServiceRoute<Destination>!
    var reentrant: ServiceRoute<Destination>?
    init(_ route: ServiceRoute<Destination>?) { self.route = route }
}

/// Keeps destinations alive, as a caller that uses them would.
final class Keeper<Destination>: @unchecked Sendable {
    private(set) var kept: [Destination] = []
    func keep(_ destination: Destination) { kept.append(destination) }
}
