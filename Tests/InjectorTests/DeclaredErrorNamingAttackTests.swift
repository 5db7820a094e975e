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

// Adversarial tests of the naming of a declared registration's parameter in an error
// (`InjectionError.declared(parameter:of:at:asking:)`, c3abdb9): which parameter is named, when a
// message is not about the parameter though it begins with its type's name, and whether validation
// reports what a resolve reports, once.

private final class DenMissing: Sendable {}
private final class DenStore: Sendable {}
private final class DenTwin: Sendable { init(first: DenMissing, second: DenMissing) {} }
private final class DenTwinStores: Sendable { init(first: DenStore, second: DenStore) {} }
private final class DenHooked: Sendable { init(store: DenStore) {} }
private final class DenOuter: Sendable { init(mid: DenMid) {} }
private final class DenMid: Sendable { init(store: DenStore, missing: DenMissing) {} }
private final class DenThrowing: Sendable {}
private final class DenOnThrowing: Sendable { init(throwing: DenThrowing) {} }
private struct DenBoom: Error, CustomStringConvertible { var description: String { "boom" } }
private struct DenBox<Value>: Sendable {}
private final class DenOnBox: Sendable { init(box: DenBox<Int>) {} }
private struct DenValue: Sendable {}
private final class DenOnValue: Sendable { init(value: DenValue) {} }
private struct DenRequest: Sendable { let id: Int }
private final class DenAudit: Sendable { init(request: DenRequest) {} }
private struct DenNote: Sendable {}
private final class DenEcho: Sendable { init(note: DenNote, again: DenNote) {} }
private final class DenCycleEntry: Sendable { init(a: DenCycleA) {} }
private final class DenCycleA: Sendable { init(b: DenCycleB) {} }
private final class DenCycleB: Sendable { init(a: DenCycleA) {} }
private final class DenDoubleOptional: Sendable {
    let store: DenStore??
    init(store: DenStore??) { self.store = store }
}
private final class DenNamed: Sendable { init(store: DenStore) {} }
private final class DenOptionalLazy: Sendable { init(store: Lazy<DenStore>?) {} }
private protocol DenShape: Sendable {}
private struct DenSquare: DenShape {}
private final class DenOnShapes: Sendable { init(round: any DenShape, square: any DenShape) {} }

/// A type whose name is the first word of the cycle message.
private final class Circular: Sendable { init(next: Circular) {} }
/// A type whose name is the first word of the captive-dependency message.
private final class Captive: Sendable {}
private final class DenHolder: Sendable { init(captive: Captive) {} }
/// A type whose name is the first word of the late-amendment message.
private final class An: Sendable {}
private final class DenOnAn: Sendable { init(an: An) {} }

extension ScopeTag {
    fileprivate static let denRequest: ScopeTag = "denRequest"
}

private let denFile = "InjectorTests/DeclaredErrorNamingAttackTests.swift"

/// The message of a duplicate registered at `first` and `second`, after the key and what follows it.
private func registeredTwice(_ first: Int, _ second: Int) -> String {
    " registered 2 times: at \(denFile):\(first), then at \(denFile):\(second). Fix: remove all but one; give"
        + " them different names if each is needed (resolveAll collects them); or pass replacesExisting: true"
        + " to the one meant to replace the others, as a test does when it swaps in a double."
}

/// The fix of a missing `type` for which nothing is registered.
private func nothingRegistered(_ type: String) -> String {
    " Nothing is registered for \(type) under any name or arguments. Fix: register it, e.g."
        + " container.register(\(type).self) { r in … }, in this container or one of its parents."
}

private let cycleFix =
    " of these asks for the next in its factory, so none of them can be built first. Fix: break the cycle"
    + " with property injection: let one of them receive the other after construction, in an onResolved hook,"
    + " and give the one resolved back the .graph or .singleton scope so that the hook receives the same"
    + " instance."

@Suite struct DeclaredErrorNamingAttackTests {
    // MARK: - Which parameter is named

    @Test func twoMissingParametersOfOneTypeNameTheFirstInAResolveAndOnceInValidation() throws {
        let container = Container()
        let line = #line + 1
        container.register(DenTwin.self, DenTwin.init)

        let error = try #require(injectionError { try container.resolve(DenTwin.self) })
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "No registration for DenMissing, the 1st parameter of DenTwin (declared at \(denFile):\(line)), needed"
            + " by DenTwin -> DenMissing (missing)." + nothingRegistered("DenMissing")
        #expect(error.code == .missingRegistration)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func twoDuplicatedParametersOfOneTypeNameTheFirstAndValidationReportsTheRegistryOnce() throws {
        let container = Container()
        let first = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let second = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let line = #line + 1
        container.register(DenTwinStores.self, DenTwinStores.init)

        let error = try #require(injectionError { try container.resolve(DenTwinStores.self) })
        let validation = try #require(injectionError { try container.validate() })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "DenStore, the 1st parameter of DenTwinStores (declared at \(denFile):\(line)), is"
                + registeredTwice(first, second)
        )
        #expect(validation.problems.map(\.code) == [.duplicateRegistration])
        #expect(validation.problems.map(\.message) == ["DenStore is" + registeredTwice(first, second)])
    }

    @Test func aMissingParameterOfAParameterIsNamedAtTheInnerRegistrationWithTheWholePath() throws {
        let container = Container()
        container.register(DenStore.self) { _ in DenStore() }
        container.register(DenOuter.self, DenOuter.init)
        let line = #line + 1
        container.register(DenMid.self, DenMid.init)

        let error = try #require(injectionError { try container.resolve(DenOuter.self) })
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "No registration for DenMissing, the 2nd parameter of DenMid (declared at \(denFile):\(line)), needed"
            + " by DenOuter -> DenMid -> DenMissing (missing)." + nothingRegistered("DenMissing")
        #expect(error.code == .missingRegistration)
        #expect(error.resolutionPath.map(\.description) == ["DenOuter", "DenMid", "DenMissing"])
        #expect(error.message == expected)
        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func aDuplicatedParameterOfAParameterIsNamedAtTheInnerRegistrationOnly() throws {
        let container = Container()
        let first = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let second = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        container.register(DenMissing.self) { _ in DenMissing() }
        container.register(DenOuter.self, DenOuter.init)
        let line = #line + 1
        container.register(DenMid.self, DenMid.init)

        let error = try #require(injectionError { try container.resolve(DenOuter.self) })

        #expect(error.code == .duplicateRegistration)
        #expect(error.resolutionPath.map(\.description) == ["DenOuter", "DenMid", "DenStore"])
        #expect(
            error.message
                == "DenStore, the 1st parameter of DenMid (declared at \(denFile):\(line)), is"
                + registeredTwice(first, second)
        )
    }

    @Test func aParameterOfTheSameTypeAsTheArgumentIsResolvedAndNamedAfterIt() throws {
        let container = Container()
        let line = #line + 1
        container.register(DenEcho.self, argument: DenNote.self, DenEcho.init)

        let error = try #require(injectionError { try container.resolve(DenEcho.self, argument: DenNote()) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for DenNote, the 2nd parameter of DenEcho (argument: DenNote) (declared at"
                + " \(denFile):\(line)), needed by DenEcho (argument: DenNote) -> DenNote (missing)."
                + nothingRegistered("DenNote")
        )
    }

    @Test func aGenericParameterIsNamedWithItsGenericArguments() throws {
        let container = Container()
        container.register(DenBox<String>.self) { _ in DenBox() }
        let line = #line + 1
        container.register(DenOnBox.self, DenOnBox.init)

        let error = try #require(injectionError { try container.resolve(DenOnBox.self) })
        let all = try #require(injectionError { try container.resolveAll(DenOnBox.self) })
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "No registration for DenBox<Int>, the 1st parameter of DenOnBox (declared at \(denFile):\(line)), needed"
            + " by DenOnBox -> DenBox<Int> (missing)." + nothingRegistered("DenBox<Int>")
        #expect(error.code == .missingRegistration)
        #expect(error.message == expected)
        #expect(all.code == .missingRegistration)
        #expect(all.message == expected)
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func aNameWithQuotesAndCommasIsNamedAsWritten() throws {
        let container = Container()
        let line = #line + 1
        container.register(DenNamed.self, using: Resolved(DenStore.self, name: "a \"b\", c"), make: DenNamed.init)

        let error = try #require(injectionError { try container.resolve(DenNamed.self) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for DenStore (name: \"a \"b\", c\"), the 1st parameter of DenNamed (declared at"
                + " \(denFile):\(line)), needed by DenNamed -> DenStore (name: \"a \"b\", c\") (missing). Nothing is"
                + " registered for DenStore under any name or arguments. Fix: register it, e.g."
                + " container.register(DenStore.self, name: \"a \"b\", c\") { r in … }, in this container or one of"
                + " its parents."
        )
    }

    /// A double optional parameter is an optional dependency too: `nil` when nothing is registered
    /// for the type inside both, for a resolve as for validation.
    @Test func aMissingServiceInsideADoubleOptionalIsNil() throws {
        let container = Container()
        container.register(DenDoubleOptional.self, DenDoubleOptional.init)

        #expect(try container.resolve(DenDoubleOptional.self).store == nil)
        #expect(try container.validate().checkedFromDeclarations.map(\.description) == ["DenDoubleOptional"])
    }

    /// A resolve makes the `Lazy` without its service, as for a `Lazy` parameter; validation names
    /// the service the `Lazy` resolves, not `Lazy<DenStore>`, which nothing could register.
    @Test func anOptionalLazyOfAMissingServiceIsNamedAsTheLazysServiceByValidation() throws {
        let container = Container()
        let line = #line + 1
        container.register(DenOptionalLazy.self, DenOptionalLazy.init)

        _ = try container.resolve(DenOptionalLazy.self)
        let validation = try #require(injectionError { try container.validate() })

        #expect(validation.problems.map(\.code) == [.missingRegistration])
        #expect(
            validation.problems.map(\.message) == [
                "No registration for DenStore, the 1st parameter of DenOptionalLazy (declared at \(denFile):\(line)),"
                    + " needed by DenOptionalLazy -> DenStore (missing)." + nothingRegistered("DenStore")
            ]
        )
    }

    @Test func theSecondOfTwoNamedExistentialParametersIsNamedWhenItsNameIsMissing() throws {
        let container = Container()
        container.register((any DenShape).self, name: "round") { _ in DenSquare() }
        let line = #line + 1
        container.register(
            DenOnShapes.self,
            using: Resolved((any DenShape).self, name: "round"),
            Resolved((any DenShape).self, name: "square"),
            make: DenOnShapes.init
        )

        let error = try #require(injectionError { try container.resolve(DenOnShapes.self) })
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "No registration for DenShape (name: \"square\"), the 2nd parameter of DenOnShapes (declared at"
            + " \(denFile):\(line)), needed by DenOnShapes -> DenShape (name: \"square\") (missing). Registered"
            + " nearby: DenShape (name: \"round\"). Fix: name the one to use in the registration's using:, e.g."
            + " Resolved(DenShape.self, name: \"round\"), or register DenShape (name: \"square\")."
        #expect(error.code == .missingRegistration)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.message) == [expected])
    }

    @Test func resolveAllOfADeclaredRegistrationNamesItsDuplicatedParameter() throws {
        let container = Container()
        let first = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let second = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let line = #line + 1
        container.register(DenTwinStores.self, name: "all", DenTwinStores.init)

        let error = try #require(injectionError { try container.resolveAll(DenTwinStores.self) })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "DenStore, the 1st parameter of DenTwinStores (name: \"all\") (declared at \(denFile):\(line)), is"
                + registeredTwice(first, second)
        )
    }

    // MARK: - Errors about the parameter itself

    @Test func aWeakParameterThatIsNotAnObjectIsNamed() throws {
        let container = Container()
        container.register(DenValue.self, scope: .weak) { _ in DenValue() }
        let line = #line + 1
        container.register(DenOnValue.self, DenOnValue.init)

        let error = try #require(injectionError { try container.resolve(DenOnValue.self) })

        #expect(error.code == .weakScopeNeedsObject)
        #expect(
            error.message
                == "DenValue, the 1st parameter of DenOnValue (declared at \(denFile):\(line)), has the weak scope,"
                + " but its factory made a value of type DenValue, which is not a class instance: nothing can hold it weakly. Fix:"
                + " return a class instance, or register it as .singleton or .transient."
        )
    }

    @Test func aScopeValueParameterTheScopeWasNotGivenIsNamedBesideTheValuesOwnDeclaration() throws {
        let container = Container()
        let valueLine = #line + 1
        container.register(DenRequest.self, providedByScope: .denRequest)
        let line = #line + 1
        container.register(DenAudit.self, DenAudit.init)
        let scope = container.makeScope(tag: .denRequest)
        defer { try? scope.close() }

        let error = try #require(injectionError { try scope.resolve(DenAudit.self) })

        #expect(error.code == .scopeValueMissing)
        #expect(
            error.message
                == "DenRequest, the 1st parameter of DenAudit (declared at \(denFile):\(line)), is a value provided"
                + " by lifetime scopes (declared at \(denFile):\(valueLine)), but the scope \"denRequest\" was not"
                + " given one. Path: DenAudit -> DenRequest. Fix: give it when making the scope:"
                + " container.makeScope(tag: \"denRequest\") { $0.provide(DenRequest.self, …) }."
        )
    }

    @Test func anAsyncResolveNamesADuplicatedParameterAsASyncOneDoes() async throws {
        let container = Container()
        let first = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let second = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let line = #line + 1
        container.register(DenTwinStores.self, DenTwinStores.init)

        let sync = try #require(injectionError { try container.resolve(DenTwinStores.self) })
        let async = try #require(await injectionErrorAsync { try await container.resolveAsync(DenTwinStores.self) })

        let expected =
            "DenStore, the 1st parameter of DenTwinStores (declared at \(denFile):\(line)), is"
            + registeredTwice(first, second)
        #expect(sync.code == .duplicateRegistration)
        #expect(sync.message == expected)
        #expect(async.code == .duplicateRegistration)
        #expect(async.message == expected)
    }

    @Test func anAsyncOverrideOfAParameterIsNamedInASyncResolve() throws {
        let container = Container()
        container.register(DenStore.self) { _ in DenStore() }
        let line = #line + 1
        container.register(DenTwinStores.self, DenTwinStores.init)

        let error = try #require(
            injectionError {
                try container.withOverrides {
                    $0.register(DenStore.self) { _ async in DenStore() }
                } operation: {
                    try container.resolve(DenTwinStores.self)
                }
            }
        )

        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message
                == "DenStore, the 1st parameter of DenTwinStores (declared at \(denFile):\(line)), has an async"
                + " factory, and the function registered for DenTwinStores is sync, so it cannot be given one, however"
                + " DenTwinStores is resolved. Path: DenTwinStores -> DenStore. Fix: register an async function for"
                + " it, e.g. container.register(DenTwinStores.self) { (…) async in … }, and resolve it with try await"
                + " resolveAsync; or give DenStore a sync factory."
        )
    }

    @Test func aParentsDeclaredRegistrationResolvedFromAChildNamesTheChildsDuplicateAtTheParentsSite() throws {
        let parent = Container()
        let line = #line + 1
        parent.register(DenTwinStores.self, DenTwinStores.init)
        let child = parent.makeChild()
        let first = #line + 1
        child.register(DenStore.self) { _ in DenStore() }
        let second = #line + 1
        child.register(DenStore.self) { _ in DenStore() }

        let error = try #require(injectionError { try child.resolve(DenTwinStores.self) })
        let validation = try #require(injectionError { try child.validate() })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "DenStore, the 1st parameter of DenTwinStores (declared at \(denFile):\(line)), is"
                + registeredTwice(first, second)
        )
        #expect(validation.problems.map(\.message) == ["DenStore is" + registeredTwice(first, second)])
    }

    @Test func anAsyncFunctionsScopedParameterResolvedFromTheContainerIsNamedByAnAsyncResolve() async throws {
        let container = Container()
        container.register(DenStore.self, scope: .scoped) { _ in DenStore() }
        let line = #line + 1
        container.register(DenHooked.self) { (store: DenStore) async in DenHooked(store: store) }

        let error = try #require(await injectionErrorAsync { try await container.resolveAsync(DenHooked.self) })

        #expect(error.code == .scopeMismatch)
        #expect(
            error.message
                == "DenStore, the 1st parameter of DenHooked (declared at \(denFile):\(line)), is .scoped, but was"
                + " resolved from a container, outside any lifetime scope, so nothing would own its instance. Path:"
                + " DenHooked -> DenStore. Fix: resolve from a lifetime scope: let scope = container.makeScope();"
                + " try scope.resolve(…)."
        )
    }

    // MARK: - Errors not about the parameter itself

    @Test func aFactoryFailureOfAParameterIsNotNamedAsTheParameter() throws {
        let container = Container()
        container.register(DenThrowing.self) { _ throws -> DenThrowing in throw DenBoom() }
        container.register(DenOnThrowing.self, DenOnThrowing.init)

        let error = try #require(injectionError { try container.resolve(DenOnThrowing.self) })

        #expect(error.code == .factoryFailed)
        #expect(
            error.message
                == "The factory of DenThrowing threw: boom. Path: DenOnThrowing -> DenThrowing. The error is the"
                + " underlyingError; fix the factory or what it depends on."
        )
    }

    @Test func aCycleThroughDeclaredParametersIsTheSameForAResolveAndValidation() throws {
        let container = Container()
        container.register(DenCycleEntry.self, DenCycleEntry.init)
        container.register(DenCycleA.self, DenCycleA.init)
        container.register(DenCycleB.self, DenCycleB.init)

        let error = try #require(injectionError { try container.resolve(DenCycleEntry.self) })
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "Circular dependency: DenCycleEntry -> DenCycleA -> DenCycleB -> DenCycleA. The loop is DenCycleA ->"
            + " DenCycleB -> DenCycleA: each" + cycleFix
        #expect(error.code == .circularDependency)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.code) == [.circularDependency])
        #expect(validation.problems.map(\.message) == [expected])
    }

    /// The cycle's path ends at the parameter's key and its message begins with "Circular ": the
    /// parameter must not be spliced in as the subject of "dependency: Circular -> Circular".
    @Test func aSelfDependencyOfATypeNamedCircularIsACycleAndNotItsParameter() throws {
        let container = Container()
        container.register(Circular.self, Circular.init)

        let error = try #require(injectionError { try container.resolve(Circular.self) })
        let validation = try #require(injectionError { try container.validate() })

        let expected = "Circular dependency: Circular -> Circular. Each" + cycleFix
        #expect(error.code == .circularDependency)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.code) == [.circularDependency])
        #expect(validation.problems.map(\.message) == [expected])
    }

    /// As for `Circular`: "Captive dependency: …" is not a sentence about the parameter `Captive`.
    @Test func aCaptiveParameterOfATypeNamedCaptiveIsNotRewrittenAsItsSubject() throws {
        let container = Container()
        container.register(Captive.self, scope: .scoped) { _ in Captive() }
        container.register(DenHolder.self, scope: .singleton, DenHolder.init)
        let scope = container.makeScope()
        defer { try? scope.close() }

        let error = try #require(injectionError { try scope.resolve(DenHolder.self) })
        let validation = try #require(injectionError { try container.validate() })

        let expected =
            "Captive dependency: DenHolder (.singleton) depends on Captive (.scoped), which would then outlive its"
            + " lifetime scope. Path: DenHolder -> Captive. Fix: give DenHolder a scope no longer than Captive's"
            + " (.scoped or .transient), give Captive a longer one, or pass Captive to the methods of DenHolder that use it rather than hold it."
        #expect(error.code == .captiveDependency)
        #expect(error.message == expected)
        #expect(validation.problems.map(\.code) == [.captiveDependency])
        #expect(validation.problems.map(\.message) == [expected])
    }

    /// A late amendment's message begins with "An onResolved hook", not with the key as its subject;
    /// for a key spelled `An`, it must not become "An, the 1st parameter of …, onResolved hook …".
    @Test func aLateAmendmentOfAParameterOfATypeNamedAnIsNotRewrittenAsItsSubject() throws {
        let container = Container()
        let registered = #line + 1
        let registration = container.register(An.self) { _ in An() }
        container.register(DenOnAn.self, DenOnAn.init)
        try container.finishRegistration()
        let amended = #line + 1
        registration.onResolved { _, _ in }

        let error = try #require(injectionError { try container.resolve(DenOnAn.self) })

        #expect(error.code == .registrationAfterFinish)
        #expect(
            error.message
                == "An onResolved hook or verify check was added to An at \(denFile):\(amended) after"
                + " finishRegistration(); it is registered at \(denFile):\(registered). Fix: make it before"
                + " finishRegistration(), or in a child container (container.makeChild())."
        )
    }

    // MARK: - Validation reports a conflict once

    /// A declared registration with a hook is run in validation's sandbox, whose resolve names the
    /// parameter: the registry's duplicate must still be one problem, not two differing by the naming.
    @Test func aDuplicatedParameterOfADeclaredRegistrationWithAHookIsReportedOnceByValidation() throws {
        let container = Container()
        let first = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let second = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        container.register(DenHooked.self, DenHooked.init).onResolved { _, _ in }

        let validation = try #require(injectionError { try container.validate() })

        #expect(validation.code == .validationFailed)
        #expect(validation.problems.map(\.code) == [.duplicateRegistration])
        #expect(validation.problems.map(\.message) == ["DenStore is" + registeredTwice(first, second)])
    }

    @Test func aDuplicatedParameterOfADeclaredRegistrationAClosureResolvesIsReportedOnceByValidation() throws {
        let container = Container()
        let first = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        let second = #line + 1
        container.register(DenStore.self) { _ in DenStore() }
        container.register(DenTwinStores.self, DenTwinStores.init)
        container.register(DenOuter.self) { r in
            _ = try r.resolve(DenTwinStores.self)
            return DenOuter(mid: DenMid(store: DenStore(), missing: DenMissing()))
        }

        let validation = try #require(injectionError { try container.validate() })

        #expect(validation.problems.map(\.code) == [.duplicateRegistration])
        #expect(validation.problems.map(\.message) == ["DenStore is" + registeredTwice(first, second)])
    }

    /// A child's duplicate shadows its parent's in the child's registry, but the parent's declared
    /// singleton is built with the parent's: two problems, each with its own sites.
    @Test func aParentsDuplicateReachedByItsDeclaredSingletonIsReportedBesideTheChildsShadowingDuplicate() throws {
        let parent = Container()
        let parentFirst = #line + 1
        parent.register(DenStore.self) { _ in DenStore() }
        let parentSecond = #line + 1
        parent.register(DenStore.self) { _ in DenStore() }
        parent.register(DenHooked.self, scope: .singleton, DenHooked.init)
        let child = parent.makeChild()
        let childFirst = #line + 1
        child.register(DenStore.self) { _ in DenStore() }
        let childSecond = #line + 1
        child.register(DenStore.self) { _ in DenStore() }

        let validation = try #require(injectionError { try child.validate() })

        #expect(validation.problems.map(\.code) == [.duplicateRegistration, .duplicateRegistration])
        #expect(
            validation.problems.map(\.message) == [
                "DenStore is" + registeredTwice(childFirst, childSecond),
                "DenStore is" + registeredTwice(parentFirst, parentSecond),
            ]
        )
    }

    /// A resolve of `DenStore??` unwraps both layers; the declaration check must too, rather than
    /// report `Optional<DenStore>` missing for a function that resolves.
    @Test func aDoubleOptionalParameterOfARegisteredServiceValidatesAsItResolves() throws {
        let container = Container()
        container.register(DenStore.self) { _ in DenStore() }
        container.register(DenDoubleOptional.self, DenDoubleOptional.init)

        _ = try container.resolve(DenDoubleOptional.self)
        #expect(injectionError { try container.validate() } == nil)
    }
}
