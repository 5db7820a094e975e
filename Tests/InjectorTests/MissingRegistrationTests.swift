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

// Missing registrations (top level and nested), factory errors, propagation of InjectionError,
// resolvers that outlive their resolution, and how errors and keys describe themselves.

private protocol MissClock { var now: Int { get } }
private struct MissFixedClock: MissClock { let now: Int }
private protocol MissStore { var clock: MissClock { get } }
private struct MissClockStore: MissStore { let clock: MissClock }
private protocol MissEditor { var store: MissStore { get } }
private struct MissStoreEditor: MissEditor { let store: MissStore }
private struct MissNote { let title: String }
private protocol MissExporter: Sendable {}
private struct MissPDFExporter: MissExporter {}
private protocol MissUnrelated {}
private struct MissUnrelatedImpl: MissUnrelated {}

private enum MissDiskError: Error, Equatable {
    case full(bytesNeeded: Int)
}

/// Whether `type` is exactly `expected` (by identity).
private func missSameType(_ type: Any.Type?, _ expected: Any.Type) -> Bool {
    type.map { ObjectIdentifier($0) == ObjectIdentifier(expected) } ?? false
}

/// Registers MissEditor -> MissStore -> MissClock, without the clock.
private func missRegisterEditorAndStore(into container: Container) {
    container.register(MissEditor.self) { r in try MissStoreEditor(store: r.resolve(MissStore.self)) }
    container.register(MissStore.self) { r in try MissClockStore(clock: r.resolve(MissClock.self)) }
}

struct MissingRegistrationTests {
    // MARK: Missing at the top level

    @Test func missingAtTheTopLevelSaysNothingIsRegisteredAndHowToRegisterIt() throws {
        let container = Container()
        container.register(MissUnrelated.self) { _ in MissUnrelatedImpl() }

        let error = try #require(injectionError { _ = try container.resolve(MissClock.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.hasPrefix("No registration for MissClock."))
        #expect(!error.message.contains("needed by"))
        #expect(error.message.contains("container.register(MissClock.self)"))
        #expect(error.resolutionPath.map(\.description) == ["MissClock"])
        #expect(error.nearMisses.isEmpty)  // another type is not a near miss
        #expect(error.underlyingError == nil)
        #expect(error.problems.isEmpty)
    }

    @Test func missingNamedKeyFixHintKeepsTheName() throws {
        let container = Container()

        let error = try #require(injectionError { _ = try container.resolve(MissClock.self, name: "utc") })
        #expect(error.code == .missingRegistration)
        #expect(error.message.hasPrefix("No registration for MissClock (name: \"utc\")."))
        #expect(error.message.contains("container.register(MissClock.self"))
        #expect(error.message.contains("name: \"utc\""))
        #expect(error.resolutionPath.map(\.description) == ["MissClock (name: \"utc\")"])
    }

    @Test func missingKeyWithArgumentsIsDescribedWithItsArgumentTypes() throws {
        let container = Container()

        let error = try #require(
            injectionError { _ = try container.resolve(MissEditor.self, arguments: MissNote(title: "n"), 3) }
        )
        #expect(error.code == .missingRegistration)
        #expect(error.message.hasPrefix("No registration for MissEditor (arguments: MissNote, Int)."))
        #expect(error.message.contains("container.register(MissEditor.self)"))
        let key = try #require(error.resolutionPath.last)
        #expect(key.argumentTypes.count == 2)
        #expect(missSameType(key.argumentTypes.first, MissNote.self))
        #expect(missSameType(key.argumentTypes.last, Int.self))
    }

    @Test func missingInAnEmptyContainerFromAChildSuggestsRegisteringIt() throws {
        let child = Container().makeChild()

        let error = try #require(injectionError { _ = try child.resolve(MissClock.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("container.register(MissClock.self)"))
    }

    @Test func missingKeyFixHintIsAValidRegisterCallWithAClosure() throws {
        let container = Container()

        let error = try #require(injectionError { _ = try container.resolve(MissClock.self) })
        #expect(error.code == .missingRegistration)
        #expect(
            error.message.contains(
                "Fix: register it, e.g. container.register(MissClock.self) { r in … }, in this container or one of its parents."
            )
        )
    }

    @Test func missingNamedKeyFixHintPassesTheNameInsideTheRegisterCall() throws {
        let container = Container()

        let error = try #require(injectionError { _ = try container.resolve(MissClock.self, name: "wall") })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("container.register(MissClock.self, name: \"wall\") { r in … }"))
        // Not the old hint, which closed the call before the name.
        #expect(!error.message.contains("container.register(MissClock.self) name:"))
        #expect(!error.message.contains("container.register(MissClock.self),"))
    }

    @Test func missingKeyWithArgumentsFixHintDeclaresEachArgumentInTheClosure() throws {
        let container = Container()

        let one = try #require(
            injectionError { _ = try container.resolve(MissEditor.self, argument: MissNote(title: "n")) }
        )
        #expect(one.code == .missingRegistration)
        #expect(one.message.hasPrefix("No registration for MissEditor (argument: MissNote)."))
        #expect(one.message.contains("container.register(MissEditor.self) { (r, a0: MissNote) in … }"))

        let two = try #require(
            injectionError {
                _ = try container.resolve(MissEditor.self, name: "draft", arguments: MissNote(title: "n"), 3)
            }
        )
        #expect(two.code == .missingRegistration)
        #expect(
            two.message.contains(
                "container.register(MissEditor.self, name: \"draft\") { (r, a0: MissNote, a1: Int) in … }"
            )
        )
    }

    // MARK: Missing in a nested resolve

    @Test func missingNestedDependencyShowsThePathEndingAtTheMissingKey() throws {
        let container = Container()
        missRegisterEditorAndStore(into: container)

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .missingRegistration)
        #expect(
            error.message.hasPrefix(
                "No registration for MissClock, needed by MissEditor -> MissStore -> MissClock (missing)."
            )
        )
        #expect(error.message.contains("container.register(MissClock.self)"))
        #expect(error.resolutionPath.map(\.description) == ["MissEditor", "MissStore", "MissClock"])
        #expect(missSameType(error.resolutionPath.last?.serviceType, MissClock.self))
        #expect(error.nearMisses.isEmpty)
    }

    @Test func missingDependencyOfAServiceResolvedFromTheMiddleHasAShorterPath() throws {
        let container = Container()
        missRegisterEditorAndStore(into: container)

        let error = try #require(injectionError { _ = try container.resolve(MissStore.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("needed by MissStore -> MissClock (missing)."))
        #expect(error.resolutionPath.map(\.description) == ["MissStore", "MissClock"])
    }

    @Test func missingNestedNamedDependencyWithArgumentsIsNamedInThePath() throws {
        let container = Container()
        container.register(MissStore.self) { r in
            try MissClockStore(clock: r.resolve(MissClock.self, name: "utc", argument: 5))
        }

        let error = try #require(injectionError { _ = try container.resolve(MissStore.self) })
        #expect(error.code == .missingRegistration)
        #expect(
            error.message.contains(
                "needed by MissStore -> MissClock (name: \"utc\", argument: Int) (missing)."
            )
        )
        #expect(error.resolutionPath.map(\.description) == ["MissStore", "MissClock (name: \"utc\", argument: Int)"])
    }

    @Test func missingFromAHookNamesTheKey() throws {
        let container = Container()
        container.register(MissExporter.self) { _ in MissPDFExporter() }
            .onResolved { r, _ in _ = try r.resolve(MissClock.self) }

        let error = try #require(injectionError { _ = try container.resolve(MissExporter.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("No registration for MissClock"))
        #expect(error.resolutionPath.last?.description == "MissClock")
    }

    @Test func injectionErrorRaisedInAnOnResolvedHookSaysWhichHookAndStartsThePathAtItsService() throws {
        let container = Container()
        container.register(MissStore.self) { _ in MissClockStore(clock: MissFixedClock(now: 0)) }
            .onResolved { r, _ in _ = try r.resolve(MissClock.self, name: "wall") }
        container.register(MissEditor.self) { r in try MissStoreEditor(store: r.resolve(MissStore.self)) }

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .missingRegistration, "the kind is kept, not wrapped as .preparationFailed")
        #expect(
            error.message.hasPrefix(
                "While running an onResolved hook of MissStore: No registration for MissClock (name: \"wall\")."
            )
        )
        #expect(error.message.contains("container.register(MissClock.self, name: \"wall\") { r in … }"))
        #expect(error.resolutionPath.map(\.description) == ["MissStore", "MissClock (name: \"wall\")"])
        #expect(error.underlyingError == nil)
    }

    @Test func injectionErrorRaisedInAnOnResolvedHookKeepsItsNearMisses() throws {
        let container = Container()
        container.register(MissClock.self) { _ in MissFixedClock(now: 1) }
        container.register(MissStore.self) { _ in MissClockStore(clock: MissFixedClock(now: 0)) }
            .onResolved { r, _ in _ = try r.resolve(MissClock.self, name: "wall") }

        let error = try #require(injectionError { _ = try container.resolve(MissStore.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.hasPrefix("While running an onResolved hook of MissStore: No registration for MissClock"))
        #expect(error.message.contains("Registered nearby: MissClock."))
        #expect(error.nearMisses.map(\.description) == ["MissClock"])
        #expect(error.resolutionPath.first?.description == "MissStore")
    }

    // MARK: Near misses

    @Test func nearMissesListTheSameTypeUnderOtherNames() throws {
        let container = Container()
        container.register(MissClock.self, name: "utc") { _ in MissFixedClock(now: 0) }
        container.register(MissClock.self, name: "local") { _ in MissFixedClock(now: 1) }
        container.register(MissExporter.self) { _ in MissPDFExporter() }

        let error = try #require(injectionError { _ = try container.resolve(MissClock.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.hasPrefix("No registration for MissClock."))
        #expect(error.message.contains("Registered nearby: "))
        #expect(error.message.contains("MissClock (name: \"utc\")"))
        #expect(error.message.contains("MissClock (name: \"local\")"))
        #expect(!error.message.contains("MissExporter"))
        #expect(
            Set(error.nearMisses.map(\.description)) == ["MissClock (name: \"utc\")", "MissClock (name: \"local\")"]
        )
        #expect(error.nearMisses.allSatisfy { missSameType($0.serviceType, MissClock.self) })
    }

    @Test func nearMissesListTheUnnamedKeyWhenANameIsAskedFor() throws {
        let container = Container()
        container.register(MissClock.self) { _ in MissFixedClock(now: 0) }

        let error = try #require(injectionError { _ = try container.resolve(MissClock.self, name: "utc") })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("Registered nearby: MissClock"))
        #expect(error.nearMisses.map(\.description) == ["MissClock"])
        #expect(error.nearMisses.first?.name == nil)
    }

    @Test func nearMissesListTheSameTypeWithOtherArgumentTypes() throws {
        let container = Container()
        container.register(MissEditor.self) { (r, _: MissNote) in
            try MissStoreEditor(store: r.resolve(MissStore.self))
        }
        container.register(MissEditor.self) { (r, _: MissNote, _: Int) in
            try MissStoreEditor(store: r.resolve(MissStore.self))
        }

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("Registered nearby: "))
        #expect(error.message.contains("MissEditor (argument: MissNote)"))
        #expect(error.message.contains("MissEditor (arguments: MissNote, Int)"))
        #expect(
            Set(error.nearMisses.map(\.description)) == [
                "MissEditor (argument: MissNote)", "MissEditor (arguments: MissNote, Int)",
            ]
        )

        let wrongArgument = try #require(
            injectionError { _ = try container.resolve(MissEditor.self, argument: "title") }
        )
        #expect(wrongArgument.code == .missingRegistration)
        #expect(wrongArgument.message.hasPrefix("No registration for MissEditor (argument: String)."))
        #expect(wrongArgument.nearMisses.count == 2)
    }

    @Test func nearMissesOfANestedMissingKeyAreListedWithThePath() throws {
        let container = Container()
        missRegisterEditorAndStore(into: container)
        container.register(MissClock.self, name: "utc") { _ in MissFixedClock(now: 0) }

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("needed by MissEditor -> MissStore -> MissClock (missing)."))
        #expect(error.message.contains("Registered nearby: MissClock (name: \"utc\")"))
        #expect(error.nearMisses.map(\.description) == ["MissClock (name: \"utc\")"])
    }

    @Test func nearMissesIncludeTheParentsRegistrations() throws {
        let parent = Container()
        parent.register(MissClock.self, name: "utc") { _ in MissFixedClock(now: 0) }
        let child = parent.makeChild()
        child.register(MissClock.self, name: "local") { _ in MissFixedClock(now: 1) }

        let error = try #require(injectionError { _ = try child.resolve(MissClock.self) })
        #expect(error.code == .missingRegistration)
        #expect(
            Set(error.nearMisses.map(\.description)) == ["MissClock (name: \"utc\")", "MissClock (name: \"local\")"]
        )
    }

    @Test func nearMissesListAKeyShadowedByAChildOnce() throws {
        let parent = Container()
        parent.register(MissClock.self, name: "utc") { _ in MissFixedClock(now: 0) }
        let child = parent.makeChild()
        child.register(MissClock.self, name: "utc") { _ in MissFixedClock(now: 1) }  // shadows the parent's

        let error = try #require(injectionError { _ = try child.resolve(MissClock.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.nearMisses.map(\.description) == ["MissClock (name: \"utc\")"])
        #expect(error.message.components(separatedBy: "MissClock (name: \"utc\")").count == 2)  // named once
    }

    @Test func nearMissesNeverIncludeAChildsRegistrations() throws {
        let parent = Container()
        let child = parent.makeChild()
        child.register(MissClock.self, name: "utc") { _ in MissFixedClock(now: 0) }

        let error = try #require(injectionError { _ = try parent.resolve(MissClock.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.nearMisses.isEmpty)
        #expect(error.message.contains("container.register(MissClock.self)"))
    }

    // MARK: Factory errors

    @Test func factoryErrorIsWrappedAsFactoryFailedWithTheOriginalAsUnderlyingError() throws {
        let container = Container()
        container.register(MissClock.self) { _ in throw MissDiskError.full(bytesNeeded: 42) }

        let error = try #require(injectionError { _ = try container.resolve(MissClock.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.underlyingError as? MissDiskError == .full(bytesNeeded: 42))
        #expect(error.message.contains("MissClock"))
        #expect(error.message.contains("full(bytesNeeded: 42)"))
        #expect(error.resolutionPath.map(\.description) == ["MissClock"])
    }

    @Test func nestedFactoryErrorNamesTheFailingServiceAndThePath() throws {
        let container = Container()
        container.register(MissEditor.self) { r in try MissStoreEditor(store: r.resolve(MissStore.self)) }
        container.register(MissStore.self) { r in try MissClockStore(clock: r.resolve(MissClock.self)) }
        container.register(MissClock.self) { _ in throw MissDiskError.full(bytesNeeded: 7) }

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.underlyingError as? MissDiskError == .full(bytesNeeded: 7))
        #expect(error.message.contains("MissClock"))
        #expect(error.message.contains("MissEditor -> MissStore -> MissClock"))
        #expect(error.resolutionPath.map(\.description) == ["MissEditor", "MissStore", "MissClock"])
        // Wrapped once, at the factory that threw: the underlying error is not an InjectionError.
        #expect(!(error.underlyingError is InjectionError))
    }

    @Test func factoryErrorOfAServiceWithArgumentsNamesItsKey() throws {
        let container = Container()
        container.register(MissEditor.self, name: "draft") { (_, note: MissNote) -> MissEditor in
            throw MissDiskError.full(bytesNeeded: note.title.count)
        }

        let error = try #require(
            injectionError {
                _ = try container.resolve(MissEditor.self, name: "draft", argument: MissNote(title: "abc"))
            }
        )
        #expect(error.code == .factoryFailed)
        #expect(error.underlyingError as? MissDiskError == .full(bytesNeeded: 3))
        #expect(error.message.contains("MissEditor (name: \"draft\", argument: MissNote)"))
    }

    @Test func factoryErrorAfterASuccessfulSiblingKeepsOnlyTheFailingPath() throws {
        let container = Container()
        container.register(MissEditor.self) { r in
            _ = try r.resolve(MissExporter.self)  // succeeds and leaves the path
            return try MissStoreEditor(store: r.resolve(MissStore.self))
        }
        container.register(MissExporter.self) { _ in MissPDFExporter() }
        container.register(MissStore.self) { _ in throw MissDiskError.full(bytesNeeded: 1) }

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.resolutionPath.map(\.description) == ["MissEditor", "MissStore"])
        #expect(error.message.contains("MissEditor -> MissStore"))
        #expect(!error.message.contains("MissExporter"))
    }

    // MARK: InjectionError propagates unchanged

    @Test func injectionErrorFromANestedResolvePropagatesUnchanged() throws {
        let container = Container()
        missRegisterEditorAndStore(into: container)

        let direct = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        // Not wrapped as .factoryFailed by MissStore's or MissEditor's factory.
        #expect(direct.code == .missingRegistration)
        #expect(direct.underlyingError == nil)
        #expect(direct.resolutionPath.map(\.description) == ["MissEditor", "MissStore", "MissClock"])
    }

    @Test func injectionErrorCaughtAndRethrownByAFactoryKeepsTheInnermostPath() throws {
        let container = Container()
        container.register(MissEditor.self) { r in
            do {
                return try MissStoreEditor(store: r.resolve(MissStore.self))
            } catch let error as InjectionError {
                throw error  // rethrown as is
            }
        }
        container.register(MissStore.self) { r in try MissClockStore(clock: r.resolve(MissClock.self)) }

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.resolutionPath.map(\.description) == ["MissEditor", "MissStore", "MissClock"])
        #expect(error.message.contains("MissEditor -> MissStore -> MissClock (missing)"))
    }

    @Test func injectionErrorFromAResolutionNestedInAFactoryPropagatesWithTheWholePath() throws {
        // A factory that resolves through the container (a resolution of its own, nested in the
        // outer one on the same thread) and lets its InjectionError escape: the error is passed
        // through, not wrapped as .factoryFailed, and its path starts at the outer resolution.
        let container = Container()
        container.register(MissStore.self) { r in try MissClockStore(clock: r.resolve(MissClock.self)) }
        container.register(MissEditor.self) { [unowned container] _ in
            try MissStoreEditor(store: container.resolve(MissStore.self))
        }

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.underlyingError == nil)
        #expect(error.resolutionPath.map(\.description) == ["MissEditor", "MissStore", "MissClock"])
        #expect(error.message.contains("needed by MissEditor -> MissStore -> MissClock (missing)."))
    }

    @Test func factoryFailedFromANestedResolvePropagatesUnchanged() throws {
        let container = Container()
        container.register(MissEditor.self) { r in try MissStoreEditor(store: r.resolve(MissStore.self)) }
        container.register(MissStore.self) { _ in throw MissDiskError.full(bytesNeeded: 9) }

        let error = try #require(injectionError { _ = try container.resolve(MissEditor.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.underlyingError as? MissDiskError == .full(bytesNeeded: 9))
        #expect(error.resolutionPath.map(\.description) == ["MissEditor", "MissStore"])
    }

    // MARK: Resolver outliving its resolution

    @Test func resolverKeptFromAFactoryThrowsResolverOutlivedResolution() throws {
        let container = Container()
        let box = KeptResolver()
        container.register(MissClock.self) { _ in MissFixedClock(now: 1) }
        container.register(MissStore.self) { r in
            box.keep(r)
            return try MissClockStore(clock: r.resolve(MissClock.self))  // fine while the factory runs
        }

        _ = try container.resolve(MissStore.self)
        let resolver = try #require(box.resolver)

        let error = try #require(injectionError { _ = try resolver.resolve(MissClock.self) })
        #expect(error.code == .resolverOutlivedResolution)
        #expect(
            error.message
                == "A Resolver was used to resolve MissClock after the resolution that handed it out had finished."
                + " A resolver is valid only while its factory or onResolved hook runs. Fix: resolve what is needed"
                + " while the factory runs, or inject Lazy<Service> or ServiceProvider<Service> to resolve it later."
        )
        #expect(error.resolutionPath.map(\.description) == ["MissClock"])
    }

    @Test func resolverKeptFromAFactoryFailsForEveryResolveSpelling() throws {
        let container = Container()
        let box = KeptResolver()
        container.register(MissClock.self) { _ in MissFixedClock(now: 1) }
        container.register(MissClock.self) { (_, now: Int) in MissFixedClock(now: now) }
        container.register(MissClock.self, name: "utc") { _ in MissFixedClock(now: 2) }
        container.register(MissExporter.self) { r in
            box.keep(r)
            return MissPDFExporter()
        }

        _ = try container.resolve(MissExporter.self)
        let resolver = try #require(box.resolver)

        let named = try #require(injectionError { _ = try resolver.resolve(MissClock.self, name: "utc") })
        #expect(named.code == .resolverOutlivedResolution)
        #expect(named.message.contains("MissClock (name: \"utc\")"))
        let withArgument = try #require(injectionError { _ = try resolver.resolve(MissClock.self, argument: 5) })
        #expect(withArgument.code == .resolverOutlivedResolution)
        #expect(withArgument.message.contains("MissClock (argument: Int)"))
        let withArguments = try #require(injectionError { _ = try resolver.resolve(MissClock.self, arguments: 5) })
        #expect(withArguments.code == .resolverOutlivedResolution)
        let all = try #require(injectionError { _ = try resolver.resolveAll(MissClock.self) })
        #expect(all.code == .resolverOutlivedResolution)
        #expect(all.message.contains("MissClock"))
    }

    @Test func resolverKeptFromAHookThrowsResolverOutlivedResolution() throws {
        let container = Container()
        let box = KeptResolver()
        container.register(MissClock.self) { _ in MissFixedClock(now: 1) }
        container.register(MissExporter.self) { _ in MissPDFExporter() }
            .onResolved { r, _ in box.keep(r) }

        _ = try container.resolve(MissExporter.self)
        let resolver = try #require(box.resolver)

        let error = try #require(injectionError { _ = try resolver.resolve(MissClock.self) })
        #expect(error.code == .resolverOutlivedResolution)
        #expect(error.message.contains("MissClock"))
    }

    @Test func resolverKeptFromAFailedResolutionThrowsResolverOutlivedResolution() throws {
        let container = Container()
        let box = KeptResolver()
        container.register(MissClock.self) { _ in MissFixedClock(now: 1) }
        container.register(MissStore.self) { r in
            box.keep(r)
            throw MissDiskError.full(bytesNeeded: 1)
        }

        #expect(throws: InjectionError.self) { try container.resolve(MissStore.self) }
        let resolver = try #require(box.resolver)

        let error = try #require(injectionError { _ = try resolver.resolve(MissClock.self) })
        #expect(error.code == .resolverOutlivedResolution)
    }

    @Test func resolverKeptFromASingletonFactoryThrowsResolverOutlivedResolution() throws {
        let container = Container()
        let box = KeptResolver()
        container.register(MissClock.self) { _ in MissFixedClock(now: 1) }
        container.register(MissExporter.self, scope: .singleton) { r in
            box.keep(r)
            return MissPDFExporter()
        }
        try container.finishRegistration()

        _ = try container.resolve(MissExporter.self)
        let resolver = try #require(box.resolver)

        let error = try #require(injectionError { _ = try resolver.resolve(MissClock.self) })
        #expect(error.code == .resolverOutlivedResolution)
        // The container itself still resolves.
        #expect(try container.resolve(MissClock.self).now == 1)
    }

    // MARK: Descriptions

    @Test func descriptionIsTheMessageForEveryKindOfError() throws {
        let container = Container()
        let box = KeptResolver()
        container.register(MissExporter.self) { _ in MissPDFExporter() }
        container.register(MissExporter.self) { _ in MissPDFExporter() }
        container.register(MissStore.self) { _ in throw MissDiskError.full(bytesNeeded: 2) }
        container.register(MissClock.self) { r in
            box.keep(r)
            return MissFixedClock(now: 0)
        }
        container.register(MissClock.self, name: "a") { _ in MissFixedClock(now: 0) }
        container.register(MissClock.self, name: "a") { _ in MissFixedClock(now: 0) }
        _ = try container.resolve(MissClock.self)
        let resolver = try #require(box.resolver)

        let errors = try [
            #require(injectionError { _ = try container.resolve(MissEditor.self) }),
            #require(injectionError { _ = try container.resolve(MissExporter.self) }),
            #require(injectionError { _ = try container.resolve(MissStore.self) }),
            #require(injectionError { _ = try resolver.resolve(MissExporter.self) }),
            #require(injectionError { try container.finishRegistration() }),
        ]
        #expect(
            errors.map(\.code) == [
                .missingRegistration, .duplicateRegistration, .factoryFailed, .resolverOutlivedResolution,
                .duplicateRegistration,
            ]
        )
        for error in errors {
            #expect(!error.message.isEmpty)
            #expect(error.description == error.message)
            #expect("\(error)" == error.message)
            #expect(String(describing: error) == error.message)
        }
        #expect(errors[4].problems.count == 2)
        for problem in errors[4].problems {
            #expect(problem.description == problem.message)
        }
    }

    @Test func codeDescriptionIsItsName() {
        #expect(InjectionError.Code.missingRegistration.description == "missingRegistration")
        #expect(InjectionError.Code.factoryFailed.description == "factoryFailed")
        #expect(InjectionError.Code.resolverOutlivedResolution.description == "resolverOutlivedResolution")
        #expect(InjectionError.Code.missingRegistration != .factoryFailed)
    }

    @Test func serviceKeyDescriptionForms() throws {
        let container = Container()
        let plain = try #require(injectionError { _ = try container.resolve(MissExporter.self) })
        let named = try #require(injectionError { _ = try container.resolve(MissExporter.self, name: "pdf") })
        let oneArgument = try #require(
            injectionError {
                _ = try container.resolve(MissEditor.self, argument: MissNote(title: "n"))
            }
        )
        let twoArguments = try #require(
            injectionError {
                _ = try container.resolve(MissEditor.self, arguments: MissNote(title: "n"), 3)
            }
        )

        #expect(plain.resolutionPath.last?.description == "MissExporter")
        #expect(named.resolutionPath.last?.description == "MissExporter (name: \"pdf\")")
        #expect(oneArgument.resolutionPath.last?.description == "MissEditor (argument: MissNote)")
        #expect(twoArguments.resolutionPath.last?.description == "MissEditor (arguments: MissNote, Int)")
    }

    @Test(arguments: [
        (ServiceKey(MissExporter.self, name: nil), "MissExporter"),
        (ServiceKey(MissExporter.self, name: "pdf"), "MissExporter (name: \"pdf\")"),
        (ServiceKey(MissEditor.self, arguments: MissNote.self, name: nil), "MissEditor (argument: MissNote)"),
        (
            ServiceKey(MissEditor.self, arguments: MissNote.self, Int.self, name: nil),
            "MissEditor (arguments: MissNote, Int)"
        ),
        (ServiceKey(Int.self, name: nil), "Int"),
    ])
    func serviceKeyDescribesItselfAsWrittenInSource(key: ServiceKey, expected: String) {
        #expect(key.description == expected)
        #expect("\(key)" == expected)
    }

    @Test func serviceKeyExposesItsTypeNameAndArgumentTypes() throws {
        let container = Container()
        let error = try #require(
            injectionError {
                _ = try container.resolve(MissEditor.self, name: "draft", arguments: MissNote(title: "n"), 3)
            }
        )
        let key = try #require(error.resolutionPath.last)
        #expect(missSameType(key.serviceType, MissEditor.self))
        #expect(key.name == "draft")
        #expect(key.argumentTypes.count == 2)
        #expect(missSameType(key.argumentTypes.first, MissNote.self))
        #expect(missSameType(key.argumentTypes.last, Int.self))
        #expect(key.description.contains("name: \"draft\""))
        #expect(key.description.contains("arguments: MissNote, Int"))
    }

    @Test func serviceKeysAreEqualByTypeNameAndArgumentTypes() throws {
        let container = Container()
        container.register(MissExporter.self, name: "pdf") { _ in MissPDFExporter() }
        let nearMiss = try #require(injectionError { _ = try container.resolve(MissExporter.self) }).nearMisses.first
        let asked = try #require(injectionError { _ = try container.resolve(MissExporter.self, name: "html") })
            .resolutionPath.last
        let same = try #require(injectionError { _ = try container.resolve(MissExporter.self, name: "html") })
            .resolutionPath.last

        #expect(asked == same)
        #expect(asked != nearMiss)
        #expect(nearMiss?.name == "pdf")
        #expect(Set([asked, same, nearMiss]).count == 2)
    }
}

/// A service asked for through an optional, as `let clock: Clock? = try? container.resolve()` does.
private protocol OptClock: Sendable { var now: Int { get } }
private struct OptFixedClock: OptClock { let now: Int }
private final class OptPool: Sendable {}
private struct OptReport { let clock: (any OptClock)? }

extension MissingRegistrationTests {
    /// `let clock: Clock? = try? container.resolve()` infers `Optional<Clock>`: with nothing
    /// registered for the optional type, the wrapped type is resolved.
    @Test func optionalOfARegisteredServiceResolvesTheService() throws {
        let container = Container()
        container.register((any OptClock).self) { _ in OptFixedClock(now: 42) }
        container.register(OptReport.self) { r in OptReport(clock: try r.resolve()) }

        let clock: (any OptClock)? = try? container.resolve()
        let fromScope: (any OptClock)? = try container.makeScope().resolve()
        let report = try container.resolve(OptReport.self)

        #expect(clock?.now == 42)
        #expect(fromScope?.now == 42)
        #expect(report.clock?.now == 42)
    }

    /// The same through the async spelling, for an async registration.
    @Test func optionalOfAnAsyncServiceResolvesTheService() async throws {
        let container = Container()
        container.register(OptPool.self, scope: .singleton) { _ in
            await Task.yield()
            return OptPool()
        }

        let pool: OptPool? = try await container.resolveAsync()

        #expect(pool === (try await container.resolveAsync(OptPool.self)))
    }

    /// A registration of the optional type itself is used as it is.
    @Test func registrationOfTheOptionalTypeIsUsed() throws {
        let container = Container()
        container.register((any OptClock).self) { _ in OptFixedClock(now: 42) }
        container.register(Optional<any OptClock>.self) { _ in nil }

        let clock: (any OptClock)? = try container.resolve()

        #expect(clock == nil)
    }

    /// With the wrapped type not registered either, the error names the wrapped type, says it was
    /// asked for as an optional, and how to fix it.
    @Test func optionalOfAMissingServiceNamesTheWrappedType() throws {
        let container = Container()

        let error = try #require(injectionError { try container.resolve(Optional<any OptClock>.self) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for OptClock. Nothing is registered for OptClock under any name or arguments."
                + " Fix: register it, e.g. container.register(OptClock.self) { r in … }, in this container or"
                + " one of its parents. It was asked for as Optional<OptClock>: an optional service type"
                + " resolves the type it wraps (did you mean OptClock?)."
        )
        #expect(error.resolutionPath.map(\.description) == ["OptClock"])
    }
}
