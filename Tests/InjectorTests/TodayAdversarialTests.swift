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

import Dispatch
import Foundation
import Testing

@testable import Injector

// Adversarial tests of: a sync factory of an async resolution standing as its thread's resolution
// (and the shared instances it builds in sync parts nested in it); graph instances kept as `Any`;
// a scope's state and closing actions in its store; the provider table shared copy-on-write,
// looked up from a child, with keys whose identities sum alike; the overrides flag read once.

// MARK: - Services

private final class Hub: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private final class Spoke: Sendable {
    let throughResolver: Hub
    let throughContainer: Hub
    init(throughResolver: Hub, throughContainer: Hub) {
        self.throughResolver = throughResolver
        self.throughContainer = throughContainer
    }
}

private final class Step: Sendable {
    let spoke: Spoke
    init(spoke: Spoke) { self.spoke = spoke }
}

private final class Knot: Sendable {}
private final class Strand: Sendable {}
private final class Session: Sendable {}
private final class Chime: Sendable {}

/// A graph-scoped class whose deinit resolves through a container it captured.
private final class Echo: @unchecked Sendable {  // `container` and `heard` are `let`s
    let container: Container
    let heard: EventLog
    init(container: Container, heard: EventLog) {
        self.container = container
        self.heard = heard
    }
    deinit {
        let outcome = syncOutcome { try container.resolve(Chime.self) }
        heard.record(String(describing: outcome))
    }
}

/// A graph-scoped value too large for `Any`'s inline buffer, holding an `Echo`.
private struct Payload: Sendable {
    var words: (Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6)
    var echo: Echo
}

private struct Fault: Error, Sendable, Equatable {
    let code: Int
}

private protocol Marker: Sendable {
    init(tag: String)
    var tag: String { get }
}

extension Marker {
    /// A type one level deeper than this one.
    fileprivate static var deeper: any Marker.Type { Nest<Self>.self }

    /// Registers `Self` with a resolve-time argument of `argument`'s type in `container`.
    fileprivate static func register(withArgument argument: any Marker.Type, in container: Container, label: String) {
        argument.register(asArgumentOf: Self.self, in: container, label: label)
    }

    fileprivate static func register<Service: Marker>(
        asArgumentOf _: Service.Type,
        in container: Container,
        label: String
    ) {
        container.register(Service.self) { (_, argument: Self) in
            Service(tag: "\(label):\(Service.self)<-\(argument.tag)")
        }
    }

    /// Resolves `Self` with an argument of `argument`'s type from `container`; the instance's tag.
    fileprivate static func resolve(withArgument argument: any Marker.Type, from container: Container) throws -> String
    {
        try argument.resolve(asArgumentOf: Self.self, from: container)
    }

    fileprivate static func resolve<Service: Marker>(
        asArgumentOf _: Service.Type,
        from container: Container
    ) throws
        -> String
    {
        try container.resolve(Service.self, argument: Self(tag: "\(Self.self)")).tag
    }
}

/// A family of distinct types whose identities the runtime makes: `Nest<Nest<...>>`.
private struct Leaf: Marker {
    let tag: String
    init(tag: String) { self.tag = tag }
}

private struct Nest<Inner: Marker>: Marker {
    let tag: String
    init(tag: String) { self.tag = tag }
}

/// `count` distinct marker types.
private func markerTypes(_ count: Int) -> [any Marker.Type] {
    var types: [any Marker.Type] = [Leaf.self]
    while types.count < count { types.append(types.last!.deeper) }
    return types
}

private func registerPair(
    _ service: any Marker.Type,
    _ argument: any Marker.Type,
    in container: Container,
    label: String
) {
    service.register(withArgument: argument, in: container, label: label)
}

private func resolvePair(
    _ service: any Marker.Type,
    _ argument: any Marker.Type,
    from container: Container
) throws
    -> String
{
    try service.resolve(withArgument: argument, from: container)
}

/// Closes `scope` (from the threads of a test, where the sync close belongs).
private func closeSync(_ scope: LifetimeScope) throws {
    try scope.close()
}

private func expectedTag(_ service: any Marker.Type, _ argument: any Marker.Type, label: String) -> String {
    "\(label):\(service)<-\(argument)"
}

// MARK: - Tests

@Suite struct TodayAdversarialTests {
    // MARK: Sync factories standing as the thread's resolution

    /// A sync singleton built for a sync factory of an async resolution (through the factory's
    /// resolver, in a sync part nested in the async resolution), whose factory asks for another
    /// singleton through its resolver and again through a captured container, gets one instance:
    /// the captured container's resolve must see what the sync part built and has not published.
    @Test func singletonBuiltInASyncPartUnderAStandingFactoryIsOneInstanceThroughResolverAndContainer()
        async throws
    {
        let container = Container()
        let made = CallCounter()
        container.register(Hub.self, scope: .singleton) { _ in Hub(serial: made.next()) }
        container.register(Spoke.self, scope: .singleton) { r in
            try Spoke(throughResolver: r.resolve(Hub.self), throughContainer: container.resolve(Hub.self))
        }
        container.register(Step.self) { r in try Step(spoke: r.resolve(Spoke.self)) }
        container.register(Session.self) { r async throws in
            _ = try await r.resolveAsync(Step.self)
            return Session()
        }

        _ = try await container.resolveAsync(Session.self)
        let spoke = try container.resolve(Spoke.self)

        #expect(spoke.throughResolver === spoke.throughContainer)
        #expect(try container.resolve(Hub.self) === spoke.throughResolver)
        #expect(made.count == 1)
    }

    /// The same graph resolved without the standing factory in between (the async factory asks
    /// for the singleton directly): the baseline the test above compares with.
    @Test func singletonBuiltInASyncPartIsOneInstanceThroughResolverAndContainer() async throws {
        let container = Container()
        let made = CallCounter()
        container.register(Hub.self, scope: .singleton) { _ in Hub(serial: made.next()) }
        container.register(Spoke.self, scope: .singleton) { r in
            try Spoke(throughResolver: r.resolve(Hub.self), throughContainer: container.resolve(Hub.self))
        }
        container.register(Session.self) { r async throws in
            _ = try await r.resolveAsync(Spoke.self)
            return Session()
        }

        _ = try await container.resolveAsync(Session.self)
        let spoke = try container.resolve(Spoke.self)

        #expect(spoke.throughResolver === spoke.throughContainer)
        #expect(made.count == 1)
    }

    /// A sync singleton, built in a sync part under a standing factory, that resolves itself
    /// through a captured container closes a cycle at its first re-entry: its factory runs once.
    @Test func singletonCycleThroughTheContainerInASyncPartUnderAStandingFactoryIsFoundAtOnce() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(Knot.self, scope: .singleton) { _ in
            calls.next()
            _ = try container.resolve(Knot.self)
            return Knot()
        }
        container.register(Strand.self) { r in
            _ = try r.resolve(Knot.self)
            return Strand()
        }
        container.register(Session.self) { r async throws in
            _ = try await r.resolveAsync(Strand.self)
            return Session()
        }

        let error = await #expect(throws: InjectionError.self) { try await container.resolveAsync(Session.self) }

        #expect(error?.code == .circularDependency)
        #expect(error?.resolutionPath.map(\.description) == ["Session", "Strand", "Knot", "Knot"])
        #expect(error?.message.hasPrefix("Circular dependency: Session -> Strand -> Knot -> Knot.") == true)
        #expect(calls.count == 1)
    }

    /// A cancelled task's async resolve starts no shared factory, whether the sync transient it
    /// meets asks for the singleton through its resolver or through a captured container (which
    /// now nests in the async resolution).
    @Test func cancelledAsyncResolveStartsNoSingletonFactoryThroughACapturedContainer() async throws {
        for throughContainer in [false, true] {
            let container = Container()
            let made = CallCounter()
            container.register(Knot.self, scope: .singleton) { _ in
                made.next()
                return Knot()
            }
            container.register(Strand.self) { r in
                _ = try throughContainer ? container.resolve(Knot.self) : r.resolve(Knot.self)
                return Strand()
            }

            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await outcome { try await container.resolveAsync(Strand.self) }
            }
            let result = await task.value

            let error = failures([result]).first
            #expect(error?.code == .resolutionCancelled, "through container: \(throughContainer)")
            #expect(
                error?.message.hasPrefix(
                    "Resolving Knot was cancelled: the task was cancelled before it would have started building"
                ) == true,
                "through container: \(throughContainer)"
            )
            #expect(made.count == 0, "through container: \(throughContainer)")
        }
    }

    /// `validateAsync()` checks an async registration whose sync dependency resolves a singleton
    /// through a captured container without building the container's own singleton.
    @Test func validateAsyncBuildsNoRealSingletonThroughACapturedContainerInASyncFactory() async throws {
        let container = Container()
        let made = CallCounter()
        container.register(Hub.self, scope: .singleton) { _ in Hub(serial: made.next()) }
        container.register(Strand.self) { _ in
            _ = try container.resolve(Hub.self)
            return Strand()
        }
        container.register(Session.self) { r async throws in
            _ = try await r.resolveAsync(Strand.self)
            return Session()
        }

        let report = try await container.validateAsync()
        let validated = made.count
        let hub = try container.resolve(Hub.self)

        #expect(report.checked.contains { $0.description == "Session" })
        #expect(hub.serial == validated + 1)  // built now, not kept from validation
        #expect(try container.resolve(Hub.self) === hub)
    }

    /// A cold sync singleton asked at once by async lets (through a sync transient of an async
    /// resolution, via a captured container and via the resolver), by threads and by a detached
    /// task is built once and is one instance for all.
    @Test func coldSingletonAskedInEveryWayAtOnceIsBuiltOnce() async throws {
        let container = Container()
        let made = CallCounter()
        let started = DispatchSemaphore(value: 0)
        container.register(Hub.self, scope: .singleton) { _ in
            started.signal()
            Thread.sleep(forTimeInterval: 0.02)
            return Hub(serial: made.next())
        }
        container.register(Strand.self) { _ in
            _ = try container.resolve(Hub.self)
            return Strand()
        }
        container.register(Knot.self) { r in
            _ = try r.resolve(Hub.self)
            return Knot()
        }
        let seen = Guarded<[ObjectIdentifier]>([])
        let record: @Sendable (Hub) -> Void = { hub in seen.withLock { $0.append(ObjectIdentifier(hub)) } }
        let executor = ThreadPerJobExecutor()

        let threads = await onThreads(
            (0..<3).map { _ in
                { if let hub = try? container.resolve(Hub.self) { record(hub) } }
            }
        )
        async let viaContainer = Task(executorPreference: executor) {
            try await container.resolveAsync(Strand.self)
        }.value
        async let viaResolver = Task(executorPreference: executor) {
            try await container.resolveAsync(Knot.self)
        }.value
        async let direct = Task(executorPreference: executor) { try await container.resolveAsync(Hub.self) }.value
        _ = try await (viaContainer, viaResolver)
        record(try await direct)
        record(try await Task.detached { try container.resolve(Hub.self) }.value)

        #expect(threads)
        #expect(made.count == 1)
        #expect(Set(seen.withLock { $0 }).count == 1)
        #expect(seen.withLock { $0 }.count == 5)
    }

    // MARK: Graph instances kept as Any

    /// Graph instances of awkward shapes come back as they were built, the same within one resolve:
    /// a value boxed as `AnyObject`, `Any?` and `Int??` holding nil at each level, a throwing
    /// function, an existential metatype, an error existential, a large value.
    @Test func graphInstancesOfAwkwardShapesComeBackIntactWithinOneResolve() throws {
        let container = Container()
        let made = CallCounter()
        container.register(AnyObject.self, scope: .graph) { _ in (made.next() as AnyObject) }
        container.register(Any?.self, scope: .graph) { _ in
            made.next()
            return nil
        }
        container.register(Int??.self, scope: .graph) { _ in
            made.next()
            return .some(nil)
        }
        container.register((@Sendable (Int) throws -> Int).self, scope: .graph) { _ in
            let base = made.next()
            return { (value: Int) throws -> Int in
                guard value >= 0 else { throw Fault(code: value) }
                return value + base
            }
        }
        container.register((any Marker.Type).self, scope: .graph) { _ in
            made.next()
            return Nest<Leaf>.self
        }
        container.register((any Error).self, scope: .graph) { _ in Fault(code: made.next()) }
        container.register([String: [Int]].self, scope: .graph) { _ in ["serial": Array(0...made.next())] }
        container.register(String.self) { r in
            let object = try r.resolve(AnyObject.self)
            let nothing = try r.resolve(Any?.self)
            let nested = try r.resolve(Int??.self)
            let function = try r.resolve((@Sendable (Int) throws -> Int).self)
            let metatype = try r.resolve((any Marker.Type).self)
            let error = try r.resolve((any Error).self)
            let table = try r.resolve([String: [Int]].self)
            var checks: [Bool] = []
            checks.append(try object === r.resolve(AnyObject.self))
            checks.append(try nothing == nil && r.resolve(Any?.self) == nil)
            checks.append(try nested == .some(nil) && r.resolve(Int??.self) == .some(nil))
            checks.append(try function(1) == r.resolve((@Sendable (Int) throws -> Int).self)(1))
            checks.append((try? function(-3)) == nil)
            checks.append(try metatype == r.resolve((any Marker.Type).self) && metatype == Nest<Leaf>.self)
            checks.append(try (error as? Fault) == (r.resolve((any Error).self) as? Fault))
            checks.append(try table == r.resolve([String: [Int]].self))
            return checks.map { $0 ? "y" : "n" }.joined()
        }

        #expect(try container.resolve(String.self) == "yyyyyyyy")
        #expect(made.count == 7)
        #expect(try container.resolve(String.self) == "yyyyyyyy")
        #expect(made.count == 14)
    }

    /// Graph instances (an object and a large value holding one) whose deinits resolve through a
    /// captured container, released when the resolve ends, sync and async: each deinit's resolve
    /// succeeds, and the thread's next resolve is unharmed.
    @Test func graphInstancesWhoseDeinitsResolveThroughTheContainerAreReleasedSafely() async throws {
        let container = Container()
        let heard = EventLog()
        container.register(Chime.self) { _ in Chime() }
        container.register(Echo.self, scope: .graph) { _ in Echo(container: container, heard: heard) }
        container.register(Payload.self, scope: .graph) { _ in Payload(echo: Echo(container: container, heard: heard)) }
        container.register(Strand.self) { r in
            let echo = try r.resolve(Echo.self)
            let payload = try r.resolve(Payload.self)
            let again = try r.resolve(Payload.self)
            let echoAgain = try r.resolve(Echo.self)
            heard.record("same \(echo === echoAgain && payload.echo === again.echo && again.words.5 == 6)")
            return Strand()
        }
        container.register(Session.self) { r async throws in
            _ = try await r.resolveAsync(Strand.self)
            _ = try await r.resolveAsync(Payload.self)
            return Session()
        }

        let deinitResolves = { heard.events.filter { $0.hasPrefix("success") }.count }
        _ = try container.resolve(Strand.self)
        #expect(deinitResolves() == 2)
        _ = try await container.resolveAsync(Session.self)
        #expect(deinitResolves() == 4)
        _ = try container.resolve(Strand.self)
        #expect(deinitResolves() == 6)
        #expect(heard.events.filter { !$0.hasPrefix("success") } == ["same true", "same true", "same true"])
    }

    // MARK: Scopes: state word and closing actions in the store

    /// Closing actions added from many threads while the scope closes each run exactly once, after
    /// the close has finished its disposals; one added after the close runs at once.
    @Test func closingActionsRacingACloseRunOnceEachAfterTheClose() async throws {
        let container = Container()
        let disposed = EventLog()
        final class Resource: Tracked, @unchecked Sendable {}
        container.register(Resource.self, scope: .scoped) { _ in Resource(disposed) }
        for round in 0..<20 {
            let scope = container.makeScope()
            _ = try scope.resolve(Resource.self)
            let ran = EventLog()
            let go = DispatchSemaphore(value: 0)
            let adders: [@Sendable () -> Void] = (0..<3).map { thread in
                {
                    go.wait()
                    for index in 0..<5 {
                        scope.afterClosing {
                            ran.record("\(thread).\(index) after \(disposed.events.count > round)")
                        }
                    }
                }
            }
            let closer: @Sendable () -> Void = {
                for _ in 0..<3 { go.signal() }
                try? closeSync(scope)
            }
            #expect(await onThreads(adders + [closer]))
            #expect(ran.events.count == 15)
            #expect(Set(ran.events).count == 15)
            #expect(ran.events.allSatisfy { $0.hasSuffix("after true") })
        }
        let dropped = EventLog()
        do {
            let scope = container.makeScope()
            scope.afterClosing { dropped.record("ran") }
            try await scope.closeAsync()
            scope.afterClosing { dropped.record("late") }
        }
        #expect(dropped.events == ["ran", "late"])
    }

    /// Many scopes on many threads, each resolved from and closed while other threads resolve from
    /// it: every resolve either gets the scope's one instance or is refused as closed, every close
    /// either succeeds or is refused as in use, and every scope ends closed with its instance
    /// disposed once.
    @Test func scopesClosedWhileResolvesRunCountTheirResolutionsExactly() async throws {
        let container = Container()
        let disposed = EventLog()
        final class Unit: Tracked, @unchecked Sendable {}
        container.register(Unit.self, scope: .scoped) { _ in Unit(disposed) }
        let scopes = (0..<40).map { _ in container.makeScope() }
        let unexpected = EventLog()
        let bodies: [@Sendable () -> Void] = (0..<4).map { thread in
            {
                for (index, scope) in scopes.enumerated() where index % 2 == thread % 2 || thread >= 2 {
                    var first: Unit?
                    for _ in 0..<20 {
                        do {
                            let unit = try scope.resolve(Unit.self)
                            if let first, first !== unit { unexpected.record("two instances") }
                            first = unit
                        } catch let error as InjectionError where error.code == .scopeClosed {
                            break
                        } catch {
                            unexpected.record("resolve: \(error)")
                        }
                    }
                    do {
                        try closeSync(scope)
                    } catch let error as InjectionError where error.code == .scopeInUse {
                    } catch {
                        unexpected.record("close: \(error)")
                    }
                }
            }
        }
        #expect(await onThreads(bodies))
        for scope in scopes where !scope.isClosed { try await scope.closeAsync() }

        #expect(unexpected.events == [])
        #expect(scopes.allSatisfy { $0.isClosed })
        #expect(disposed.events.count <= scopes.count)
        for scope in scopes {
            #expect(throws: InjectionError.self) { try scope.resolve(Unit.self) }
        }
    }

    /// An async close and closing actions after `afterClosing` was called before any resolve: the
    /// actions' bit does not make a close of an idle scope look busy, nor a resolve look closed.
    @Test func closingActionsAddedBeforeResolvesLeaveTheScopeUsable() async throws {
        let container = Container()
        container.register(Knot.self, scope: .scoped) { _ in Knot() }
        let ran = CallCounter()
        let scope = container.makeScope()
        scope.afterClosing { ran.next() }
        let first = try scope.resolve(Knot.self)
        #expect(try await scope.resolveAsync(Knot.self) === first)
        #expect(!scope.isClosed)
        try await scope.closeAsync()
        #expect(ran.count == 1)
        try await scope.closeAsync()
        #expect(ran.count == 1)
        #expect(throws: InjectionError.self) { try scope.resolve(Knot.self) }
    }

    // MARK: Registration: shared tables, child lookups, colliding identity sums

    /// Over a thousand keys of runtime-made generic types, each a service taking another's type as
    /// its argument and the other way round (whose identities' sums crowd the table's probes), each
    /// find their own registration, in a container and through a child that shadows some of them
    /// after publishing its table, and keep their order.
    @Test func keysOfSwappedServiceAndArgumentTypesEachFindTheirOwnRegistration() throws {
        let types = markerTypes(36)
        let root = Container()
        for service in types {
            for argument in types where argument != service {
                registerPair(service, argument, in: root, label: "root")
            }
        }
        let child = root.makeChild()
        _ = try? child.resolve(Knot.self)  // publishes the child's empty table
        for (service, argument) in zip(types, types.reversed()) where service != argument {
            registerPair(service, argument, in: child, label: "child")
        }

        var wrong: [String] = []
        for service in types {
            for argument in types where argument != service {
                let fromRoot = try resolvePair(service, argument, from: root)
                if fromRoot != expectedTag(service, argument, label: "root") { wrong.append(fromRoot) }
                let shadowed =
                    types.firstIndex { $0 == service } == types.count - 1 - types.firstIndex { $0 == argument }!
                let fromChild = try resolvePair(service, argument, from: child)
                if fromChild != expectedTag(service, argument, label: shadowed ? "child" : "root") {
                    wrong.append(fromChild)
                }
            }
        }
        #expect(wrong == [])
        let keys = root.providers.map { "\($0.key)" }
        #expect(keys.count == 36 * 35)
        #expect(keys.first?.hasPrefix("Leaf") == true)
        #expect(Set(keys).count == keys.count)
    }

    /// A parent registering while threads resolve from a child whose table is published: each
    /// resolve finds the parent's registration once made (never another's), and a child's own later
    /// registration shadows the parent's once made.
    @Test func parentRegistrationsRacingChildLookupsAreFoundOnceMade() async throws {
        let types = markerTypes(24)
        let root = Container()
        let child = root.makeChild()
        child.register(Knot.self) { _ in Knot() }
        _ = try child.resolve(Knot.self)  // the child's table is published
        let registered = Guarded(0)
        let wrong = EventLog()
        let registering: @Sendable () -> Void = {
            for (index, service) in types.enumerated() {
                registerPair(service, types[(index + 1) % types.count], in: root, label: "root")
                registered.set(index + 1)
            }
            for (index, service) in types.enumerated() where index % 2 == 0 {
                registerPair(service, types[(index + 1) % types.count], in: child, label: "child")
            }
        }
        let looking: [@Sendable () -> Void] = (0..<3).map { _ in
            {
                for _ in 0..<20 {
                    let known = registered.withLock { $0 }
                    for (index, service) in types.enumerated() {
                        let argument = types[(index + 1) % types.count]
                        do {
                            let tag = try resolvePair(service, argument, from: child)
                            let root = expectedTag(service, argument, label: "root")
                            let own = expectedTag(service, argument, label: "child")
                            if tag != root && tag != own { wrong.record("wrong \(tag)") }
                        } catch let error as InjectionError where error.code == .missingRegistration {
                            if index < known { wrong.record("missing \(service) after its registration") }
                        } catch {
                            wrong.record("\(error)")
                        }
                    }
                }
            }
        }
        #expect(await onThreads([registering] + looking))

        #expect(wrong.events == [])
        for (index, service) in types.enumerated() {
            let label = index % 2 == 0 ? "child" : "root"
            let argument = types[(index + 1) % types.count]
            #expect(try resolvePair(service, argument, from: child) == expectedTag(service, argument, label: label))
        }
    }

    /// A duplicate, a replacement and a late registration made after lookups published snapshots
    /// that share the builder's table: the old snapshots' lookups are unharmed, and the new ones see
    /// each change, in registration order.
    @Test func changesAfterASharedSnapshotReachTheNextSnapshotOnly() throws {
        let container = Container()
        container.register(String.self) { _ in "first" }
        container.register(Int.self) { _ in 1 }
        #expect(try container.resolve(String.self) == "first")
        container.register(String.self, replacesExisting: true) { _ in "replaced" }
        #expect(try container.resolve(String.self) == "replaced")
        #expect(try container.resolve(Int.self) == 1)
        container.register(Int.self) { _ in 2 }  // a duplicate
        #expect(throws: InjectionError.self) { try container.resolve(Int.self) }
        container.register(Knot.self) { _ in Knot() }
        #expect(container.providers.map { "\($0.key)" } == ["String", "Int", "Knot"])
        #expect(throws: InjectionError.self) { try container.finishRegistration() }
        container.register(Strand.self) { _ in Strand() }  // late
        #expect(throws: InjectionError.self) { try container.resolve(Strand.self) }
        #expect(try container.resolve(String.self) == "replaced")
        #expect(container.providers.map { "\($0.key)" } == ["String", "Int", "Knot", "Strand"])
    }

    // MARK: Overrides toggled while others resolve

    /// One thread enters and leaves overrides over and over while others resolve: those others
    /// always get the container's singleton, the overriding thread always its override.
    @Test func overridesToggledOnOneThreadNeverReachAnother() async throws {
        let container = Container()
        container.register(Hub.self, scope: .singleton) { _ in Hub(serial: 0) }
        let real = try container.resolve(Hub.self)
        let wrong = EventLog()
        let toggling: @Sendable () -> Void = {
            for round in 1...200 {
                do {
                    let hub = try container.withOverrides {
                        $0.register(Hub.self, scope: .singleton) { _ in Hub(serial: round) }
                    } operation: {
                        try container.resolve(Hub.self)
                    }
                    if hub.serial != round { wrong.record("override \(hub.serial) in round \(round)") }
                } catch {
                    wrong.record("\(error)")
                }
            }
        }
        let resolving: [@Sendable () -> Void] = (0..<2).map { _ in
            {
                for _ in 0..<2_000 {
                    guard let hub = try? container.resolve(Hub.self), hub === real else {
                        return wrong.record("not the container's singleton")
                    }
                }
            }
        }
        #expect(await onThreads([toggling] + resolving))
        #expect(wrong.events == [])
    }
}
