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

// Registrations that declare what they need: resolved by their parameters' types, and checked by
// validate() from the declarations alone, without running a factory.

private protocol DecClock: Sendable { var serial: Int { get } }
private final class DecSystemClock: DecClock {
    let serial: Int
    init(serial: Int = 0) { self.serial = serial }
}
private protocol DecDatabase: Sendable { var name: String { get } }
private final class DecSQLite: DecDatabase {
    let name: String
    init(name: String = "main") { self.name = name }
}
private protocol DecNoteStore: AnyObject, Sendable {
    var clock: any DecClock { get }
    var database: any DecDatabase { get }
}
private final class DecFileNoteStore: DecNoteStore {
    let clock: any DecClock
    let database: any DecDatabase
    init(clock: any DecClock, database: any DecDatabase) {
        self.clock = clock
        self.database = database
    }
}
private struct DecRequestInfo: Sendable { let id: Int }
private final class DecRequestHandler: Sendable { init(info: DecRequestInfo) {} }
private final class DecAuditTrail: Sendable {
    let request: DecRequestInfo
    let database: any DecDatabase
    init(request: DecRequestInfo, database: any DecDatabase) {
        self.request = request
        self.database = database
    }
}
private final class DecMailer: Sendable {}
private enum DecSetupError: Error { case unavailable }
private final class DecChicken: Sendable { init(egg: DecEgg) {} }
private final class DecEgg: Sendable { init(chicken: DecChicken) {} }
private final class DecSessionCache: Sendable { init(trail: DecAuditTrail) {} }
private final class DecReport: Sendable {
    let logger: DecMailer?
    let mailer: Lazy<DecMailer>
    init(logger: DecMailer?, mailer: Lazy<DecMailer>) {
        self.logger = logger
        self.mailer = mailer
    }
}
private final class DecPool: Sendable {}
private final class DecRepository: Sendable { init(pool: DecPool) {} }
private final class DecRequestLog: Sendable {}
private final class DecHolder: Sendable { init(helper: DecHelper) {} }
private final class DecHelper: Sendable {}
private struct DecNote: Sendable { let title: String }
private final class DecEditor: Sendable {
    let note: DecNote
    let store: any DecNoteStore
    init(note: DecNote, store: any DecNoteStore) {
        self.note = note
        self.store = store
    }
}

extension ScopeTag {
    fileprivate static let decRequest: ScopeTag = "decRequest"
    fileprivate static let decSession: ScopeTag = "decSession"
}

private let decFile = "InjectorTests/DeclaredRegistrationTests.swift"

/// Counts the factories a test's registrations ran.
private final class FactoryRuns: Sendable {
    private let count = Locked.make(0)
    var value: Int { count.withLock { $0 } }
    func record() { count.withLock { $0 += 1 } }
}

@Suite struct DeclaredRegistrationTests {
    @Test func anInitializerReferenceIsResolvedByItsParameterTypes() throws {
        let container = Container()
        container.register((any DecClock).self, scope: .singleton) { _ in DecSystemClock(serial: 7) }
        container.register((any DecDatabase).self) { _ in DecSQLite() }
        container.register((any DecNoteStore).self, scope: .singleton, DecFileNoteStore.init)

        let store = try container.resolve((any DecNoteStore).self)

        #expect(store.clock.serial == 7)
        #expect(store.database.name == "main")
        #expect(try container.resolve((any DecNoteStore).self) === store)
    }

    @Test func aClosureWithTypedParametersIsDeclaredAndOneTakingAResolverIsNot() throws {
        let container = Container()
        container.register((any DecClock).self) { _ in DecSystemClock() }
        container.register((any DecDatabase).self) { r in DecSQLite(name: "from a resolver \(type(of: r))") }
        container.register((any DecNoteStore).self) { (clock: any DecClock, database: any DecDatabase) in
            DecFileNoteStore(clock: clock, database: database)
        }

        let report = try container.validate()

        #expect(report.checkedFromDeclarations == [ServiceKey((any DecNoteStore).self, name: nil)])
        #expect(try container.resolve((any DecNoteStore).self).database.name == "from a resolver Resolver")
    }

    @Test func namedDependenciesAreResolvedUnderTheirNames() throws {
        let container = Container()
        container.register((any DecDatabase).self) { _ in DecSQLite(name: "main") }
        container.register((any DecDatabase).self, name: "audit") { _ in DecSQLite(name: "audit") }
        container.register((any DecClock).self) { _ in DecSystemClock() }
        container.register(
            (any DecNoteStore).self,
            name: "audited",
            using: Resolved((any DecClock).self),
            Resolved((any DecDatabase).self, name: "audit"),
            make: DecFileNoteStore.init
        )

        #expect(try container.resolve((any DecNoteStore).self, name: "audited").database.name == "audit")
    }

    @Test func everyLifetimeKeepsItsSharing() throws {
        let container = Container()
        container.register(DecPool.self, scope: .singleton, DecPool.init)
        container.register(DecRepository.self, scope: .scoped, DecRepository.init)
        container.register(DecRequestLog.self, scope: .weak, DecRequestLog.init)
        container.register(DecMailer.self, scope: .graph, DecMailer.init)
        container.register(DecHelper.self, DecHelper.init)

        let scope = container.makeScope()
        defer { try? scope.close() }

        #expect(try scope.resolve(DecRepository.self) === scope.resolve(DecRepository.self))
        #expect(try container.resolve(DecPool.self) === container.resolve(DecPool.self))
        let log = try container.resolve(DecRequestLog.self)
        #expect(try container.resolve(DecRequestLog.self) === log)
        #expect(try container.resolve(DecHelper.self) !== container.resolve(DecHelper.self))
    }

    @Test func anAsyncFunctionResolvesAsyncDependencies() async throws {
        let container = Container()
        container.register(DecPool.self, scope: .singleton) { _ async in DecPool() }
        container.register(DecRepository.self) { (pool: DecPool) async in DecRepository(pool: pool) }

        _ = try await container.resolveAsync(DecRepository.self)
        let error = try #require(injectionError { try container.resolve(DecRepository.self) })
        #expect(error.code == .asyncResolutionRequired)
    }

    @Test func hooksRunOnADeclaredRegistration() throws {
        let container = Container()
        let runs = FactoryRuns()
        container.register(DecMailer.self, DecMailer.init).onResolved { _, _ in runs.record() }

        _ = try container.resolve(DecMailer.self)

        #expect(runs.value == 1)
    }

    @Test func aMissingParameterIsNamedWithItsPositionAndDeclarationSite() throws {
        let container = Container()
        container.register((any DecClock).self) { _ in DecSystemClock() }
        let line = #line + 1
        container.register((any DecNoteStore).self, DecFileNoteStore.init)

        let error = try #require(injectionError { try container.resolve((any DecNoteStore).self) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for DecDatabase, the 2nd parameter of DecNoteStore (declared at \(decFile):\(line)),"
                + " needed by DecNoteStore -> DecDatabase (missing). Nothing is registered for DecDatabase under any"
                + " name or arguments. Fix: register it, e.g. container.register(DecDatabase.self) { r in … }, in this"
                + " container or one of its parents."
        )
    }

    /// A parameter whose type is registered under a name only: the fix names it in `using:`.
    @Test func aParameterRegisteredOnlyUnderANameIsToBeNamedInUsing() throws {
        let container = Container()
        container.register((any DecClock).self) { _ in DecSystemClock() }
        container.register((any DecDatabase).self, name: "audit") { _ in DecSQLite(name: "audit") }
        let line = #line + 1
        container.register((any DecNoteStore).self, DecFileNoteStore.init)
        let expected =
            "No registration for DecDatabase, the 2nd parameter of DecNoteStore (declared at \(decFile):\(line)),"
            + " needed by DecNoteStore -> DecDatabase (missing). Registered nearby: DecDatabase (name: \"audit\")."
            + " Fix: name the one to use in the registration's using:, e.g. Resolved(DecDatabase.self, name:"
            + " \"audit\"), or register DecDatabase."

        let error = try #require(injectionError { try container.resolve((any DecNoteStore).self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message == expected)
        let validation = try #require(injectionError { try container.validate() })
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func aResolveTimeArgumentComesFirstAndTheOtherParametersAreResolvedByType() throws {
        let container = Container()
        container.register((any DecClock).self) { _ in DecSystemClock() }
        container.register((any DecDatabase).self) { _ in DecSQLite() }
        container.register((any DecDatabase).self, name: "audit") { _ in DecSQLite(name: "audit") }
        container.register((any DecNoteStore).self, scope: .singleton, DecFileNoteStore.init)
        container.register(DecEditor.self, argument: DecNote.self, DecEditor.init)
        container.register(
            DecFileNoteStore.self,
            argument: (any DecClock).self,
            using: Resolved((any DecDatabase).self, name: "audit"),
            make: DecFileNoteStore.init
        )

        let editor = try container.resolve(DecEditor.self, argument: DecNote(title: "Groceries"))
        let audited = try container.resolve(DecFileNoteStore.self, argument: DecSystemClock(serial: 3) as any DecClock)

        #expect(editor.note.title == "Groceries")
        #expect(try editor.store === container.resolve((any DecNoteStore).self))
        #expect(audited.clock.serial == 3)
        #expect(audited.database.name == "audit")
    }

    @Test func anAsyncFunctionTakesItsArgumentFirst() async throws {
        let container = Container()
        container.register((any DecNoteStore).self) { _ async in
            DecFileNoteStore(clock: DecSystemClock(), database: DecSQLite())
        }
        container.register(DecEditor.self, argument: DecNote.self) { (note: DecNote, store: any DecNoteStore) async in
            DecEditor(note: note, store: store)
        }

        let editor = try await container.resolveAsync(DecEditor.self, arguments: DecNote(title: "Draft"))

        #expect(editor.note.title == "Draft")
    }

    @Test func validationChecksARegistrationWithAnArgumentFromItsDeclarationsWithoutAValue() throws {
        let container = Container()
        let runs = FactoryRuns()
        container.register((any DecClock).self) { _ in DecSystemClock() }
        container.register((any DecDatabase).self) { _ in DecSQLite() }
        container.register((any DecNoteStore).self, DecFileNoteStore.init)
        container.register(DecEditor.self, argument: DecNote.self) { (note: DecNote, store: any DecNoteStore) in
            runs.record()
            return DecEditor(note: note, store: store)
        }

        let report = try container.validate()

        #expect(report.checkedFromDeclarations.contains(ServiceKey(DecEditor.self, arguments: DecNote.self, name: nil)))
        #expect(report.unchecked.isEmpty)
        #expect(runs.value == 0)
    }

    @Test func aMissingParameterAfterAnArgumentIsCountedFromTheArgument() throws {
        let container = Container()
        let line = #line + 1
        container.register(DecEditor.self, argument: DecNote.self, DecEditor.init)

        let validation = try #require(injectionError { try container.validate() })
        let resolved = try #require(
            injectionError { try container.resolve(DecEditor.self, argument: DecNote(title: "")) }
        )

        let message =
            "No registration for DecNoteStore, the 2nd parameter of DecEditor (argument: DecNote) (declared at"
            + " \(decFile):\(line)), needed by DecEditor (argument: DecNote) -> DecNoteStore (missing). Nothing is"
            + " registered for DecNoteStore under any name or arguments. Fix: register it, e.g."
            + " container.register(DecNoteStore.self) { r in … }, in this container or one of its parents."
        #expect(resolved.code == .missingRegistration)
        #expect(resolved.message == message)
        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(validation.problems.map(\.message) == [message])
    }

    @Test func aSharedScopeWithAnArgumentIsRefusedAsAClosureRegistrationIsRefused() throws {
        let container = Container()
        container.register((any DecNoteStore).self) { _ in
            DecFileNoteStore(clock: DecSystemClock(), database: DecSQLite())
        }
        let line = #line + 1
        container.register(DecEditor.self, scope: .singleton, argument: DecNote.self, DecEditor.init)

        let error = try #require(injectionError { try container.resolve(DecEditor.self, argument: DecNote(title: "")) })

        #expect(error.code == .sharedScopeWithArguments)
        #expect(
            error.message
                == "DecEditor (argument: DecNote) is registered as .singleton at \(decFile):\(line), but its factory"
                + " takes resolve-time arguments: a shared instance is built once, from the first resolve's arguments,"
                + " and every later resolve would get it whatever its arguments. Fix: register it as .transient (a new"
                + " instance for each resolve), or register one named registration per value (name: \"db-a\"), or"
                + " share a service that hands out an instance per argument (a pool keyed by host)."
        )
    }

    @Test func aParameterRegisteredTwiceFailsTheResolveWithBothSitesAndThePath() throws {
        let container = Container()
        container.register((any DecClock).self) { _ in DecSystemClock() }
        let first = #line + 1
        container.register((any DecDatabase).self) { _ in DecSQLite() }
        let second = #line + 1
        container.register((any DecDatabase).self) { _ in DecSQLite(name: "other") }
        let line = #line + 1
        container.register((any DecNoteStore).self, DecFileNoteStore.init)

        let error = try #require(injectionError { try container.resolve((any DecNoteStore).self) })

        #expect(error.code == .duplicateRegistration)
        #expect(error.resolutionPath.map(\.description) == ["DecNoteStore", "DecDatabase"])
        #expect(
            error.message
                == "DecDatabase, the 2nd parameter of DecNoteStore (declared at \(decFile):\(line)), is registered 2"
                + " times: at \(decFile):\(first), then at \(decFile):\(second). Fix: remove"
                + " all but one; give them different names if each is needed (resolveAll collects them); or pass"
                + " replacesExisting: true to the one meant to replace the others, as a test does when it swaps in a"
                + " double."
        )
    }

    @Test func validationFindsAMissingDependencyBehindAScopeValueWithoutRunningAFactory() throws {
        let container = Container()
        let runs = FactoryRuns()
        container.register(DecRequestInfo.self, providedByScope: .decRequest)
        container.register(DecMailer.self) { _ in
            runs.record()
            return DecMailer()
        }
        let line = #line + 1
        container.register(DecAuditTrail.self, scope: .scoped(to: .decRequest)) {
            (request: DecRequestInfo, database: any DecDatabase) in
            runs.record()
            return DecAuditTrail(request: request, database: database)
        }

        let error = try #require(injectionError { try container.validate() })

        #expect(runs.value == 1)  // the closure registration's factory, and no other
        #expect(error.code == .validationFailed)
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(
            error.problems.first?.message
                == "No registration for DecDatabase, the 2nd parameter of DecAuditTrail (declared at"
                + " \(decFile):\(line)), needed by DecAuditTrail -> DecDatabase (missing). Nothing is registered"
                + " for DecDatabase under any name or arguments. Fix: register it, e.g."
                + " container.register(DecDatabase.self) { r in … }, in this container or one of its parents."
        )
    }

    @Test func validationChecksDeclaredRegistrationsWithoutBuildingThemAndSaysHowEachWasChecked() throws {
        let container = Container()
        let runs = FactoryRuns()
        container.register(DecRequestInfo.self, providedByScope: .decRequest)
        container.register((any DecDatabase).self, scope: .singleton) { _ in
            runs.record()
            return DecSQLite()
        }
        container.register(DecAuditTrail.self, scope: .scoped(to: .decRequest)) {
            (request: DecRequestInfo, database: any DecDatabase) in
            runs.record()
            return DecAuditTrail(request: request, database: database)
        }

        let report = try container.validate()

        #expect(runs.value == 1)
        #expect(report.checkedFromDeclarations == [ServiceKey(DecAuditTrail.self, name: nil)])
        #expect(
            report.description == """
                Validated 2 registrations: 1 from their declarations, without building them; 1 by building them in a sandbox.
                Not checked:
                - DecRequestInfo: provided by lifetime scopes
                """
        )
    }

    /// A report of declared registrations alone says so, rather than count none built.
    @Test func aReportOfDeclaredRegistrationsAloneSaysAllWereCheckedFromTheirDeclarations() throws {
        let container = Container()
        container.register(DecMailer.self, DecMailer.init)

        #expect(
            try container.validate().description
                == "Validated 1 registration, all from their declarations, without building them."
        )
    }

    @Test func validationFindsADeclaredCycleWithItsPath() throws {
        let container = Container()
        container.register(DecChicken.self, DecChicken.init)
        container.register(DecEgg.self, DecEgg.init)

        let error = try #require(injectionError { try container.validate() })

        #expect(error.problems.map(\.code) == [.circularDependency])
        #expect(error.problems.first?.resolutionPath.map(\.description) == ["DecChicken", "DecEgg", "DecChicken"])
        #expect(
            error.problems.first?.message
                == "Circular dependency: DecChicken -> DecEgg -> DecChicken. Each of these asks for the next in its"
                + " factory, so none of them can be built first. Fix: break the cycle with property injection: let"
                + " one of them receive the other after construction, in an onResolved hook, and give the one"
                + " resolved back the .graph or .singleton scope so that the hook receives the same instance."
        )
    }

    @Test func validationFindsADeclaredCaptiveDependency() throws {
        let container = Container()
        container.register(DecRequestInfo.self, providedByScope: .decRequest)
        container.register((any DecDatabase).self) { _ in DecSQLite() }
        container.register(DecAuditTrail.self, scope: .scoped(to: .decRequest), DecAuditTrail.init)
        container.register(DecSessionCache.self, scope: .singleton, DecSessionCache.init)

        let error = try #require(injectionError { try container.validate() })

        #expect(error.problems.map(\.code) == [.captiveDependency])
        #expect(
            error.problems.first?.message
                == "Captive dependency: DecSessionCache (.singleton) depends on DecAuditTrail"
                + " (.scoped(to: .decRequest)), which would then outlive its lifetime scope. Path: DecSessionCache"
                + " -> DecAuditTrail. Fix: give DecSessionCache a scope no longer than DecAuditTrail's"
                + " (.scoped(to: .decRequest) or .transient), give DecAuditTrail a longer one, or pass DecAuditTrail to the methods of DecSessionCache that use it rather than hold it."
        )
    }

    @Test func validationFindsACaptiveDependencyBehindAClosureRegistrationByItsRecordedEdges() throws {
        let container = Container()
        container.register(DecMailer.self, scope: .scoped) { _ in DecMailer() }
        container.register(DecHelper.self) { r in
            _ = try r.resolve(DecMailer.self)
            return DecHelper()
        }
        container.register(DecHolder.self, scope: .singleton, DecHolder.init)

        let error = try #require(injectionError { try container.validate() })

        #expect(error.problems.map(\.code) == [.captiveDependency])
        #expect(error.problems.first?.resolutionPath.map(\.description) == ["DecHolder", "DecHelper", "DecMailer"])
    }

    @Test func validationFindsScopesOfTwoTagsInOneDeclaredResolve() throws {
        let container = Container()
        container.register(DecRequestInfo.self, providedByScope: .decRequest)
        container.register((any DecDatabase).self, scope: .scoped(to: .decSession)) { _ in DecSQLite() }
        let line = #line + 1
        container.register(DecAuditTrail.self, scope: .scoped(to: .decRequest), DecAuditTrail.init)

        let error = try #require(injectionError { try container.validate() })

        #expect(error.problems.map(\.code) == [.scopeMismatch])
        #expect(
            error.problems.first?.message
                == "DecDatabase, the 2nd parameter of DecAuditTrail (declared at \(decFile):\(line)), is"
                + " .scoped(to: .decSession), but was resolved from the scope \"decRequest\". Path: DecAuditTrail ->"
                + " DecDatabase. Fix: resolve it from a scope made with"
                + " container.makeScope(tag: \"decSession\"), or register it as .scoped to let any scope own it."
        )
    }

    @Test func validationFindsAnAsyncDependencyOfASyncFunction() throws {
        let container = Container()
        container.register(DecPool.self, scope: .singleton) { _ async in DecPool() }
        let line = #line + 1
        container.register(DecRepository.self, DecRepository.init)

        let error = try #require(injectionError { try container.validate() })

        #expect(error.problems.map(\.code) == [.asyncResolutionRequired])
        #expect(
            error.problems.first?.message
                == "DecPool, the 1st parameter of DecRepository (declared at \(decFile):\(line)), has an async factory,"
                + " and the function registered for DecRepository is sync, so it cannot be given one, however"
                + " DecRepository is resolved. Path: DecRepository -> DecPool. Fix: register an async function for"
                + " it, e.g. container.register(DecRepository.self) { (…) async in … }, and resolve it with try await"
                + " resolveAsync; or give DecPool a sync factory."
        )
    }

    /// An optional parameter is an optional dependency: `nil` while nothing is registered for the
    /// type it wraps, which validation does not report; a `Lazy` one resolves without its service,
    /// which validation reports missing, since reading the `Lazy` would fail.
    @Test func anOptionalParameterIsNilWithoutItsServiceAndALazyOneIsReportedMissing() throws {
        let container = Container()
        let line = #line + 1
        container.register(DecReport.self, DecReport.init)

        let without = try container.resolve(DecReport.self)
        let error = try #require(injectionError { try container.validate() })
        container.register(DecMailer.self, DecMailer.init)
        let report = try container.validate()

        #expect(without.logger == nil)
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(
            error.problems.first?.message
                == "No registration for DecMailer, the 2nd parameter of DecReport (declared at \(decFile):\(line)),"
                + " needed by DecReport -> DecMailer (missing). Nothing is registered for DecMailer under any name or"
                + " arguments. Fix: register it, e.g. container.register(DecMailer.self) { r in … }, in this"
                + " container or one of its parents."
        )
        #expect(report.checkedFromDeclarations.map(\.description) == ["DecReport", "DecMailer"])
        #expect(try container.resolve(DecReport.self).logger != nil)
    }

    /// An optional parameter is `nil` only when nothing is registered: a registered service whose
    /// factory fails fails the resolve, rather than turn into `nil`, sync and async.
    @Test(arguments: [false, true])
    func anOptionalParameterIsNilWithoutItsServiceButItsFactorysFailureThrows(async: Bool) async throws {
        let container = Container()
        container.register(DecReport.self, DecReport.init)
        let resolve = {
            async ? try await container.resolveAsync(DecReport.self) : try container.resolve(DecReport.self)
        }

        let without = try await resolve()
        container.register(DecMailer.self) { _ in throw DecSetupError.unavailable }
        let error = await injectionErrorAsync { _ = try await resolve() }

        #expect(without.logger == nil)
        #expect(error?.code == .factoryFailed)
        #expect(error?.resolutionPath.map(\.description) == ["DecReport", "DecMailer"])
        #expect(
            error?.message
                == "The factory of DecMailer threw: unavailable. Path: DecReport -> DecMailer. The error is the"
                + " underlyingError; fix the factory or what it depends on."
        )
    }

    @Test func anOverrideRebuildsOnlyTheSingletonsThatDependOnItThroughDeclaredEdges() throws {
        let container = Container()
        let poolBuilds = FactoryRuns()
        container.register((any DecClock).self, scope: .singleton) { () in DecSystemClock(serial: 1) }
        container.register(DecPool.self, scope: .singleton) { () in
            poolBuilds.record()
            return DecPool()
        }
        container.register((any DecDatabase).self, scope: .singleton) { (_: DecPool) in DecSQLite() }
        container.register((any DecNoteStore).self, scope: .singleton, DecFileNoteStore.init)
        let store = try container.resolve((any DecNoteStore).self)
        let pool = try container.resolve(DecPool.self)

        let inside = try container.withOverrides {
            $0.register((any DecClock).self) { _ in DecSystemClock(serial: 2) }
        } operation: {
            (
                store: try container.resolve((any DecNoteStore).self),
                pool: try container.resolve(DecPool.self),
                database: try container.resolve((any DecDatabase).self)
            )
        }

        #expect(inside.store !== store)
        #expect(inside.store.clock.serial == 2)
        // No path to the clock: the container's own.
        #expect(inside.store.database as AnyObject === store.database as AnyObject)
        #expect(inside.pool === pool)
        #expect(poolBuilds.value == 1)
        #expect(try container.resolve((any DecNoteStore).self) === store)
    }

    @Test func anOverrideRebuildsAClosureSingletonByItsRecordedEdgesAndOneNotYetBuiltForTheCall() throws {
        let container = Container()
        container.register((any DecClock).self, scope: .singleton) { _ in DecSystemClock(serial: 1) }
        container.register(DecPool.self, scope: .singleton) { _ in DecPool() }
        container.register(DecRepository.self, scope: .singleton) { r in
            try DecRepository(pool: r.resolve(DecPool.self))
        }
        container.register(DecRequestLog.self, scope: .singleton) { _ in DecRequestLog() }
        let repository = try container.resolve(DecRepository.self)

        let inside = try container.withOverrides {
            $0.register((any DecClock).self) { _ in DecSystemClock(serial: 2) }
        } operation: {
            (repository: try container.resolve(DecRepository.self), log: try container.resolve(DecRequestLog.self))
        }

        #expect(inside.repository === repository)  // built, and its recorded edges miss the clock
        #expect(inside.log !== (try container.resolve(DecRequestLog.self)))  // edges unknown: built for the call
    }

    @Test func sampleScopeValuesLetValidationBuildTheClosureRegistrationsBehindThem() throws {
        let container = Container()
        container.register(DecRequestInfo.self, providedByScope: .decRequest)
        container.register(DecAuditTrail.self, scope: .scoped(to: .decRequest)) { r in
            try DecAuditTrail(request: r.resolve(DecRequestInfo.self), database: r.resolve((any DecDatabase).self))
        }

        let withoutSamples = try container.validate()
        let error = try #require(
            injectionError {
                try container.validate(providing: { $0.provide(DecRequestInfo.self, DecRequestInfo(id: 1)) })
            }
        )
        container.register((any DecDatabase).self) { _ in DecSQLite() }
        let withSamples = try container.validate(providing: { $0.provide(DecRequestInfo.self, DecRequestInfo(id: 1)) })

        #expect(
            withoutSamples.unchecked.map(\.description) == [
                "DecRequestInfo: provided by lifetime scopes",
                "DecAuditTrail: needs a value provided by lifetime scopes",
            ]
        )
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(
            error.problems.first?.message
                == "No registration for DecDatabase, needed by DecAuditTrail -> DecDatabase (missing). Nothing is"
                + " registered for DecDatabase under any name or arguments. Fix: register it, e.g."
                + " container.register(DecDatabase.self) { r in … }, in this container or one of its parents."
        )
        #expect(withSamples.checked.map(\.description) == ["DecRequestInfo", "DecAuditTrail", "DecDatabase"])
        #expect(withSamples.unchecked.isEmpty)
    }

    @Test func sampleScopeValuesReachAsyncValidationToo() async throws {
        let container = Container()
        container.register(DecRequestInfo.self, providedByScope: .decRequest)
        container.register(DecRequestLog.self, scope: .scoped(to: .decRequest)) { r async throws in
            _ = try r.resolve(DecRequestInfo.self)
            return DecRequestLog()
        }

        let report = try await container.validateAsync(providing: {
            $0.provide(DecRequestInfo.self, DecRequestInfo(id: 2))
        })

        #expect(report.checked.map(\.description) == ["DecRequestInfo", "DecRequestLog"])
    }

    /// A declared registration may need a value scopes are given without declaring it (it resolves
    /// in a scope given one): validation counts it as there when it is among the samples, and
    /// missing otherwise, sync and async.
    @Test(arguments: [false, true])
    func aSampleStandsForAnUndeclaredScopeValueADeclaredRegistrationNeeds(async: Bool) async throws {
        let container = Container()
        container.register(DecRequestHandler.self, DecRequestHandler.init)
        let sample = { (values: inout ScopeValues) in values.provide(DecRequestInfo.self, DecRequestInfo(id: 1)) }

        let report =
            async ? try await container.validateAsync(providing: sample) : try container.validate(providing: sample)
        let error = try #require(injectionError { try container.validate() })

        #expect(report.checkedFromDeclarations.map(\.description) == ["DecRequestHandler"])
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(error.problems.first?.message.hasPrefix("No registration for DecRequestInfo") == true)
    }

    /// A singleton declared to need a value scopes are given, among the samples, would keep it past
    /// its scope: a captive dependency, reported from the declaration.
    @Test func aSingletonNeedingASampleScopeValueIsACaptiveDependency() throws {
        let container = Container()
        container.register(DecRequestHandler.self, scope: .singleton, DecRequestHandler.init)

        let error = try #require(
            injectionError {
                try container.validate(providing: { $0.provide(DecRequestInfo.self, DecRequestInfo(id: 1)) })
            }
        )

        #expect(error.problems.map(\.code) == [.captiveDependency])
        #expect(
            error.problems.first?.message
                == "Captive dependency: DecRequestHandler (.singleton) depends on DecRequestInfo (.scoped), which"
                + " would then outlive its lifetime scope. Path: DecRequestHandler -> DecRequestInfo. Fix: give"
                + " DecRequestHandler a scope no longer than DecRequestInfo's (.scoped or .transient), give"
                + " DecRequestInfo a longer one, or pass DecRequestInfo to the methods of DecRequestHandler that use"
                + " it rather than hold it."
        )
    }
}
