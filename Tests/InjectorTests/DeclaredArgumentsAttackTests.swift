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

// An adversarial pass on the declared registration that takes several resolve-time arguments
// first (`register(_:arguments:_:using:make:)`), whose arguments reach the function through `[Any]` and
// `as!`: argument types of every kind, functions whose leading parameters are not exactly the listed
// types, the registration machinery around it (names, replacement, duplicates, overrides, children,
// hooks, forwarding, cycles), concurrency, and the overloads it sits beside. Then `implements(_:)`
// on an async registration: the async forwarding it makes, and the queries that follow it.

// MARK: - Types

private protocol DgaShape: Sendable { var sides: Int { get } }
private struct DgaSquare: DgaShape { var sides: Int { 4 } }
private struct DgaTriangle: DgaShape { var sides: Int { 3 } }
private protocol DgaPort: AnyObject, Sendable { var label: String { get } }

private class DgaBase: @unchecked Sendable {
    var kind: String { "base" }
}
private final class DgaSub: DgaBase, @unchecked Sendable {
    override var kind: String { "sub" }
}

private final class DgaStore: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
private final class DgaClock: Sendable {}

private struct DgaBox<Value: Sendable>: Sendable { let value: Value }

/// A struct larger than the inline buffer of an existential, so that `Any` boxes it on the heap.
private struct DgaLarge: Sendable, Hashable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8
    var text = "large"
}

/// What a function was handed: each value described, in order, and its resolved store.
private struct DgaMade: Sendable {
    let values: [String]
    let store: DgaStore?
}

private final class DgaAdapter: DgaPort, @unchecked Sendable {
    let label: String
    init(label: String = "adapter") { self.label = label }
}

private final class DgaCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
    var count: Int { lock.withLock { value } }
}

private func describe(_ value: Any) -> String { String(describing: value) }

@Suite struct DeclaredArgumentsAttackTests {
    // MARK: - Argument kinds reach the function intact

    @Test func anExistentialArgumentArrivesWithItsDynamicTypeAndAConcreteValueMissesTheKeyWithoutACrash() throws {
        let container = Container()
        container.register(DgaStore.self) { _ in DgaStore(id: 1) }
        container.register(DgaMade.self, arguments: (any DgaShape).self, Int.self) {
            (shape: any DgaShape, count: Int, store: DgaStore) in
            DgaMade(values: ["\(type(of: shape))", "\(shape.sides)", "\(count)"], store: store)
        }

        let made = try container.resolve(DgaMade.self, arguments: DgaTriangle() as any DgaShape, 2)
        let concrete = try #require(injectionError { try container.resolve(DgaMade.self, arguments: DgaSquare(), 2) })

        #expect(made.values == ["DgaTriangle", "3", "2"])
        #expect(made.store?.id == 1)
        #expect(concrete.code == .missingRegistration)
        #expect(concrete.message.hasPrefix("No registration for DgaMade (arguments: DgaSquare, Int)."))
        #expect(concrete.message.contains("DgaMade (arguments: DgaShape, Int)"))
    }

    @Test func aSubclassPassedAsItsListedBaseClassArrivesAsTheSubclassAndPassedAsItselfMissesTheKey() throws {
        let container = Container()
        container.register(DgaMade.self, arguments: DgaBase.self, String.self) { (base: DgaBase, text: String) in
            DgaMade(values: [base.kind, "\(type(of: base))", text], store: nil)
        }

        let made = try container.resolve(DgaMade.self, arguments: DgaSub() as DgaBase, "x")
        let sub = try #require(injectionError { try container.resolve(DgaMade.self, arguments: DgaSub(), "x") })

        #expect(made.values == ["sub", "DgaSub", "x"])
        #expect(sub.code == .missingRegistration)
        #expect(sub.message.hasPrefix("No registration for DgaMade (arguments: DgaSub, String)."))
    }

    @Test func aFunctionTakingASupertypeOfAListedArgumentIsAMismatchNotACrash() throws {
        let container = Container()
        // Lists the concrete `DgaSquare`; the function takes `any DgaShape` first.
        let line = #line + 1
        container.register(DgaMade.self, arguments: DgaSquare.self, Int.self) { (shape: any DgaShape, count: Int) in
            DgaMade(values: ["\(shape.sides)", "\(count)"], store: nil)
        }
        // Lists the subclass; the function takes the base class first.
        container.register(DgaMade.self, name: "class", arguments: DgaSub.self, Int.self) {
            (base: DgaBase, count: Int) in DgaMade(values: [base.kind, "\(count)"], store: nil)
        }
        // Lists `Int`; the function takes `Int?` first.
        container.register(DgaMade.self, name: "optional", arguments: Int.self, Int.self) {
            (first: Int?, second: Int) in DgaMade(values: ["\(String(describing: first))", "\(second)"], store: nil)
        }
        // Lists `Any`; the function takes `Int`.
        container.register(DgaMade.self, name: "any", arguments: Any.self, Int.self) { (first: Int, second: Int) in
            DgaMade(values: ["\(first)", "\(second)"], store: nil)
        }

        let square = try #require(injectionError { try container.resolve(DgaMade.self, arguments: DgaSquare(), 1) })
        let sub = try #require(
            injectionError { try container.resolve(DgaMade.self, name: "class", arguments: DgaSub(), 1) }
        )
        let optional = try #require(
            injectionError { try container.resolve(DgaMade.self, name: "optional", arguments: 1, 2) }
        )
        let any = try #require(
            injectionError { try container.resolve(DgaMade.self, name: "any", arguments: 1 as Any, 2) }
        )
        let finish = try #require(injectionError { try container.finishRegistration() })

        #expect(
            [square.code, sub.code, optional.code, any.code]
                == [.argumentTypesMismatch, .argumentTypesMismatch, .argumentTypesMismatch, .argumentTypesMismatch]
        )
        #expect(
            square.message
                == "DgaMade (arguments: DgaSquare, Int) is registered at"
                + " InjectorTests/DeclaredArgumentsAttackTests.swift:\(line) with a function of (DgaShape, Int), which"
                + " does not take the arguments (DgaSquare, Int) first: a declared registration hands a resolve's"
                + " arguments to its function's first parameters, in order. Fix: list the argument types as the"
                + " function's first parameters are typed, or register a closure that takes them in its own order."
        )
        #expect(
            sub.message.contains("with a function of (DgaBase, Int), which does not take the arguments (DgaSub, Int)")
        )
        #expect(
            optional.message.contains(
                "with a function of (Optional<Int>, Int), which does not take the arguments (Int, Int)"
            )
        )
        #expect(any.message.contains("with a function of (Int, Int), which does not take the arguments (Any, Int)"))
        #expect(finish.code == .argumentTypesMismatch)
        #expect(finish.problems.count == 4)
    }

    @Test func optionalArgumentsArriveAsNilAndAsValuesAndANonOptionalValueMissesTheOptionalKey() throws {
        let container = Container()
        container.register(DgaMade.self, arguments: Int?.self, String?.self) { (number: Int?, text: String?) in
            DgaMade(values: [describe(number as Any), describe(text as Any)], store: nil)
        }

        let both = try container.resolve(DgaMade.self, arguments: Int?.some(3), String?.some("a"))
        let none = try container.resolve(DgaMade.self, arguments: Int?.none, String?.none)
        let plain = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 3, "a") })

        #expect(both.values == ["Optional(3)", "Optional(\"a\")"])
        #expect(none.values == ["nil", "nil"])
        #expect(plain.code == .missingRegistration)
        #expect(plain.message.hasPrefix("No registration for DgaMade (arguments: Int, String)."))
    }

    @Test func nestedOptionalsAndOptionalAnyKeepTheirLayersThroughTheCast() throws {
        let container = Container()
        container.register(DgaMade.self, arguments: Int??.self, Any?.self, Any.self) {
            (nested: Int??, optionalAny: Any?, any: Any) in
            let nestedLayer: String =
                switch nested {
                case .none: "none"
                case .some(.none): "some(none)"
                case .some(.some(let value)): "some(some(\(value)))"
                }
            let anyLayer: String =
                switch optionalAny {
                case .none: "none"
                case .some(let inner): "some(\(type(of: inner)))"
                }
            return DgaMade(values: [nestedLayer, anyLayer, "\(type(of: any))"], store: nil)
        }

        let innerNil = try container.resolve(
            DgaMade.self,
            arguments: Int??.some(.none),
            Any?.some(Int?.none as Any),
            Int?.none as Any
        )
        let outerNil = try container.resolve(DgaMade.self, arguments: Int??.none, Any?.none, 5 as Any)
        let value = try container.resolve(DgaMade.self, arguments: Int??.some(7), Any?.some("s"), [1] as Any)

        #expect(innerNil.values == ["some(none)", "some(Optional<Int>)", "Optional<Int>"])
        #expect(outerNil.values == ["none", "none", "Int"])
        #expect(value.values == ["some(some(7))", "some(String)", "Array<Int>"])
    }

    @Test func aTupleTypeListedAloneIsOneArgumentAndTheParameterAfterItIsStillResolved() throws {
        let container = Container()
        container.register(DgaStore.self) { _ in DgaStore(id: 9) }
        container.register(DgaMade.self, arguments: (Int, String).self) { (pair: (Int, String), store: DgaStore) in
            DgaMade(values: ["\(pair.0)", pair.1], store: store)
        }
        container.register(DgaMade.self, name: "more", arguments: (Int, String).self, Bool.self) {
            (pair: (Int, String), flag: Bool, store: DgaStore) in
            DgaMade(values: ["\(pair.0)", pair.1, "\(flag)"], store: store)
        }
        // A function of the tuple's elements does not take the tuple.
        container.register(DgaMade.self, name: "split", arguments: (Int, String).self) { (number: Int, text: String) in
            DgaMade(values: ["\(number)", text], store: nil)
        }

        let alone = try container.resolve(DgaMade.self, arguments: (4, "four"))
        let more = try container.resolve(DgaMade.self, name: "more", arguments: (5, "five"), true)
        let split = try #require(
            injectionError { try container.resolve(DgaMade.self, name: "split", arguments: (6, "six")) }
        )
        let twoValues = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 4, "four") })

        #expect(alone.values == ["4", "four"])
        #expect(alone.store?.id == 9)
        #expect(more.values == ["5", "five", "true"])
        #expect(more.store?.id == 9)
        #expect(split.code == .argumentTypesMismatch)
        #expect(twoValues.code == .missingRegistration)
    }

    @Test func aVoidArgumentBesideOthersIsTakenInItsPlace() throws {
        let container = Container()
        container.register(DgaStore.self) { _ in DgaStore(id: 2) }
        container.register(DgaMade.self, arguments: Void.self, Int.self) { (_: Void, number: Int, store: DgaStore) in
            DgaMade(values: ["\(number)"], store: store)
        }

        let made = try container.resolve(DgaMade.self, arguments: (), 8)

        #expect(made.values == ["8"])
        #expect(made.store?.id == 2)
    }

    @Test func functionMetatypeAnyObjectAndGenericArgumentsArriveIntact() throws {
        let container = Container()
        typealias Transform = @Sendable (Int) -> Int
        container.register(
            DgaMade.self,
            arguments: Transform.self,
            Any.Type.self,
            (any DgaShape.Type).self,
            AnyObject.self,
            DgaBox<Int>.self
        ) {
            (
                transform: @escaping Transform,
                type: Any.Type,
                shapeType: any DgaShape.Type,
                object: AnyObject,
                box: DgaBox<Int>
            ) in
            DgaMade(
                values: [
                    "\(transform(20))", "\(type)", "\(shapeType)", "\(object is DgaSub)", "\(box.value)",
                ],
                store: nil
            )
        }
        container.register(DgaMade.self, arguments: DgaBox<String>.self, Int.self) {
            (box: DgaBox<String>, number: Int) in DgaMade(values: [box.value, "\(number)"], store: nil)
        }

        let double: Transform = { $0 * 2 }
        let made = try container.resolve(
            DgaMade.self,
            arguments: double,
            String.self as Any.Type,
            DgaSquare.self as any DgaShape.Type,
            DgaSub() as AnyObject,
            DgaBox(value: 11)
        )
        let stringBox = try container.resolve(DgaMade.self, arguments: DgaBox(value: "s"), 1)

        #expect(made.values == ["40", "String", "DgaSquare", "true", "11"])
        #expect(stringBox.values == ["s", "1"])
    }

    @Test func largeStructsAndManyArgumentsArriveInOrderBeforeTheResolvedParameters() throws {
        let container = Container()
        container.register(DgaStore.self) { _ in DgaStore(id: 3) }
        container.register(DgaClock.self, scope: .singleton) { _ in DgaClock() }
        container.register(
            DgaMade.self,
            arguments: DgaLarge.self,
            Int8.self,
            DgaLarge.self,
            String.self,
            Double.self,
            [Int].self,
            DgaLarge?.self
        ) {
            (
                first: DgaLarge,
                small: Int8,
                second: DgaLarge,
                text: String,
                real: Double,
                list: [Int],
                third: DgaLarge?,
                store: DgaStore,
                clock: DgaClock,
                optionalClock: DgaClock?
            ) in
            DgaMade(
                values: [
                    "\(first.h)", "\(small)", second.text, text, "\(real)", "\(list)", "\(third?.a ?? -1)",
                    "\(optionalClock === clock)",
                ],
                store: store
            )
        }
        var second = DgaLarge()
        second.text = "second"

        let made = try container.resolve(
            DgaMade.self,
            arguments: DgaLarge(),
            Int8(-3),
            second,
            "text",
            2.5,
            [1, 2],
            DgaLarge?.none
        )

        #expect(made.values == ["8", "-3", "second", "text", "2.5", "[1, 2]", "-1", "true"])
        #expect(made.store?.id == 3)
        #expect(try container.validate().checkedFromDeclarations.count == 1)
    }

    @Test func aResolverParameterInTheArgumentsFormIsAMismatchOrAMissingRegistrationNotAClosureRegistration()
        throws
    {
        let container = Container()
        // Written as a closure registration would be, with `arguments:` added.
        container.register(DgaMade.self, arguments: Int.self, String.self) { (_: Resolver, number: Int, text: String) in
            DgaMade(values: ["\(number)", text], store: nil)
        }

        let error = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 1, "a") })

        #expect(error.code == .argumentTypesMismatch)
        #expect(error.message.contains("with a function of (Resolver, Int, String)"))
    }

    @Test func argumentsOfOneTypeArriveInOrderAndAParameterOfTheSameTypeIsResolvedNotTaken() throws {
        let container = Container()
        container.register(Int.self) { _ in 42 }
        container.register(DgaMade.self, arguments: Int.self, Int.self, Int.self) {
            (a: Int, b: Int, c: Int, resolved: Int, optional: Int?) in
            DgaMade(values: ["\(a)", "\(b)", "\(c)", "\(resolved)", "\(optional ?? -1)"], store: nil)
        }

        let made = try container.resolve(DgaMade.self, arguments: 1, 2, 3)

        #expect(made.values == ["1", "2", "3", "42", "42"])
    }

    @Test func aFunctionWithoutParametersIsAMismatchAndAHookKeepsTheProblemForSyncAndAsyncResolves() async throws {
        let container = Container()
        container.register(DgaMade.self, arguments: Int.self) { () in DgaMade(values: [], store: nil) }
            .onResolved { _, _ in }
        container.register(DgaMade.self, arguments: Int.self, String.self) { (text: String, number: Int) async in
            DgaMade(values: [text, "\(number)"], store: nil)
        }
        .onResolved { _, _ in }

        let none = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 1) })
        let asyncNone = try #require(
            await injectionErrorAsync { try await container.resolveAsync(DgaMade.self, arguments: 1) }
        )
        let swapped = try #require(
            await injectionErrorAsync { try await container.resolveAsync(DgaMade.self, arguments: 1, "a") }
        )
        let syncSwapped = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 1, "a") })

        #expect(none.code == .argumentTypesMismatch)
        #expect(none.message.contains("with a function of (), which does not take the arguments (Int) first"))
        #expect(asyncNone.code == .argumentTypesMismatch)
        #expect(swapped.code == .argumentTypesMismatch)
        #expect(syncSwapped.code == .argumentTypesMismatch)
        #expect(!container.canResolve(DgaMade.self, argumentTypes: Int.self))
        #expect(!container.canResolveAsync(DgaMade.self, argumentTypes: Int.self, String.self))
    }

    // MARK: - Registration machinery

    @Test func namesKeepRegistrationsWithTheSameArgumentTypesApart() throws {
        let container = Container()
        container.register(DgaMade.self, name: "a", arguments: Int.self, Int.self) { (x: Int, y: Int) in
            DgaMade(values: ["a", "\(x + y)"], store: nil)
        }
        container.register(DgaMade.self, name: "b", arguments: Int.self, Int.self) { (x: Int, y: Int) in
            DgaMade(values: ["b", "\(x * y)"], store: nil)
        }

        #expect(try container.resolve(DgaMade.self, name: "a", arguments: 3, 4).values == ["a", "7"])
        #expect(try container.resolve(DgaMade.self, name: "b", arguments: 3, 4).values == ["b", "12"])
        let unnamed = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 3, 4) })
        #expect(unnamed.code == .missingRegistration)
        try container.finishRegistration()
    }

    @Test func replacingAMismatchedRegistrationClearsItsProblemAndReplacingWithOneRecordsIt() throws {
        let container = Container()
        container.register(DgaMade.self, arguments: Int.self, String.self) { (text: String, number: Int) in
            DgaMade(values: [text, "\(number)"], store: nil)
        }
        container.register(DgaMade.self, replacesExisting: true, arguments: Int.self, String.self) {
            (number: Int, text: String) in DgaMade(values: ["fixed", "\(number)", text], store: nil)
        }
        container.register(DgaMade.self, name: "broken") { (_: Resolver, number: Int, text: String) in
            DgaMade(values: ["closure", "\(number)", text], store: nil)
        }
        container.register(DgaMade.self, name: "broken", replacesExisting: true, arguments: String.self, Int.self) {
            (number: Int, text: String) in DgaMade(values: ["\(number)", text], store: nil)
        }

        #expect(try container.resolve(DgaMade.self, arguments: 1, "a").values == ["fixed", "1", "a"])
        let broken = try #require(
            injectionError { try container.resolve(DgaMade.self, name: "broken", arguments: "a", 1) }
        )
        #expect(broken.code == .argumentTypesMismatch)
        let finish = try #require(injectionError { try container.finishRegistration() })
        #expect(finish.code == .argumentTypesMismatch)
        #expect(finish.message.hasPrefix("DgaMade (name: \"broken\", arguments: String, Int) is registered at"))
    }

    @Test func aClosureRegistrationWithTheSameArgumentTypesIsADuplicateOfTheDeclaredOne() throws {
        let container = Container()
        container.register(DgaMade.self, arguments: Int.self, String.self) { (number: Int, text: String) in
            DgaMade(values: ["declared", "\(number)", text], store: nil)
        }
        container.register(DgaMade.self) { (_: Resolver, number: Int, text: String) in
            DgaMade(values: ["closure", "\(number)", text], store: nil)
        }
        // A mismatched one registered twice is reported as a duplicate, with both sites.
        container.register(DgaMade.self, name: "twice", arguments: Int.self, String.self) {
            (text: String, number: Int) in DgaMade(values: [text, "\(number)"], store: nil)
        }
        container.register(DgaMade.self, name: "twice", arguments: Int.self, String.self) {
            (number: Int, text: String) in DgaMade(values: ["\(number)", text], store: nil)
        }

        let duplicate = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 1, "a") })
        let twice = try #require(
            injectionError { try container.resolve(DgaMade.self, name: "twice", arguments: 1, "a") }
        )

        #expect(duplicate.code == .duplicateRegistration)
        #expect(twice.code == .duplicateRegistration)
    }

    @Test func everySharedScopeWithArgumentsIsRefusedAndTheMismatchWinsWhenThereAreBoth() throws {
        let container = Container()
        let tag = ScopeTag("request")
        container.register(DgaAdapter.self, scope: .weak, arguments: Int.self, Int.self) { (_: Int, _: Int) in
            DgaAdapter()
        }
        container.register(DgaAdapter.self, name: "graph", scope: .graph, arguments: Int.self, Int.self) {
            (_: Int, _: Int) in DgaAdapter()
        }
        container.register(
            DgaAdapter.self,
            name: "scoped",
            scope: .scoped(to: tag),
            arguments: Int.self,
            Int.self
        ) { (_: Int, _: Int) in DgaAdapter() }
        container.register(DgaAdapter.self, name: "both", scope: .singleton, arguments: Int.self, Int.self) {
            (_: String) in DgaAdapter()
        }
        let scope = container.makeScope(tag: tag)

        let weak = try #require(injectionError { try container.resolve(DgaAdapter.self, arguments: 1, 2) })
        let graph = try #require(
            injectionError { try container.resolve(DgaAdapter.self, name: "graph", arguments: 1, 2) }
        )
        let scoped = try #require(
            injectionError { try scope.resolve(DgaAdapter.self, name: "scoped", arguments: 1, 2) }
        )
        let both = try #require(
            injectionError { try container.resolve(DgaAdapter.self, name: "both", arguments: 1, 2) }
        )
        let validation = try #require(injectionError { try container.validate() })

        #expect(weak.code == .sharedScopeWithArguments)
        #expect(graph.code == .sharedScopeWithArguments)
        #expect(scoped.code == .sharedScopeWithArguments)
        #expect(both.code == .argumentTypesMismatch)
        #expect(
            validation.problems.map(\.code).sorted { "\($0)" < "\($1)" }
                == [
                    .argumentTypesMismatch, .sharedScopeWithArguments, .sharedScopeWithArguments,
                    .sharedScopeWithArguments,
                ]
        )
    }

    @Test func anOverrideOrAChildWithAMismatchedFunctionFailsItsResolveWithoutTouchingTheOriginal() throws {
        let container = Container()
        container.register(DgaMade.self, arguments: Int.self, String.self) { (number: Int, text: String) in
            DgaMade(values: ["original", "\(number)", text], store: nil)
        }
        let child = container.makeChild()
        child.register(DgaMade.self, arguments: Int.self, String.self) { (text: String, number: Int) in
            DgaMade(values: ["child", text, "\(number)"], store: nil)
        }

        let overridden = try container.withOverrides {
            $0.register(DgaMade.self, arguments: Int.self, String.self) { (text: String, number: Int) in
                DgaMade(values: ["override", text, "\(number)"], store: nil)
            }
        } operation: {
            injectionError { try container.resolve(DgaMade.self, arguments: 1, "a") }
        }
        let replaced = try container.withOverrides {
            $0.register(DgaMade.self, arguments: Int.self, String.self) { (number: Int, text: String) in
                DgaMade(values: ["override", "\(number)", text], store: nil)
            }
        } operation: {
            try container.resolve(DgaMade.self, arguments: 2, "b")
        }
        let fromChild = try #require(injectionError { try child.resolve(DgaMade.self, arguments: 1, "a") })

        #expect(overridden?.code == .argumentTypesMismatch)
        #expect(replaced.values == ["override", "2", "b"])
        #expect(fromChild.code == .argumentTypesMismatch)
        #expect(try container.resolve(DgaMade.self, arguments: 3, "c").values == ["original", "3", "c"])
    }

    @Test func aLateRegistrationWithArgumentsIsReportedAsLateNotResolved() throws {
        let container = Container()
        try container.finishRegistration()
        container.register(DgaMade.self, arguments: Int.self, String.self) { (number: Int, text: String) in
            DgaMade(values: ["\(number)", text], store: nil)
        }

        let error = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 1, "a") })

        #expect(error.code == .registrationAfterFinish)
    }

    @Test func hooksAndChecksSeeEachInstanceMadeFromItsOwnArguments() throws {
        let container = Container()
        let seen = Guarded<[String]>([])
        container.register(DgaMade.self, arguments: Int.self, String.self) { (number: Int, text: String) in
            DgaMade(values: ["\(number)", text], store: nil)
        }
        .onResolved { _, made in seen.withLock { $0.append(made.values.joined(separator: ",")) } }
        .verify { made in
            if made.values.first == "0" { throw DgaRefusal() }
        }

        _ = try container.resolve(DgaMade.self, arguments: 1, "a")
        _ = try container.resolve(DgaMade.self, arguments: 2, "b")
        let refused = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 0, "z") })

        #expect(seen.withLock { $0 } == ["1,a", "2,b", "0,z"])
        #expect(refused.code == .preparationFailed)
    }

    @Test func forwardingARegistrationWithSeveralArgumentsIsRefusedEvenWhereTheQueryFindsAnOriginal() throws {
        let container = Container()
        container.register(DgaAdapter.self, arguments: Int.self, String.self) { (_: Int, text: String) in
            DgaAdapter(label: text)
        }
        .implements((any DgaPort).self)

        let error = try #require(injectionError { try container.resolve((any DgaPort).self) })

        #expect(error.code == .invalidForwarding)
        #expect(!container.canResolve((any DgaPort).self))
        #expect(
            error.message.hasPrefix(
                "DgaPort is registered to resolve DgaAdapter (arguments: Int, String) (implements), but that"
                    + " registration's factory takes resolve-time arguments"
            )
        )
    }

    /// The forwarding's origin names the original without its arguments (`ServiceKey(Service.self,
    /// name:)`), so `canResolve` follows it to another registration of the same type that takes
    /// none, and answers `true` for a resolve that always throws `invalidForwarding`.
    @Test func canResolveAForwardedTypeOfARegistrationWithArgumentsAgreesWithItsResolve() throws {
        let container = Container()
        container.register(DgaAdapter.self) { _ in DgaAdapter(label: "plain") }
        container.register(DgaAdapter.self, arguments: Int.self, String.self) { (_: Int, text: String) in
            DgaAdapter(label: text)
        }
        .implements((any DgaPort).self)

        let resolves = injectionError { try container.resolve((any DgaPort).self) } == nil

        #expect(container.canResolve((any DgaPort).self) == resolves)
        #expect(!resolves)
    }

    // MARK: - Cycles and recursion

    @Test func aDependencyThatResolvesTheSameArgumentsAgainIsACycleAndOtherArgumentsAreNot() throws {
        let container = Container()
        container.register(DgaStore.self) { r in
            // Resolves the declared registration with fixed arguments: (1, "loop") loops, others do not.
            _ = try r.resolve(DgaMade.self, name: "inner", arguments: 1, "loop")
            return DgaStore(id: 1)
        }
        container.register(DgaMade.self, name: "inner", arguments: Int.self, String.self) {
            (number: Int, text: String, store: DgaStore) in DgaMade(values: ["\(number)", text], store: store)
        }

        let cycle = try #require(
            injectionError { try container.resolve(DgaMade.self, name: "inner", arguments: 2, "start") }
        )

        #expect(cycle.code == .circularDependency)
        #expect(cycle.message.contains("DgaMade (name: \"inner\", arguments: Int, String)"))
    }

    @Test func recursionThroughNonHashableArgumentsEndsInAnErrorNotAStackOverflow() async throws {
        let container = Container()
        typealias Step = @Sendable () -> Int
        container.register(DgaStore.self) { r in
            _ = try r.resolve(DgaMade.self, arguments: { 0 } as Step, 1)
            return DgaStore(id: 1)
        }
        container.register(DgaMade.self, arguments: Step.self, Int.self) {
            (_: @escaping Step, number: Int, store: DgaStore) in
            DgaMade(values: ["\(number)"], store: store)
        }

        let result = await runOnThread(stackSize: 8 << 20) {
            ResolveResult { try container.resolve(DgaMade.self, arguments: { 1 } as Step, 1).values }
        }

        guard case .failed(let error) = result else {
            Issue.record("expected an InjectionError, got \(result)")
            return
        }
        #expect([.circularDependency, .resolutionTooDeep].contains(error.code))
    }

    // MARK: - Validation and the graph

    @Test func validationChecksTheParametersAfterSeveralArgumentsAndTheGraphShowsTheirEdges() throws {
        let container = Container()
        container.register(DgaClock.self, scope: .singleton) { _ in DgaClock() }
        container.register(DgaMade.self, arguments: Int.self, String.self, Bool.self) {
            (_: Int, _: String, _: Bool, clock: DgaClock, lazy: Lazy<DgaStore>, optional: DgaStore?, store: DgaStore) in
            DgaMade(values: ["\(optional == nil)"], store: store)
        }

        let missing = try #require(injectionError { try container.validate() })
        container.register(DgaStore.self) { _ in DgaStore(id: 1) }
        let report = try container.validate()
        let node = container.dependencyGraph().node(
            for: ServiceKey(DgaMade.self, arguments: Int.self, String.self, Bool.self, name: nil)
        )

        #expect(missing.problems.map(\.code) == [.missingRegistration])
        #expect(
            missing.problems.first?.message.hasPrefix(
                "No registration for DgaStore, the 5th parameter of DgaMade (arguments: Int, String, Bool)"
            ) == true
        )
        #expect(report.checkedFromDeclarations.map(\.description) == ["DgaMade (arguments: Int, String, Bool)"])
        #expect(node?.dependencies.map { $0.description }.contains("DgaClock") == true)
        #expect(node?.dependencies.map { $0.description }.contains("DgaStore") == true)
        #expect(node?.dependencies.map { $0.description }.contains("Int") == false)
    }

    // MARK: - Concurrency

    @Test func concurrentResolvesOnManyThreadsEachGetTheirOwnArguments() async throws {
        let container = Container()
        container.register(DgaStore.self, scope: .singleton) { _ in DgaStore(id: 1) }
        container.register(DgaMade.self, arguments: Int.self, String.self, DgaLarge.self) {
            (number: Int, text: String, large: DgaLarge, store: DgaStore) in
            DgaMade(values: ["\(number)", text, large.text], store: store)
        }

        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    await runOnThread(stackSize: 1 << 20) {
                        var wrong = 0
                        for index in 0..<300 {
                            let number = worker * 1000 + index
                            var large = DgaLarge()
                            large.text = "L\(number)"
                            let made = try? container.resolve(DgaMade.self, arguments: number, "T\(number)", large)
                            if made?.values != ["\(number)", "T\(number)", "L\(number)"] { wrong += 1 }
                        }
                        return wrong
                    }
                }
            }
            return await group.reduce(0, +)
        }

        #expect(mismatches == 0)
    }

    @Test func concurrentAsyncResolvesWithAsyncDependenciesEachGetTheirOwnArguments() async throws {
        let container = Container()
        container.register(DgaStore.self, scope: .singleton) { _ async in DgaStore(id: 5) }
        container.register(DgaMade.self, arguments: Int.self, String.self) {
            (number: Int, text: String, store: DgaStore) async in
            await Task.yield()
            return DgaMade(values: ["\(number)", text], store: store)
        }

        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for number in 0..<200 {
                group.addTask {
                    let made = try await container.resolveAsync(DgaMade.self, arguments: number, "n\(number)")
                    return made.values == ["\(number)", "n\(number)"] && made.store?.id == 5
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }

        #expect(results.count == 200)
        #expect(results.allSatisfy { $0 })
    }

    @Test func anAsyncFunctionWithArgumentsResolvedSyncNeedsAnAsyncResolveAndACancelledTaskDoesNotCrash()
        async throws
    {
        let container = Container()
        container.register(DgaStore.self) { _ async in DgaStore(id: 5) }
        container.register(DgaMade.self, arguments: Int.self, String.self) {
            (number: Int, text: String, store: DgaStore) async throws in
            try Task.checkCancellation()
            return DgaMade(values: ["\(number)", text], store: store)
        }

        let sync = try #require(injectionError { try container.resolve(DgaMade.self, arguments: 1, "a") })
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await container.resolveAsync(DgaMade.self, arguments: 2, "b")
        }
        let cancelled = await task.result

        #expect(sync.code == .asyncResolutionRequired)
        #expect(sync.message.hasPrefix("DgaMade (arguments: Int, String) has an async factory"))
        switch cancelled {
        case .success(let made): Issue.record("a cancelled resolve made \(made.values)")
        case .failure(let error): #expect(error is CancellationError || error is InjectionError)
        }
        #expect(try await container.resolveAsync(DgaMade.self, arguments: 3, "c").values == ["3", "c"])
        #expect(
            try await container.validateAsync().checkedFromDeclarations.map(\.description)
                == ["DgaMade (arguments: Int, String)"]
        )
    }

    // MARK: - The overloads beside it pick as before

    @Test func existingRegistrationFormsStillPickTheirOwnOverloads() async throws {
        let container = Container()
        container.register(DgaStore.self) { _ in DgaStore(id: 1) }
        // A closure registration with typed arguments.
        container.register(DgaMade.self) { (r: Resolver, number: Int, text: String) in
            DgaMade(values: ["closure", "\(number)", text], store: try r.resolve(DgaStore.self))
        }
        // A closure registration with untyped parameters and one argument.
        container.register(DgaMade.self) { r, number in
            DgaMade(values: ["untyped", "\(number as Int)"], store: try r.resolve(DgaStore.self))
        }
        // A closure registration without arguments.
        container.register(DgaMade.self) { _ in DgaMade(values: ["plain"], store: nil) }
        // A declared registration without arguments.
        container.register(DgaMade.self, name: "declared") { (store: DgaStore) in
            DgaMade(values: ["declared"], store: store)
        }
        // The single `argument:` forms, untyped and using `Resolved`.
        container.register(DgaMade.self, argument: String.self) { (text: String, store: DgaStore) in
            DgaMade(values: ["argument", text], store: store)
        }
        container.register(DgaMade.self, argument: Bool.self, using: Resolved(DgaStore.self)) { flag, store in
            DgaMade(values: ["using", "\(flag)"], store: store)
        }
        // An async closure registration with arguments.
        container.register(DgaMade.self) { (_: Resolver, number: Int, flag: Bool) async in
            DgaMade(values: ["async", "\(number)", "\(flag)"], store: nil)
        }
        // The new form beside them: the sync one, for a sync function.
        container.register(DgaMade.self, arguments: String.self, String.self) { (a: String, b: String) in
            DgaMade(values: ["arguments", a, b], store: nil)
        }

        #expect(try container.resolve(DgaMade.self, arguments: 1, "a").values == ["closure", "1", "a"])
        #expect(try container.resolve(DgaMade.self, argument: 2).values == ["untyped", "2"])
        #expect(try container.resolve(DgaMade.self).values == ["plain"])
        #expect(try container.resolve(DgaMade.self, name: "declared").values == ["declared"])
        #expect(try container.resolve(DgaMade.self, argument: "t").values == ["argument", "t"])
        #expect(try container.resolve(DgaMade.self, argument: true).values == ["using", "true"])
        #expect(try await container.resolveAsync(DgaMade.self, arguments: 3, false).values == ["async", "3", "false"])
        #expect(try container.resolve(DgaMade.self, arguments: "x", "y").values == ["arguments", "x", "y"])
        let report = try container.validate()
        #expect(
            report.checkedFromDeclarations.map(\.description).sorted()
                == [
                    "DgaMade (argument: Bool)", "DgaMade (argument: String)", "DgaMade (arguments: String, String)",
                    "DgaMade (name: \"declared\")",
                ]
        )
        try container.finishRegistration()
    }

    @Test func anInitialiserReferenceWithArgumentsPicksTheSyncFormAndAnAsyncClosureTheAsyncOne() async throws {
        let container = Container()
        container.register(DgaStore.self) { _ in DgaStore(id: 4) }
        container.register(DgaEditor.self, arguments: String.self, Bool.self, make: DgaEditor.init)
        container.register(DgaEditor.self, name: "async", arguments: String.self, Bool.self) {
            (title: String, readOnly: Bool, store: DgaStore) async in
            DgaEditor(title: title, readOnly: readOnly, store: store)
        }

        let editor = try container.resolve(DgaEditor.self, arguments: "t", true)
        let asyncSync = try #require(
            injectionError { try container.resolve(DgaEditor.self, name: "async", arguments: "t", true) }
        )
        let asyncEditor = try await container.resolveAsync(DgaEditor.self, name: "async", arguments: "u", false)

        #expect(editor.title == "t" && editor.readOnly && editor.store.id == 4)
        #expect(asyncSync.code == .asyncResolutionRequired)
        #expect(asyncEditor.title == "u" && !asyncEditor.readOnly)
    }

    // MARK: - implements on an async registration

    @Test func aSyncResolveOfTheForwardedTypeOfAnAsyncRegistrationAsksForAnAsyncResolve() async throws {
        let container = Container()
        container.register(DgaAdapter.self) { _ async in DgaAdapter() }.implements((any DgaPort).self)

        let sync = try #require(injectionError { try container.resolve((any DgaPort).self) })
        let port = try await container.resolveAsync((any DgaPort).self)

        #expect(sync.code == .asyncResolutionRequired)
        #expect(
            sync.message
                == "DgaPort has an async factory, which a sync resolve cannot run. Fix: resolve it with try await"
                + " resolveAsync(DgaPort.self), from the container or scope you resolve from (r.resolveAsync in"
                + " an async factory); a sync factory that needs it must become async too."
        )
        #expect(port.label == "adapter")
        #expect(!container.canResolve((any DgaPort).self))
        #expect(container.canResolveAsync((any DgaPort).self))
    }

    @Test func singletonAndScopedAsyncOriginalsAreOneInstanceThroughBothTypes() async throws {
        let container = Container()
        let made = DgaCounter()
        container.register(DgaAdapter.self, scope: .singleton) { _ async in
            DgaAdapter(label: "single \(made.next())")
        }
        .implements((any DgaPort).self)
        container.register(DgaSub.self, scope: .scoped) { _ async in DgaSub() }.implements(DgaBase.self)

        let viaPort = try await container.resolveAsync((any DgaPort).self)
        let direct = try await container.resolveAsync(DgaAdapter.self)
        let scope = container.makeScope()
        let other = container.makeScope()
        let scopedBase = try await scope.resolveAsync(DgaBase.self)
        let scopedSub = try await scope.resolveAsync(DgaSub.self)
        let otherBase = try await other.resolveAsync(DgaBase.self)

        #expect(viaPort === direct)
        #expect(made.count == 1)
        #expect(scopedBase === scopedSub)
        #expect(otherBase !== scopedSub)
        try await scope.closeAsync()
        try await other.closeAsync()
    }

    @Test func asyncValidationChecksTheAsyncForwardingAndSyncValidationDoesNotReportIt() async throws {
        let container = Container()
        container.register(DgaAdapter.self) { _ async in DgaAdapter() }.implements((any DgaPort).self)
        container.register(DgaStore.self) { r async throws in
            _ = try await r.resolveAsync((any DgaPort).self)
            return DgaStore(id: 1)
        }

        let asyncReport = try await container.validateAsync()
        let syncResult = injectionError { try container.validate() }

        #expect(asyncReport.checked.count >= 3)
        #expect(syncResult == nil)
    }

    @Test func asyncValidationReportsAnAsyncForwardingWhoseInstanceDoesNotConform() async throws {
        let container = Container()
        container.register(DgaStore.self) { _ async in DgaStore(id: 1) }.implements((any DgaPort).self)

        let error = try #require(await injectionErrorAsync { try await container.validateAsync() })

        #expect(error.problems.map(\.code) == [.invalidForwarding])
    }

    /// `implements` decides at the call whether the forwarding is async, from the registration as it
    /// is then: a later `replacesExisting:` registration that is async leaves a sync forwarding, whose
    /// sync resolve of the original fails even in an async resolve.
    @Test func aForwardingOfASyncOriginalReplacedByAnAsyncOneResolvesAsync() async throws {
        let container = Container()
        container.register(DgaAdapter.self) { _ in DgaAdapter(label: "sync") }.implements((any DgaPort).self)
        container.register(DgaAdapter.self, replacesExisting: true) { _ async in DgaAdapter(label: "async") }

        let result = await injectionErrorAsync { try await container.resolveAsync((any DgaPort).self) }

        #expect(result == nil, "resolveAsync of the forwarded type failed: \(result?.message ?? "")")
        #expect(container.canResolveAsync((any DgaPort).self) == (result == nil))
    }

    /// The same, with the original overridden by an async registration for the call.
    @Test func aForwardingOfASyncOriginalOverriddenByAnAsyncOneResolvesAsync() async throws {
        let container = Container()
        container.register(DgaAdapter.self) { _ in DgaAdapter(label: "sync") }.implements((any DgaPort).self)

        let result = try await container.withOverridesAsync {
            $0.register(DgaAdapter.self) { _ async in DgaAdapter(label: "override") }
        } operation: {
            let error = await injectionErrorAsync { try await container.resolveAsync((any DgaPort).self).label }
            #expect(container.canResolveAsync((any DgaPort).self) == (error == nil))
            return error
        }

        #expect(result == nil, "resolveAsync of the forwarded type failed: \(result?.message ?? "")")
    }

    /// The same, with a child's async registration of the original shadowing the parent's.
    @Test func aForwardingOfASyncOriginalShadowedByAChildsAsyncOneResolvesAsyncFromTheChild() async throws {
        let container = Container()
        container.register(DgaAdapter.self) { _ in DgaAdapter(label: "sync") }.implements((any DgaPort).self)
        let child = container.makeChild()
        child.register(DgaAdapter.self) { _ async in DgaAdapter(label: "child") }

        let result = await injectionErrorAsync { try await child.resolveAsync((any DgaPort).self).label }

        #expect(result == nil, "resolveAsync of the forwarded type failed: \(result?.message ?? "")")
        #expect(child.canResolveAsync((any DgaPort).self) == (result == nil))
    }

    /// And the other way: an async original replaced by a sync one leaves an async forwarding, which
    /// a sync resolve refuses though nothing async is left.
    @Test func aForwardingOfAnAsyncOriginalReplacedByASyncOneResolvesSync() throws {
        let container = Container()
        container.register(DgaAdapter.self) { _ async in DgaAdapter(label: "async") }.implements((any DgaPort).self)
        container.register(DgaAdapter.self, replacesExisting: true) { _ in DgaAdapter(label: "sync") }

        let result = injectionError { try container.resolve((any DgaPort).self) }

        #expect(result == nil, "resolve of the forwarded type failed: \(result?.message ?? "")")
        #expect(container.canResolve((any DgaPort).self) == (result == nil))
    }

    @Test func anAsyncForwardingOfARegistrationWithArgumentsIsRefusedAsInvalidForwardingByAnAsyncResolve()
        async throws
    {
        let container = Container()
        container.register(DgaAdapter.self, arguments: Int.self, String.self) { (_: Int, text: String) async in
            DgaAdapter(label: text)
        }
        .implements((any DgaPort).self)

        let async = try #require(await injectionErrorAsync { try await container.resolveAsync((any DgaPort).self) })

        #expect(async.code == .invalidForwarding)
        #expect(!container.canResolveAsync((any DgaPort).self))
    }
}

private struct DgaRefusal: Error {}

private struct DgaEditor: Sendable {
    let title: String
    let readOnly: Bool
    let store: DgaStore

    init(title: String, readOnly: Bool, store: DgaStore) {
        self.title = title
        self.readOnly = readOnly
        self.store = store
    }
}
