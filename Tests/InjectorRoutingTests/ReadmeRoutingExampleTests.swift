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

// The README's routing example, verbatim, with the types it assumes: if it stops compiling or
// working, this fails.

private protocol ReadmeClock: Sendable { var now: String { get } }
private struct ReadmeSystemClock: ReadmeClock { let now = "09:00" }

/// The README's types, in a namespace of their own: the fixtures have a \`TimeService\` too.
private enum Readme {
    protocol TimeService: Sendable { var now: String { get } }
    struct ClockTimeService: TimeService {
        let clock: any ReadmeClock
        var now: String { clock.now }
    }
}
extension RoutableService where Protocol == any Readme.TimeService {  // declares the protocol routable
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

struct ReadmeRoutingExampleTests {
    @Test func readmeRoutingExampleRoutesThroughTheContainer() throws {
        let container = Container()
        container.register((any ReadmeClock).self, scope: .singleton) { _ in ReadmeSystemClock() }
        typealias Clock = ReadmeClock
        typealias TimeService = Readme.TimeService
        typealias ClockTimeService = Readme.ClockTimeService

        let router = Router(container: container)
        router.register(RoutableService<any TimeService>(), scope: .singleton) { r in
            ClockTimeService(clock: try r.resolve((any Clock).self))
        }
        let time = try router.makeDestination(to: RoutableService<any TimeService>())

        #expect(time.now == "09:00")
    }
}
