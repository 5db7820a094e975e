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

// An adversarial pass on `using:` after several resolve-time arguments
// (`register(_:arguments:_:using:make:)`), whose `Resolved` types are checked against the function's
// parameters at run time: optional, `Lazy` and `ServiceProvider` parameters named through it,
// subclasses, existentials, lists of the wrong length, the container machinery around a named
// dependency (overrides, children, scopes, values scopes are given, async registrations, validation,
// the dependency graph). Then `implements(_:)`, whose provider is built by an initialiser of its own:
// sync and async originals, disposal, the graph, and concurrent resolves of a forwarded singleton.

private let uaaFile = "InjectorTests/UsingArgumentsAttackTests.swift"

private struct UaaNote: Sendable { let title: String }
private final class UaaStore: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
private class UaaBase: @unchecked Sendable {}
private final class UaaSub: UaaBase, @unchecked Sendable {}
private protocol UaaPort: Sendable { var label: String { get } }
private struct UaaAdapter: UaaPort { let label: String }
private protocol UaaIdentified: Sendable { var id: Int { get } }
private struct UaaRequest: UaaIdentified { let id: Int }

/// What a function of the arguments and one dependency made: the arguments and the dependency.
private struct UaaMade<Dependency>: @unchecked Sendable {
    let note: UaaNote
    let readOnly: Bool
    let dependency: Dependency
}

private func uaaMade<Dependency>(_ note: UaaNote, _ readOnly: Bool, _ dependency: Dependency) -> UaaMade<Dependency> {
    UaaMade(note: note, readOnly: readOnly, dependency: dependency)
}

private final class UaaEditor: Sendable {
    let note: UaaNote
    let first: UaaStore
    let second: UaaStore
    init(note: UaaNote, readOnly: Bool, first: UaaStore, second: UaaStore) {
        self.note = note
        self.first = first
        self.second = second
    }
}

private final class UaaCounter: Sendable {
    private let value = Guarded(0)
    @discardableResult func next() -> Int { value.add(1) }
    var count: Int { value.current }
}

private final class UaaDisposableAdapter: Tracked, UaaPort, @unchecked Sendable {
    var label: String { "disposable" }
}

/// The message of `argumentTypesMismatch` for a registration of `key` at `line` whose function has
/// the parameters `function` and whose `using:` lists `dependencies`.
private func mismatch(_ key: String, line: Int, function: String, dependencies: String) -> String {
    "\(key) is registered at \(uaaFile):\(line) with a function of \(function), which does not take the arguments"
        + " (UaaNote, Bool) first and then the dependencies `using:` lists \(dependencies): a declared"
        + " registration hands a resolve's arguments to its function's first parameters, in order, and resolves"
        + " one `using:` entry for each parameter after them. Fix: list one Resolved for each parameter after the"
        + " arguments, of its type, or register a closure."
}

@Suite struct UsingArgumentsAttackTests {
    // MARK: - Optional, Lazy and ServiceProvider parameters named through using:

    @Test func anOptionalParameterNamedThroughUsingResolvesTheNamedWrappedService() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        container.register(
            UaaMade<UaaStore?>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore?.self, name: "cloud"),
            make: uaaMade
        )

        let made = try container.resolve(UaaMade<UaaStore?>.self, arguments: UaaNote(title: "a"), true)

        #expect(made.dependency?.id == 9)
        #expect(made.note.title == "a" && made.readOnly)
    }

    /// An optional parameter whose named service is missing is `nil`, though the type is registered
    /// under no name: the named key is the dependency.
    @Test func anOptionalParameterWhoseNamedServiceIsMissingIsNil() throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        container.register(
            UaaMade<UaaStore?>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore?.self, name: "cloud"),
            make: uaaMade
        )

        let made = try container.resolve(UaaMade<UaaStore?>.self, arguments: UaaNote(title: ""), true)

        #expect(made.dependency == nil)
    }

    @Test func aRegisteredOptionalNamedThroughUsingIsResolvedAsRegistered() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(UaaStore?.self, name: "cloud") { _ in nil }
        container.register(
            UaaMade<UaaStore?>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore?.self, name: "cloud"),
            make: uaaMade
        )

        let made = try container.resolve(UaaMade<UaaStore?>.self, arguments: UaaNote(title: ""), false)

        #expect(made.dependency == nil)
    }

    @Test func aNonOptionalTypeInUsingForAnOptionalParameterIsAMismatch() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        let line = #line + 1
        container.register(
            UaaMade<UaaStore?>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "cloud"),
            make: uaaMade
        )

        let error = try #require(
            injectionError { try container.resolve(UaaMade<UaaStore?>.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaMade<Optional<UaaStore>> (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, Optional<UaaStore>)",
                    dependencies: "(UaaStore)"
                )
        )
    }

    @Test func anOptionalTypeInUsingForANonOptionalParameterIsAMismatch() throws {
        let container = Container()
        let line = #line + 1
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore?.self, name: "cloud"),
            make: uaaMade
        )

        let error = try #require(
            injectionError { try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaMade<UaaStore> (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaStore)",
                    dependencies: "(Optional<UaaStore>)"
                )
        )
    }

    @Test func aLazyParameterNamedThroughUsingResolvesTheNamedServiceWhenUsed() throws {
        let container = Container()
        let made = UaaCounter()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 100 + made.next()) }
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        container.register(
            UaaMade<Lazy<UaaStore>>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(Lazy<UaaStore>.self, name: "cloud"),
            make: uaaMade
        )

        let lazy = try container.resolve(UaaMade<Lazy<UaaStore>>.self, arguments: UaaNote(title: ""), true)

        #expect(made.count == 0)
        #expect(try lazy.dependency.value.id == 101)
        #expect(try lazy.dependency.value.id == 101)
        #expect(made.count == 1)
    }

    @Test func aServiceProviderParameterNamedThroughUsingResolvesTheNamedServiceEachTime() throws {
        let container = Container()
        let made = UaaCounter()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 100 + made.next()) }
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        container.register(
            UaaMade<ServiceProvider<UaaStore>>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(ServiceProvider<UaaStore>.self, name: "cloud"),
            make: uaaMade
        )

        let provider = try container.resolve(
            UaaMade<ServiceProvider<UaaStore>>.self,
            arguments: UaaNote(title: ""),
            true
        )

        #expect(try provider.dependency.resolve().id == 101)
        #expect(try provider.dependency.resolve().id == 102)
    }

    @Test func validationFindsTheNamedServiceOfALazyParameterMissing() throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        let line = #line + 1
        container.register(
            UaaMade<Lazy<UaaStore>>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(Lazy<UaaStore>.self, name: "cloud"),
            make: uaaMade
        )

        let validation = try #require(injectionError { try container.validate() })

        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(
            validation.problems.map(\.message) == [
                "No registration for UaaStore (name: \"cloud\"), the 3rd parameter of UaaMade<Lazy<UaaStore>>"
                    + " (arguments: UaaNote, Bool) (declared at \(uaaFile):\(line)), needed by UaaMade<Lazy<UaaStore>>"
                    + " (arguments: UaaNote, Bool) -> UaaStore (name: \"cloud\") (missing). Registered nearby: UaaStore."
                    + " Fix: name the one to use in the registration's using:, e.g. Resolved(Lazy<UaaStore>.self), or"
                    + " register UaaStore (name: \"cloud\")."
            ]
        )
    }

    // MARK: - Class hierarchies and existentials

    @Test func aSubclassInUsingForASuperclassParameterIsAMismatch() throws {
        let container = Container()
        container.register(UaaSub.self) { _ in UaaSub() }
        let line = #line + 1
        container.register(
            UaaMade<UaaBase>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaSub.self),
            make: uaaMade
        )

        let error = try #require(
            injectionError { try container.resolve(UaaMade<UaaBase>.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaMade<UaaBase> (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaBase)",
                    dependencies: "(UaaSub)"
                )
        )
    }

    @Test func aSuperclassInUsingForASubclassParameterIsAMismatch() throws {
        let container = Container()
        container.register(UaaBase.self) { _ in UaaSub() }
        let line = #line + 1
        container.register(
            UaaMade<UaaSub>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaBase.self),
            make: uaaMade
        )

        let error = try #require(
            injectionError { try container.resolve(UaaMade<UaaSub>.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaMade<UaaSub> (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaSub)",
                    dependencies: "(UaaBase)"
                )
        )
    }

    @Test func anExistentialParameterNamedThroughUsingResolvesTheNamedConformer() throws {
        let container = Container()
        container.register((any UaaPort).self, name: "b") { _ in UaaAdapter(label: "b") }
        container.register((any UaaPort).self) { _ in UaaAdapter(label: "unnamed") }
        container.register(
            UaaMade<any UaaPort>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved((any UaaPort).self, name: "b"),
            make: uaaMade
        )

        let made = try container.resolve(UaaMade<any UaaPort>.self, arguments: UaaNote(title: ""), true)

        #expect(made.dependency.label == "b")
    }

    @Test func aConcreteTypeInUsingForAnExistentialParameterIsAMismatch() throws {
        let container = Container()
        container.register(UaaAdapter.self) { _ in UaaAdapter(label: "a") }
        let line = #line + 1
        container.register(
            UaaMade<any UaaPort>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaAdapter.self),
            make: uaaMade
        )

        let validation = try #require(injectionError { try container.validate() })

        #expect(validation.problems.map(\.code) == [.argumentTypesMismatch])
        #expect(
            validation.problems.map(\.message) == [
                mismatch(
                    "UaaMade<UaaPort> (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaPort)",
                    dependencies: "(UaaAdapter)"
                )
            ]
        )
    }

    // MARK: - Lists of the wrong length

    @Test func aUsingListShorterThanTheParametersAfterTheArgumentsIsAMismatchNotACrash() throws {
        let container = Container()
        container.register(UaaStore.self, name: "a") { _ in UaaStore(id: 1) }
        container.register(UaaStore.self) { _ in UaaStore(id: 2) }
        let line = #line + 1
        container.register(
            UaaEditor.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "a"),
            make: UaaEditor.init
        )

        let error = try #require(
            injectionError { try container.resolve(UaaEditor.self, arguments: UaaNote(title: ""), true) }
        )
        let finish = try #require(injectionError { try container.finishRegistration() })

        let expected = mismatch(
            "UaaEditor (arguments: UaaNote, Bool)",
            line: line,
            function: "(UaaNote, Bool, UaaStore, UaaStore)",
            dependencies: "(UaaStore)"
        )
        #expect(error.code == .argumentTypesMismatch)
        #expect(error.message == expected)
        #expect(finish.code == .argumentTypesMismatch)
        #expect(finish.message == expected)
        #expect(!container.canResolve(UaaEditor.self, argumentTypes: UaaNote.self, Bool.self))
    }

    @Test func aUsingListLongerThanTheParametersAfterTheArgumentsIsAMismatch() throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 2) }
        let line = #line + 1
        container.register(
            UaaEditor.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self),
            Resolved(UaaStore.self),
            Resolved(UaaStore.self),
            make: UaaEditor.init
        )

        let error = try #require(
            injectionError { try container.resolve(UaaEditor.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaEditor (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaStore, UaaStore)",
                    dependencies: "(UaaStore, UaaStore, UaaStore)"
                )
        )
    }

    @Test func aUsingListForAFunctionThatTakesOnlyTheArgumentsIsAMismatch() throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 2) }
        let line = #line + 1
        container.register(
            UaaNote.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self)
        ) { (note: UaaNote, _: Bool) in note }

        let error = try #require(
            injectionError { try container.resolve(UaaNote.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaNote (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool)",
                    dependencies: "(UaaStore)"
                )
        )
    }

    @Test func aFunctionThatTakesOnlyTheArgumentsNeedsNoUsingList() throws {
        let container = Container()
        container.register(UaaNote.self, arguments: UaaNote.self, Bool.self) { (note: UaaNote, flag: Bool) in
            UaaNote(title: "\(note.title) \(flag)")
        }

        let note = try container.resolve(UaaNote.self, arguments: UaaNote(title: "n"), true)

        #expect(note.title == "n true")
        #expect(
            try container.validate().checkedFromDeclarations.map(\.description) == [
                "UaaNote (arguments: UaaNote, Bool)"
            ]
        )
    }

    @Test func aFunctionThatDoesNotBeginWithTheArgumentsIsAMismatchThoughUsingMatchesItsTail() throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 2) }
        let line = #line + 1
        container.register(
            UaaNote.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self)
        ) { (flag: Bool, note: UaaNote, _: UaaStore) in UaaNote(title: "\(note.title) \(flag)") }

        let error = try #require(
            injectionError { try container.resolve(UaaNote.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaNote (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(Bool, UaaNote, UaaStore)",
                    dependencies: "(UaaStore)"
                )
        )
    }

    // MARK: - Names: several of one type, the registration's own name, one argument

    @Test func aMissingSecondNamedDependencyIsNamedByItsPositionAfterTheArguments() throws {
        let container = Container()
        container.register(UaaStore.self, name: "a") { _ in UaaStore(id: 1) }
        container.register(UaaStore.self) { _ in UaaStore(id: 2) }
        let line = #line + 1
        container.register(
            UaaEditor.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "a"),
            Resolved(UaaStore.self, name: "b"),
            make: UaaEditor.init
        )

        let resolve = try #require(
            injectionError { try container.resolve(UaaEditor.self, arguments: UaaNote(title: ""), true) }
        )
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "No registration for UaaStore (name: \"b\"), the 4th parameter of UaaEditor (arguments: UaaNote, Bool)"
            + " (declared at \(uaaFile):\(line)), needed by UaaEditor (arguments: UaaNote, Bool) -> UaaStore (name:"
            + " \"b\") (missing). Registered nearby: UaaStore (name: \"a\"); UaaStore. Fix: name the one to"
            + " use in the registration's using:, e.g. Resolved(UaaStore.self, name: \"a\"), or register UaaStore"
            + " (name: \"b\")."
        #expect(resolve.code == .missingRegistration)
        #expect(resolve.message == expected)
        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func anEmptyNameIsANameOfItsOwnAndNotTheUnnamedRegistration() throws {
        let container = Container()
        container.register(UaaStore.self, name: "") { _ in UaaStore(id: 3) }
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        container.register(
            UaaEditor.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: ""),
            Resolved(UaaStore.self),
            make: UaaEditor.init
        )

        let editor = try container.resolve(UaaEditor.self, arguments: UaaNote(title: ""), true)

        #expect([editor.first.id, editor.second.id] == [3, 1])
    }

    @Test func twoParametersOfOneTypeAreNamedInTheOrderUsingListsThem() throws {
        let container = Container()
        container.register(UaaStore.self, name: "a") { _ in UaaStore(id: 1) }
        container.register(UaaStore.self, name: "b") { _ in UaaStore(id: 2) }
        container.register(
            UaaEditor.self,
            name: "ba",
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "b"),
            Resolved(UaaStore.self, name: "a"),
            make: UaaEditor.init
        )
        container.register(
            UaaEditor.self,
            name: "ab",
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "a"),
            Resolved(UaaStore.self, name: "b"),
            make: UaaEditor.init
        )

        let ba = try container.resolve(UaaEditor.self, name: "ba", arguments: UaaNote(title: ""), true)
        let ab = try container.resolve(UaaEditor.self, name: "ab", arguments: UaaNote(title: ""), true)

        #expect([ba.first.id, ba.second.id] == [2, 1])
        #expect([ab.first.id, ab.second.id] == [1, 2])
    }

    @Test func theRegistrationsNameIsNotTheDependenciesName() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        container.register(
            UaaEditor.self,
            name: "cloud",
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self),
            Resolved(UaaStore.self, name: nil),
            make: UaaEditor.init
        )

        let editor = try container.resolve(UaaEditor.self, name: "cloud", arguments: UaaNote(title: ""), true)

        #expect([editor.first.id, editor.second.id] == [1, 1])
    }

    @Test func oneArgumentThroughTheSeveralArgumentsOverloadIsTheKeyOfOneArgument() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            using: Resolved(UaaStore.self, name: "cloud")
        ) { (note: UaaNote, store: UaaStore) in UaaMade(note: note, readOnly: false, dependency: store) }

        let made = try container.resolve(UaaMade<UaaStore>.self, argument: UaaNote(title: "one"))

        #expect(made.dependency.id == 9)
        #expect(made.note.title == "one")
    }

    // MARK: - Replacement

    @Test func aMismatchedRegistrationReplacedByAMatchingOneResolves() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore?.self, name: "cloud"),
            make: uaaMade
        )
        container.register(
            UaaMade<UaaStore>.self,
            replacesExisting: true,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "cloud"),
            make: uaaMade
        )

        let made = try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true)

        #expect(made.dependency.id == 9)
        #expect(try container.validate().checkedFromDeclarations.count == 1)
    }

    @Test func aMatchingRegistrationReplacedByAMismatchedOneIsAMismatch() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "cloud"),
            make: uaaMade
        )
        let line = #line + 1
        container.register(
            UaaMade<UaaStore>.self,
            replacesExisting: true,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaBase.self),
            make: uaaMade
        )

        let error = try #require(
            injectionError { try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaMade<UaaStore> (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaStore)",
                    dependencies: "(UaaBase)"
                )
        )
    }

    // MARK: - A mismatch wherever it is registered

    @Test func aMismatchedOverrideIsReportedNotRun() throws {
        let container = Container()
        container.register(UaaStore.self, name: "a") { _ in UaaStore(id: 1) }
        container.register(
            UaaEditor.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "a"),
            Resolved(UaaStore.self, name: "a"),
            make: UaaEditor.init
        )
        let line = #line + 2
        let error = try container.withOverrides {
            $0.register(
                UaaEditor.self,
                arguments: UaaNote.self,
                Bool.self,
                using: Resolved(UaaStore.self, name: "a"),
                make: UaaEditor.init
            )
        } operation: {
            injectionError { try container.resolve(UaaEditor.self, arguments: UaaNote(title: ""), true) }
        }

        let reported = try #require(error)
        #expect(reported.code == .argumentTypesMismatch)
        #expect(
            reported.message
                == mismatch(
                    "UaaEditor (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaStore, UaaStore)",
                    dependencies: "(UaaStore)"
                )
        )
    }

    @Test func aChildsMismatchedRegistrationIsReportedByTheChildAndItsScopes() throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        container.register(UaaEditor.self, arguments: UaaNote.self, Bool.self, make: UaaEditor.init)
        let child = container.makeChild()
        let line = #line + 1
        child.register(
            UaaEditor.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self),
            Resolved(UaaNote.self),
            make: UaaEditor.init
        )

        let fromChild = try #require(
            injectionError { try child.resolve(UaaEditor.self, arguments: UaaNote(title: ""), true) }
        )
        let fromScope = try #require(
            injectionError {
                try child.withScope { try $0.resolve(UaaEditor.self, arguments: UaaNote(title: ""), true) }
            }
        )
        let fromParent = try container.resolve(UaaEditor.self, arguments: UaaNote(title: ""), true)
        let validation = try #require(injectionError { try child.validate() })

        let expected = mismatch(
            "UaaEditor (arguments: UaaNote, Bool)",
            line: line,
            function: "(UaaNote, Bool, UaaStore, UaaStore)",
            dependencies: "(UaaStore, UaaNote)"
        )
        #expect([fromChild.code, fromScope.code] == [.argumentTypesMismatch, .argumentTypesMismatch])
        #expect([fromChild.message, fromScope.message] == [expected, expected])
        #expect(fromParent.first.id == 1)
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func aMismatchIsReportedRatherThanASharedScopeWithArguments() throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        let line = #line + 1
        container.register(
            UaaMade<UaaStore>.self,
            scope: .singleton,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaBase.self),
            make: uaaMade
        )

        let error = try #require(
            injectionError { try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaMade<UaaStore> (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaStore)",
                    dependencies: "(UaaBase)"
                )
        )
    }

    @Test func aDependentOfAMismatchedRegistrationMeetsTheMismatch() throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        let line = #line + 1
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaBase.self),
            make: uaaMade
        )
        container.register(UaaNote.self) { r in
            try r.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: "inner"), true).note
        }

        let error = try #require(injectionError { try container.resolve(UaaNote.self) })

        #expect(error.code == .argumentTypesMismatch)
        #expect(
            error.message
                == mismatch(
                    "UaaMade<UaaStore> (arguments: UaaNote, Bool)",
                    line: line,
                    function: "(UaaNote, Bool, UaaStore)",
                    dependencies: "(UaaBase)"
                )
        )
    }

    @Test func aNamedScopedDependencyResolvedFromTheContainerIsAScopeMismatchOnItsPath() throws {
        let container = Container()
        container.register(UaaStore.self, name: "request", scope: .scoped) { _ in UaaStore(id: 1) }
        let line = #line + 1
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "request"),
            make: uaaMade
        )

        let error = try #require(
            injectionError { try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true) }
        )

        #expect(error.code == .scopeMismatch)
        #expect(
            error.message
                == "UaaStore (name: \"request\"), the 3rd parameter of UaaMade<UaaStore> (arguments: UaaNote, Bool)"
                + " (declared at InjectorTests/UsingArgumentsAttackTests.swift:\(line)), is .scoped, but was resolved"
                + " from a container, outside any lifetime"
                + " scope, so nothing would own its instance. Path: UaaMade<UaaStore> (arguments: UaaNote, Bool) ->"
                + " UaaStore (name: \"request\"). Fix: resolve from a lifetime scope: let scope ="
                + " container.makeScope(); try scope.resolve(…)."
        )
    }

    // MARK: - Overrides, children, scopes

    @Test func anOverrideOfTheNamedDependencyIsWhatTheFunctionGets() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(UaaStore.self) { _ in UaaStore(id: 1) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "cloud"),
            make: uaaMade
        )

        let overridden = try container.withOverrides {
            $0.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 90) }
        } operation: {
            try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true).dependency.id
        }
        let unnamedOverride = try container.withOverrides {
            $0.register(UaaStore.self) { _ in UaaStore(id: 10) }
        } operation: {
            try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true).dependency.id
        }
        let after = try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true)

        #expect(overridden == 90)
        #expect(unnamedOverride == 9)
        #expect(after.dependency.id == 9)
    }

    @Test func anOverrideOfTheRegistrationItselfWithUsingIsWhatAResolveGets() throws {
        let container = Container()
        container.register(UaaStore.self, name: "a") { _ in UaaStore(id: 1) }
        container.register(UaaStore.self, name: "b") { _ in UaaStore(id: 2) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "a"),
            make: uaaMade
        )

        let overridden = try container.withOverrides {
            $0.register(
                UaaMade<UaaStore>.self,
                arguments: UaaNote.self,
                Bool.self,
                using: Resolved(UaaStore.self, name: "b"),
                make: uaaMade
            )
        } operation: {
            try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true).dependency.id
        }

        #expect(overridden == 2)
    }

    @Test func aChildsRegistrationOfTheNamedDependencyIsWhatResolvesFromTheChildGet() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "cloud"),
            make: uaaMade
        )
        let child = container.makeChild()
        child.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 99) }

        let fromChild = try child.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true)
        let fromParent = try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true)

        #expect(fromChild.dependency.id == 99)
        #expect(fromParent.dependency.id == 9)
    }

    @Test func aNamedScopedDependencyIsTheScopesInstance() throws {
        let container = Container()
        let made = UaaCounter()
        container.register(UaaStore.self, name: "request", scope: .scoped) { _ in UaaStore(id: made.next()) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "request"),
            make: uaaMade
        )

        let (first, second, direct) = try container.withScope { scope in
            (
                try scope.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true).dependency,
                try scope.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), false).dependency,
                try scope.resolve(UaaStore.self, name: "request")
            )
        }
        let other = try container.withScope { scope in
            try scope.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true).dependency
        }

        #expect(first === second)
        #expect(first === direct)
        #expect(other !== first)
        #expect(made.count == 2)
    }

    @Test func aNamedValueScopesAreGivenIsTheValueOfTheScope() throws {
        let container = Container()
        container.register(UaaRequest.self, name: "current", providedByScope: nil)
        container.register(UaaRequest.self, name: "other", providedByScope: nil)
        container.register(
            UaaMade<UaaRequest>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaRequest.self, name: "current"),
            make: uaaMade
        )

        let id = try container.withScope {
            $0.provide(UaaRequest.self, name: "current", UaaRequest(id: 7))
            $0.provide(UaaRequest.self, name: "other", UaaRequest(id: 8))
        } operation: { scope in
            try scope.resolve(UaaMade<UaaRequest>.self, arguments: UaaNote(title: ""), true).dependency.id
        }
        let report = try container.validate()

        #expect(id == 7)
        #expect(report.checkedFromDeclarations.map(\.description) == ["UaaMade<UaaRequest> (arguments: UaaNote, Bool)"])
    }

    // MARK: - Async

    /// A sync function cannot await its dependency: an async resolve of it fails as a sync one does,
    /// and validation says so from the declaration.
    @Test func aSyncFunctionNamingAnAsyncDependencyIsRefusedBySyncAndAsyncResolvesAlike() async throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ async in UaaStore(id: 9) }
        let line = #line + 1
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "cloud"),
            make: uaaMade
        )

        let sync = try #require(
            injectionError { try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true) }
        )
        let validation = try #require(injectionError { try container.validate() })
        let async = try #require(
            await injectionErrorAsync {
                try await container.resolveAsync(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true)
            }
        )

        let expected =
            "UaaStore (name: \"cloud\"), the 3rd parameter of UaaMade<UaaStore> (arguments: UaaNote, Bool) (declared"
            + " at InjectorTests/UsingArgumentsAttackTests.swift:\(line)), has an async factory, and the function"
            + " registered for UaaMade<UaaStore> (arguments: UaaNote, Bool) is sync, so it cannot be given one,"
            + " however UaaMade<UaaStore> (arguments: UaaNote, Bool) is resolved. Path: UaaMade<UaaStore> (arguments:"
            + " UaaNote, Bool) -> UaaStore (name: \"cloud\"). Fix: register an async function for it, e.g."
            + " container.register(UaaMade<UaaStore>.self, arguments: UaaNote.self, Bool.self) { (…) async in … },"
            + " and resolve it with try await resolveAsync; or give UaaStore (name: \"cloud\") a sync factory."
        #expect(sync.code == .asyncResolutionRequired)
        #expect(sync.message == expected)
        #expect(async.code == .asyncResolutionRequired)
        #expect(async.message == expected)
        #expect(validation.problems.map(\.code) == [.asyncResolutionRequired])
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func anAsyncFunctionWithANamedDependencyAsksASyncResolveForAnAsyncOne() async throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "cloud")
        ) { (note: UaaNote, flag: Bool, store: UaaStore) async in
            UaaMade(note: note, readOnly: flag, dependency: store)
        }

        let sync = try #require(
            injectionError { try container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true) }
        )
        let async = try await container.resolveAsync(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true)

        #expect(sync.code == .asyncResolutionRequired)
        #expect(
            sync.message
                == "UaaMade<UaaStore> (arguments: UaaNote, Bool) has an async factory, which a sync resolve"
                + " cannot run. Fix: resolve it with try await resolveAsync(UaaMade<UaaStore>.self, arguments: …), from the"
                + " container or scope you resolve from (r.resolveAsync in an async factory); a sync factory that"
                + " needs it must become async too."
        )
        #expect(async.dependency.id == 9)
        #expect(!container.canResolve(UaaMade<UaaStore>.self, argumentTypes: UaaNote.self, Bool.self))
        #expect(container.canResolveAsync(UaaMade<UaaStore>.self, argumentTypes: UaaNote.self, Bool.self))
    }

    @Test func anAsyncFunctionWithAMismatchedUsingListIsAMismatchForAnAsyncResolve() async throws {
        let container = Container()
        container.register(UaaStore.self) { _ in UaaStore(id: 9) }
        let line = #line + 1
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self),
            Resolved(UaaStore.self)
        ) { (note: UaaNote, flag: Bool, store: UaaStore) async in
            UaaMade(note: note, readOnly: flag, dependency: store)
        }

        let error = try #require(
            await injectionErrorAsync {
                try await container.resolveAsync(UaaMade<UaaStore>.self, arguments: UaaNote(title: ""), true)
            }
        )
        let validation = try #require(await injectionErrorAsync { try await container.validateAsync() })

        let expected = mismatch(
            "UaaMade<UaaStore> (arguments: UaaNote, Bool)",
            line: line,
            function: "(UaaNote, Bool, UaaStore)",
            dependencies: "(UaaStore, UaaStore)"
        )
        #expect(error.code == .argumentTypesMismatch)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.message) == [expected])
        #expect(!container.canResolveAsync(UaaMade<UaaStore>.self, argumentTypes: UaaNote.self, Bool.self))
    }

    // MARK: - The graph

    @Test func theDependencyGraphDrawsTheNamedEdgesOfARegistrationWithUsing() throws {
        let container = Container()
        container.register(UaaStore.self, name: "a", scope: .singleton) { _ in UaaStore(id: 1) }
        container.register(
            UaaEditor.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "a"),
            Resolved(UaaStore.self, name: "b"),
            make: UaaEditor.init
        )

        let graph = container.dependencyGraph()

        let editor = try #require(graph.nodes.first { $0.key.serviceType == UaaEditor.self })
        #expect(editor.isDeclared)
        #expect(editor.dependencies.map(\.description) == ["UaaStore (name: \"a\")", "UaaStore (name: \"b\")"])
        #expect(
            graph.textTree
                == """
                UaaEditor (arguments: UaaNote, Bool) (transient)
                ├─ UaaStore (name: "a") (singleton)
                └─ UaaStore (name: "b") (not registered)

                """
        )
        #expect(
            graph.dot
                == """
                digraph Injector {
                    rankdir=LR;
                    node [shape=box, fontname="Helvetica"];
                    "UaaStore (name: \\"a\\")" [label="UaaStore (name: \\"a\\") (singleton)"];
                    "UaaEditor (arguments: UaaNote, Bool)" [label="UaaEditor (arguments: UaaNote, Bool) (transient)"];
                    "UaaStore (name: \\"b\\")" [label="UaaStore (name: \\"b\\") (not registered)", style=dashed];
                    "UaaEditor (arguments: UaaNote, Bool)" -> "UaaStore (name: \\"a\\")";
                    "UaaEditor (arguments: UaaNote, Bool)" -> "UaaStore (name: \\"b\\")";
                }

                """
        )
        #expect(
            graph.mermaid
                == """
                flowchart LR
                    n0["UaaStore (name: #quot;a#quot;) (singleton)"]
                    n1["UaaEditor (arguments: UaaNote, Bool) (transient)"]
                    n1 --> n0
                    n2["UaaStore (name: #quot;b#quot;) (not registered)"]
                    style n2 stroke-dasharray: 4 4
                    n1 --> n2

                """
        )
    }

    @Test func theDependencyGraphDrawsANamedOptionalParameterAsItsWrappedNamedService() throws {
        let container = Container()
        container.register(UaaStore.self, name: "cloud") { _ in UaaStore(id: 9) }
        container.register(
            UaaMade<UaaStore?>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore?.self, name: "cloud"),
            make: uaaMade
        )

        let node = try #require(
            container.dependencyGraph().nodes.first { $0.key.serviceType == UaaMade<UaaStore?>.self }
        )

        #expect(node.dependencies.map(\.description) == ["UaaStore (name: \"cloud\")"])
    }

    // MARK: - Concurrency

    @Test func concurrentResolvesShareTheNamedSingletonBuiltOnce() async throws {
        let container = Container()
        let made = UaaCounter()
        container.register(UaaStore.self, name: "cloud", scope: .singleton) { _ in UaaStore(id: made.next()) }
        container.register(
            UaaMade<UaaStore>.self,
            arguments: UaaNote.self,
            Bool.self,
            using: Resolved(UaaStore.self, name: "cloud"),
            make: uaaMade
        )

        let ids = await withTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    (try? container.resolve(UaaMade<UaaStore>.self, arguments: UaaNote(title: "\(index)"), true))?
                        .dependency.id ?? -1
                }
            }
            return await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }

        #expect(ids == [1])
        #expect(made.count == 1)
    }
}

@Suite struct UsingArgumentsAttackForwardingTests {
    @Test func concurrentResolvesOfAForwardedSingletonBuildItOnce() async throws {
        let container = Container()
        let made = UaaCounter()
        container.register(UaaAdapter.self, scope: .singleton) { _ in UaaAdapter(label: "\(made.next())") }
            .implements((any UaaPort).self)

        let labels = await withTaskGroup(of: String.self) { group in
            for _ in 0..<64 {
                group.addTask { (try? container.resolve((any UaaPort).self))?.label ?? "failed" }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }

        #expect(labels == ["1"])
        #expect(made.count == 1)
    }

    @Test func concurrentAsyncResolvesOfAForwardedAsyncSingletonBuildItOnce() async throws {
        let container = Container()
        let made = UaaCounter()
        container.register(UaaAdapter.self, scope: .singleton) { _ async in
            await Task.yield()
            return UaaAdapter(label: "\(made.next())")
        }
        .implements((any UaaPort).self)

        let labels = await withTaskGroup(of: String.self) { group in
            for index in 0..<64 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return (try? await container.resolveAsync((any UaaPort).self))?.label ?? "failed"
                    }
                    return (try? await container.resolveAsync(UaaAdapter.self))?.label ?? "failed"
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }

        #expect(labels == ["1"])
        #expect(made.count == 1)
    }

    @Test func theForwardedTypeIsATransientNodeAsAsyncAsItsOriginalInTheGraph() throws {
        let container = Container()
        container.register(UaaAdapter.self, scope: .singleton) { _ in UaaAdapter(label: "sync") }
            .implements((any UaaPort).self)
        container.register(UaaStore.self, scope: .singleton) { _ async in UaaStore(id: 1) }
            .implements(AnyObject.self)

        let nodes = container.dependencyGraph().nodes

        let port = try #require(nodes.first { $0.key.serviceType == (any UaaPort).self })
        let object = try #require(nodes.first { $0.key.serviceType == AnyObject.self })
        #expect(port.scope == .transient && !port.isAsync && !port.isDeclared)
        #expect(object.scope == .transient && object.isAsync && !object.isDeclared)
    }

    @Test func aForwardedTransientDisposableIsDisposedOnceWithItsScope() throws {
        let container = Container()
        let log = EventLog()
        container.register(UaaDisposableAdapter.self) { _ in UaaDisposableAdapter(log) }
            .implements((any UaaPort).self)
        container.register(UaaDisposableAdapter.self, name: "scoped", scope: .scoped) { _ in
            UaaDisposableAdapter(log)
        }
        .implements((any UaaPort).self, name: "scoped")

        try container.withScope { scope in
            _ = try scope.resolve((any UaaPort).self)
            _ = try scope.resolve((any UaaPort).self, name: "scoped")
            _ = try scope.resolve(UaaDisposableAdapter.self, name: "scoped")
        }

        #expect(log.events == ["UaaDisposableAdapter", "UaaDisposableAdapter"])
    }

    @Test func aSyncForwardingIsCheckedBySyncValidationAndAnAsyncOneReportedUnchecked() throws {
        let container = Container()
        container.register(UaaAdapter.self) { _ in UaaAdapter(label: "sync") }.implements((any UaaPort).self)
        container.register(UaaStore.self) { _ async in UaaStore(id: 1) }.implements(AnyObject.self)

        let report = try container.validate()

        #expect(report.checked.map(\.description).contains("UaaPort"))
        #expect(report.unchecked.map(\.key.description).sorted() == ["AnyObject", "UaaStore"])
        #expect(report.unchecked.map(\.reason).allSatisfy { $0 == .asyncFactory })
    }

    @Test func aForwardedScopedOriginalIsUsableFromAScopeAndNotFromTheContainer() throws {
        let container = Container()
        container.register(UaaAdapter.self, scope: .scoped) { _ in UaaAdapter(label: "scoped") }
            .implements((any UaaPort).self)

        let scope = container.makeScope()
        defer { try? scope.close() }

        #expect(scope.canResolve((any UaaPort).self))
        #expect(!container.canResolve((any UaaPort).self))
        #expect(try scope.resolve((any UaaPort).self).label == "scoped")
        let error = try #require(injectionError { try container.resolve((any UaaPort).self) })
        #expect(error.code == .scopeMismatch)
        #expect(
            error.message
                == "UaaAdapter is .scoped, but was resolved from a container, outside any lifetime scope, so nothing"
                + " would own its instance. Path: UaaPort -> UaaAdapter. Fix: resolve from a lifetime scope: let"
                + " scope = container.makeScope(); try scope.resolve(…)."
        )
    }

    @Test func aForwardedValueScopesAreGivenIsEachScopesValue() throws {
        let container = Container()
        container.register(UaaRequest.self, providedByScope: nil).implements((any UaaIdentified).self)

        let ids = try [7, 8].map { id in
            try container.withScope {
                $0.provide(UaaRequest.self, UaaRequest(id: id))
            } operation: { scope in
                try scope.resolve((any UaaIdentified).self).id
            }
        }

        #expect(ids == [7, 8])
        #expect(
            try container.validate().unchecked.map(\.description) == [
                "UaaRequest: provided by lifetime scopes", "UaaIdentified: needs a value provided by lifetime scopes",
            ]
        )
    }

    @Test func concurrentAsyncResolvesOfAForwardedScopedAsyncOriginalBuildOnePerScope() async throws {
        let container = Container()
        let made = UaaCounter()
        container.register(UaaAdapter.self, scope: .scoped) { _ async in
            await Task.yield()
            return UaaAdapter(label: "\(made.next())")
        }
        .implements((any UaaPort).self)

        for round in 0..<4 {
            let scope = container.makeScope()
            let labels = await withTaskGroup(of: String.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            return (try? await scope.resolveAsync((any UaaPort).self))?.label ?? "failed"
                        }
                        return (try? await scope.resolveAsync(UaaAdapter.self))?.label ?? "failed"
                    }
                }
                return await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            try await scope.closeAsync()
            #expect(labels == ["\(round + 1)"])
        }
        #expect(made.count == 4)
    }

    @Test func twoForwardingsOfOneSingletonHandOnTheOneInstanceSyncAndAsync() async throws {
        let container = Container()
        container.register(UaaSub.self, scope: .singleton) { _ in UaaSub() }
            .implements(UaaBase.self)
            .implements(AnyObject.self)

        let sub = try container.resolve(UaaSub.self)
        let base = try container.resolve(UaaBase.self)
        let object = try container.resolve(AnyObject.self)
        let objectAsync = try await container.resolveAsync(AnyObject.self)

        let identities = [base, object, objectAsync].map(ObjectIdentifier.init)
        #expect(identities == Array(repeating: ObjectIdentifier(sub), count: 3))
    }
}
