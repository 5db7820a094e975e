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
import Testing

@testable import Injector

// Attacks on declared registrations' resolve plans: each probe compares a resolve through the plan
// with what a lookup gives (a closure registration resolving the same keys through its resolver is
// the lookup's witness), across child containers, shared scopes, overrides, late registrations,
// amendments, validation, threads and the plan's own memory.

private protocol RpaTicking: Sendable {
    var serial: Int { get }
}
private final class RpaClock: RpaTicking {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class RpaDatabase: Sendable {
    let name: String
    init(name: String) { self.name = name }
}
private final class RpaStore: Sendable {
    let clock: RpaClock
    init(clock: RpaClock) { self.clock = clock }
}
private final class RpaAudit: Sendable {
    let clock: RpaClock
    let database: RpaDatabase
    init(clock: RpaClock, database: RpaDatabase) {
        self.clock = clock
        self.database = database
    }
}
private final class RpaTicker: Sendable {
    let ticking: any RpaTicking
    init(ticking: any RpaTicking) { self.ticking = ticking }
}
private final class RpaDeferring: Sendable {
    let clock: RpaClock?
    let lazy: Lazy<RpaDatabase>
    let provider: ServiceProvider<RpaClock>
    init(clock: RpaClock?, lazy: Lazy<RpaDatabase>, provider: ServiceProvider<RpaClock>) {
        self.clock = clock
        self.lazy = lazy
        self.provider = provider
    }
}
private struct RpaRequest: Sendable {
    let id: Int
}
private final class RpaHandler: Sendable {
    let request: RpaRequest
    let clock: RpaClock
    init(request: RpaRequest, clock: RpaClock) {
        self.request = request
        self.clock = clock
    }
}
private final class RpaPriced: Sendable {
    let price: Int
    let clock: RpaClock
    init(price: Int, clock: RpaClock) {
        self.price = price
        self.clock = clock
    }
}

private final class RpaGate: Sendable {}
private final class RpaSlow: Sendable {
    let clock: RpaClock
    init(gate: RpaGate, clock: RpaClock) { self.clock = clock }
}

/// What a resolve gave, comparable: the clock's serial (and a database's name), or the error's code.
private enum RpaOutcome: Equatable, CustomStringConvertible {
    case value(String)
    case error(InjectionError.Code)
    case other(String)

    init(_ body: () throws -> String) {
        do { self = .value(try body()) } catch let error as InjectionError { self = .error(error.code) } catch {
            self = .other("\(error)")
        }
    }

    static func async(_ body: () async throws -> String) async -> RpaOutcome {
        do { return .value(try await body()) } catch let error as InjectionError { return .error(error.code) } catch {
            return .other("\(error)")
        }
    }

    var description: String {
        switch self {
        case .value(let value): "value \(value)"
        case .error(let code): "error \(code)"
        case .other(let description): "other \(description)"
        }
    }
}

/// A module of a declared store and the clock it takes, installed in any container.
private struct RpaModule: Module {
    let serial: Int
    func register(into container: Container) {
        container.register(RpaClock.self) { _ in RpaClock(serial: serial) }
        container.register(RpaStore.self, RpaStore.init)
    }
}

private final class RpaWeakBox: @unchecked Sendable {  // only touched on one thread at a time
    weak var container: Container?
    weak var registry: Registry?
}

@Suite struct ResolvePlanAttackTests {
    /// The declared dependencies of the registration of `service` in `container`.
    private func declared<Service>(_ service: Service.Type, in container: Container) throws -> DeclaredDependencies {
        let provider = try #require(container.provider(for: LookupKey(service, name: nil))?.object)
        return try #require(provider.declaredDependencies)
    }

    /// Registers the declared `RpaStore` under `name` and, under `"mirror-" + name`, a closure
    /// registration resolving the same key through its resolver: the lookup's witness.
    private func registerStoreAndMirror(
        in container: Container,
        name: String? = nil,
        scope: ServiceScope<RpaStore> = .transient
    ) {
        container.register(RpaStore.self, name: name, scope: scope, RpaStore.init)
        container.register(RpaStore.self, name: "mirror-\(name ?? "")", scope: scope) { r in
            RpaStore(clock: try r.resolve(RpaClock.self))
        }
    }

    private func outcomes(_ container: Container, name: String? = nil) -> (plan: RpaOutcome, lookup: RpaOutcome) {
        (
            RpaOutcome { "\(try container.resolve(RpaStore.self, name: name).clock.serial)" },
            RpaOutcome { "\(try container.resolve(RpaStore.self, name: "mirror-\(name ?? "")").clock.serial)" }
        )
    }

    // MARK: - Child containers and shared scopes

    /// A child registering clock 2 of a parent registering clock 1 and the store (and its mirror)
    /// as `scope`, both finished.
    private func childShadowingTheClock(
        ofAParentRegistering scope: ServiceScope<RpaStore>
    ) throws -> (parent: Container, child: Container) {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        registerStoreAndMirror(in: parent, scope: scope)
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        try child.finishRegistration()
        return (parent, child)
    }

    @Test(arguments: ["singleton", "weak"])
    func aParentsSharedDeclaredRegistrationResolvedFromAChildTakesTheParentsDependencyAsALookupWould(
        scopeName: String
    ) throws {
        let scope: ServiceScope<RpaStore> = scopeName == "weak" ? .weak : .singleton
        let child = try childShadowingTheClock(ofAParentRegistering: scope).child

        // Built first from the child: a shared instance is built with its registering container's
        // dependencies, through the plan the parent linked.
        let fromChild = try child.resolve(RpaStore.self)
        let (plan, lookup) = outcomes(child)
        #expect(fromChild.clock.serial == 1)
        #expect(plan == .value("1"))
        #expect(plan == lookup)
    }

    @Test(arguments: ["transient", "graph"])
    func aChildsShadowingDependencyWinsForAnUnsharedDeclaredRegistrationResolvedFromTheChild(
        scopeName: String
    ) async throws {
        let scope: ServiceScope<RpaStore> = scopeName == "graph" ? .graph : .transient
        let (parent, child) = try childShadowingTheClock(ofAParentRegistering: scope)

        let (plan, lookup) = outcomes(child)
        #expect(plan == .value("2"))
        #expect(plan == lookup)
        #expect(try await child.resolveAsync(RpaStore.self).clock.serial == 2)
        #expect(try parent.resolve(RpaStore.self).clock.serial == 1)
    }

    @Test func aChildsShadowingDependencyWinsForAScopedDeclaredRegistrationResolvedInTheChildsScope() throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        registerStoreAndMirror(in: parent, scope: .scoped)
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        try child.finishRegistration()

        let fromChild = try child.withScope { scope in
            (
                try scope.resolve(RpaStore.self).clock.serial,
                try scope.resolve(RpaStore.self, name: "mirror-").clock.serial
            )
        }
        let fromParent = try parent.withScope { scope in try scope.resolve(RpaStore.self).clock.serial }
        #expect(fromChild == (2, 2))
        #expect(fromParent == 1)
    }

    @Test func aGrandchildsShadowWinsOverTheDependencyItsGrandparentLinked() throws {
        let root = Container()
        root.register(RpaClock.self) { _ in RpaClock(serial: 0) }
        try root.finishRegistration()
        let middle = root.makeChild()
        middle.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        registerStoreAndMirror(in: middle)
        try middle.finishRegistration()
        let grandchild = middle.makeChild()
        grandchild.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        try grandchild.finishRegistration()
        let plainGrandchild = middle.makeChild()
        try plainGrandchild.finishRegistration()

        #expect(try declared(RpaStore.self, in: middle).linkedProvider(at: 0, from: middle) != nil)
        #expect(outcomes(grandchild).plan == .value("2"))
        #expect(outcomes(grandchild).lookup == .value("2"))
        #expect(outcomes(plainGrandchild).plan == .value("1"))
        #expect(outcomes(middle).plan == .value("1"))
    }

    @Test func aChildsDeclaredRegistrationSeesItsParentsLateRegistrationOfItsDependency() async throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        try parent.finishRegistration()
        let child = parent.makeChild()
        registerStoreAndMirror(in: child)
        try child.finishRegistration()
        #expect(outcomes(child).plan == .value("1"))
        #expect(try declared(RpaStore.self, in: child).linkedProvider(at: 0, from: child) == nil)

        parent.register(RpaClock.self) { _ in RpaClock(serial: 2) }

        let (plan, lookup) = outcomes(child)
        #expect(plan == .error(.registrationAfterFinish))
        #expect(plan == lookup)
        let asyncPlan = await RpaOutcome.async { "\(try await child.resolveAsync(RpaStore.self).clock.serial)" }
        #expect(asyncPlan == .error(.registrationAfterFinish))
    }

    @Test func aChildsLateShadowOfAParentsLinkedDependencyIsReportedFromTheChildOnly() throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        registerStoreAndMirror(in: parent)
        try parent.finishRegistration()
        let child = parent.makeChild()
        try child.finishRegistration()

        child.register(RpaClock.self) { _ in RpaClock(serial: 2) }

        let (plan, lookup) = outcomes(child)
        #expect(plan == .error(.registrationAfterFinish))
        #expect(plan == lookup)
        #expect(outcomes(parent).plan == .value("1"))
    }

    // MARK: - Names, deferred and optional parameters, scope values, forwardings

    @Test func aNamedDependencyIsLinkedByItsNameAndAChildsNamedShadowWins() throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        parent.register(RpaDatabase.self) { _ in RpaDatabase(name: "unnamed") }
        parent.register(RpaDatabase.self, name: "audit") { _ in RpaDatabase(name: "audit") }
        parent.register(RpaAudit.self, using: Resolved(RpaClock.self), Resolved(RpaDatabase.self, name: "audit")) {
            RpaAudit(clock: $0, database: $1)
        }
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(RpaDatabase.self, name: "audit") { _ in RpaDatabase(name: "child's audit") }
        child.register(RpaDatabase.self) { _ in RpaDatabase(name: "child's unnamed") }
        try child.finishRegistration()

        let dependencies = try declared(RpaAudit.self, in: parent)
        let audit = try #require(parent.provider(for: LookupKey(RpaDatabase.self, name: "audit"))?.object)
        #expect(dependencies.linkedProvider(at: 1, from: parent) === audit)
        #expect(try parent.resolve(RpaAudit.self).database.name == "audit")
        #expect(try child.resolve(RpaAudit.self).database.name == "child's audit")
    }

    /// Registers `RpaDeferring` declared, and under "mirror" a closure resolving the same keys.
    private func registerDeferringAndItsMirror(in container: Container) {
        container.register(RpaDeferring.self, RpaDeferring.init)
        container.register(RpaDeferring.self, name: "mirror") { r in
            RpaDeferring(
                clock: try r.resolve(RpaClock?.self),
                lazy: try r.resolve(Lazy<RpaDatabase>.self),
                provider: try r.resolve(ServiceProvider<RpaClock>.self)
            )
        }
    }

    @Test func optionalLazyAndServiceProviderParametersResolveAsALookupWould() throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaDatabase.self) { _ in RpaDatabase(name: "db") }
        registerDeferringAndItsMirror(in: container)
        try container.finishRegistration()
        func describe(_ name: String?) -> RpaOutcome {
            RpaOutcome {
                let deferring = try container.resolve(RpaDeferring.self, name: name)
                return
                    "\(deferring.clock?.serial ?? -1) \(try deferring.lazy.value.name) \(try deferring.provider.resolve().serial)"
            }
        }
        #expect(describe(nil) == .value("1 db 1"))
        #expect(describe(nil) == describe("mirror"))

        // A late registration of the wrapped key: the optional parameter's key is not linked.
        container.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        #expect(describe(nil) == describe("mirror"))
        #expect(describe(nil) == .error(.registrationAfterFinish))
    }

    @Test func anOptionalParameterTheContainerRegistersAsOptionalIsLinked() throws {
        let container = Container()
        container.register(RpaClock?.self) { _ in RpaClock(serial: 7) }
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaDatabase.self) { _ in RpaDatabase(name: "db") }
        registerDeferringAndItsMirror(in: container)
        try container.finishRegistration()

        #expect(try declared(RpaDeferring.self, in: container).linkedProvider(at: 0, from: container) != nil)
        #expect(try container.resolve(RpaDeferring.self).clock?.serial == 7)
        #expect(try container.resolve(RpaDeferring.self, name: "mirror").clock?.serial == 7)
    }

    @Test func aScopeProvidedValueParameterIsEachScopesOwnValueThroughThePlan() async throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaRequest.self, providedByScope: nil)
        container.register(RpaHandler.self, scope: .scoped, RpaHandler.init)
        try container.finishRegistration()
        #expect(try declared(RpaHandler.self, in: container).linkedProvider(at: 0, from: container) != nil)

        let first = try await container.withScopeAsync(
            providing: { $0.provide(RpaRequest.self, RpaRequest(id: 1)) },
            operation: { try $0.resolve(RpaHandler.self).request.id }
        )
        let second = try await container.withScopeAsync(
            providing: { $0.provide(RpaRequest.self, RpaRequest(id: 2)) },
            operation: { try await $0.resolveAsync(RpaHandler.self).request.id }
        )
        #expect(first == 1)
        #expect(second == 2)
        let outside = injectionError { _ = try container.resolve(RpaHandler.self) }
        #expect(outside != nil)
    }

    @Test func aParameterServedByAForwardingResolvesTheOriginalAsTheLookupContainerFindsIt() throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }.implements((any RpaTicking).self)
        parent.register(RpaTicker.self, RpaTicker.init)
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        try child.finishRegistration()

        #expect(try declared(RpaTicker.self, in: parent).linkedProvider(at: 0, from: parent) != nil)
        #expect(try parent.resolve(RpaTicker.self).ticking.serial == 1)
        // The forwarding resolves the original from the child, whose shadow comes first.
        #expect(try child.resolve(RpaTicker.self).ticking.serial == 2)
    }

    @Test func aDeclaredRegistrationTakingAnArgumentResolvesItsParametersThroughThePlan() async throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        parent.register(RpaPriced.self, argument: Int.self, RpaPriced.init)
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        try child.finishRegistration()

        #expect(try parent.resolve(RpaPriced.self, argument: 5).clock.serial == 1)
        #expect(try child.resolve(RpaPriced.self, argument: 6).clock.serial == 2)
        #expect(try await child.resolveAsync(RpaPriced.self, argument: 7).clock.serial == 2)
        parent.register(RpaClock.self) { _ in RpaClock(serial: 3) }
        #expect(
            injectionError { _ = try parent.resolve(RpaPriced.self, argument: 5) }?.code == .registrationAfterFinish
        )
        #expect(try child.resolve(RpaPriced.self, argument: 6).clock.serial == 2)
    }

    // MARK: - Amendments, duplicates, replacements, late registrations

    @Test func hooksAddedBeforeFinishToTheDependencyAndTheDeclaredRegistrationRunThroughThePlan() throws {
        let container = Container()
        let log = EventLog()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }.onResolved { _, _ in log.record("clock") }
        container.register(RpaStore.self, RpaStore.init).onResolved { _, _ in log.record("store") }
        try container.finishRegistration()

        let clock = try #require(container.provider(for: LookupKey(RpaClock.self, name: nil))?.object)
        #expect(try declared(RpaStore.self, in: container).linkedProvider(at: 0, from: container) === clock)
        #expect(try container.resolve(RpaStore.self).clock.serial == 1)
        #expect(log.events == ["clock", "store"])
    }

    @Test func aLateAmendmentOfADependencyIsReportedThroughThePlanAsByALookup() throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        registerStoreAndMirror(in: container)
        try container.finishRegistration()
        #expect(outcomes(container).plan == .value("1"))

        let registration = Registration<RpaClock>(container: container, key: LookupKey(RpaClock.self, name: nil))
        registration.onResolved { _, _ in }

        let (plan, lookup) = outcomes(container)
        #expect(plan == lookup)
        #expect(plan == .error(.registrationAfterFinish))
    }

    @Test func aDuplicatedDependencyIsReportedThroughThePlanAsByALookup() throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        registerStoreAndMirror(in: container)
        #expect(injectionError { try container.finishRegistration() } != nil)

        let (plan, lookup) = outcomes(container)
        #expect(plan == .error(.duplicateRegistration))
        #expect(plan == lookup)
    }

    @Test func aReplacingDependencyRegisteredBeforeFinishIsTheOneLinked() throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        registerStoreAndMirror(in: container)
        container.register(RpaClock.self, replacesExisting: true) { _ in RpaClock(serial: 2) }
        container.register(RpaStore.self, replacesExisting: true, RpaStore.init)
        try container.finishRegistration()

        let (plan, lookup) = outcomes(container)
        #expect(plan == .value("2"))
        #expect(plan == lookup)
    }

    @Test func aLateRegistrationOfTheDeclaredRegistrationItselfIsReportedAndItsDependencyStillLinked() async throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaStore.self, RpaStore.init)
        try container.finishRegistration()
        let first = try declared(RpaStore.self, in: container)

        container.register(RpaStore.self, RpaStore.init)

        let late = try declared(RpaStore.self, in: container)
        #expect(late !== first)
        let clock = try #require(container.provider(for: LookupKey(RpaClock.self, name: nil))?.object)
        #expect(late.linkedProvider(at: 0, from: container) === clock)
        #expect(injectionError { _ = try container.resolve(RpaStore.self) }?.code == .registrationAfterFinish)
        let asyncError = await injectionErrorAsync { _ = try await container.resolveAsync(RpaStore.self) }
        #expect(asyncError?.code == .registrationAfterFinish)
    }

    // MARK: - Overrides

    @Test func nestedOverridesReachDeclaredParametersAndEndWithTheirCalls() throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaDatabase.self) { _ in RpaDatabase(name: "db") }
        container.register(RpaAudit.self, RpaAudit.init)
        try container.finishRegistration()

        let seen = try container.withOverrides {
            $0.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        } operation: {
            let outer = try container.resolve(RpaAudit.self)
            let inner = try container.withOverrides {
                $0.register(RpaDatabase.self) { _ in RpaDatabase(name: "inner") }
            } operation: {
                try container.resolve(RpaAudit.self)
            }
            let after = try container.resolve(RpaAudit.self)
            return [outer, inner, after].map { "\($0.clock.serial) \($0.database.name)" }
        }

        #expect(seen == ["2 db", "2 inner", "2 db"])
        let audit = try container.resolve(RpaAudit.self)
        #expect("\(audit.clock.serial) \(audit.database.name)" == "1 db")
    }

    @Test func overridesOnAnotherContainerOfTheTreeReachOnlyWhatTheyReachByLookup() throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        registerStoreAndMirror(in: parent, name: "shared", scope: .singleton)
        registerStoreAndMirror(in: parent)
        try parent.finishRegistration()
        let child = parent.makeChild()
        try child.finishRegistration()

        let seen = try child.withOverrides {
            $0.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        } operation: {
            (outcomes(child, name: "shared"), outcomes(child), outcomes(parent))
        }

        #expect(seen.0.plan == seen.0.lookup)
        #expect(seen.1.plan == .value("2"))
        #expect(seen.1.plan == seen.1.lookup)
        #expect(seen.2.plan == .value("1"))
        #expect(seen.2.plan == seen.2.lookup)
    }

    @Test func anUnstructuredTaskStartedUnderOverridesResolvesThroughThePlanOnceTheyEnd() async throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaStore.self, RpaStore.init)
        try container.finishRegistration()
        let ended = Signal()

        let task = try await container.withOverridesAsync {
            $0.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        } operation: {
            let inside = try await container.resolveAsync(RpaStore.self).clock.serial
            #expect(inside == 2)
            return Task {
                await ended.wait()
                return try container.resolve(RpaStore.self).clock.serial
            }
        }
        ended.signal()

        #expect(try await task.value == 1)
    }

    @Test func anOverrideThatIsItselfADeclaredRegistrationResolvesItsParametersFromTheTarget() async throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        parent.register(RpaStore.self) { _ in RpaStore(clock: RpaClock(serial: -1)) }
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        try child.finishRegistration()

        let seen = try await parent.withOverridesAsync {
            $0.register(RpaStore.self, RpaStore.init)
        } operation: {
            (
                try parent.resolve(RpaStore.self).clock.serial,
                try child.resolve(RpaStore.self).clock.serial,
                try await child.resolveAsync(RpaStore.self).clock.serial
            )
        }
        let withItsOwnClock = try parent.withOverrides {
            $0.register(RpaStore.self, RpaStore.init)
            $0.register(RpaClock.self) { _ in RpaClock(serial: 3) }
        } operation: {
            (try parent.resolve(RpaStore.self).clock.serial, try child.resolve(RpaStore.self).clock.serial)
        }

        #expect(seen == (1, 2, 2))
        #expect(withItsOwnClock == (3, 3))
        #expect(try parent.resolve(RpaStore.self).clock.serial == -1)
    }

    // MARK: - Validation and the dependency graph

    @Test func validationRunsADeclaredRegistrationWithAHookThroughThePlanAndReportsALateDependency() throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaStore.self, scope: .singleton, RpaStore.init).onResolved { _, _ in }
        try container.finishRegistration()
        #expect(try container.validate().checked.contains(ServiceKey(RpaStore.self, name: nil)))

        container.register(RpaClock.self) { _ in RpaClock(serial: 2) }

        let error = injectionError { try container.validate() }
        #expect(error?.code == .validationFailed)
        #expect(error?.problems.contains { $0.code == .registrationAfterFinish } == true)
    }

    // MARK: - Async

    @Test func asyncDeclaredRegistrationsAndAsyncLetThroughTheResolversContainerResolveAsALookupWould() async throws {
        let parent = Container()
        parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        parent.register(RpaStore.self) { (clock: RpaClock) async in RpaStore(clock: clock) }
        parent.register(RpaAudit.self) { r in
            let container = try r.container
            async let store = container.resolveAsync(RpaStore.self)
            async let database = RpaDatabase(name: "\(try await container.resolveAsync(RpaStore.self).clock.serial)")
            return try await RpaAudit(clock: store.clock, database: database)
        }
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        try child.finishRegistration()

        #expect(try await parent.resolveAsync(RpaStore.self).clock.serial == 1)
        #expect(try await child.resolveAsync(RpaStore.self).clock.serial == 2)
        let fromChild = try await child.resolveAsync(RpaAudit.self)
        #expect(fromChild.clock.serial == 2)
        #expect(fromChild.database.name == "2")
        let fromParent = try await parent.resolveAsync(RpaAudit.self)
        #expect(fromParent.clock.serial == 1)
        #expect(fromParent.database.name == "1")
    }

    // MARK: - Threads

    /// Late registrations of the dependency itself while threads resolve the declared registration
    /// from the container and from a child: each resolve gives the first clock or reports the late
    /// registration, never anything else.
    @Test func threadsResolveThroughThePlanWhileTheDependencyItselfIsRegisteredLate() async throws {
        let container = Container()
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        container.register(RpaStore.self, RpaStore.init)
        container.register(RpaStore.self, name: "shared", scope: .singleton, RpaStore.init)
        try container.finishRegistration()
        let child = container.makeChild()
        child.register(RpaDatabase.self) { _ in RpaDatabase(name: "child") }
        child.register(RpaAudit.self, RpaAudit.init)
        try child.finishRegistration()
        let unexpected = Guarded<[String]>([])
        let stop = Guarded(false)

        @Sendable func check(_ outcome: RpaOutcome) {
            if outcome != .value("1") && outcome != .error(.registrationAfterFinish) {
                unexpected.withLock { $0.append(outcome.description) }
            }
        }
        let readers: [@Sendable () -> Void] = [
            {
                while !stop.current { check(RpaOutcome { "\(try container.resolve(RpaStore.self).clock.serial)" }) }
            },
            {
                while !stop.current { check(RpaOutcome { "\(try child.resolve(RpaAudit.self).clock.serial)" }) }
            },
            {
                while !stop.current {
                    check(RpaOutcome { "\(try child.resolve(RpaStore.self, name: "shared").clock.serial)" })
                }
            },
        ]
        let writer: @Sendable () -> Void = {
            for index in 0..<200 {
                container.register(RpaClock.self) { _ in RpaClock(serial: 100 + index) }
                child.register(RpaDatabase.self, name: "late\(index)") { _ in RpaDatabase(name: "late") }
            }
            stop.set(true)
        }
        #expect(await onThreads(readers + [writer]))

        #expect(unexpected.current == [])
        #expect(injectionError { _ = try container.resolve(RpaStore.self) }?.code == .registrationAfterFinish)
        #expect(injectionError { _ = try child.resolve(RpaAudit.self) }?.code == .registrationAfterFinish)
    }

    // MARK: - A resolve in flight across late registrations

    /// A resolve of a declared registration is under way (its first parameter waits) while the
    /// registration itself and then its second parameter are registered again, late.
    ///
    /// The resolve in flight runs the replaced provider, whose plan no change links again: it holds
    /// only while the snapshot it was linked to is current, so the second parameter is looked up
    /// and the late registration reported, as the mirror (a closure resolving the same keys) does.
    /// (It took the replaced clock from the stale link before plans were tied to their snapshot.)
    @Test(arguments: [false, true])
    func aResolveInFlightOfAReplacedDeclaredRegistrationLooksUpWhatChangedSinceItsPlan(mirror: Bool) async throws {
        let container = Container()
        let entered = Signal()
        let gate = Signal()
        container.register(RpaGate.self) { _ async in
            entered.signal()
            await gate.wait()
            return RpaGate()
        }
        container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
        if mirror {
            container.register(RpaSlow.self) { r in
                RpaSlow(gate: try await r.resolveAsync(RpaGate.self), clock: try await r.resolveAsync(RpaClock.self))
            }
        } else {
            container.register(RpaSlow.self) { (gate: RpaGate, clock: RpaClock) async in
                RpaSlow(gate: gate, clock: clock)
            }
        }
        try container.finishRegistration()

        async let inFlight = RpaOutcome.async { "\(try await container.resolveAsync(RpaSlow.self).clock.serial)" }
        await entered.wait()
        container.register(RpaSlow.self) { (gate: RpaGate, clock: RpaClock) async in RpaSlow(gate: gate, clock: clock) }
        container.register(RpaClock.self) { _ in RpaClock(serial: 2) }
        gate.signal()

        let outcome = await inFlight
        #expect(outcome == .error(.registrationAfterFinish), "got \(outcome)")
    }

    // MARK: - Memory

    @Test func aPlanKeepsNeitherItsContainerNorItsRegistryAlive() throws {
        let box = RpaWeakBox()
        let parentBox = RpaWeakBox()
        do {
            let parent = Container()
            parent.register(RpaClock.self) { _ in RpaClock(serial: 1) }
            parent.register(RpaStore.self, scope: .singleton, RpaStore.init)
            try parent.finishRegistration()
            let child = parent.makeChild()
            child.register(RpaDatabase.self) { _ in RpaDatabase(name: "db") }
            child.register(RpaAudit.self, RpaAudit.init)
            try child.finishRegistration()
            child.register(RpaDatabase.self, name: "late") { _ in RpaDatabase(name: "late") }
            _ = try child.resolve(RpaAudit.self)
            _ = try parent.resolve(RpaStore.self)
            box.container = child
            box.registry = child.registry.load()
            parentBox.container = parent
            parentBox.registry = parent.registry.load()
            try child.shutdown()
            try parent.shutdown()
        }
        #expect(box.container == nil)
        #expect(box.registry == nil)
        #expect(parentBox.container == nil)
        #expect(parentBox.registry == nil)
    }

    @Test func aModuleInstalledInTwoContainersLinksAPlanForEach() throws {
        let first = Container()
        first.install(RpaModule(serial: 1))
        try first.finishRegistration()
        let second = Container()
        second.install(RpaModule(serial: 2))
        try second.finishRegistration()

        let firstPlan = try declared(RpaStore.self, in: first)
        let secondPlan = try declared(RpaStore.self, in: second)
        #expect(firstPlan !== secondPlan)
        #expect(firstPlan.linkedProvider(at: 0, from: second) == nil)
        for _ in 0..<3 {
            #expect(try first.resolve(RpaStore.self).clock.serial == 1)
            #expect(try second.resolve(RpaStore.self).clock.serial == 2)
        }
    }

    /// Containers made and freed in turn are often allocated at the same address: a plan is keyed
    /// by its container's identity, so each must still resolve its own dependency.
    @Test func containersMadeAndFreedInTurnEachResolveTheirOwnDependency() throws {
        var wrong: [Int] = []
        for serial in 0..<300 {
            let container = Container()
            container.install(RpaModule(serial: serial))
            try container.finishRegistration()
            let resolved = try container.resolve(RpaStore.self).clock.serial
            if resolved != serial { wrong.append(serial) }
        }
        #expect(wrong == [])
    }

    /// Every change after `finishRegistration()` links a new plan that keeps the one it replaced:
    /// a chain as long as the changes. Freed by recursion, a chain of a few thousand overflows a
    /// small stack, as the chain of hooks did (`ProviderChain`, freed link by link).
    @Test func aLongChainOfReplacedPlansIsFreedWithoutOverflowingASmallStack() async {
        await #expect(processExitsWith: .success) {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                do {
                    let container = Container()
                    container.register(RpaClock.self) { _ in RpaClock(serial: 1) }
                    container.register(RpaStore.self, RpaStore.init)
                    try? container.finishRegistration()
                    for index in 0..<5_000 {
                        container.register(RpaDatabase.self, name: "late\(index % 4)") { _ in RpaDatabase(name: "") }
                    }
                }  // the container, its registrations and the plan's chain are freed here
                done.signal()
            }
            thread.stackSize = 256 << 10
            thread.start()
            done.wait()
        }
    }
}
