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

// The snippet of the InjectorRouting catalog's landing page (InjectorRouting.md), verbatim, with the
// types it assumes, and what the page says of routes: if it stops compiling or doing what the page
// says, this fails. (.ci/check-snippets finds the snippet's lines here.)
//
// The routing tests' fixtures have a `TimeService` and a `Clock` of their own, so the page's live in
// the namespace below, where its tests find them by their names; its declaring extension finds the
// page's `TimeService` through the typealias of this file that follows it.

/// The page's types, and its tests.
enum InjectorRoutingArticle {
    fileprivate protocol TimeService: Sendable { var now: String { get } }

    fileprivate protocol Clock: Sendable { var now: String { get } }
    fileprivate struct SystemClock: Clock { let now = "09:00" }
    fileprivate struct FixedClock: Clock { let now: String }

    fileprivate final class ClockTimeService: TimeService {
        let clock: any Clock
        init(clock: any Clock) { self.clock = clock }
        var now: String { clock.now }
    }

    /// A protocol declared routable (below) that no module registers.
    fileprivate protocol Calendar {}
}

extension RoutableService {
    /// The page's `TimeService` for the declaring extension below, in this file only.
    fileprivate typealias TimeService = InjectorRoutingArticle.TimeService
}

extension RoutableService where Protocol == any TimeService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension RoutableService where Protocol == any InjectorRoutingArticle.Calendar {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension InjectorRoutingArticle {
    struct InjectorRoutingSnippetTests {
        @Test func aRouteIsARegistrationOfItsProtocolAndMakesItsDestinationThroughTheContainer() throws {
            let container = Container()
            container.register((any Clock).self, scope: .singleton) { _ in SystemClock() }

            let router = Router(container: container)
            router.register(RoutableService<any TimeService>(), scope: .singleton) { r in
                ClockTimeService(clock: try r.resolve((any Clock).self))
            }
            let time = try router.makeDestination(to: RoutableService<any TimeService>())

            #expect(time.now == "09:00")
            // A singleton route: one destination, which the container resolves too.
            #expect(
                try router.makeDestination(to: RoutableService<any TimeService>()) as AnyObject === time as AnyObject
            )
            #expect(try container.resolve((any TimeService).self) as AnyObject === time as AnyObject)
        }

        @Test func overridesValidationAndTheDependencyGraphApplyToRoutedModules() throws {
            let container = Container()
            container.register((any Clock).self) { _ in SystemClock() }
            let router = Router(container: container)
            router.register(RoutableService<any TimeService>()) { r in
                ClockTimeService(clock: try r.resolve((any Clock).self))
            }

            let overridden = try container.withOverrides {
                $0.register((any Clock).self) { _ in FixedClock(now: "00:00") }
            } operation: {
                try router.makeDestination(to: RoutableService<any TimeService>()).now
            }
            #expect(overridden == "00:00")
            #expect(try container.validate().checked.map(\.description) == ["Clock", "TimeService"])
            #expect(container.dependencyGraph().textTree == "TimeService (transient)\n└─ Clock (transient)\n")
        }

        @Test func aFailureIsARoutingErrorNamingTheRouteWhyAndTheFix() throws {
            let router = Router(container: Container())
            let error = try #require(
                routingError { _ = try router.makeDestination(to: RoutableService<any Calendar>()) }
            )
            #expect(error.code == .invalidProtocol)
            #expect(
                error.message
                    == "No route is registered for RoutableService<Calendar>. Fix: register one with "
                    + "router.register(RoutableService<Calendar>(), …), or adapt the protocol to one that has a route "
                    + "with router.adapt(RoutableService<Calendar>(), to: …)."
            )
        }

        @Test func aCycleThroughARouteIsReportedByTheContainersCycleDetection() throws {
            let container = Container()
            let router = Router(container: container)
            let line = #line + 1
            router.register(RoutableService<any TimeService>()) { r in
                ClockTimeService(clock: try r.resolve((any Clock).self))
            }
            container.register((any Clock).self) { r in
                FixedClock(now: try r.resolve((any TimeService).self).now)
            }
            let error = try #require(
                routingError { _ = try router.makeDestination(to: RoutableService<any TimeService>()) }
            )
            #expect(error.code == .cycle)
            #expect(error.injectionError?.code == .circularDependency)
            #expect(
                error.message
                    == "RoutableService<TimeService> (the route registered at "
                    + "InjectorRoutingTests/InjectorRoutingSnippetTests.swift:\(line)) cannot be made: its dependencies "
                    + "lead back to themselves. Circular dependency: TimeService -> Clock -> TimeService. Each of "
                    + "these asks for the next in its factory, so none of them can be built first. Fix: break the "
                    + "cycle with property injection: let one of them receive the other after construction, in an "
                    + "onResolved hook, and give the one resolved back the .graph or .singleton scope so that the "
                    + "hook receives the same instance."
            )
        }
    }
}
