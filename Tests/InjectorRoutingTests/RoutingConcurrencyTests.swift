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

private struct Ping: RouteEvent {}

/// The routers two threads made over one container, kept alive, and the routes the container kept
/// when each had made its own.
private final class MadeRouters: @unchecked Sendable {
    private let lock = NSLock()
    private var routers: [Router] = []
    private(set) var kept: [AnyObject?] = [nil, nil]

    func keep(_ router: Router, kept routes: AnyObject?, of thread: Int) {
        lock.withLock {
            routers.append(router)
            kept[thread] = routes
        }
    }
}

/// Service routing from many tasks and threads at once; CI runs this suite under ThreadSanitizer.
@Suite struct RoutingConcurrencyTests {
    @Test func manyTasksPerformRoutesOnOneRouterAtOnce() async throws {
        let container = Container()
        container.register((any Clock).self, scope: .singleton) { _ in FixedClock(now: 3) }
        let router = Router(container: container)
        let built = Counter()
        router.register(RoutableService<any TimeSource>(), scope: .singleton) { r in
            built.next()
            return SystemTime(clock: try r.resolve((any Clock).self))
        }
        router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            .prepare { exporter, _ in exporter.steps.append("provider") }
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
            .onEvent(Ping.self) { _ in }
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())
        router.addInterceptor(named: "pass") { _ in .proceed }
        let failures = Counter()
        router.globalErrorHandler = { _, _ in failures.next() }

        let times = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var sum = 0
                    for round in 0..<200 {
                        sum += try router.makeDestination(to: RoutableService<any TimeSource>()).now
                        let route = try router.perform(to: RoutableService<any Exporter>()) { config in
                            config.prepareDestination = { $0.format = "pdf" }
                        }
                        if round.isMultiple(of: 2) { try route.perform() }
                        _ = try router.makeDestination(to: RoutableService<any NoteLogging>())
                        if round.isMultiple(of: 50) {
                            router.send(Ping())
                            // Registering while others route publishes a new table; readers are unaffected.
                            router.register(RoutableService<any Greeting>(), replacesExisting: true) { _ in
                                PlainGreeting(text: "\(task)")
                            }
                            _ = routingError { _ = try router.to(RoutableService<any Unadaptable>()) }
                        }
                    }
                    return sum
                }
            }
            return try await group.reduce(0, +)
        }

        #expect(times == 16 * 200 * 3)
        #expect(built.value == 1)
        #expect(failures.value == 16 * 4)  // only the deliberate lookups failed
    }

    @Test func oneRouteSharedByThreadsMovesThroughItsStatesConsistently() async throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Clock>()) { _ in FixedClock() }
        let route = try router.to(RoutableService<any Clock>())
        let refused = Counter()
        let performed = Counter()

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<300 {
                        do {
                            try route.perform()
                            performed.next()
                        } catch let error as RoutingError {
                            // Another thread's perform was under way.
                            if error.code == .overRoute { refused.next() }
                        } catch {}
                    }
                }
            }
        }

        #expect(performed.value + refused.value == 8 * 300)
        #expect(route.state == .routed)
    }
    /// A router over a child container falls through to the routes of the first router made over
    /// its parent, which the parent keeps (`Container.routes`) for as long as it lives: however many
    /// threads make routers over one container at once, one is kept, and never replaced by another.
    /// Each round, two threads each make a router over a fresh container and read which routes it
    /// keeps; both must read the ones it keeps at the end. The window is two lock acquisitions wide:
    /// about 1 round in 15,000 hits it on two cores.
    @Test func routersMadeAtOnceOverOneContainerLeaveItTheRoutesOfOneToKeep() {
        var replaced = 0
        for _ in 0..<100_000 {
            let container = Container()
            let made = MadeRouters()
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                let router = Router(container: container)
                made.keep(router, kept: container.routes.object, of: thread)
            }
            let kept = container.routes.object
            if made.kept.contains(where: { $0 !== kept }) { replaced += 1 }
        }
        #expect(replaced == 0)
    }

    /// The configuration's performer handlers belong to the route's first perform: a perform
    /// refused because that one is under way (`overRoute`) must not take them. The window is two
    /// lock acquisitions wide: about 1 round in 500 hits it on two cores.
    @Test func aPerformRefusedWhileTheFirstRunsLeavesItThePerformerHandlers() async throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Clock>()) { _ in FixedClock() }
        let firstSucceeded = Counter()
        let performerFailed = Counter()
        let rounds = 50_000
        for _ in 0..<rounds {
            let route = try router.to(RoutableService<any Clock>()) { config in
                config.performerSuccessHandler = { _ in firstSucceeded.next() }
                config.performerErrorHandler = { _, _ in performerFailed.next() }
            }
            DispatchQueue.concurrentPerform(iterations: 2) { _ in _ = try? route.perform() }
        }

        #expect(performerFailed.value == 0)  // no perform failed but those refused
        // Not all: a first perform whose route another thread performs again before its handlers run
        // tells none (its handlers run only while that perform still routes it).
        #expect(firstSucceeded.value <= rounds)
    }
}
