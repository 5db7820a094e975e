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

/// A route written as a type, logging each hook.
private struct LoggedExporterRoute: RouteDefinition {
    let log: EventLog
    let made: Counter

    var identifiers: [String] { ["exporter"] }

    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> FileExporter {
        log.record("make")
        let exporter = FileExporter(serial: made.next())
        exporter.format = parameters["format"] ?? exporter.format
        return exporter
    }

    func prepare(_ destination: inout FileExporter, context: RouteContext) throws {
        log.record("provider preparation (format \(destination.format))")
        destination.steps.append("provider")
    }

    func verify(_ destination: FileExporter, context: RouteContext) throws {
        log.record("verify")
        guard destination.format != "broken" else { throw TestFailure("the format \"broken\" cannot be exported") }
    }

    func remove(_ destination: FileExporter, context: RouteContext) throws {
        log.record("remove #\(destination.serial)")
    }
}

/// A route whose destination does not conform to the protocol it is registered for.
private struct WrongRoute: RouteDefinition {
    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> FixedClock { FixedClock() }
}

@Suite struct RouteDefinitionTests {
    @Test func preparationRunsCallerThenProviderThenCheck() throws {
        let log = EventLog()
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), route: LoggedExporterRoute(log: log, made: Counter()))

        let exporter = try router.makeDestination(to: RoutableService<any Exporter>()) { config in
            config.prepareDestination = { exporter in
                log.record("caller preparation")
                exporter.format = "pdf"
                exporter.steps.append("caller")
            }
        }

        #expect(log.entries == ["make", "caller preparation", "provider preparation (format pdf)", "verify"])
        #expect(exporter.steps == ["caller", "provider"])
    }

    @Test func preparingAnExistingDestinationNeverRunsTheFactory() throws {
        let log = EventLog()
        let made = Counter()
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), route: LoggedExporterRoute(log: log, made: made))
        let existing = FileExporter(serial: 99)

        let route = try router.prepare(destination: existing, for: RoutableService<any Exporter>()) { config in
            config.prepareDestination = { $0.steps.append("caller") }
        }

        #expect(made.value == 0)
        #expect(log.entries == ["provider preparation (format text)", "verify"])
        #expect(existing.steps == ["caller", "provider"])
        #expect(route.state == .routed)
        #expect(!route.canRemove)
        let removal = try #require(routingError { try route.removeRoute() })
        #expect(removal.code == .actionFailed)
        #expect(
            removal.message
                == "RoutableService<Exporter> prepared a destination made elsewhere (prepare(destination:for:)): it "
                + "did not make it, so it cannot remove it. Fix: remove it where it was made."
        )
        let notified = EventLog()
        let again = try #require(routingError { try route.perform(errorHandler: { _, _ in notified.record("error") }) })
        #expect(again.code == .actionFailed)
        #expect(
            again.message
                == "RoutableService<Exporter> prepared a destination made elsewhere (prepare(destination:for:)), so it "
                + "has nothing to perform. Fix: perform a route of its own with router.perform(to:), or router.to(_:)."
        )
        #expect(route.state == .routed)
        #expect(notified.entries == ["error"])
    }

    @Test func preparingAnExistingDestinationTellsTheStateBeforeTheSuccessHandlers() throws {
        let log = EventLog()
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }

        try router.prepare(destination: FileExporter(), for: RoutableService<any Exporter>()) { config in
            config.stateNotifier = { old, new in log.record("\(old) -> \(new)") }
            config.successHandler = { _ in log.record("success") }
            config.completionHandler = { _, _ in log.record("completion") }
            config.performerSuccessHandler = { _ in log.record("performer success") }
        }

        #expect(
            log.entries == ["unrouted -> routing", "routing -> routed", "success", "completion", "performer success"]
        )
    }

    @Test func aFailingCheckFailsThePerformWithItsReason() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), route: LoggedExporterRoute(log: EventLog(), made: Counter()))
        let route = try router.to(RoutableService<any Exporter>()) { config in
            config.prepareDestination = { $0.format = "broken" }
        }

        let error = try #require(routingError { try route.perform() })

        #expect(route.state == .unrouted)
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "The destination of RoutableService<Exporter> (LoggedExporterRoute) is not ready: its verify check "
                + "threw: the format \"broken\" cannot be exported. Fix: give it what the check asks for, in the "
                + "configuration's prepareDestination or the route's prepare hook."
        )
        #expect(error.underlyingError is TestFailure)
    }

    @Test func aThrowingCallerPreparationFailsWithActionFailed() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }

        let error = try #require(
            routingError {
                _ = try router.makeDestination(to: RoutableService<any Exporter>()) { config in
                    config.prepareDestination = { _ in throw TestFailure("no format chosen") }
                }
            }
        )

        #expect(error.code == .actionFailed)
        #expect(
            error.message == "The caller's prepareDestination for RoutableService<Exporter> threw: no format chosen"
        )
    }

    @Test func aThrowingProviderPreparationFailsWithActionFailed() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .prepare { _, _ in throw TestFailure("printer offline") }

        let error = try #require(routingError { _ = try router.makeDestination(to: RoutableService<any Exporter>()) })

        #expect(error.code == .actionFailed)
        #expect(error.message.hasPrefix("The prepare hook of RoutableService<Exporter> (the route registered at "))
        #expect(error.message.hasSuffix("threw: printer offline"))
    }

    @Test func aCallerMayNotPrepareASharedDestination() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), scope: .singleton) { _ in FileExporter() }

        let error = try #require(
            routingError {
                _ = try router.makeDestination(to: RoutableService<any Exporter>()) { config in
                    config.prepareDestination = { $0.format = "pdf" }
                }
            }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("RoutableService<Exporter> was given a prepareDestination, but "))
        #expect(
            error.message.hasSuffix(
                "is a singleton registration: its destination is shared with other callers, and one caller's "
                    + "preparation would change it for all. Fix: prepare it in the route's own prepare hook, or "
                    + "register the route .transient."
            )
        )
    }

    @Test func theRoutesParametersReachItsFactoryAndItsRemovalHook() throws {
        let log = EventLog()
        let router = Router(container: Container())
        router.register(RoutableService<any Exporter>(), route: LoggedExporterRoute(log: log, made: Counter()))
        let keeper = Keeper<Any>()

        let route = try router.perform(identifier: "exporter", parameters: ["format": "csv"]) { config in
            config.successHandler = { keeper.keep($0) }
        }
        try route.removeRoute()

        #expect(log.entries == ["make", "provider preparation (format csv)", "verify", "remove #1"])
    }

    @Test func aRouteWhoseDestinationDoesNotConformFailsAndValidationSaysSo() throws {
        let container = Container()
        let router = Router(container: container)
        router.register(RoutableService<any TimeSource>(), route: WrongRoute())

        let error = try #require(
            routingError { _ = try router.makeDestination(to: RoutableService<any TimeSource>()) }
        )
        let validation = try #require(routingError { try router.validate() })

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "WrongRoute made a FixedClock, which does not conform to TimeSource, the protocol it is registered "
                + "for (RoutableService<TimeSource>). Fix: make the route's Destination conform: extension FixedClock: "
                + "TimeSource {}."
        )
        #expect(validation.code == .validationFailed)
        #expect(validation.problems.count == 1)
        #expect(validation.message.contains("WrongRoute made a FixedClock, which does not conform to TimeSource"))
    }

    @Test func anOverrideReplacesARoutedDestinationForOneTaskAndSkipsTheRoutesHooks() throws {
        let log = EventLog()
        let container = Container()
        let router = Router(container: container)
        router.register(RoutableService<any Exporter>(), route: LoggedExporterRoute(log: log, made: Counter()))
        let double = StubExporter()

        let inside = try container.withOverrides {
            $0.register((any Exporter).self) { _ in double }
        } operation: {
            try router.makeDestination(to: RoutableService<any Exporter>())
        }
        let outside = try router.makeDestination(to: RoutableService<any Exporter>())

        #expect(inside === double)
        #expect(double.steps.isEmpty)  // the double is not the route's type: its hooks leave it alone
        #expect((outside as? FileExporter)?.serial == 1)
    }

    /// A test double of another type than the route's destination.
    private final class StubExporter: Exporter, @unchecked Sendable {
        var format = "stub"
        var steps: [String] = []
    }

    @Test func routesAppearInTheContainersDependencyGraph() throws {
        let container = Container()
        container.register((any Clock).self) { _ in FixedClock() }
        let router = Router(container: container)
        router.register(RoutableService<any TimeSource>()) { r in SystemTime(clock: try r.resolve((any Clock).self)) }
        _ = try router.makeDestination(to: RoutableService<any TimeSource>())

        let tree = container.dependencyGraph().textTree

        #expect(tree.contains("TimeSource (transient)"))
        #expect(tree.contains("└─ Clock (transient)"))
    }
}
