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

import Testing

@testable import Injector

// A declared registration's resolve plan: once registration finishes, each parameter is linked to
// the provider the registering container has for it, and a resolve takes that provider without a
// lookup, except where a lookup could find another (a child, overrides, a late registration).

private final class PlanClock: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class PlanDatabase: Sendable {
    let name: String
    init(name: String) { self.name = name }
}
private final class PlanStore: Sendable {
    let clock: PlanClock
    let database: PlanDatabase
    init(clock: PlanClock, database: PlanDatabase) {
        self.clock = clock
        self.database = database
    }
}

@Suite struct ResolvePlanTests {
    /// The registration of `PlanStore`'s provider in `container`, and its declared dependencies.
    private func declared(in container: Container) throws -> DeclaredDependencies {
        let provider = try #require(container.provider(for: LookupKey(PlanStore.self, name: nil))?.object)
        return try #require(provider.declaredDependencies)
    }

    /// The line where `registerAll(in:)` registers the clock, which messages name.
    private static let clockLine = #line + 4

    /// Registers the clock (serial 1), the "audit" database, and the store declaring both.
    private func registerAll(in container: Container) {
        container.register(PlanClock.self) { _ in PlanClock(serial: 1) }
        container.register(PlanDatabase.self, name: "audit") { _ in PlanDatabase(name: "audit") }
        registerStore(in: container)
    }

    /// The line where `registerStore(in:)` registers the store.
    private static let storeLine = #line + 3

    private func registerStore(in container: Container) {
        container.register(
            PlanStore.self,
            using: Resolved(PlanClock.self),
            Resolved(PlanDatabase.self, name: "audit"),
            make: PlanStore.init
        )
    }

    @Test func finishingRegistrationLinksEachParameterToTheProviderItsContainerHas() throws {
        let container = Container()
        registerAll(in: container)
        let dependencies = try declared(in: container)
        #expect(dependencies.linkedProvider(at: 0, from: container) == nil)

        try container.finishRegistration()

        let clock = try #require(container.provider(for: LookupKey(PlanClock.self, name: nil))?.object)
        let audit = try #require(container.provider(for: LookupKey(PlanDatabase.self, name: "audit"))?.object)
        #expect(dependencies.linkedProvider(at: 0, from: container) === clock)
        #expect(dependencies.linkedProvider(at: 1, from: container) === audit)
        let store = try container.resolve(PlanStore.self)
        #expect(store.clock.serial == 1)
        #expect(store.database.name == "audit")
    }

    @Test func aParameterTheContainerDoesNotRegisterIsLookedUpInItsParent() throws {
        let parent = Container()
        parent.register(PlanDatabase.self, name: "audit") { _ in PlanDatabase(name: "parent's") }
        let container = parent.makeChild()
        container.register(PlanClock.self) { _ in PlanClock(serial: 1) }
        registerStore(in: container)
        try container.finishRegistration()

        let dependencies = try declared(in: container)
        #expect(dependencies.linkedProvider(at: 0, from: container) != nil)
        #expect(dependencies.linkedProvider(at: 1, from: container) == nil)
        #expect(try container.resolve(PlanStore.self).database.name == "parent's")
    }

    @Test func aParentsDeclaredRegistrationResolvedFromAChildTakesTheChildsDependency() async throws {
        let parent = Container()
        registerAll(in: parent)
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(PlanClock.self) { _ in PlanClock(serial: 2) }
        try child.finishRegistration()

        #expect(try child.resolve(PlanStore.self).clock.serial == 2)
        #expect(try await child.resolveAsync(PlanStore.self).clock.serial == 2)
        #expect(try parent.resolve(PlanStore.self).clock.serial == 1)
    }

    @Test func anOverrideReachesADeclaredParameterAfterRegistrationFinished() async throws {
        let container = Container()
        registerAll(in: container)
        try container.finishRegistration()

        let inside = try container.withOverrides {
            $0.register(PlanClock.self) { _ in PlanClock(serial: 2) }
        } operation: {
            try container.resolve(PlanStore.self)
        }
        let insideAsync = try await container.withOverridesAsync {
            $0.register(PlanClock.self) { _ in PlanClock(serial: 3) }
        } operation: {
            try await container.resolveAsync(PlanStore.self)
        }

        #expect(inside.clock.serial == 2)
        #expect(insideAsync.clock.serial == 3)
        #expect(try container.resolve(PlanStore.self).clock.serial == 1)
    }

    @Test func aLateRegistrationOfAParameterLinksThePlanAgainAndIsReported() async throws {
        let container = Container()
        registerAll(in: container)
        try container.finishRegistration()
        #expect(try container.resolve(PlanStore.self).clock.serial == 1)

        let lateLine = #line + 1
        container.register(PlanClock.self) { _ in PlanClock(serial: 2) }

        let late = try #require(container.provider(for: LookupKey(PlanClock.self, name: nil))?.object)
        #expect(try declared(in: container).linkedProvider(at: 0, from: container) === late)
        for error in [
            injectionError { _ = try container.resolve(PlanStore.self) },
            await injectionErrorAsync { _ = try await container.resolveAsync(PlanStore.self) },
        ] {
            let error = try #require(error)
            #expect(error.code == .registrationAfterFinish)
            #expect(
                error.message
                    == "PlanClock, the 1st parameter of PlanStore (declared at InjectorTests/ResolvePlanTests.swift:"
                    + "\(Self.storeLine)), was registered after finishRegistration() (at InjectorTests/ResolvePlanTests.swift:"
                    + "\(Self.clockLine), then at InjectorTests/ResolvePlanTests.swift:\(lateLine)); the registry was already "
                    + "frozen. Fix: make it before finishRegistration(), or in a child container (container.makeChild())."
            )
        }
    }

    /// Late registrations of other keys, each linking the plan again, while threads resolve the
    /// declared registration through it: every resolve finds its dependencies (under
    /// ThreadSanitizer too, which checks that a replaced plan is never read freed).
    @Test func threadsResolveThroughThePlanWhileLateRegistrationsLinkItAgain() async throws {
        let container = Container()
        registerAll(in: container)
        try container.finishRegistration()
        let wrong = CallCounter()
        let stop = Guarded(false)

        let readers: [@Sendable () -> Void] = (0..<3).map { _ in
            {
                while !stop.current {
                    guard let store = try? container.resolve(PlanStore.self),
                        store.clock.serial == 1, store.database.name == "audit"
                    else {
                        wrong.next()
                        return
                    }
                }
            }
        }
        let writer: @Sendable () -> Void = {
            for index in 0..<300 {
                container.register(PlanDatabase.self, name: "late\(index)") { _ in PlanDatabase(name: "late") }
            }
            stop.set(true)
        }
        #expect(await onThreads(readers + [writer]))

        #expect(wrong.count == 0)
        #expect(try container.resolve(PlanStore.self).clock.serial == 1)
    }
}

// A declared parameter is resolved in code that packs leave unspecialised; its registration, written
// where its type is known, carries a resolve specialised for it, which that code calls.
@Suite struct SpecialisedResolveTests {
    private final class Engine: Sendable {}
    private final class Car: Sendable {
        let engine: Engine
        init(engine: Engine) { self.engine = engine }
    }

    /// Whether the provider `container` has for `Service` (unnamed, without arguments) carries a
    /// resolve specialised where it was registered.
    private func isSpecialised<Service>(_: Service.Type, in container: Container) throws -> Bool {
        let provider = try #require(container.provider(for: LookupKey(Service.self, name: nil))?.object)
        return try #require(provider as? Provider<Service>).resolveSpecialised != nil
    }

    @Test func aSyncClosureOrDeclaredRegistrationCarriesItsSpecialisedResolve() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }
        container.register(Car.self, Car.init)
        container.register(String.self, scope: .singleton) { _ in "a" }
        #expect(try isSpecialised(Engine.self, in: container))
        #expect(try isSpecialised(Car.self, in: container))
        #expect(try isSpecialised(String.self, in: container))
    }

    @Test func anAsyncRegistrationWhichNoSyncResolveBuildsCarriesNone() throws {
        let container = Container()
        container.register(Engine.self) { _ async in Engine() }
        container.register(Car.self) { (engine: Engine) async in Car(engine: engine) }
        #expect(try !isSpecialised(Engine.self, in: container))
        #expect(try !isSpecialised(Car.self, in: container))
    }

    @Test func aRegistrationAmendedByAHookOrARecordedDuplicateKeepsItsSpecialisedResolve() throws {
        let container = Container()
        container.register(Engine.self, scope: .singleton) { _ in Engine() }.onResolved { _, _ in }
        container.register(Car.self, Car.init)
        container.register(Car.self, Car.init)
        #expect(try isSpecialised(Engine.self, in: container))
        #expect(try isSpecialised(Car.self, in: container))
    }

    @Test func aParameterResolvedThroughItsSpecialisedResolveKeepsItsLifetimeAndHooks() throws {
        let container = Container()
        let hooked = CallCounter()
        container.register(Engine.self, scope: .singleton) { _ in Engine() }.onResolved { _, _ in hooked.next() }
        container.register(Car.self, Car.init)
        try container.finishRegistration()
        let first = try container.resolve(Car.self)
        let second = try container.resolve(Car.self)
        #expect(first !== second)
        #expect(first.engine === second.engine)
        #expect(hooked.count == 1)
    }
}
