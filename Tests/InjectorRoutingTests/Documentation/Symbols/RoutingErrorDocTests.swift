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

// The snippet of RoutingError's doc comment (Sources/InjectorRouting/Errors/RoutingError.swift), and
// what the comment says: a failed call throws the error and reports it to the route's error handlers,
// then the global one; the message is the description; a container failure is underneath.

private protocol TimeService: Sendable { var now: Int { get } }

extension RoutableService where Protocol == TimeService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

@Suite struct RoutingErrorDocTests {
    @Test func aProtocolWithNoRouteThrowsInvalidProtocolWithAMessageThatSaysHowToFixIt() throws {
        let router = Router(container: Container())
        let printed = EventLog()
        let print: (String) -> Void = { printed.record($0) }

        do {
            let time = try router.makeDestination(to: RoutableService<TimeService>())
            Issue.record("made \(time), though no route is registered")
        } catch let error as RoutingError where error.code == .invalidProtocol {
            print(error.message)  // No route is registered for RoutableService<TimeService>. …
            #expect(error.description == error.message)
            #expect(error.action == .makeDestination)
            #expect(error.underlyingError == nil)
        }

        #expect(
            printed.entries == [
                "No route is registered for RoutableService<TimeService>. Fix: register one with "
                    + "router.register(RoutableService<TimeService>(), …), or adapt the protocol to one that "
                    + "has a route with router.adapt(RoutableService<TimeService>(), to: …)."
            ]
        )
    }

    @Test func aFailedCallReportsToTheRoutesErrorHandlerThenTheGlobalOneAndThrows() throws {
        let router = Router(container: Container())
        let log = EventLog()
        router.globalErrorHandler = { action, error in log.record("global \(action) \(error.code)") }

        let error = routingError {
            _ = try router.makeDestination(to: RoutableService<TimeService>()) { config in
                config.errorHandler = { action, error in log.record("route \(action) \(error.code)") }
            }
        }

        #expect(error?.code == .invalidProtocol)
        #expect(
            error?.message
                == "No route is registered for RoutableService<TimeService>. Fix: register one with "
                + "router.register(RoutableService<TimeService>(), …), or adapt the protocol to one that has a route "
                + "with router.adapt(RoutableService<TimeService>(), to: …)."
        )
        #expect(log.entries == ["route makeDestination invalidProtocol", "global makeDestination invalidProtocol"])
    }

    @Test func aContainerFailureIsTheUnderlyingInjectionErrorWithItsResolutionPath() throws {
        let router = Router(container: Container())
        let line = #line + 1
        router.register(RoutableService<TimeService>()) { r in
            FixedTime(now: try r.resolve((any Clock).self).now)
        }

        let error = routingError { _ = try router.makeDestination(to: RoutableService<TimeService>()) }

        #expect(error?.code == .destinationUnavailable)
        #expect(
            error?.message
                == "RoutableService<TimeService> (the route registered at "
                + "InjectorRoutingTests/RoutingErrorDocTests.swift:\(line)) could not make its destination. No "
                + "registration for Clock, needed by TimeService -> Clock (missing). Nothing is registered for Clock "
                + "under any name or arguments. Fix: register it, e.g. container.register(Clock.self) { r in … }, in "
                + "this container or one of its parents."
        )
        let injection = try #require(error?.underlyingError as? InjectionError)
        #expect(injection.resolutionPath.map(\.description) == ["TimeService", "Clock"])
    }
}

private struct FixedTime: TimeService { let now: Int }
