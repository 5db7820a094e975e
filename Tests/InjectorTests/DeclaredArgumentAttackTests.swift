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

// Adversarial tests of declared registrations taking a resolve-time argument first (0f343cb) and of
// a declared parameter resolved through `AnyProvider.resolveFound(as:in:from:)` (3ea1a1f): every
// kind of parameter type through the unchecked cast, every lifetime, overrides, child containers,
// conflicts, cycles, async, concurrency, and what validate() and dependencyGraph() say.

private struct DaxNote: Sendable, Hashable { let title: String }
private final class DaxStore: Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}
private final class DaxPreview: Sendable {
    let note: DaxNote
    let store: DaxStore
    init(note: DaxNote, store: DaxStore) {
        self.note = note
        self.store = store
    }
}
private protocol DaxClock: Sendable { var serial: Int { get } }
private final class DaxSystemClock: DaxClock {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private struct DaxSettings: Sendable, Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5
    var label = "settings"
}
private enum DaxMode: Sendable, Equatable {
    case plain
    case rich(String, Int)
}
private final class DaxMailer: Sendable {}
private final class DaxMissing: Sendable {}
private final class DaxP: Sendable {}

/// Takes one parameter of each kind after its argument.
private struct DaxSink: Sendable {
    let note: DaxNote
    let settings: DaxSettings
    let mode: DaxMode
    let clock: any DaxClock
    let function: @Sendable () -> Int
    let optional: DaxMailer?
    let lazy: Lazy<DaxMailer>
    let provider: ServiceProvider<DaxMailer>
    let tuple: (Int, String)
    let store: DaxStore
}

private final class DaxGraphPart: Sendable {}
private final class DaxGraphUser: Sendable {
    let part: DaxGraphPart
    init(part: DaxGraphPart) { self.part = part }
}
private final class DaxGraphTop: Sendable {
    let note: DaxNote
    let first: DaxGraphPart
    let second: DaxGraphPart
    let user: DaxGraphUser
    init(note: DaxNote, first: DaxGraphPart, second: DaxGraphPart, user: DaxGraphUser) {
        self.note = note
        self.first = first
        self.second = second
        self.user = user
    }
}
private final class DaxSingle: Sendable {}
private final class DaxWeak: Sendable {}
private final class DaxScoped: Sendable {}
private final class DaxLifetimes: Sendable {
    let single: DaxSingle
    let weak: DaxWeak
    init(single: DaxSingle, weak: DaxWeak) {
        self.single = single
        self.weak = weak
    }
}
private struct DaxRequest: Sendable { let id: Int }
private final class DaxAudit: Sendable {
    let note: DaxNote
    let request: DaxRequest
    let scoped: DaxScoped
    init(note: DaxNote, request: DaxRequest, scoped: DaxScoped) {
        self.note = note
        self.request = request
        self.scoped = scoped
    }
}
/// A singleton that resolves a declared registration with an argument in its factory.
private final class DaxCache: Sendable {
    let preview: DaxPreview
    init(preview: DaxPreview) { self.preview = preview }
}
private final class DaxA: Sendable {}
private final class DaxB: Sendable {}
private final class DaxPool: Sendable {}
private final class DaxRepository: Sendable {
    let pool: DaxPool
    init(pool: DaxPool) { self.pool = pool }
}
private final class DaxConnection: Sendable {
    let pool: DaxPool
    let repository: DaxRepository
    init(pool: DaxPool, repository: DaxRepository) {
        self.pool = pool
        self.repository = repository
    }
}
private final class DaxQuery: Sendable {
    let number: Int
    let connection: DaxConnection
    let repository: DaxRepository
    init(number: Int, connection: DaxConnection, repository: DaxRepository) {
        self.number = number
        self.connection = connection
        self.repository = repository
    }
}
private struct DaxValue: Sendable {
    let note: DaxNote
    let store: DaxStore
    var tag = "made"
}
private class DaxBase: @unchecked Sendable {
    init() {}
    var kind: String { "base" }
}
private final class DaxSub: DaxBase, @unchecked Sendable {
    override var kind: String { "sub" }
}
private final class DaxBaseUser: Sendable {
    let base: DaxBase
    init(base: DaxBase) { self.base = base }
}
private protocol DaxReader: Sendable {}
private final class DaxMid: Sendable { init(missing: DaxMissing) {} }
private final class DaxTop: Sendable { init(note: DaxNote, mid: DaxMid) {} }

/// Takes parameters of odd layouts after its argument: empty, one byte, a metatype, an existential
/// of any type, a wide tuple, a value given as an instance.
private struct DaxOdd: Sendable {
    let void: Void
    let byte: Int8
    let metatype: DaxNote.Type
    let anything: any Sendable
    let wide: (Int, Int, Int, Int, String)
    let settings: DaxSettings
    let optional: DaxMailer?
    let clock: any DaxClock
}
private final class DaxHooked: Sendable {
    let hooked = Guarded(0)
}
private final class DaxHolder: Sendable {
    let preview: DaxPreview
    init(preview: DaxPreview) { self.preview = preview }
}

extension ScopeTag {
    fileprivate static let daxRequest: ScopeTag = "daxRequest"
}

private let daxFile = "InjectorTests/DeclaredArgumentAttackTests.swift"

@Suite struct DeclaredArgumentAttackTests {
    // MARK: - Every kind of parameter through the provider's cast

    private static func registerSinkDependencies(_ container: Container) {
        container.register(DaxSettings.self) { _ in DaxSettings(a: 10, b: 20, c: 30, d: 40, e: 50, label: "big") }
        container.register(DaxMode.self) { _ in .rich("x", 9) }
        container.register((any DaxClock).self, scope: .singleton) { _ in DaxSystemClock(serial: 5) }
        container.register((@Sendable () -> Int).self) { _ in { 42 } }
        container.register(DaxMailer.self, scope: .singleton) { _ in DaxMailer() }
        container.register((Int, String).self) { _ in (7, "seven") }
        container.register(DaxStore.self, scope: .singleton) { _ in DaxStore(id: 3) }
    }

    private static func checkSink(_ sink: DaxSink, in container: Container) throws {
        #expect(sink.note == DaxNote(title: "n"))
        #expect(sink.settings == DaxSettings(a: 10, b: 20, c: 30, d: 40, e: 50, label: "big"))
        #expect(sink.mode == .rich("x", 9))
        #expect(sink.clock.serial == 5)
        #expect(sink.function() == 42)
        #expect(try sink.optional === container.resolve(DaxMailer.self))
        #expect(try sink.lazy.value === container.resolve(DaxMailer.self))
        #expect(try sink.provider.resolve() === container.resolve(DaxMailer.self))
        #expect(sink.tuple == (7, "seven"))
        #expect(sink.store.id == 3)
    }

    @Test func everyKindOfParameterTypeAfterTheArgumentIsResolvedIntact() throws {
        let container = Container()
        Self.registerSinkDependencies(container)
        container.register(DaxSink.self, argument: DaxNote.self, DaxSink.init)

        // Twice: the second resolve reads the published singletons straight from their slots.
        try Self.checkSink(container.resolve(DaxSink.self, argument: DaxNote(title: "n")), in: container)
        try Self.checkSink(container.resolve(DaxSink.self, argument: DaxNote(title: "n")), in: container)
        let report = try container.validate()
        #expect(report.checkedFromDeclarations == [ServiceKey(DaxSink.self, arguments: DaxNote.self, name: nil)])
    }

    @Test func everyKindOfParameterTypeAfterTheArgumentIsResolvedIntactInAnAsyncResolve() async throws {
        let container = Container()
        Self.registerSinkDependencies(container)
        container.register(DaxSink.self, argument: DaxNote.self) {
            (
                note: DaxNote,
                settings: DaxSettings,
                mode: DaxMode,
                clock: any DaxClock,
                function: @escaping @Sendable () -> Int,
                optional: DaxMailer?,
                lazy: Lazy<DaxMailer>,
                provider: ServiceProvider<DaxMailer>,
                tuple: (Int, String),
                store: DaxStore
            ) async in
            DaxSink(
                note: note,
                settings: settings,
                mode: mode,
                clock: clock,
                function: function,
                optional: optional,
                lazy: lazy,
                provider: provider,
                tuple: tuple,
                store: store
            )
        }

        let sink = try await container.resolveAsync(DaxSink.self, argument: DaxNote(title: "n"))
        try Self.checkSink(sink, in: container)
    }

    @Test func theSameKindsAsParametersOfAnOverrideAndOfAChildAreResolvedIntact() throws {
        let container = Container()
        Self.registerSinkDependencies(container)
        container.register(DaxSink.self, argument: DaxNote.self, DaxSink.init)
        let child = container.makeChild()
        child.register(DaxMode.self) { _ in .plain }

        let overridden = try container.withOverrides {
            $0.register((@Sendable () -> Int).self) { _ in { 99 } }
            $0.register((Int, String).self) { _ in (8, "eight") }
        } operation: {
            try child.resolve(DaxSink.self, argument: DaxNote(title: "o"))
        }

        #expect(overridden.mode == .plain)
        #expect(overridden.function() == 99)
        #expect(overridden.tuple == (8, "eight"))
        #expect(overridden.settings.label == "big")
        #expect(try container.resolve(DaxSink.self, argument: DaxNote(title: "n")).function() == 42)
    }

    // MARK: - Lifetimes of the parameters

    @Test func aGraphParameterIsOneInstanceAcrossTwoParametersAndANestedDeclaredOneInOneResolve() throws {
        let container = Container()
        container.register(DaxGraphPart.self, scope: .graph, DaxGraphPart.init)
        container.register(DaxGraphUser.self, DaxGraphUser.init)
        container.register(DaxGraphTop.self, argument: DaxNote.self, DaxGraphTop.init)

        let first = try container.resolve(DaxGraphTop.self, argument: DaxNote(title: "1"))
        let second = try container.resolve(DaxGraphTop.self, argument: DaxNote(title: "2"))

        #expect(first.first === first.second)
        #expect(first.user.part === first.first)
        #expect(second.first !== first.first)
        #expect(second.note.title == "2")
    }

    @Test func aGraphParameterIsSharedWithTheClosureRegistrationThatResolvedTheDeclaredOne() throws {
        let container = Container()
        container.register(DaxGraphPart.self, scope: .graph, DaxGraphPart.init)
        container.register(DaxGraphUser.self, DaxGraphUser.init)
        container.register(DaxGraphTop.self, argument: DaxNote.self, DaxGraphTop.init)
        container.register(DaxCache.self) { r in
            let part = try r.resolve(DaxGraphPart.self)
            let top = try r.resolve(DaxGraphTop.self, argument: DaxNote(title: "in"))
            #expect(top.first === part)
            return DaxCache(preview: DaxPreview(note: top.note, store: DaxStore()))
        }

        #expect(try container.resolve(DaxCache.self).preview.note.title == "in")
    }

    @Test func singletonAndWeakParametersAreSharedAcrossResolvesWithDifferentArguments() throws {
        let container = Container()
        let singles = CallCounter()
        container.register(DaxSingle.self, scope: .singleton) { () in
            singles.next()
            return DaxSingle()
        }
        container.register(DaxWeak.self, scope: .weak, DaxWeak.init)
        container.register(DaxLifetimes.self, argument: Int.self) { (_: Int, single: DaxSingle, weak: DaxWeak) in
            DaxLifetimes(single: single, weak: weak)
        }

        let first = try container.resolve(DaxLifetimes.self, argument: 1)
        let second = try container.resolve(DaxLifetimes.self, argument: 2)

        #expect(first !== second)
        #expect(first.single === second.single)
        #expect(first.weak === second.weak)
        #expect(singles.count == 1)
        #expect(try container.resolve(DaxSingle.self) === first.single)
    }

    @Test func aScopedParameterAndAScopeValueAreTheScopesOwn() throws {
        let container = Container()
        container.register(DaxRequest.self, providedByScope: .daxRequest)
        container.register(DaxScoped.self, scope: .scoped) { _ in DaxScoped() }
        container.register(DaxAudit.self, argument: DaxNote.self, DaxAudit.init)

        let one = container.makeScope(tag: .daxRequest) { $0.provide(DaxRequest.self, DaxRequest(id: 1)) }
        let two = container.makeScope(tag: .daxRequest) { $0.provide(DaxRequest.self, DaxRequest(id: 2)) }
        defer {
            try? one.close()
            try? two.close()
        }
        let a = try one.resolve(DaxAudit.self, argument: DaxNote(title: "a"))
        let b = try one.resolve(DaxAudit.self, argument: DaxNote(title: "b"))
        let c = try two.resolve(DaxAudit.self, argument: DaxNote(title: "c"))

        #expect(a.request.id == 1)
        #expect(c.request.id == 2)
        #expect(a.scoped === b.scoped)
        #expect(a.scoped !== c.scoped)
        #expect(b.note.title == "b")
        let report = try container.validate()
        #expect(report.checkedFromDeclarations.map(\.description) == ["DaxAudit (argument: DaxNote)"])
    }

    @Test func aScopeValueParameterResolvedOutsideAnyScopeFailsAsAClosureRegistrationFails() throws {
        let container = Container()
        container.register(DaxRequest.self, providedByScope: .daxRequest)
        container.register(DaxScoped.self, scope: .scoped, DaxScoped.init)
        let line = #line + 1
        container.register(DaxAudit.self, argument: DaxNote.self, DaxAudit.init)
        container.register(DaxAudit.self, name: "closure") { (r, note: DaxNote) in
            try DaxAudit(note: note, request: r.resolve(DaxRequest.self), scoped: r.resolve(DaxScoped.self))
        }

        let declared = try #require(
            injectionError { try container.resolve(DaxAudit.self, argument: DaxNote(title: "")) }
        )
        let closure = try #require(
            injectionError { try container.resolve(DaxAudit.self, name: "closure", argument: DaxNote(title: "")) }
        )

        #expect(declared.code == closure.code)
        #expect(
            declared.message
                == closure.message
                .replacingOccurrences(
                    of: "DaxAudit (name: \"closure\", argument: DaxNote)",
                    with: "DaxAudit (argument: DaxNote)"
                )
                .replacingOccurrences(
                    of: "DaxRequest is",
                    with:
                        "DaxRequest, the 2nd parameter of DaxAudit (argument: DaxNote) (declared at \(daxFile):\(line)), is"
                )
        )
    }

    // MARK: - Overrides

    @Test func anOverrideReplacesADependencyOfADeclaredRegistrationWithAnArgumentOnlyInsideTheCall() throws {
        let container = Container()
        container.register(DaxStore.self, scope: .singleton) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        let before = try container.resolve(DaxPreview.self, argument: DaxNote(title: ""))

        let inside = try container.withOverrides {
            $0.register(DaxStore.self) { _ in DaxStore(id: 2) }
        } operation: {
            try container.resolve(DaxPreview.self, argument: DaxNote(title: ""))
        }
        let after = try container.resolve(DaxPreview.self, argument: DaxNote(title: ""))

        #expect(inside.store.id == 2)
        #expect(after.store === before.store)
    }

    @Test func anOverrideOfTheDeclaredRegistrationItselfByAClosureTakingTheArgumentIsUsed() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)

        let inside = try container.withOverrides {
            $0.register(DaxPreview.self) { (_, note: DaxNote) in DaxPreview(note: note, store: DaxStore(id: 9)) }
        } operation: {
            try container.resolve(DaxPreview.self, argument: DaxNote(title: "o"))
        }

        #expect(inside.store.id == 9)
        #expect(inside.note.title == "o")
        #expect(try container.resolve(DaxPreview.self, argument: DaxNote(title: "")).store.id == 1)
    }

    @Test func aSingletonThatResolvedADeclaredRegistrationWithAnArgumentIsRebuiltWhenItsDependencyIsOverridden()
        throws
    {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        container.register(DaxCache.self, scope: .singleton) { r in
            DaxCache(preview: try r.resolve(DaxPreview.self, argument: DaxNote(title: "cached")))
        }
        let cache = try container.resolve(DaxCache.self)

        let inside = try container.withOverrides {
            $0.register(DaxStore.self) { _ in DaxStore(id: 2) }
        } operation: {
            try container.resolve(DaxCache.self)
        }

        #expect(cache.preview.store.id == 1)
        #expect(inside !== cache)
        #expect(inside.preview.store.id == 2)
        #expect(try container.resolve(DaxCache.self) === cache)
    }

    // MARK: - Child containers

    @Test func aParameterShadowedInAChildIsTheChildsAsForAClosureRegistrationWithAnArgument() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        container.register(DaxPreview.self, name: "closure") { (r, note: DaxNote) in
            DaxPreview(note: note, store: try r.resolve(DaxStore.self))
        }
        let child = container.makeChild()
        child.register(DaxStore.self) { _ in DaxStore(id: 2) }

        #expect(try child.resolve(DaxPreview.self, argument: DaxNote(title: "")).store.id == 2)
        #expect(try child.resolve(DaxPreview.self, name: "closure", argument: DaxNote(title: "")).store.id == 2)
        #expect(try container.resolve(DaxPreview.self, argument: DaxNote(title: "")).store.id == 1)
    }

    @Test func aParameterOnlyInTheChildIsMissingFromTheParentAndFoundFromTheChildByValidationAndResolve() throws {
        let container = Container()
        let line = #line + 1
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        let child = container.makeChild()
        child.register(DaxStore.self) { _ in DaxStore(id: 2) }

        let fromParent = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )
        let parentValidation = try #require(injectionError { try container.validate() })
        let childReport = try child.validate()

        let expected =
            "No registration for DaxStore, the 2nd parameter of DaxPreview (argument: DaxNote) (declared at"
            + " \(daxFile):\(line)), needed by DaxPreview (argument: DaxNote) -> DaxStore (missing). Nothing is"
            + " registered for DaxStore under any name or arguments. Fix: register it, e.g."
            + " container.register(DaxStore.self) { r in … }, in this container or one of its parents."
        #expect(fromParent.code == .missingRegistration)
        #expect(fromParent.message == expected)
        #expect(parentValidation.problems.map(\.message) == [expected])
        #expect(childReport.checkedFromDeclarations.map(\.description) == ["DaxPreview (argument: DaxNote)"])
        #expect(try child.resolve(DaxPreview.self, argument: DaxNote(title: "")).store.id == 2)
    }

    @Test func aDeclaredRegistrationWithAnArgumentInAChildShadowsTheParentsClosureOne() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self) { (_, note: DaxNote) in DaxPreview(note: note, store: DaxStore(id: 0)) }
        let child = container.makeChild()
        child.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)

        #expect(try child.resolve(DaxPreview.self, argument: DaxNote(title: "")).store.id == 1)
        #expect(try container.resolve(DaxPreview.self, argument: DaxNote(title: "")).store.id == 0)
    }

    // MARK: - Conflicts

    @Test func aParameterRegisteredTwiceFailsTheResolveWithBothSitesAndThePathThroughTheArgumentKey() throws {
        let container = Container()
        let first = #line + 1
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        let second = #line + 1
        container.register(DaxStore.self) { _ in DaxStore(id: 2) }
        let line = #line + 1
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)

        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )
        let validation = try #require(injectionError { try container.validate() })

        let duplicate =
            " registered 2 times: at \(daxFile):\(first), then at \(daxFile):\(second). Fix: remove"
            + " all but one; give them different names if each is needed (resolveAll collects them); or pass"
            + " replacesExisting: true to the one meant to replace the others, as a test does when it swaps in a"
            + " double."
        #expect(error.code == .duplicateRegistration)
        #expect(error.resolutionPath.map(\.description) == ["DaxPreview (argument: DaxNote)", "DaxStore"])
        #expect(
            error.message
                == "DaxStore, the 2nd parameter of DaxPreview (argument: DaxNote) (declared at \(daxFile):\(line)), is"
                + duplicate
        )
        // Validation reports the registry's duplicate once, not once for each declared edge to it.
        #expect(validation.problems.map(\.code) == [.duplicateRegistration])
        #expect(validation.problems.map(\.message) == ["DaxStore is" + duplicate])
    }

    @Test func aPublishedSingletonParameterRegisteredAgainIsADuplicateNotItsPublishedInstance() throws {
        let container = Container()
        container.register(DaxStore.self, scope: .singleton) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        _ = try container.resolve(DaxPreview.self, argument: DaxNote(title: ""))  // publishes the singleton
        container.register(DaxStore.self, scope: .singleton) { _ in DaxStore(id: 2) }

        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )

        #expect(error.code == .duplicateRegistration)
        #expect(error.resolutionPath.map(\.description) == ["DaxPreview (argument: DaxNote)", "DaxStore"])
    }

    @Test func aParameterRegisteredAfterFinishRegistrationFailsTheResolve() throws {
        let container = Container()
        let line = #line + 1
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        try? container.finishRegistration()
        let late = #line + 1
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }

        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )

        #expect(error.code == .registrationAfterFinish)
        #expect(error.resolutionPath.map(\.description) == ["DaxPreview (argument: DaxNote)", "DaxStore"])
        #expect(
            error.message
                == "DaxStore, the 2nd parameter of DaxPreview (argument: DaxNote) (declared at \(daxFile):\(line)), was"
                + " registered after finishRegistration() (at \(daxFile):\(late)); the registry was"
                + " already frozen. Fix: make it before finishRegistration(), or in a child container"
                + " (container.makeChild())."
        )
    }

    @Test func aDeclaredAndAClosureRegistrationOfTheSameArgumentKeyAreADuplicateAndReplacingOneIsNot() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        let first = #line + 1
        container.register(DaxPreview.self) { (_, note: DaxNote) in DaxPreview(note: note, store: DaxStore(id: 0)) }
        let second = #line + 1
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        let replaced = Container()
        replaced.register(DaxStore.self) { _ in DaxStore(id: 1) }
        replaced.register(DaxPreview.self) { (_, note: DaxNote) in DaxPreview(note: note, store: DaxStore(id: 0)) }
        replaced.register(DaxPreview.self, replacesExisting: true, argument: DaxNote.self, DaxPreview.init)

        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message.hasPrefix(
                "DaxPreview (argument: DaxNote) is registered 2 times: at \(daxFile):\(first), then at"
                    + " \(daxFile):\(second)."
            )
        )
        #expect(try replaced.resolve(DaxPreview.self, argument: DaxNote(title: "")).store.id == 1)
        #expect(
            try replaced.validate().checkedFromDeclarations.map(\.description) == ["DaxPreview (argument: DaxNote)"]
        )
    }

    @Test func aParameterRegisteredOnlyWithArgumentsIsMissingWithANearMissNotACrash() throws {
        let container = Container()
        container.register(DaxStore.self) { (_, id: Int) in DaxStore(id: id) }
        container.register(DaxStore.self) { (_, note: DaxNote) in DaxStore(id: note.title.count) }
        let line = #line + 1
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)

        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "No registration for DaxStore, the 2nd parameter of DaxPreview (argument: DaxNote) (declared at"
            + " \(daxFile):\(line)), needed by DaxPreview (argument: DaxNote) -> DaxStore (missing). Registered"
            + " nearby: DaxStore (argument: Int); DaxStore (argument: DaxNote). Fix: register DaxStore without"
            + " resolve-time arguments, or register DaxPreview (argument: DaxNote) with a closure that resolves it"
            + " with them: r.resolve(DaxStore.self, argument: …)."
        #expect(error.code == .missingRegistration)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func anArgumentOfItsConcreteTypeDoesNotFindARegistrationTakingAnExistential() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxLifetimes.self, argument: (any DaxClock).self) {
            (_: any DaxClock, store: DaxStore) in DaxLifetimes(single: DaxSingle(), weak: DaxWeak())
        }

        let error = try #require(
            injectionError { try container.resolve(DaxLifetimes.self, argument: DaxSystemClock(serial: 1)) }
        )

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for DaxLifetimes (argument: DaxSystemClock). Registered nearby: DaxLifetimes"
                + " (argument: DaxClock). Fix: pass the argument as DaxLifetimes (argument: DaxClock) takes it,"
                + " `as any DaxClock`: a value of protocol type given as `argument:` is passed as the type it"
                + " holds, here DaxSystemClock."
        )
        _ = try container.resolve(DaxLifetimes.self, argument: DaxSystemClock(serial: 1) as any DaxClock)
    }

    // MARK: - Messages naming the parameter

    @Test func aMissingNamedParameterOfANamedRegistrationWithAnArgumentIsCountedFromTheArgument() throws {
        let container = Container()
        let line = #line + 1
        container.register(
            DaxPreview.self,
            name: "cloud",
            argument: DaxNote.self,
            using: Resolved(DaxStore.self, name: "remote"),
            make: DaxPreview.init
        )

        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, name: "cloud", argument: DaxNote(title: "")) }
        )
        let validation = try #require(injectionError { try container.validate() })

        let key = "DaxPreview (name: \"cloud\", argument: DaxNote)"
        let expected =
            "No registration for DaxStore (name: \"remote\"), the 2nd parameter of \(key) (declared at"
            + " \(daxFile):\(line)), needed by \(key) -> DaxStore (name: \"remote\") (missing). Nothing is"
            + " registered for DaxStore under any name or arguments. Fix: register it, e.g."
            + " container.register(DaxStore.self, name: \"remote\") { r in … }, in this container or one of its"
            + " parents."
        #expect(error.code == .missingRegistration)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func theTwelfthParameterIsTheEleventhDependencyAfterTheArgument() throws {
        let container = Container()
        container.register(DaxP.self, DaxP.init)
        let line = #line + 1
        container.register(DaxA.self, argument: Int.self) {
            (
                _: Int,
                _: DaxP,
                _: DaxP,
                _: DaxP,
                _: DaxP,
                _: DaxP,
                _: DaxP,
                _: DaxP,
                _: DaxP,
                _: DaxP,
                _: DaxP,
                _: DaxMissing
            ) in DaxA()
        }

        let error = try #require(injectionError { try container.resolve(DaxA.self, argument: 1) })
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "No registration for DaxMissing, the 12th parameter of DaxA (argument: Int) (declared at"
            + " \(daxFile):\(line)), needed by DaxA (argument: Int) -> DaxMissing (missing). Nothing is registered"
            + " for DaxMissing under any name or arguments. Fix: register it, e.g."
            + " container.register(DaxMissing.self) { r in … }, in this container or one of its parents."
        #expect(error.message == expected)
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func aMissingParameterBelowTheRegistrationWithAnArgumentIsNamedAtItsOwnRegistration() throws {
        let container = Container()
        let midLine = #line + 1
        container.register(DaxMid.self, DaxMid.init)
        container.register(DaxTop.self, argument: DaxNote.self, DaxTop.init)

        let error = try #require(injectionError { try container.resolve(DaxTop.self, argument: DaxNote(title: "")) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for DaxMissing, the 1st parameter of DaxMid (declared at \(daxFile):\(midLine)),"
                + " needed by DaxTop (argument: DaxNote) -> DaxMid -> DaxMissing (missing). Nothing is registered"
                + " for DaxMissing under any name or arguments. Fix: register it, e.g."
                + " container.register(DaxMissing.self) { r in … }, in this container or one of its parents."
        )
    }

    @Test func aMissingParameterAfterTheArgumentIsCountedFromTheArgument() throws {
        let container = Container()
        let line = #line + 1
        container.register(DaxA.self, argument: Int.self) { (_: Int, _: DaxMissing) in DaxA() }

        let error = try #require(injectionError { try container.resolve(DaxA.self, argument: 1) })
        let validation = try #require(injectionError { try container.validate() })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message.hasPrefix(
                "No registration for DaxMissing, the 2nd parameter of DaxA (argument: Int) (declared at"
                    + " \(daxFile):\(line)), needed by DaxA (argument: Int) -> DaxMissing (missing)."
            )
        )
        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(
            validation.problems.first?.message.hasPrefix(
                "No registration for DaxMissing, the 2nd parameter of DaxA (argument: Int)"
            ) == true
        )
    }

    // MARK: - Cycles

    @Test func aCycleThroughAClosureThatResolvesTheDeclaredRegistrationWithAnArgumentIsReportedNotOverflowed()
        throws
    {
        let container = Container()
        container.register(DaxA.self, argument: Int.self) { (_: Int, _: DaxB) in DaxA() }
        container.register(DaxB.self) { r in
            _ = try r.resolve(DaxA.self, argument: 2)
            return DaxB()
        }

        let error = try #require(injectionError { try container.resolve(DaxA.self, argument: 1) })
        let validation = try #require(injectionError { try container.validate() })

        #expect(error.code == .circularDependency)
        #expect(
            error.resolutionPath.map(\.description) == [
                "DaxA (argument: Int)", "DaxB", "DaxA (argument: Int)", "DaxB",
            ]
        )
        #expect(
            error.message
                == "Circular dependency: DaxA (argument: Int) -> DaxB -> DaxA (argument: Int) -> DaxB. The loop is DaxB"
                + " -> DaxA (argument: Int) -> DaxB: each of these asks for the next in its factory, so none of them"
                + " can be built first. Fix: break the cycle with property injection: let"
                + " one of them receive the other after construction, in an onResolved hook, and give the one"
                + " resolved back the .graph or .singleton scope so that the hook receives the same instance."
        )
        #expect(validation.problems.map(\.code) == [.circularDependency])
    }

    @Test func aDeclaredRegistrationWithAnArgumentAskedAgainWithTheSameArgumentIsACycle() throws {
        let container = Container()
        container.register(DaxA.self, argument: Int.self) { (_: Int, _: DaxB) in DaxA() }
        container.register(DaxB.self) { r in
            _ = try r.resolve(DaxA.self, argument: 1)
            return DaxB()
        }

        let error = try #require(injectionError { try container.resolve(DaxA.self, argument: 1) })

        #expect(error.code == .circularDependency)
        #expect(
            error.message
                == "Circular dependency: DaxA (argument: Int) -> DaxB -> DaxA (argument: Int). Each of these asks"
                + " for the next in its factory, so none of them can be built first. Fix: break the cycle with"
                + " property injection: let one of them receive the other after construction, in an onResolved"
                + " hook, and give the one resolved back the .graph or .singleton scope so that the hook receives"
                + " the same instance."
        )
    }

    @Test func aDeclaredRegistrationWithAnArgumentTakingItsOwnTypeWithoutOneIsNoCycle() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxStore.self, argument: Int.self) { (id: Int, base: DaxStore) in
            DaxStore(id: id + base.id)
        }

        #expect(try container.resolve(DaxStore.self, argument: 10).id == 11)
        #expect(try container.validate().checkedFromDeclarations.map(\.description) == ["DaxStore (argument: Int)"])
    }

    // MARK: - Configure, hooks and forwarding

    @Test func configureShapesTheInstanceOfADeclaredRegistrationWithAnArgument() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxValue.self, argument: DaxNote.self) { (note: DaxNote, store: DaxStore) in
            DaxValue(note: note, store: store)
        }

        let value = try container.resolve(DaxValue.self, argument: DaxNote(title: "c")) { $0.tag = "configured" }

        #expect(value.tag == "configured")
        #expect(value.note.title == "c")
        #expect(value.store.id == 1)
    }

    @Test func hooksAndChecksRunOnADeclaredRegistrationWithAnArgument() throws {
        let container = Container()
        let hooks = CallCounter()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
            .onResolved { r, preview in
                hooks.next()
                let store = try r.resolve(DaxStore.self)
                #expect(store.id == preview.store.id)
            }
            .verify { preview in
                if preview.note.title.isEmpty { throw CancellationError() }
            }

        _ = try container.resolve(DaxPreview.self, argument: DaxNote(title: "ok"))
        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )

        #expect(hooks.count == 2)
        #expect(error.code == .preparationFailed)
    }

    /// A hook or check is a closure, but the function's parameters are still declared: validation can
    /// check them without a value for the argument, as it does without the hook.
    @Test func validationStillChecksTheDeclarationsOfARegistrationWithAnArgumentAndAHook() throws {
        let container = Container()
        let line = #line + 1
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
            .verify { _ in }

        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )
        let validation = injectionError { try container.validate() }

        #expect(error.code == .missingRegistration)
        // Control: without an argument, the same registration with the same check fails validation.
        let control = Container()
        control.register(DaxMid.self, DaxMid.init).verify { _ in }
        #expect(injectionError { try control.validate() }?.problems.map(\.code) == [.missingRegistration])
        #expect(validation?.code == .validationFailed)
        #expect(
            validation?.problems.map(\.message) == [
                "No registration for DaxStore, the 2nd parameter of DaxPreview (argument: DaxNote) (declared at"
                    + " \(daxFile):\(line)), needed by DaxPreview (argument: DaxNote) -> DaxStore (missing). Nothing"
                    + " is registered for DaxStore under any name or arguments. Fix: register it, e.g."
                    + " container.register(DaxStore.self) { r in … }, in this container or one of its parents."
            ]
        )
    }

    @Test func forwardingADeclaredRegistrationWithAnArgumentIsAnInvalidForwardingForResolveAndValidation() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
            .implements(AnyObject.self)

        let error = try #require(injectionError { try container.resolve(AnyObject.self) })
        let validation = try #require(injectionError { try container.validate() })

        #expect(error.code == .invalidForwarding)
        #expect(validation.problems.map(\.code) == [.invalidForwarding])
        #expect(validation.problems.first?.message == error.message)
        #expect(
            error.message
                == "AnyObject is registered to resolve DaxPreview (argument: DaxNote) (implements), but that"
                + " registration's factory takes resolve-time arguments, which a resolve of AnyObject cannot give."
                + " Fix: register AnyObject with a factory of its own that takes the arguments, or remove .implements"
                + " from it."
        )
    }

    // MARK: - Subclass metatypes

    @Test func aSubclassMetatypeInABaseClassVariableRegistersAndResolvesTheBaseClassKey() throws {
        let container = Container()
        let base: DaxBase.Type = DaxSub.self
        container.register(base, argument: DaxNote.self) { (_: DaxNote, store: DaxStore) in DaxSub() }
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxBaseUser.self, argument: Int.self, using: Resolved(base)) { (_: Int, base: DaxBase) in
            DaxBaseUser(base: base)
        }
        container.register(DaxBase.self) { _ in DaxSub() }

        #expect(try container.resolve(DaxBase.self, argument: DaxNote(title: "")).kind == "sub")
        let error = try #require(injectionError { try container.resolve(DaxSub.self, argument: DaxNote(title: "")) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.hasPrefix("No registration for DaxSub (argument: DaxNote)."))
        #expect(try container.resolve(DaxBaseUser.self, argument: 1).base.kind == "sub")
        #expect(
            container.dependencyGraph().node(for: ServiceKey(DaxBaseUser.self, arguments: Int.self, name: nil))?
                .dependencies.map(\.description) == ["DaxBase"]
        )
    }

    // MARK: - Async

    @Test func anAsyncResolveOfASyncDeclaredRegistrationWithAnArgumentResolvesItsParameters() async throws {
        let container = Container()
        container.register(DaxStore.self, scope: .singleton) { _ in DaxStore(id: 4) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)

        let preview = try await container.resolveAsync(DaxPreview.self, argument: DaxNote(title: "a"))

        #expect(preview.store.id == 4)
        #expect(try container.resolve(DaxPreview.self, argument: DaxNote(title: "b")).store === preview.store)
    }

    @Test func aSyncDeclaredRegistrationWithAnArgumentWhoseParameterIsAsyncOnlyNeedsAnAsyncFactory() async throws {
        let container = Container()
        container.register(DaxStore.self, scope: .singleton) { _ async in DaxStore(id: 5) }
        let line = #line + 1
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)

        let sync = try #require(injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) })
        let async = try #require(
            await injectionErrorAsync {
                try await container.resolveAsync(DaxPreview.self, argument: DaxNote(title: ""))
            }
        )
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "DaxStore, the 2nd parameter of DaxPreview (argument: DaxNote) (declared at \(daxFile):\(line)), has an"
            + " async factory, and the function registered for DaxPreview (argument: DaxNote) is sync, so it cannot"
            + " be given one, however DaxPreview (argument: DaxNote) is resolved. Path: DaxPreview (argument:"
            + " DaxNote) -> DaxStore. Fix: register an async function for it, e.g."
            + " container.register(DaxPreview.self, argument: DaxNote.self) { (…) async in … }, and resolve it with"
            + " try await resolveAsync; or give DaxStore a sync factory."
        #expect(sync.code == .asyncResolutionRequired)
        #expect(sync.message == expected)
        #expect(async.code == .asyncResolutionRequired)
        #expect(async.message == expected)
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func anAsyncDeclaredRegistrationWithAnArgumentResolvedSyncNeedsAnAsyncResolve() async throws {
        let container = Container()
        container.register(DaxStore.self, scope: .singleton) { _ async in DaxStore(id: 5) }
        container.register(DaxPreview.self, argument: DaxNote.self) { (note: DaxNote, store: DaxStore) async in
            DaxPreview(note: note, store: store)
        }

        let error = try #require(
            injectionError { try container.resolve(DaxPreview.self, argument: DaxNote(title: "")) }
        )
        let preview = try await container.resolveAsync(DaxPreview.self, argument: DaxNote(title: "x"))

        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message
                == "DaxPreview (argument: DaxNote) has an async factory, which a sync resolve cannot run."
                + " Fix: resolve it with try await resolveAsync(DaxPreview.self, argument: …),"
                + " from the container or scope you resolve from (r.resolveAsync in an async factory); a sync"
                + " factory that needs it must become async too."
        )
        #expect(preview.store.id == 5)
        #expect(
            try container.validate().checkedFromDeclarations.map(\.description) == ["DaxPreview (argument: DaxNote)"]
        )
    }

    // MARK: - Concurrency

    @Test func coldSingletonParametersOfADeclaredRegistrationWithAnArgumentAreBuiltOnceUnderContention()
        async throws
    {
        for _ in 0..<20 {
            let container = Container()
            let pools = CallCounter()
            let repositories = CallCounter()
            container.register(DaxPool.self, scope: .singleton) { () in
                pools.next()
                return DaxPool()
            }
            container.register(DaxRepository.self, scope: .singleton) { (pool: DaxPool) in
                repositories.next()
                return DaxRepository(pool: pool)
            }
            container.register(DaxConnection.self, scope: .graph, DaxConnection.init)
            container.register(DaxQuery.self, argument: Int.self, DaxQuery.init)

            let threaded = Guarded<[DaxQuery]>([])
            let finished = await onThreads(
                (0..<4).map { index in
                    {
                        if let query = try? container.resolve(DaxQuery.self, argument: index) {
                            threaded.withLock { $0.append(query) }
                        }
                    }
                }
            )
            let tasks = try await withThrowingTaskGroup(of: DaxQuery.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        index % 2 == 0
                            ? try await container.resolveAsync(DaxQuery.self, argument: index)
                            : try container.resolve(DaxQuery.self, argument: index)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let all = threaded.current + tasks

            #expect(finished)
            #expect(all.count == 12)
            #expect(
                all.allSatisfy { $0.repository === all[0].repository && $0.connection.pool === all[0].repository.pool }
            )
            #expect(all.allSatisfy { $0.connection.repository === $0.repository })
            #expect(pools.count == 1)
            #expect(repositories.count == 1)
        }
    }

    // MARK: - The graph

    @Test func theGraphShowsADeclaredRegistrationWithAnArgumentWithItsEdgesAndNotItsArgument() throws {
        let container = Container()
        container.register(DaxStore.self, scope: .singleton) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, name: "p\"q", argument: DaxNote.self) {
            (note: DaxNote, store: DaxStore, _: DaxMissing) in
            DaxPreview(note: note, store: store)
        }
        container.register(DaxCache.self) { r in
            DaxCache(preview: try r.resolve(DaxPreview.self, name: "p\"q", argument: DaxNote(title: "")))
        }

        let graph = container.dependencyGraph()

        #expect(
            graph.textTree == """
                DaxPreview (name: "p"q", argument: DaxNote) (transient)
                ├─ DaxStore (singleton)
                └─ DaxMissing (not registered)
                DaxCache (transient)

                """
        )
        #expect(
            graph.dot == """
                digraph Injector {
                    rankdir=LR;
                    node [shape=box, fontname="Helvetica"];
                    "DaxStore" [label="DaxStore (singleton)"];
                    "DaxPreview (name: \\"p\\"q\\", argument: DaxNote)" [label="DaxPreview (name: \\"p\\"q\\", argument: DaxNote) (transient)"];
                    "DaxCache" [label="DaxCache (transient)"];
                    "DaxMissing" [label="DaxMissing (not registered)", style=dashed];
                    "DaxPreview (name: \\"p\\"q\\", argument: DaxNote)" -> "DaxStore";
                    "DaxPreview (name: \\"p\\"q\\", argument: DaxNote)" -> "DaxMissing";
                }

                """
        )
        #expect(
            graph.mermaid == """
                flowchart LR
                    n0["DaxStore (singleton)"]
                    n1["DaxPreview (name: #quot;p#quot;q#quot;, argument: DaxNote) (transient)"]
                    n2["DaxCache (transient)"]
                    n1 --> n0
                    n3["DaxMissing (not registered)"]
                    style n3 stroke-dasharray: 4 4
                    n1 --> n3

                """
        )
        #expect(!graph.mermaid.contains("DaxNote (not registered)"))
    }

    // MARK: - More layouts and kinds of registration behind a parameter

    @Test func oddLayoutsInstancesForwardingAndARegisteredOptionalAreResolvedAsRegistered() throws {
        let container = Container()
        let clock = DaxSystemClock(serial: 8)
        container.register(Void.self) { _ in () }
        container.register(Int8.self) { _ in -3 }
        container.register(DaxNote.Type.self) { _ in DaxNote.self }
        container.register((any Sendable).self) { _ in "anything" as any Sendable }
        container.register((Int, Int, Int, Int, String).self) { _ in (1, 2, 3, 4, "five") }
        container.register(DaxSettings.self, instance: DaxSettings(a: 9, label: "instance"), ownedBy: .caller)
        container.register(DaxMailer.self, scope: .singleton) { _ in DaxMailer() }
        container.register(DaxMailer?.self) { _ in nil }  // registered as it is: used as it is
        container.register(DaxSystemClock.self, instance: clock, ownedBy: .caller).implements((any DaxClock).self)
        container.register(DaxOdd.self, argument: Int.self) {
            (
                _: Int,
                void: Void,
                byte: Int8,
                metatype: DaxNote.Type,
                anything: any Sendable,
                wide: (Int, Int, Int, Int, String),
                settings: DaxSettings,
                optional: DaxMailer?,
                clock: any DaxClock
            ) in
            DaxOdd(
                void: void,
                byte: byte,
                metatype: metatype,
                anything: anything,
                wide: wide,
                settings: settings,
                optional: optional,
                clock: clock
            )
        }

        for argument in 0..<2 {
            let odd = try container.resolve(DaxOdd.self, argument: argument)
            #expect(odd.byte == -3)
            #expect(odd.metatype == DaxNote.self)
            #expect(odd.anything as? String == "anything")
            #expect(odd.wide == (1, 2, 3, 4, "five"))
            #expect(odd.settings == DaxSettings(a: 9, label: "instance"))
            #expect(odd.optional == nil)
            #expect(odd.clock as AnyObject === clock)
        }
        #expect(try container.validate().checkedFromDeclarations.map(\.description) == ["DaxOdd (argument: Int)"])
    }

    @Test func aHookOfAParameterRunsOnEachTransientAndOnceForASingleton() throws {
        let container = Container()
        let storeHooks = CallCounter()
        let hookedHooks = CallCounter()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }.onResolved { _, _ in storeHooks.next() }
        container.register(DaxHooked.self, scope: .singleton) { _ in DaxHooked() }
            .onResolved { _, hooked in hooked.hooked.set(hookedHooks.next()) }
        container.register(DaxPreview.self, argument: DaxNote.self) { (note: DaxNote, store: DaxStore, _: DaxHooked) in
            DaxPreview(note: note, store: store)
        }

        _ = try container.resolve(DaxPreview.self, argument: DaxNote(title: "1"))
        _ = try container.resolve(DaxPreview.self, argument: DaxNote(title: "2"))

        #expect(storeHooks.count == 2)
        #expect(hookedHooks.count == 1)
        #expect(try container.resolve(DaxHooked.self).hooked.current == 1)
    }

    @Test func resolveAllLeavesOutTheRegistrationWithAnArgumentOfTheSameType() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxStore.self, name: "n") { _ in DaxStore(id: 2) }
        container.register(DaxStore.self, argument: Int.self) { (id: Int, base: DaxStore) in DaxStore(id: id + base.id)
        }

        #expect(try container.resolveAll(DaxStore.self).map(\.id) == [1, 2])
        #expect(container.isRegistered(DaxStore.self, argumentTypes: Int.self))
        #expect(container.canResolve(DaxStore.self, argumentTypes: Int.self))
        #expect(!container.isRegistered(DaxStore.self, argumentTypes: Int8.self))
    }

    // MARK: - Arguments of tricky types

    @Test func anOptionalArgumentIsItsOwnKeyAndANonOptionalValueMissesIt() throws {
        let container = Container()
        container.register(DaxP.self, DaxP.init)
        container.register(DaxA.self, argument: DaxNote?.self) { (note: DaxNote?, _: DaxP) in
            #expect(note == nil || note?.title == "some")
            return DaxA()
        }

        _ = try container.resolve(DaxA.self, argument: nil as DaxNote?)
        _ = try container.resolve(DaxA.self, argument: Optional(DaxNote(title: "some")))
        let error = try #require(injectionError { try container.resolve(DaxA.self, argument: DaxNote(title: "some")) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for DaxA (argument: DaxNote). Registered nearby: DaxA (argument:"
                + " Optional<DaxNote>). Fix: pass the argument as DaxA (argument: Optional<DaxNote>) takes it,"
                + " `as Optional<DaxNote>`."
        )
    }

    @Test func aTupleArgumentIsOneArgumentAndTwoArgumentsOfItsTypesMissIt() throws {
        let container = Container()
        container.register(DaxP.self, DaxP.init)
        container.register(DaxNote.self, argument: (Int, String).self) { (pair: (Int, String), _: DaxP) in
            DaxNote(title: "\(pair.0)\(pair.1)")
        }

        #expect(try container.resolve(DaxNote.self, argument: (1, "a")).title == "1a")
        let error = try #require(injectionError { try container.resolve(DaxNote.self, arguments: 1, "a") })
        #expect(error.code == .missingRegistration)
        #expect(error.message.hasPrefix("No registration for DaxNote (arguments: Int, String). Registered nearby:"))
    }

    @Test func aFunctionArgumentIsFoundOnlyUnderItsSendableType() throws {
        let container = Container()
        container.register(DaxP.self, DaxP.init)
        container.register(DaxStore.self, argument: (@Sendable () -> Int).self) {
            (make: @escaping @Sendable () -> Int, _: DaxP) in
            DaxStore(id: make())
        }

        let sendable: @Sendable () -> Int = { 6 }
        #expect(try container.resolve(DaxStore.self, argument: sendable).id == 6)
        let plain: () -> Int = { 6 }
        let error = try #require(injectionError { try container.resolve(DaxStore.self, argument: plain) })
        #expect(error.code == .missingRegistration)
    }

    // MARK: - Named parameters through children and overrides

    @Test func aNamedParameterInTheParentIsFoundFromAChildAndReplacedByAnOverride() throws {
        let container = Container()
        container.register(DaxStore.self, name: "remote", scope: .singleton) { _ in DaxStore(id: 1) }
        container.register(
            DaxPreview.self,
            argument: DaxNote.self,
            using: Resolved(DaxStore.self, name: "remote"),
            make: DaxPreview.init
        )
        let child = container.makeChild()
        child.register(DaxStore.self) { _ in DaxStore(id: 5) }  // unnamed: not the parameter

        let fromChild = try child.resolve(DaxPreview.self, argument: DaxNote(title: ""))
        let inside = try container.withOverrides {
            $0.register(DaxStore.self, name: "remote") { _ in DaxStore(id: 2) }
        } operation: {
            try child.resolve(DaxPreview.self, argument: DaxNote(title: ""))
        }

        #expect(fromChild.store.id == 1)
        #expect(inside.store.id == 2)
        #expect(try child.resolve(DaxPreview.self, argument: DaxNote(title: "")).store === fromChild.store)
    }

    @Test func concurrentOverridesEachSeeTheirOwnParameterOfADeclaredRegistrationWithAnArgument() async throws {
        let container = Container()
        container.register(DaxStore.self, scope: .singleton) { _ in DaxStore(id: -1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)

        let seen = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await container.withOverridesAsync {
                        $0.register(DaxStore.self) { _ in DaxStore(id: index) }
                    } operation: {
                        await Task.yield()
                        let preview = try container.resolve(DaxPreview.self, argument: DaxNote(title: "\(index)"))
                        return (index, preview.store.id)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(seen.count == 16)
        #expect(seen.allSatisfy { $0.0 == $0.1 })
        #expect(try container.resolve(DaxPreview.self, argument: DaxNote(title: "")).store.id == -1)
    }

    // MARK: - Validation through a closure that resolves one

    @Test func aScopedParameterHeldThroughADeclaredRegistrationWithAnArgumentIsCaptiveForValidationAndResolve()
        throws
    {
        let container = Container()
        container.register(DaxStore.self, scope: .scoped) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        container.register(DaxHolder.self, scope: .singleton) { r in
            DaxHolder(preview: try r.resolve(DaxPreview.self, argument: DaxNote(title: "")))
        }

        let scope = container.makeScope()
        defer { try? scope.close() }
        let resolved = try #require(injectionError { try scope.resolve(DaxHolder.self) })
        let validation = try #require(injectionError { try container.validate() })

        #expect(resolved.code == .captiveDependency)
        #expect(
            resolved.resolutionPath.map(\.description) == ["DaxHolder", "DaxPreview (argument: DaxNote)", "DaxStore"]
        )
        #expect(validation.problems.map(\.code) == [.captiveDependency])
        #expect(validation.problems.map(\.message) == [resolved.message])
    }

    @Test func asyncValidationNamesAMissingParameterOfAnAsyncRegistrationWithAnArgument() async throws {
        let container = Container()
        let line = #line + 1
        container.register(DaxPreview.self, argument: DaxNote.self) { (note: DaxNote, store: DaxStore) async in
            DaxPreview(note: note, store: store)
        }

        let resolved = try #require(
            await injectionErrorAsync {
                try await container.resolveAsync(DaxPreview.self, argument: DaxNote(title: ""))
            }
        )
        let validation = try #require(await injectionErrorAsync { try await container.validateAsync() })

        let expected =
            "No registration for DaxStore, the 2nd parameter of DaxPreview (argument: DaxNote) (declared at"
            + " \(daxFile):\(line)), needed by DaxPreview (argument: DaxNote) -> DaxStore (missing). Nothing is"
            + " registered for DaxStore under any name or arguments. Fix: register it, e.g."
            + " container.register(DaxStore.self) { r in … }, in this container or one of its parents."
        #expect(resolved.message == expected)
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func anOverrideThatIsADeclaredRegistrationWithAnArgumentNamesItsOwnSiteForAMissingParameter() throws {
        let container = Container()
        container.register(DaxStore.self) { _ in DaxStore(id: 1) }
        container.register(DaxPreview.self, argument: DaxNote.self, DaxPreview.init)
        let line = #line + 5
        // Not inside #require: a macro's expansion gives `#line` defaults within it the macro's line.
        var thrownError: InjectionError?
        do {
            _ = try container.withOverrides {
                $0.register(
                    DaxPreview.self,
                    argument: DaxNote.self,
                    using: Resolved(DaxStore.self, name: "x"),
                    make: DaxPreview.init
                )
            } operation: {
                try container.resolve(DaxPreview.self, argument: DaxNote(title: ""))
            }
        } catch let caught as InjectionError {
            thrownError = caught
        }
        let error = try #require(thrownError)

        #expect(error.code == .missingRegistration)
        #expect(
            error.message.hasPrefix(
                "No registration for DaxStore (name: \"x\"), the 2nd parameter of DaxPreview (argument: DaxNote)"
                    + " (declared at \(daxFile):\(line)), needed by DaxPreview (argument: DaxNote) -> DaxStore"
                    + " (name: \"x\") (missing). Registered nearby: DaxStore."
            )
        )
    }
}
