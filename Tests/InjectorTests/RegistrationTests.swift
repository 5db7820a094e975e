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

// Keys (type, name, argument types), resolve-time arguments, replacesExisting, the Registration
// returned by register, and isRegistrationFinished.

private protocol RegGreeter { var greeting: String { get } }
private struct RegPlainGreeter: RegGreeter { let greeting: String }
private protocol RegOtherService {}
private struct RegOtherImpl: RegOtherService {}

private struct RegLabel { let text: String }

/// A plugin-like service for resolveAll order checks.
private protocol RegPlugin { var id: String { get } }
private struct RegNamedPlugin: RegPlugin { let id: String }

/// A class whose preparation steps leave a trace.
private final class RegTraced: @unchecked Sendable {  // `log` is written by hooks of one resolve, on one thread
    var log: [String] = []
}

private struct RegCheckFailed: Error, Equatable { let reason: String }

/// A class and its subclass, for keys made with a metatype whose dynamic value is the subclass's.
private class RegVehicle: @unchecked Sendable {
    var wheels: Int { 4 }
}
private final class RegBicycle: RegVehicle, @unchecked Sendable {
    let bell = "ring"
    override var wheels: Int { 2 }
}

struct RegistrationTests {
    // MARK: Keys

    @Test func sameTypeUnderDifferentNamesAndArgumentTypesCoexist() throws {
        let container = Container()
        container.register(RegGreeter.self) { _ in RegPlainGreeter(greeting: "plain") }
        container.register(RegGreeter.self, name: "formal") { _ in RegPlainGreeter(greeting: "formal") }
        container.register(RegGreeter.self, name: "casual") { _ in RegPlainGreeter(greeting: "casual") }
        container.register(RegGreeter.self) { (_, who: String) in RegPlainGreeter(greeting: "hello \(who)") }
        container.register(RegGreeter.self) { (_, times: Int) in RegPlainGreeter(greeting: "int \(times)") }
        container.register(RegGreeter.self, name: "formal") { (_, who: String) in
            RegPlainGreeter(greeting: "formal \(who)")
        }
        container.register(RegGreeter.self) { (_, who: String, times: Int) in
            RegPlainGreeter(greeting: "\(who) x\(times)")
        }

        // None of these is a duplicate of another.
        try container.finishRegistration()

        #expect(try container.resolve(RegGreeter.self).greeting == "plain")
        #expect(try container.resolve(RegGreeter.self, name: "formal").greeting == "formal")
        #expect(try container.resolve(RegGreeter.self, name: "casual").greeting == "casual")
        #expect(try container.resolve(RegGreeter.self, argument: "Ada").greeting == "hello Ada")
        #expect(try container.resolve(RegGreeter.self, argument: 3).greeting == "int 3")
        #expect(try container.resolve(RegGreeter.self, name: "formal", argument: "Ada").greeting == "formal Ada")
        #expect(try container.resolve(RegGreeter.self, arguments: "Ada", 2).greeting == "Ada x2")
    }

    /// A key is made from the static type, not from a metatype's dynamic value: registered or given
    /// through a `RegVehicle.Type` that holds `RegBicycle.self`, a vehicle is found as a vehicle
    /// and never handed out as a bicycle, which it is not.
    @Test func keysAreMadeFromTheStaticTypeNotFromAMetatypesDynamicValue() throws {
        let container = Container()
        let type: RegVehicle.Type = RegBicycle.self
        container.register(type) { _ in RegVehicle() }

        #expect(container.isRegistered(RegVehicle.self))
        #expect(!container.isRegistered(RegBicycle.self))
        #expect(try container.resolve(type).wheels == 4)
        let error = try #require(injectionError { _ = try container.resolve(RegBicycle.self) })
        #expect(error.code == .missingRegistration)
        #expect(
            error.message.hasPrefix(
                "No registration for RegBicycle. Nothing is registered for RegBicycle under any name or arguments."
            )
        )

        let scope = Container().makeScope { $0.provide(type, RegVehicle()) }
        #expect(try scope.resolve(RegVehicle.self).wheels == 4)
        let scopeError = try #require(injectionError { _ = try scope.resolve(RegBicycle.self) })
        #expect(scopeError.code == .missingRegistration)
        #expect(
            scopeError.message.hasPrefix(
                "No registration for RegBicycle. Nothing is registered for RegBicycle under any name or arguments."
            )
        )
    }

    @Test func sameNameUnderDifferentServiceTypesCoexist() throws {
        let container = Container()
        container.register(RegGreeter.self, name: "shared") { _ in RegPlainGreeter(greeting: "greeter") }
        container.register(RegOtherService.self, name: "shared") { _ in RegOtherImpl() }
        container.register(RegLabel.self, name: "shared") { _ in RegLabel(text: "label") }

        try container.finishRegistration()

        #expect(try container.resolve(RegGreeter.self, name: "shared").greeting == "greeter")
        #expect(try container.resolve(RegOtherService.self, name: "shared") is RegOtherImpl)
        #expect(try container.resolve(RegLabel.self, name: "shared").text == "label")
    }

    @Test func oneTupleArgumentAndTwoSeparateArgumentsAreDifferentKeys() throws {
        let container = Container()
        container.register(RegLabel.self) { (_, pair: (Int, String)) in RegLabel(text: "tuple \(pair.0) \(pair.1)") }
        container.register(RegLabel.self) { (_, number: Int, word: String) in RegLabel(text: "two \(number) \(word)") }

        // Both registered without a duplicate.
        try container.finishRegistration()

        #expect(try container.resolve(RegLabel.self, argument: (1, "a")).text == "tuple 1 a")
        #expect(try container.resolve(RegLabel.self, arguments: (2, "b")).text == "tuple 2 b")
        #expect(try container.resolve(RegLabel.self, arguments: 3, "c").text == "two 3 c")
    }

    @Test func tupleArgumentDoesNotFindTheTwoArgumentRegistration() throws {
        let container = Container()
        container.register(RegLabel.self) { (_, number: Int, word: String) in RegLabel(text: "two \(number) \(word)") }

        let error = try #require(injectionError { _ = try container.resolve(RegLabel.self, argument: (1, "a")) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("No registration for RegLabel (argument: (Int, String))"))
        #expect(error.message.contains("RegLabel (arguments: Int, String)"))
        #expect(error.nearMisses.map(\.description) == ["RegLabel (arguments: Int, String)"])
        #expect(error.resolutionPath.last?.argumentTypes.count == 1)
    }

    @Test func twoArgumentsDoNotFindTheTupleArgumentRegistration() throws {
        let container = Container()
        container.register(RegLabel.self) { (_, pair: (Int, String)) in RegLabel(text: "tuple \(pair.0) \(pair.1)") }

        let error = try #require(injectionError { _ = try container.resolve(RegLabel.self, arguments: 1, "a") })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("No registration for RegLabel (arguments: Int, String)"))
        #expect(error.nearMisses.map(\.description) == ["RegLabel (argument: (Int, String))"])
        #expect(error.resolutionPath.last?.argumentTypes.count == 2)
    }

    @Test func argumentTypesAreMatchedInOrder() throws {
        let container = Container()
        container.register(RegLabel.self) { (_, word: String, number: Int) in RegLabel(text: "\(word)\(number)") }

        #expect(try container.resolve(RegLabel.self, arguments: "a", 1).text == "a1")
        let error = try #require(injectionError { _ = try container.resolve(RegLabel.self, arguments: 1, "a") })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("RegLabel (arguments: Int, String)"))
        #expect(error.nearMisses.map(\.description) == ["RegLabel (arguments: String, Int)"])
    }

    // MARK: Variadic arguments

    private static func registerEveryArity(into container: Container) {
        container.register(RegLabel.self) { _ in RegLabel(text: "none") }
        container.register(RegLabel.self) { (_, a: Int) in RegLabel(text: "\(a)") }
        container.register(RegLabel.self) { (_, a: Int, b: String) in RegLabel(text: "\(a)|\(b)") }
        container.register(RegLabel.self) { (_, a: Int, b: String, c: Double) in RegLabel(text: "\(a)|\(b)|\(c)") }
        container.register(RegLabel.self) { (_, a: Int, b: String, c: Double, d: Bool, e: Character) in
            RegLabel(text: "\(a)|\(b)|\(c)|\(d)|\(e)")
        }
    }

    @Test(arguments: [0, 1, 2, 3, 5])
    func factoryReceivesEveryResolveTimeArgumentInOrder(arity: Int) throws {
        let container = Container()
        Self.registerEveryArity(into: container)
        try container.finishRegistration()  // one key per arity: no duplicates

        let label: RegLabel
        let expected: String
        switch arity {
        case 0:
            label = try container.resolve(RegLabel.self)
            expected = "none"
        case 1:
            label = try container.resolve(RegLabel.self, arguments: 7)
            expected = "7"
        case 2:
            label = try container.resolve(RegLabel.self, arguments: 7, "two")
            expected = "7|two"
        case 3:
            label = try container.resolve(RegLabel.self, arguments: 7, "two", 3.5)
            expected = "7|two|3.5"
        case 5:
            label = try container.resolve(RegLabel.self, arguments: 7, "two", 3.5, true, Character("e"))
            expected = "7|two|3.5|true|e"
        default:
            Issue.record("untested arity \(arity)")
            return
        }
        #expect(label.text == expected)
    }

    @Test(arguments: [0, 1, 2, 3, 5])
    func resolverPassesEveryResolveTimeArgumentToANestedFactory(arity: Int) throws {
        let container = Container()
        Self.registerEveryArity(into: container)
        container.register(String.self) { (r, arity: Int) in
            switch arity {
            case 0: try r.resolve(RegLabel.self).text
            case 1: try r.resolve(RegLabel.self, arguments: 7).text
            case 2: try r.resolve(RegLabel.self, arguments: 7, "two").text
            case 3: try r.resolve(RegLabel.self, arguments: 7, "two", 3.5).text
            default: try r.resolve(RegLabel.self, arguments: 7, "two", 3.5, true, Character("e")).text
            }
        }

        let expected = ["none", "7", "7|two", "7|two|3.5", "", "7|two|3.5|true|e"][arity]
        #expect(try container.resolve(String.self, argument: arity) == expected)
    }

    @Test func resolvingWithAnArityThatIsNotRegisteredIsMissingWithTheOtherAritiesAsNearMisses() throws {
        let container = Container()
        Self.registerEveryArity(into: container)

        let error = try #require(
            injectionError {
                _ = try container.resolve(RegLabel.self, arguments: 7, "two", 3.5, true)
            }
        )
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("No registration for RegLabel (arguments: Int, String, Double, Bool)"))
        #expect(
            Set(error.nearMisses.map(\.description)) == [
                "RegLabel",
                "RegLabel (argument: Int)",
                "RegLabel (arguments: Int, String)",
                "RegLabel (arguments: Int, String, Double)",
                "RegLabel (arguments: Int, String, Double, Bool, Character)",
            ]
        )
    }

    // MARK: argument: and arguments:

    @Test func argumentLabelAndArgumentsLabelWithOneValueResolveTheSameRegistration() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(RegLabel.self) { (_, number: Int) in
            calls.next()
            return RegLabel(text: "n=\(number)")
        }
        container.register(RegLabel.self, name: "named") { (_, number: Int) in RegLabel(text: "named \(number)") }

        #expect(try container.resolve(RegLabel.self, argument: 4).text == "n=4")
        #expect(try container.resolve(RegLabel.self, arguments: 5).text == "n=5")
        #expect(calls.count == 2)
        #expect(try container.resolve(RegLabel.self, name: "named", argument: 6).text == "named 6")
        #expect(try container.resolve(RegLabel.self, name: "named", arguments: 7).text == "named 7")
    }

    @Test func argumentLabelAndArgumentsLabelWorkTheSameThroughTheResolver() throws {
        let container = Container()
        container.register(RegLabel.self) { (_, number: Int) in RegLabel(text: "n=\(number)") }
        container.register(String.self) { r in
            try r.resolve(RegLabel.self, argument: 1).text + "," + r.resolve(RegLabel.self, arguments: 2).text
        }

        #expect(try container.resolve(String.self) == "n=1,n=2")
    }

    @Test func argumentLabelWithConfigureAppliesBoth() throws {
        let container = Container()
        container.register(RegLabel.self) { (_, number: Int) in RegLabel(text: "n=\(number)") }

        let label = try container.resolve(RegLabel.self, argument: 3) { $0 = RegLabel(text: $0.text + " configured") }
        #expect(label.text == "n=3 configured")
    }

    // MARK: replacesExisting

    @Test func replacesExistingReplacesSilently() throws {
        let container = Container()
        container.register(RegGreeter.self) { _ in RegPlainGreeter(greeting: "original") }
        container.register(RegGreeter.self, replacesExisting: true) { _ in RegPlainGreeter(greeting: "replacement") }

        #expect(try container.resolve(RegGreeter.self).greeting == "replacement")
        try container.finishRegistration()  // no duplicate reported
        #expect(try container.resolve(RegGreeter.self).greeting == "replacement")
    }

    @Test func replacedFactoryNeverRuns() throws {
        let container = Container()
        let originalCalls = CallCounter()
        container.register(RegGreeter.self) { _ in
            originalCalls.next()
            return RegPlainGreeter(greeting: "original")
        }
        container.register(RegGreeter.self, replacesExisting: true) { _ in RegPlainGreeter(greeting: "replacement") }
        try container.finishRegistration()

        _ = try container.resolve(RegGreeter.self)
        _ = try container.resolveAll(RegGreeter.self)
        #expect(originalCalls.count == 0)
    }

    @Test func replacesExistingWithoutAnEarlierRegistrationSimplyRegisters() throws {
        let container = Container()
        container.register(RegGreeter.self, replacesExisting: true) { _ in RegPlainGreeter(greeting: "only") }

        try container.finishRegistration()
        #expect(try container.resolve(RegGreeter.self).greeting == "only")
    }

    @Test func replacesExistingReplacesOnlyTheKeyWithTheSameNameAndArguments() throws {
        let container = Container()
        container.register(RegGreeter.self) { _ in RegPlainGreeter(greeting: "plain") }
        container.register(RegGreeter.self, name: "formal") { _ in RegPlainGreeter(greeting: "formal") }
        container.register(RegGreeter.self) { (_, who: String) in RegPlainGreeter(greeting: "hi \(who)") }
        container.register(RegGreeter.self, name: "formal", replacesExisting: true) { _ in
            RegPlainGreeter(greeting: "formal replaced")
        }

        try container.finishRegistration()
        #expect(try container.resolve(RegGreeter.self).greeting == "plain")
        #expect(try container.resolve(RegGreeter.self, name: "formal").greeting == "formal replaced")
        #expect(try container.resolve(RegGreeter.self, argument: "Ada").greeting == "hi Ada")
    }

    @Test func replacementKeepsTheOriginalsPositionInResolveAll() throws {
        let container = Container()
        container.register(RegPlugin.self, name: "a") { _ in RegNamedPlugin(id: "a") }
        container.register(RegPlugin.self, name: "b") { _ in RegNamedPlugin(id: "b") }
        container.register(RegPlugin.self) { _ in RegNamedPlugin(id: "unnamed") }
        container.register(RegPlugin.self, name: "a", replacesExisting: true) { _ in RegNamedPlugin(id: "a2") }

        try container.finishRegistration()
        #expect(try container.resolveAll(RegPlugin.self).map(\.id) == ["a2", "b", "unnamed"])
    }

    @Test func replacementMayChangeTheScope() throws {
        let container = Container()
        container.register(RegTraced.self) { _ in RegTraced() }
        container.register(RegTraced.self, scope: .singleton, replacesExisting: true) { _ in RegTraced() }

        try container.finishRegistration()
        #expect(try container.resolve(RegTraced.self) === container.resolve(RegTraced.self))
    }

    // MARK: The returned Registration

    @Test func hooksAddedThroughTheReturnedRegistrationApply() throws {
        let container = Container()
        let registration = container.register(RegTraced.self) { _ in RegTraced() }
        registration.onResolved { _, traced in traced.log.append("first hook") }
        registration.onResolved { _, traced in traced.log.append("second hook") }
        registration.verify { traced in
            guard traced.log == ["first hook", "second hook"] else { throw RegCheckFailed(reason: "hooks not run") }
            traced.log.append("verified")
        }
        try container.finishRegistration()

        let traced = try container.resolve(RegTraced.self)
        #expect(traced.log == ["first hook", "second hook", "verified"])
    }

    @Test func chainedHooksApplyInTheOrderWritten() throws {
        let container = Container()
        container.register(RegTraced.self) { _ in RegTraced() }
            .onResolved { _, traced in traced.log.append("hook") }
            .verify { traced in traced.log.append("check 1") }
            .onResolved { _, traced in traced.log.append("hook 2") }
            .verify { traced in traced.log.append("check 2") }

        // Hooks first (in the order added), then the checks (in the order added).
        #expect(try container.resolve(RegTraced.self).log == ["hook", "hook 2", "check 1", "check 2"])
    }

    @Test func hooksApplyToEveryNewInstance() throws {
        let container = Container()
        let hookCalls = CallCounter()
        let registration = container.register(RegTraced.self) { _ in RegTraced() }
        registration.onResolved { _, traced in
            hookCalls.next()
            traced.log.append("prepared")
        }

        let first = try container.resolve(RegTraced.self)
        let second = try container.resolve(RegTraced.self)
        #expect(first !== second)
        #expect(first.log == ["prepared"])
        #expect(second.log == ["prepared"])
        #expect(hookCalls.count == 2)
    }

    @Test func hooksOfARegistrationApplyOnlyToItsOwnKey() throws {
        let container = Container()
        container.register(RegTraced.self) { _ in RegTraced() }
        container.register(RegTraced.self, name: "hooked") { _ in RegTraced() }
            .onResolved { _, traced in traced.log.append("named hook") }
        container.register(RegTraced.self) { (_, tag: String) in
            let traced = RegTraced()
            traced.log.append(tag)
            return traced
        }
        .onResolved { _, traced in traced.log.append("argument hook") }

        #expect(try container.resolve(RegTraced.self).log == [])
        #expect(try container.resolve(RegTraced.self, name: "hooked").log == ["named hook"])
        #expect(try container.resolve(RegTraced.self, argument: "tag").log == ["tag", "argument hook"])
    }

    @Test func hookReceivesAResolverForTheRegistrationsDependencies() throws {
        let container = Container()
        container.register(RegGreeter.self) { _ in RegPlainGreeter(greeting: "from hook") }
        let registration = container.register(RegTraced.self) { _ in RegTraced() }
        registration.onResolved { r, traced in traced.log.append(try r.resolve(RegGreeter.self).greeting) }

        #expect(try container.resolve(RegTraced.self).log == ["from hook"])
    }

    @Test func failingVerifyAddedThroughTheRegistrationFailsTheResolve() throws {
        let container = Container()
        let registration = container.register(RegTraced.self) { _ in RegTraced() }
        registration.verify { _ in throw RegCheckFailed(reason: "never ready") }

        let error = try #require(injectionError { _ = try container.resolve(RegTraced.self) })
        #expect(error.code == .preparationFailed)
        #expect(error.message.contains("RegTraced"))
        #expect(error.message.contains("never ready"))
        #expect(error.underlyingError as? RegCheckFailed == RegCheckFailed(reason: "never ready"))
    }

    @Test func hookAddedAfterAReplacementAppliesToTheReplacement() throws {
        let container = Container()
        container.register(RegTraced.self) { _ in RegTraced() }
        container.register(RegTraced.self, replacesExisting: true) { _ in
            let traced = RegTraced()
            traced.log.append("replacement")
            return traced
        }
        .onResolved { _, traced in traced.log.append("hook") }

        #expect(try container.resolve(RegTraced.self).log == ["replacement", "hook"])
    }

    // MARK: isRegistrationFinished

    @Test func isRegistrationFinishedIsFalseUntilFinishRegistration() throws {
        let container = Container()
        #expect(!container.isRegistrationFinished)
        container.register(RegGreeter.self) { _ in RegPlainGreeter(greeting: "x") }
        _ = try container.resolve(RegGreeter.self)
        #expect(!container.isRegistrationFinished)

        try container.finishRegistration()
        #expect(container.isRegistrationFinished)

        try container.finishRegistration()  // again: still finished, nothing to report
        #expect(container.isRegistrationFinished)
    }

    @Test func isRegistrationFinishedEvenWhenFinishRegistrationThrows() throws {
        let container = Container()
        container.register(RegGreeter.self) { _ in RegPlainGreeter(greeting: "one") }
        container.register(RegGreeter.self) { _ in RegPlainGreeter(greeting: "two") }

        #expect(throws: InjectionError.self) { try container.finishRegistration() }
        #expect(container.isRegistrationFinished)
    }

    @Test func isRegistrationFinishedIsPerContainer() throws {
        let parent = Container()
        let earlyChild = parent.makeChild()
        try parent.finishRegistration()
        let lateChild = parent.makeChild()

        #expect(parent.isRegistrationFinished)
        #expect(!earlyChild.isRegistrationFinished)
        #expect(!lateChild.isRegistrationFinished)

        try lateChild.finishRegistration()
        #expect(lateChild.isRegistrationFinished)
        #expect(!earlyChild.isRegistrationFinished)
    }

    @Test func emptyContainerFinishesRegistrationWithoutError() throws {
        let container = Container()
        try container.finishRegistration()
        #expect(container.isRegistrationFinished)
    }
}

/// A connection made from resolve-time arguments.
private final class RegConnection: Sendable {
    let host: String
    init(host: String) { self.host = host }
}

extension RegistrationTests {
    /// A registration whose factory takes resolve-time arguments cannot have a shared lifetime: a
    /// shared instance is built once, so later arguments would be ignored silently. Resolving it
    /// throws, naming the registration and the fix, before the factory runs.
    @Test(arguments: [Scope.singleton, .weak, .scoped, .graph])
    func sharedScopeWithArgumentsIsRefusedWhenResolved(scope: Scope) throws {
        let container = Container()
        let calls = CallCounter()
        let line = #line + 1
        container.register(RegConnection.self, scope: scope) { (_, host: String) in
            calls.next()
            return RegConnection(host: host)
        }
        let lifetimeScope = container.makeScope()

        let error = try #require(injectionError { try lifetimeScope.resolve(RegConnection.self, argument: "db-a") })

        #expect(error.code == .sharedScopeWithArguments)
        #expect(
            error.message
                == "RegConnection (argument: String) is registered as .\(scope) at InjectorTests/RegistrationTests.swift:\(line),"
                + " but its factory takes resolve-time arguments: a shared instance is built once, from the"
                + " first resolve's arguments, and every later resolve would get it whatever its arguments."
                + " Fix: register it as .transient (a new instance for each resolve), or register one named"
                + " registration per value (name: \"db-a\"), or share a service that hands out an instance"
                + " per argument (a pool keyed by host)."
        )
        #expect(calls.count == 0)
    }

    /// The same registration is reported by finishRegistration() and by validate().
    @Test func sharedScopeWithArgumentsIsReportedByFinishRegistrationAndValidate() throws {
        let container = Container()
        container.register(RegConnection.self, scope: .singleton) { (_, host: String) in RegConnection(host: host) }

        let finished = try #require(injectionError { try container.finishRegistration() })
        let validated = try #require(injectionError { try container.validate() })

        #expect(finished.code == .sharedScopeWithArguments)
        #expect(finished.message.hasPrefix("RegConnection (argument: String) is registered as .singleton at"))
        #expect(validated.code == .validationFailed)
        #expect(validated.problems.map(\.code) == [.sharedScopeWithArguments])
        #expect(validated.problems.first?.message == finished.message)
    }

    /// Transient registrations with arguments are unaffected.
    @Test func transientRegistrationWithArgumentsBuildsFromEachResolvesArguments() throws {
        let container = Container()
        container.register(RegConnection.self) { (_, host: String) in RegConnection(host: host) }
        try container.finishRegistration()

        #expect(try container.resolve(RegConnection.self, argument: "db-a").host == "db-a")
        #expect(try container.resolve(RegConnection.self, argument: "db-b").host == "db-b")
    }
}
