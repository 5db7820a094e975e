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
import Testing

// A declared registration that takes several resolve-time arguments first
// (`register(_:arguments:make:)`): the arguments reach the function's first parameters in order,
// the rest are resolved (named as `using:` says, if it is given), validation checks them without a
// value for any argument, and a function that does not begin with the listed types is a recorded
// problem.

private let dmxFile = "InjectorTests/DeclaredArgumentsTests.swift"

private struct DmxNote: Sendable { let title: String }
private final class DmxStore: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
private final class DmxClock: Sendable {}
private protocol DmxShape: Sendable { var sides: Int { get } }
private struct DmxSquare: DmxShape { var sides: Int { 4 } }

private struct DmxEditor {
    let note: DmxNote
    let readOnly: Bool
    let store: DmxStore

    init(note: DmxNote, readOnly: Bool, store: DmxStore) {
        self.note = note
        self.readOnly = readOnly
        self.store = store
    }
}

private struct DmxReport {
    let title: String
    let month: Int
    let shape: any DmxShape
    let nickname: String?
    let store: DmxStore
    let clock: DmxClock
}

@Suite struct DeclaredArgumentsTests {
    @Test func theArgumentsReachTheFunctionsFirstParametersAndTheRestAreResolved() throws {
        let container = Container()
        container.register(DmxStore.self, scope: .singleton) { _ in DmxStore(id: 7) }
        container.register(DmxEditor.self, arguments: DmxNote.self, Bool.self, make: DmxEditor.init)

        let editor = try container.resolve(DmxEditor.self, arguments: DmxNote(title: "Groceries"), true)

        #expect(editor.note.title == "Groceries")
        #expect(editor.readOnly)
        #expect(editor.store.id == 7)
    }

    @Test func aClosureWithTypedParametersTakesAnyNumberOfArgumentsOfAnyKind() throws {
        let container = Container()
        container.register(DmxStore.self) { _ in DmxStore(id: 1) }
        container.register(DmxClock.self, scope: .singleton) { _ in DmxClock() }
        container.register(
            DmxReport.self,
            arguments: String.self,
            Int.self,
            (any DmxShape).self,
            String?.self
        ) { (title: String, month: Int, shape: any DmxShape, nickname: String?, store: DmxStore, clock: DmxClock) in
            DmxReport(title: title, month: month, shape: shape, nickname: nickname, store: store, clock: clock)
        }

        let square: any DmxShape = DmxSquare()
        let report = try container.resolve(DmxReport.self, arguments: "May", 5, square, String?.none)

        #expect(report.title == "May")
        #expect(report.month == 5)
        #expect(report.shape.sides == 4)
        #expect(report.nickname == nil)
        #expect(report.store.id == 1)
    }

    @Test func anAsyncFunctionTakesItsArgumentsAndAwaitsItsDependencies() async throws {
        let container = Container()
        container.register(DmxStore.self, scope: .singleton) { _ async in DmxStore(id: 3) }
        container.register(DmxEditor.self, arguments: DmxNote.self, Bool.self) {
            (note: DmxNote, readOnly: Bool, store: DmxStore) async in
            DmxEditor(note: note, readOnly: readOnly, store: store)
        }

        let editor = try await container.resolveAsync(DmxEditor.self, arguments: DmxNote(title: "Draft"), false)

        #expect(editor.note.title == "Draft")
        #expect(!editor.readOnly)
        #expect(editor.store.id == 3)
    }

    @Test func validationFindsAMissingDependencyWithoutAValueForAnyArgument() throws {
        let container = Container()
        let line = #line + 1
        container.register(DmxEditor.self, arguments: DmxNote.self, Bool.self, make: DmxEditor.init)

        let validation = try #require(injectionError { try container.validate() })
        let resolve = try #require(
            injectionError { try container.resolve(DmxEditor.self, arguments: DmxNote(title: ""), true) }
        )

        let expected =
            "No registration for DmxStore, the 3rd parameter of DmxEditor (arguments: DmxNote, Bool) (declared"
            + " at \(dmxFile):\(line)), needed by DmxEditor (arguments: DmxNote, Bool) -> DmxStore (missing)."
            + " Nothing is registered for DmxStore under any name or arguments. Fix: register it, e.g."
            + " container.register(DmxStore.self) { r in … }, in this container or one of its parents."
        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(validation.problems.map(\.message) == [expected])
        #expect(resolve.code == .missingRegistration)
        #expect(resolve.message == expected)
        container.register(DmxStore.self) { _ in DmxStore(id: 1) }
        let report = try container.validate()
        #expect(report.checkedFromDeclarations.map(\.description) == ["DmxEditor (arguments: DmxNote, Bool)"])
        #expect(container.dependencyGraph().dot.contains(#""DmxEditor (arguments: DmxNote, Bool)" -> "DmxStore""#))
    }

    @Test func aFunctionThatDoesNotTakeTheListedArgumentsFirstIsARecordedProblem() throws {
        let container = Container()
        container.register(DmxStore.self) { _ in DmxStore(id: 1) }
        let line = #line + 1
        container.register(DmxEditor.self, arguments: Bool.self, DmxNote.self, make: DmxEditor.init)

        let resolve = try #require(
            injectionError { try container.resolve(DmxEditor.self, arguments: true, DmxNote(title: "")) }
        )
        let finish = try #require(injectionError { try container.finishRegistration() })
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "DmxEditor (arguments: Bool, DmxNote) is registered at \(dmxFile):\(line) with a function of"
            + " (DmxNote, Bool, DmxStore), which does not take the arguments (Bool, DmxNote) first: a declared"
            + " registration hands a resolve's arguments to its function's first parameters, in order. Fix:"
            + " list the argument types as the function's first parameters are typed, or register a closure"
            + " that takes them in its own order."
        #expect(resolve.code == .argumentTypesMismatch)
        #expect(resolve.message == expected)
        #expect(finish.code == .argumentTypesMismatch)
        #expect(finish.message == expected)
        #expect(validation.problems.map(\.code) == [.argumentTypesMismatch])
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func moreArgumentTypesThanTheFunctionTakesIsARecordedProblem() throws {
        let container = Container()
        let line = #line + 1
        container.register(DmxStore.self, arguments: Int.self, String.self) { (id: Int) in DmxStore(id: id) }

        let resolve = try #require(injectionError { try container.resolve(DmxStore.self, arguments: 1, "") })

        #expect(resolve.code == .argumentTypesMismatch)
        #expect(
            resolve.message
                == "DmxStore (arguments: Int, String) is registered at \(dmxFile):\(line) with a function of"
                + " (Int), which does not take the arguments (Int, String) first: a declared registration"
                + " hands a resolve's arguments to its function's first parameters, in order. Fix: list the"
                + " argument types as the function's first parameters are typed, or register a closure that"
                + " takes them in its own order."
        )
    }

    @Test func aSharedScopeWithArgumentsIsRefusedAsForAClosure() throws {
        let container = Container()
        let line = #line + 1
        container.register(DmxStore.self, scope: .singleton, arguments: Int.self, String.self) {
            (id: Int, _: String) in DmxStore(id: id)
        }

        let refused = try #require(injectionError { try container.resolve(DmxStore.self, arguments: 1, "") })

        #expect(refused.code == .sharedScopeWithArguments)
        #expect(
            refused.message
                == "DmxStore (arguments: Int, String) is registered as .singleton at \(dmxFile):\(line), but its"
                + " factory takes resolve-time arguments: a shared instance is built once, from the first resolve's"
                + " arguments, and every later resolve would get it whatever its arguments. Fix: register it as"
                + " .transient (a new instance for each resolve), or register one named registration per value"
                + " (name: \"db-a\"), or share a service that hands out an instance per argument (a pool keyed by"
                + " host)."
        )
    }

    @Test func usingNamesTheDependenciesAfterSeveralArguments() throws {
        let container = Container()
        container.register(DmxStore.self, name: "cloud") { _ in DmxStore(id: 9) }
        container.register(DmxStore.self) { _ in DmxStore(id: 1) }
        container.register(
            DmxEditor.self,
            arguments: DmxNote.self,
            Bool.self,
            using: Resolved(DmxStore.self, name: "cloud"),
            make: DmxEditor.init
        )

        let editor = try container.resolve(DmxEditor.self, arguments: DmxNote(title: "Cloud"), true)

        #expect(editor.note.title == "Cloud")
        #expect(editor.readOnly)
        #expect(editor.store.id == 9)
    }

    @Test func anAsyncFunctionTakesSeveralArgumentsAndNamedDependencies() async throws {
        let container = Container()
        container.register(DmxStore.self, name: "cloud", scope: .singleton) { _ async in DmxStore(id: 4) }
        container.register(DmxClock.self) { _ in DmxClock() }
        container.register(
            DmxReport.self,
            arguments: String.self,
            Int.self,
            using: Resolved(DmxStore.self, name: "cloud"),
            Resolved(DmxClock.self)
        ) {
            (title: String, month: Int, store: DmxStore, clock: DmxClock) async in
            DmxReport(title: title, month: month, shape: DmxSquare(), nickname: nil, store: store, clock: clock)
        }

        let report = try await container.resolveAsync(DmxReport.self, arguments: "June", 6)

        #expect(report.title == "June")
        #expect(report.month == 6)
        #expect(report.store.id == 4)
    }

    @Test func validationFindsANamedDependencyMissingBehindSeveralArguments() throws {
        let container = Container()
        container.register(DmxStore.self) { _ in DmxStore(id: 1) }
        let line = #line + 1
        container.register(
            DmxEditor.self,
            arguments: DmxNote.self,
            Bool.self,
            using: Resolved(DmxStore.self, name: "cloud"),
            make: DmxEditor.init
        )

        let validation = try #require(injectionError { try container.validate() })

        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(
            validation.problems.map(\.message) == [
                "No registration for DmxStore (name: \"cloud\"), the 3rd parameter of DmxEditor (arguments:"
                    + " DmxNote, Bool) (declared at \(dmxFile):\(line)), needed by DmxEditor (arguments: DmxNote,"
                    + " Bool) -> DmxStore (name: \"cloud\") (missing). Registered nearby: DmxStore. Fix: name the"
                    + " one to use in the registration's using:, e.g. Resolved(DmxStore.self), or register DmxStore"
                    + " (name: \"cloud\")."
            ]
        )
    }

    @Test func dependenciesThatDoNotMatchTheParametersAfterTheArgumentsAreARecordedProblem() throws {
        let container = Container()
        container.register(DmxClock.self) { _ in DmxClock() }
        let line = #line + 1
        container.register(
            DmxEditor.self,
            arguments: DmxNote.self,
            Bool.self,
            using: Resolved(DmxClock.self),
            make: DmxEditor.init
        )

        let resolve = try #require(
            injectionError { try container.resolve(DmxEditor.self, arguments: DmxNote(title: ""), true) }
        )
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "DmxEditor (arguments: DmxNote, Bool) is registered at \(dmxFile):\(line) with a function of"
            + " (DmxNote, Bool, DmxStore), which does not take the arguments (DmxNote, Bool) first and then"
            + " the dependencies `using:` lists (DmxClock): a declared registration hands a resolve's"
            + " arguments to its function's first parameters, in order, and resolves one `using:` entry for"
            + " each parameter after them. Fix: list one Resolved for each parameter after the arguments, of"
            + " its type, or register a closure."
        #expect(resolve.code == .argumentTypesMismatch)
        #expect(resolve.message == expected)
        #expect(validation.problems.map(\.code) == [.argumentTypesMismatch])
        #expect(validation.problems.map(\.message) == [expected])
    }
}
