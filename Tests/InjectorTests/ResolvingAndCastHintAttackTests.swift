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

import Dispatch
import Foundation
import Testing

@testable import Injector

// Adversarial tests of two changes:
// - the `Resolving` protocol (0c69085): helpers written against it (an extension, `some Resolving`,
//   `any Resolving`) resolve from a container, a lifetime scope and a factory's resolver exactly as
//   the concrete calls do: graph instances, scoped instances, cycles, kept resolvers, closed
//   scopes, caller isolation, deep chains on small stacks, concurrent cold singletons;
// - the cast named in a missing registration's fix (3b7e7cb): argument values of odd types, and
//   the casts it must not suggest (a downcast, an unwrap, `any` before a concrete type).

// MARK: - Services for the Resolving helpers

private final class RvLedger: Sendable {}
private final class RvSession: Sendable {}
private final class RvClock: Sendable {
    let now: Int
    init(now: Int) { self.now = now }
}
private struct RvPlugin: Sendable { let label: String }

/// One graph instance, resolved four ways in one factory.
private struct RvLedgers {
    let direct: RvLedger
    let generic: RvLedger
    let existential: RvLedger
    let extensionHelper: RvLedger
}

private struct RvEntry {}
private struct RvAlpha {}
private struct RvBeta {}

private final class RvDraft {
    var title = ""
}

private final class RvColdSingleton: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

extension Resolving {
    fileprivate func rvLedger() throws -> RvLedger { try resolve(RvLedger.self) }
    fileprivate func rvSession() throws -> RvSession { try resolve() }
}

private func rvLedger(from resolving: some Resolving) throws -> RvLedger { try resolving.resolve(RvLedger.self) }
private func rvLedger(fromAny resolving: any Resolving) throws -> RvLedger { try resolving.resolve(RvLedger.self) }
private func rvSession(from resolving: some Resolving) throws -> RvSession { try resolving.resolve(RvSession.self) }
private func rvSession(fromAny resolving: any Resolving) throws -> RvSession { try resolving.resolve(RvSession.self) }

// MARK: - Deep chains through helpers

/// One level of a chain.
private struct RvLink: Sendable {
    let level: Int
    let levelsBelow: Int
}

/// How a helper resolves the next level.
private enum RvHelperKind: String, Sendable, CaseIterable, CustomStringConvertible {
    case direct, generic, existential, extensionMethod
    var description: String { rawValue }
}

extension Resolving {
    fileprivate func rvNextLink(name: String) throws -> RvLink { try resolve(RvLink.self, name: name) }
}

private func rvNextLink(from resolving: some Resolving, name: String) throws -> RvLink {
    try resolving.resolve(RvLink.self, name: name)
}

private func rvNextLink(fromAny resolving: any Resolving, name: String) throws -> RvLink {
    try resolving.resolve(RvLink.self, name: name)
}

/// `RvLink` under the names "0" … "levels - 1", each level resolving the next through `kind`: one
/// closure for each kind, so that each level's frame is that of its own spelling.
private func makeHelperChain(levels: Int, kind: RvHelperKind) -> Container {
    let container = Container()
    for level in 0..<levels {
        let name = String(level)
        let next = String(level + 1)
        guard level < levels - 1 else {
            container.register(RvLink.self, name: name) { _ in RvLink(level: level, levelsBelow: 0) }
            continue
        }
        switch kind {
        case .direct:
            container.register(RvLink.self, name: name) { r in
                RvLink(level: level, levelsBelow: try r.resolve(RvLink.self, name: next).levelsBelow + 1)
            }
        case .generic:
            container.register(RvLink.self, name: name) { r in
                RvLink(level: level, levelsBelow: try rvNextLink(from: r, name: next).levelsBelow + 1)
            }
        case .existential:
            container.register(RvLink.self, name: name) { r in
                RvLink(level: level, levelsBelow: try rvNextLink(fromAny: r, name: next).levelsBelow + 1)
            }
        case .extensionMethod:
            container.register(RvLink.self, name: name) { r in
                RvLink(level: level, levelsBelow: try r.rvNextLink(name: next).levelsBelow + 1)
            }
        }
    }
    return container
}

/// The whole chain of `levels`, or `.resolutionTooDeep`; anything else fails the test.
private func expectChainOrTooDeep(
    _ outcome: ResolveResult<RvLink>,
    levels: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    switch outcome {
    case .resolved(let link):
        #expect(link.level == 0, sourceLocation: sourceLocation)
        #expect(link.levelsBelow == levels - 1, sourceLocation: sourceLocation)
    case .failed(let error):
        #expect(error.code == .resolutionTooDeep, "\(error.message)", sourceLocation: sourceLocation)
        #expect(error.message.contains("nearly used up the thread's stack"), sourceLocation: sourceLocation)
        #expect(error.resolutionPath.first?.name == "0", sourceLocation: sourceLocation)
    case .failedOtherwise(let description):
        Issue.record("expected the chain or .resolutionTooDeep, got \(description)", sourceLocation: sourceLocation)
    }
}

// MARK: - Services for the cast hint

private protocol RvShape: Sendable { var sides: Int { get } }
private struct RvSquare: RvShape { let sides = 4 }
private struct RvCanvas { let sides: Int }

private class RvAnimal: @unchecked Sendable {}
private final class RvDog: RvAnimal, @unchecked Sendable {}
private struct RvKennel {}

private protocol RvNamed: AnyObject {}
private final class RvCat: RvNamed {}
private protocol RvWalks {}
private protocol RvSwims {}
private struct RvDuck: RvWalks, RvSwims {}
private struct RvPond {}

private class RvBox<Content> {}
private final class RvIntBox: RvBox<Int> {}

private struct RvFailure: Error {}
private struct RvReport {}
private struct RvPack {}

// MARK: - Tests: Resolving

@Suite struct ResolvingAndCastHintAttackTests {
    @Test func graphInstancesAreSharedByEveryHelperSpellingWithinOneResolutionAndNotAcrossResolutions() throws {
        let container = Container()
        container.register(RvLedger.self, scope: .graph) { _ in RvLedger() }
        container.register(RvLedgers.self) { r in
            try RvLedgers(
                direct: r.resolve(RvLedger.self),
                generic: rvLedger(from: r),
                existential: rvLedger(fromAny: r),
                extensionHelper: r.rvLedger()
            )
        }

        let first = try container.resolve(RvLedgers.self)
        let second = try container.resolve(RvLedgers.self)

        #expect(first.direct === first.generic)
        #expect(first.direct === first.existential)
        #expect(first.direct === first.extensionHelper)
        #expect(first.direct !== second.direct)
        // From the container, each helper call is a resolution of its own.
        #expect(try rvLedger(from: container) !== (try rvLedger(fromAny: container)))
        #expect(try container.rvLedger() !== (try container.rvLedger()))
    }

    @Test func scopedInstancesComeFromTheScopeWhicheverHelperSpellingAsksAndTheContainerRefusesThemAlike() throws {
        let container = Container()
        container.register(RvSession.self, scope: .scoped) { _ in RvSession() }
        let scope = container.makeScope(tag: "request")
        let other = container.makeScope(tag: "request")

        let direct = try scope.resolve(RvSession.self)

        #expect(try rvSession(from: scope) === direct)
        #expect(try rvSession(fromAny: scope) === direct)
        #expect(try scope.rvSession() === direct)
        #expect(try rvSession(fromAny: other) !== direct)
        let concrete = try #require(injectionError { try container.resolve(RvSession.self) })
        let generic = try #require(injectionError { try rvSession(from: container) })
        let existential = try #require(injectionError { try rvSession(fromAny: container) })
        #expect(concrete.code == .scopeMismatch)
        #expect(generic.code == .scopeMismatch)
        #expect(existential.code == .scopeMismatch)
        #expect(generic.message == concrete.message)
        #expect(existential.message == concrete.message)
    }

    @Test func aClosedScopeThrowsScopeClosedThroughEveryHelperSpellingSyncAsyncAndResolveAll() async throws {
        let container = Container()
        container.register(RvSession.self, scope: .scoped) { _ in RvSession() }
        let scope = container.makeScope(tag: "request")
        _ = try scope.resolve(RvSession.self)
        try await scope.closeAsync()
        let resolving: any Resolving = scope

        let generic = try #require(injectionError { try rvSession(from: scope) })
        let existential = try #require(injectionError { try rvSession(fromAny: scope) })
        let async = try #require(await injectionErrorAsync { try await resolving.resolveAsync(RvSession.self) })
        let all = try #require(injectionError { try resolving.resolveAll(RvSession.self) })

        let message =
            "RvSession was resolved from the scope \"request\" after it was closed; its instances are disposed."
            + " Fix: resolve what the work needs before closing the scope, or make a new one with"
            + " container.makeScope(tag: \"request\")."
        for error in [generic, existential, async, all] {
            #expect(error.code == .scopeClosed)
            #expect(error.message == message)
            #expect(error.resolutionPath.map(\.description) == ["RvSession"])
        }
    }

    @Test func aCycleThroughGenericAndExistentialHelpersIsReportedWithItsPath() throws {
        let container = Container()
        container.register(RvEntry.self) { r in
            _ = try r.resolve(RvAlpha.self)
            return RvEntry()
        }
        container.register(RvAlpha.self) { r in
            func beta(_ resolving: some Resolving) throws -> RvBeta { try resolving.resolve() }
            _ = try beta(r)
            return RvAlpha()
        }
        container.register(RvBeta.self) { r in
            let resolving: any Resolving = r
            _ = try resolving.resolve(RvAlpha.self)
            return RvBeta()
        }

        let error = try #require(injectionError { try container.resolve(RvEntry.self) })

        #expect(error.code == .circularDependency)
        #expect(
            error.message
                == "Circular dependency: RvEntry -> RvAlpha -> RvBeta -> RvAlpha. The loop is RvAlpha -> RvBeta ->"
                + " RvAlpha: each of these asks for the next in its factory, so none of them can be built first."
                + " Fix: break the cycle with property injection: let one of them receive the other after"
                + " construction, in an onResolved hook, and give the one resolved back the .graph or .singleton"
                + " scope so that the hook receives the same instance."
        )
        #expect(error.resolutionPath.map(\.description) == ["RvEntry", "RvAlpha", "RvBeta", "RvAlpha"])
    }

    @Test func aResolverKeptAsAnyResolvingThrowsResolverOutlivedResolutionForEverySpelling() async throws {
        let container = Container()
        let box = KeptResolver()
        container.register(RvClock.self) { _ in RvClock(now: 0) }
        container.register(RvClock.self) { (_, now: Int) in RvClock(now: now) }
        container.register(RvLedger.self) { r in
            box.keep(r)
            _ = try rvLedgerHelperClock(from: r)
            return RvLedger()
        }
        _ = try container.resolve(RvLedger.self)
        let resolver = try #require(box.resolver)
        let resolving: any Resolving = resolver

        let plain = try #require(injectionError { try resolving.resolve(RvClock.self) })
        let generic = try #require(injectionError { try rvLedgerHelperClock(from: resolver) })
        let argument = try #require(injectionError { try resolving.resolve(RvClock.self, argument: 3) })
        let async = try #require(await injectionErrorAsync { try await resolving.resolveAsync(RvClock.self) })
        let all = try #require(injectionError { try resolving.resolveAll(RvClock.self) })

        func message(_ key: String) -> String {
            "A Resolver was used to resolve \(key) after the resolution that handed it out had finished. A resolver"
                + " is valid only while its factory or onResolved hook runs. Fix: resolve what is needed while the"
                + " factory runs, or inject Lazy<Service> or ServiceProvider<Service> to resolve it later."
        }
        for error in [plain, generic, async, all] {
            #expect(error.code == .resolverOutlivedResolution)
            #expect(error.message == message("RvClock"))
        }
        #expect(argument.code == .resolverOutlivedResolution)
        #expect(argument.message == message("RvClock (argument: Int)"))
    }

    @Test @MainActor func mainActorCodeResolvesAsyncThroughHelpersInItsOwnIsolation() async throws {
        let container = Container()
        container.register(RvDraft.self) { _ in RvDraft() }
        let scope = container.makeScope()
        let model = RvDraftModel()

        #expect(try await model.draft(from: container).title == "Groceries")
        #expect(try await model.draft(fromAny: container).title == "Groceries")
        #expect(try await model.draft(from: scope).title == "Groceries")
        #expect(try await model.draft(fromAny: scope).title == "Groceries")
        #expect(model.configured == 4)
    }

    @Test func anAsyncFactoryResolvesThroughAGenericHelperOnItsResolverInTheSameGraph() async throws {
        let container = Container()
        container.register(RvLedger.self, scope: .graph) { _ async in RvLedger() }
        container.register(RvLedgers.self) { r async throws in
            func viaHelper(_ resolving: some Resolving) async throws -> RvLedger {
                try await resolving.resolveAsync(RvLedger.self)
            }
            func viaExistential(_ resolving: any Resolving) async throws -> RvLedger {
                try await resolving.resolveAsync(RvLedger.self)
            }
            let direct = try await r.resolveAsync(RvLedger.self)
            return try await RvLedgers(
                direct: direct,
                generic: viaHelper(r),
                existential: viaExistential(r),
                extensionHelper: direct
            )
        }

        let ledgers = try await container.resolveAsync(RvLedgers.self)

        #expect(ledgers.direct === ledgers.generic)
        #expect(ledgers.direct === ledgers.existential)
        let sync = try #require(injectionError { try container.resolve(RvLedgers.self) })
        #expect(sync.code == .asyncResolutionRequired)
    }

    @Test func anAsyncRegistrationAskedSyncThroughAHelperInAnAsyncFactoryFailsAsTheDirectCallDoes() async throws {
        let container = Container()
        container.register(RvClock.self) { _ async in RvClock(now: 1) }
        let errors = Guarded([InjectionError]())
        container.register(RvLedger.self) { r async throws in
            func clock(_ resolving: some Resolving) throws -> RvClock { try resolving.resolve() }
            for attempt in [{ try r.resolve(RvClock.self) }, { try clock(r) }] {
                do {
                    _ = try attempt()
                } catch let error as InjectionError {
                    errors.withLock { $0.append(error) }
                }
            }
            return RvLedger()
        }

        _ = try await container.resolveAsync(RvLedger.self)

        let caught = errors.current
        try #require(caught.count == 2)
        #expect(caught[0].code == .asyncResolutionRequired)
        #expect(caught[1].code == .asyncResolutionRequired)
        #expect(caught[1].message == caught[0].message)
        #expect(caught[1].resolutionPath == caught[0].resolutionPath)
    }

    @Test func theConfigureAndTheInferredTypeOfAnExistentialResolveAreTheConcreteOnes() throws {
        let container = Container()
        container.register(RvDraft.self) { _ in RvDraft() }
        let resolving: any Resolving = container.makeScope()

        let draft: RvDraft = try resolving.resolve { $0.title = "configured" }
        let argument = try #require(
            injectionError { try resolving.resolve(RvDraft.self, argument: 1) { $0.title = "never" } }
        )

        #expect(draft.title == "configured")
        #expect(argument.code == .missingRegistration)
        #expect(
            argument.message
                == "No registration for RvDraft (argument: Int). Registered nearby: RvDraft."
                + " Fix: ask for one of those (same name and argument types), or register RvDraft (argument: Int)."
        )
    }

    @Test func theCastIsNamedForARegistrationInAParentContainer() throws {
        let parent = Container()
        parent.register(RvKennel.self) { (_, _: RvAnimal) in RvKennel() }
        let child = parent.makeChild()

        let error = try #require(injectionError { try child.resolve(RvKennel.self, argument: RvDog()) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for RvKennel (argument: RvDog). Registered nearby: RvKennel (argument: RvAnimal)."
                + " Fix: pass the argument as RvKennel (argument: RvAnimal) takes it, `as RvAnimal`."
        )
    }

    @Test func resolveAllThroughAnyResolvingBuildsInTheResolversGraph() throws {
        let container = Container()
        container.register(RvLedger.self, scope: .graph) { _ in RvLedger() }
        container.register(RvPlugin.self, name: "a") { r in
            _ = try r.resolve(RvLedger.self)
            return RvPlugin(label: "a")
        }
        container.register(RvPlugin.self, name: "b") { _ in RvPlugin(label: "b") }
        container.register(RvLedgers.self) { r in
            let resolving: any Resolving = r
            let plugins = try resolving.resolveAll(RvPlugin.self)
            #expect(plugins.map(\.label) == ["a", "b"])
            let ledger = try r.resolve(RvLedger.self)
            return RvLedgers(direct: ledger, generic: ledger, existential: ledger, extensionHelper: ledger)
        }

        _ = try container.resolve(RvLedgers.self)
        let fromContainer: any Resolving = container
        #expect(try fromContainer.resolveAll(RvPlugin.self).map(\.label) == ["a", "b"])
    }

    @Test func manyThreadsResolvingAColdSingletonThroughAnyResolvingBuildItOnce() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(RvColdSingleton.self, scope: .singleton) { _ in
            let serial = calls.next()
            usleep(2_000)
            return RvColdSingleton(serial: serial)
        }
        let scope = container.makeScope()
        let serials = Guarded([Int]())
        let failures = Guarded([String]())

        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let resolving: any Resolving = index.isMultiple(of: 2) ? container : scope
            do {
                let instance = try resolving.resolve(RvColdSingleton.self)
                serials.withLock { $0.append(instance.serial) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.current == [])
        #expect(calls.count == 1)
        #expect(Set(serials.current) == [1])
        #expect(serials.current.count == 64)
    }

    @Test func manyDetachedTasksResolvingAColdAsyncSingletonThroughAnyResolvingBuildItOnce() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(RvColdSingleton.self, scope: .singleton) { _ async throws in
            let serial = calls.next()
            try await Task.sleep(nanoseconds: 2_000_000)
            return RvColdSingleton(serial: serial)
        }

        let tasks = (0..<32).map { index in
            Task.detached { () async throws -> Int in
                let resolving: any Resolving = index.isMultiple(of: 2) ? container : container.makeScope()
                return try await resolving.resolveAsync(RvColdSingleton.self).serial
            }
        }
        var serials: [Int] = []
        for task in tasks { serials.append(try await task.value) }

        #expect(calls.count == 1)
        #expect(Set(serials) == [1])
    }

    @Test func aThousandLevelChainThroughAHelperResolvesOnTheTestThreadOrSaysTooDeep() throws {
        for kind in RvHelperKind.allCases {
            let container = makeHelperChain(levels: 1_000, kind: kind)
            let outcome = ResolveResult { try container.resolve(RvLink.self, name: "0") }
            expectChainOrTooDeep(outcome, levels: 1_000)
        }
    }

    /// On an ordinary 8 MiB stack, a chain 900 deep resolves whole when each level goes through a
    /// helper: a helper costs a debug build about the stack a direct call does. (On Linux, debug,
    /// 8 MiB: 1,056 levels fit resolving directly, 1,004 to 1,012 through a helper.)
    @Test(arguments: RvHelperKind.allCases)
    fileprivate func aChainNineHundredDeepThroughAHelperResolvesWholeOnAnOrdinaryStack(kind: RvHelperKind) async {
        let levels = 900
        let container = makeHelperChain(levels: levels, kind: kind)

        let outcome = await runOnThread(stackSize: 8 << 20) {
            ResolveResult { try container.resolve(RvLink.self, name: "0") }
        }

        guard case .resolved(let link) = outcome else {
            Issue.record("expected the whole chain, got \(outcome)")
            return
        }
        #expect(link.levelsBelow == levels - 1)
    }

    @Test(arguments: RvHelperKind.allCases, [256 << 10, 1 << 20])
    fileprivate func deepChainsThroughHelpersOnSmallStacksEndInAValueOrResolutionTooDeep(
        kind: RvHelperKind,
        stackSize: Int
    ) async throws {
        for levels in [1_000, 5_000] {
            let container = makeHelperChain(levels: levels, kind: kind)
            let outcome = await runOnThread(stackSize: stackSize) {
                ResolveResult { try container.resolve(RvLink.self, name: "0") }
            }
            expectChainOrTooDeep(outcome, levels: levels)
            // From a lifetime scope, the same.
            let scope = container.makeScope()
            let fromScope = await runOnThread(stackSize: stackSize) {
                ResolveResult {
                    let resolving: any Resolving = scope
                    return try resolving.resolve(RvLink.self, name: "0")
                }
            }
            expectChainOrTooDeep(fromScope, levels: levels)
        }
    }
}

/// Resolves `RvClock` through a generic helper (for the kept-resolver test).
private func rvLedgerHelperClock(from resolving: some Resolving) throws -> RvClock {
    try resolving.resolve(RvClock.self)
}

/// Main-actor code whose configure closures touch its own state.
@MainActor
private final class RvDraftModel {
    var title = "Groceries"
    var configured = 0

    func draft(from resolving: some Resolving) async throws -> RvDraft {
        try await resolving.resolveAsync(RvDraft.self) { draft in
            MainActor.assertIsolated()
            self.configured += 1
            draft.title = self.title
        }
    }

    func draft(fromAny resolving: any Resolving) async throws -> RvDraft {
        try await resolving.resolveAsync(RvDraft.self) { draft in
            MainActor.assertIsolated()
            self.configured += 1
            draft.title = self.title
        }
    }
}

// MARK: - Tests: the cast named by a missing registration

extension ResolvingAndCastHintAttackTests {
    /// The usual fix, when no cast finds the registration nearby.
    private static func usualFix(_ asked: String) -> String {
        " Fix: ask for one of those (same name and argument types), or register \(asked)."
    }

    @Test func anErrorExistentialArgumentIsToldToCastToAnyError() throws {
        let container = Container()
        container.register(RvReport.self) { (_, _: any Error) in RvReport() }
        let failure: any Error = RvFailure()

        let error = try #require(injectionError { try container.resolve(RvReport.self, argument: failure) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for RvReport (argument: RvFailure). Registered nearby: RvReport (argument: Error)."
                + " Fix: pass the argument as RvReport (argument: Error) takes it, `as any Error`: a value of"
                + " protocol type given as `argument:` is passed as the type it holds, here RvFailure."
        )
        _ = try container.resolve(RvReport.self, argument: failure as any Error)
    }

    @Test func aClassBoundProtocolAndAProtocolCompositionAreCastWithAny() throws {
        let container = Container()
        container.register(RvPond.self) { (_, _: any RvNamed) in RvPond() }
        container.register(RvPond.self) { (_, _: any RvWalks & RvSwims) in RvPond() }
        let cat: any RvNamed = RvCat()
        let duck: any RvWalks & RvSwims = RvDuck()

        let classBound = try #require(injectionError { try container.resolve(RvPond.self, argument: cat) })
        let composition = try #require(injectionError { try container.resolve(RvPond.self, argument: duck) })

        // The runtime names a composition with its protocols sorted.
        let nearby = " Registered nearby: RvPond (argument: RvNamed); RvPond (argument: RvSwims & RvWalks)."
        #expect(classBound.code == .missingRegistration)
        #expect(
            classBound.message
                == "No registration for RvPond (argument: RvCat)." + nearby
                + " Fix: pass the argument as RvPond (argument: RvNamed) takes it, `as any RvNamed`: a value of"
                + " protocol type given as `argument:` is passed as the type it holds, here RvCat."
        )
        #expect(composition.code == .missingRegistration)
        #expect(
            composition.message
                == "No registration for RvPond (argument: RvDuck)." + nearby
                + " Fix: pass the argument as RvPond (argument: RvSwims & RvWalks) takes it, `as any RvSwims &"
                + " RvWalks`: a value of protocol type given as `argument:` is passed as the type it holds, here"
                + " RvDuck."
        )
        _ = try container.resolve(RvPond.self, argument: cat as any RvNamed)
        _ = try container.resolve(RvPond.self, argument: duck as any RvSwims & RvWalks)
    }

    @Test func anyHashableOptionalAndGenericSuperclassParametersAreNamedWithoutAny() throws {
        let container = Container()
        container.register(RvPack.self) { (_, _: AnyHashable) in RvPack() }
        container.register(RvPack.self, name: "optional") { (_, _: Int?) in RvPack() }
        container.register(RvPack.self, name: "box") { (_, _: RvBox<Int>) in RvPack() }

        let hashable = try #require(injectionError { try container.resolve(RvPack.self, argument: 3) })
        let optional = try #require(
            injectionError { try container.resolve(RvPack.self, name: "optional", argument: 3) }
        )
        let box = try #require(injectionError { try container.resolve(RvPack.self, name: "box", argument: RvIntBox()) })

        let nearby =
            " Registered nearby: RvPack (argument: AnyHashable); RvPack (name: \"optional\", argument:"
            + " Optional<Int>); RvPack (name: \"box\", argument: RvBox<Int>)."
        #expect(hashable.code == .missingRegistration)
        #expect(
            hashable.message
                == "No registration for RvPack (argument: Int)." + nearby
                + " Fix: pass the argument as RvPack (argument: AnyHashable) takes it, `as AnyHashable`."
        )
        #expect(optional.code == .missingRegistration)
        #expect(
            optional.message
                == "No registration for RvPack (name: \"optional\", argument: Int)." + nearby
                + " Fix: pass the argument as RvPack (name: \"optional\", argument: Optional<Int>) takes it,"
                + " `as Optional<Int>`."
        )
        #expect(box.code == .missingRegistration)
        #expect(
            box.message
                == "No registration for RvPack (name: \"box\", argument: RvIntBox)." + nearby
                + " Fix: pass the argument as RvPack (name: \"box\", argument: RvBox<Int>) takes it, `as RvBox<Int>`."
        )
        _ = try container.resolve(RvPack.self, argument: 3 as AnyHashable)
        _ = try container.resolve(RvPack.self, name: "optional", argument: 3 as Int?)
        _ = try container.resolve(RvPack.self, name: "box", argument: RvIntBox() as RvBox<Int>)
    }

    /// A metatype's dynamic casts also go from a class to its subclasses, so no cast is named for
    /// one: the usual fix, and the cast a caller writes finds the registration.
    @Test func aMetatypeArgumentKeepsTheUsualFix() throws {
        let container = Container()
        container.register(RvCanvas.self) { (_, type: any RvShape.Type) in
            RvCanvas(sides: type == RvSquare.self ? 4 : 0)
        }

        let error = try #require(injectionError { try container.resolve(RvCanvas.self, argument: RvSquare.self) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for RvCanvas (argument: RvSquare.Type). Registered nearby: RvCanvas (argument:"
                + " RvShape.Type)." + Self.usualFix("RvCanvas (argument: RvSquare.Type)")
        )
        #expect(try container.resolve(RvCanvas.self, argument: RvSquare.self as any RvShape.Type).sides == 4)
    }

    @Test func ofSeveralNearbyRegistrationsTheFixNamesTheOneTheValueFitsUnderTheSameName() throws {
        let container = Container()
        container.register(RvCanvas.self) { (_, count: Int) in RvCanvas(sides: count) }
        container.register(RvCanvas.self, name: "framed") { (_, shape: any RvShape) in RvCanvas(sides: shape.sides) }
        container.register(RvCanvas.self) { (_, shape: any RvShape, _: Int) in RvCanvas(sides: shape.sides) }
        container.register(RvCanvas.self, name: "framed") { (_, count: String) in RvCanvas(sides: count.count) }
        let shape: any RvShape = RvSquare()

        let framed = try #require(
            injectionError { try container.resolve(RvCanvas.self, name: "framed", argument: shape) }
        )
        let unnamed = try #require(injectionError { try container.resolve(RvCanvas.self, argument: shape) })

        let nearby =
            " Registered nearby: RvCanvas (argument: Int); RvCanvas (name: \"framed\", argument: RvShape); RvCanvas"
            + " (arguments: RvShape, Int); RvCanvas (name: \"framed\", argument: String)."
        #expect(framed.code == .missingRegistration)
        #expect(
            framed.message
                == "No registration for RvCanvas (name: \"framed\", argument: RvSquare)." + nearby
                + " Fix: pass the argument as RvCanvas (name: \"framed\", argument: RvShape) takes it, `as any"
                + " RvShape`: a value of protocol type given as `argument:` is passed as the type it holds, here"
                + " RvSquare."
        )
        // Unnamed, the only registration taking a shape takes two arguments: no cast finds it.
        #expect(unnamed.code == .missingRegistration)
        #expect(
            unnamed.message == "No registration for RvCanvas (argument: RvSquare)." + nearby
                + Self.usualFix("RvCanvas (argument: RvSquare)")
        )
    }

    /// Values of protocol type given as `arguments:` keep their type (Swift opens an existential
    /// for a generic parameter, not for a parameter pack); concrete values are each named a cast.
    @Test func twoConcreteValuesAreEachNamedWithTheirCastAndProtocolValuesInAPackAreNotOpened() throws {
        let container = Container()
        container.register(RvCanvas.self) { (_, a: any RvShape, b: any RvShape) in RvCanvas(sides: a.sides + b.sides) }
        let shape: any RvShape = RvSquare()

        #expect(try container.resolve(RvCanvas.self, arguments: shape, shape).sides == 8)
        let error = try #require(
            injectionError { try container.resolve(RvCanvas.self, arguments: RvSquare(), RvSquare()) }
        )

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for RvCanvas (arguments: RvSquare, RvSquare). Registered nearby: RvCanvas"
                + " (arguments: RvShape, RvShape). Fix: pass the arguments as RvCanvas (arguments: RvShape, RvShape)"
                + " takes them: argument 1 `as any RvShape`, argument 2 `as any RvShape`."
        )
    }

    @Test func aClosureArgumentOfAnotherFunctionTypeKeepsTheUsualFix() throws {
        let container = Container()
        container.register(RvKennel.self) { (_, _: @escaping @Sendable () -> RvAnimal) in RvKennel() }
        let makeDog: @Sendable () -> RvDog = { RvDog() }

        let error = try #require(injectionError { try container.resolve(RvKennel.self, argument: makeDog) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for RvKennel (argument: @Sendable () -> RvDog). Registered nearby: RvKennel"
                + " (argument: @Sendable () -> RvAnimal)." + Self.usualFix("RvKennel (argument: @Sendable () -> RvDog)")
        )
    }

    @Test func theCastIsNamedThroughADeclaredRegistrationAScopeAHelperAndAnAsyncResolve() async throws {
        let container = Container()
        container.register(RvCanvas.self, argument: (any RvShape).self) { (shape: any RvShape) in
            RvCanvas(sides: shape.sides)
        }
        container.register(RvLedger.self) { r in
            let shape: any RvShape = RvSquare()
            func canvas(_ resolving: some Resolving) throws -> RvCanvas { try resolving.resolve(argument: shape) }
            _ = try canvas(r)
            return RvLedger()
        }
        let scope = container.makeScope()
        let shape: any RvShape = RvSquare()
        let resolving: any Resolving = scope

        let fromScope = try #require(injectionError { try resolving.resolve(RvCanvas.self, argument: shape) })
        let nested = try #require(injectionError { try container.resolve(RvLedger.self) })
        let async = try #require(
            await injectionErrorAsync { try await resolving.resolveAsync(RvCanvas.self, argument: shape) }
        )
        let optional = try #require(injectionError { try container.resolve(RvCanvas?.self, argument: shape) })

        let fix =
            " Registered nearby: RvCanvas (argument: RvShape). Fix: pass the argument as RvCanvas (argument:"
            + " RvShape) takes it, `as any RvShape`: a value of protocol type given as `argument:` is passed as the"
            + " type it holds, here RvSquare."
        #expect(fromScope.code == .missingRegistration)
        #expect(fromScope.message == "No registration for RvCanvas (argument: RvSquare)." + fix)
        #expect(async.code == .missingRegistration)
        #expect(async.message == fromScope.message)
        #expect(nested.code == .missingRegistration)
        #expect(
            nested.message
                == "No registration for RvCanvas (argument: RvSquare), needed by RvLedger -> RvCanvas (argument:"
                + " RvSquare) (missing)." + fix
        )
        #expect(optional.code == .missingRegistration)
        #expect(
            optional.message
                == "No registration for RvCanvas (argument: RvSquare)." + fix
                + " It was asked for as Optional<RvCanvas>: an optional service type resolves the type it wraps"
                + " (did you mean RvCanvas?)."
        )
    }

    @Test func aValueGivenToAnAnyParameterIsNamedACastThatCompiles() throws {
        let container = Container()
        container.register(RvPack.self) { (_, _: Any) in RvPack() }
        container.register(RvPack.self, name: "object") { (_, _: AnyObject) in RvPack() }

        let anyValue = try #require(injectionError { try container.resolve(RvPack.self, argument: 3) })
        let object = try #require(
            injectionError { try container.resolve(RvPack.self, name: "object", argument: RvDog()) }
        )

        #expect(anyValue.code == .missingRegistration)
        #expect(anyValue.message.hasSuffix(" Fix: pass the argument as RvPack (argument: Any) takes it, `as Any`."))
        #expect(object.code == .missingRegistration)
        #expect(
            object.message.hasSuffix(
                " Fix: pass the argument as RvPack (name: \"object\", argument: AnyObject) takes it, `as AnyObject`."
            )
        )
        // Both casts compile and find the registration.
        _ = try container.resolve(RvPack.self, argument: 3 as Any)
        _ = try container.resolve(RvPack.self, name: "object", argument: RvDog() as AnyObject)
    }

    // MARK: Dynamic casts that no `as` can write: the usual fix

    /// A value whose static type is a superclass, given where the registration takes the subclass:
    /// the value is an instance of the subclass, but `as RvDog` is a downcast, which does not compile
    /// (`'RvAnimal' is not convertible to 'RvDog'`). No `as` finds the registration.
    @Test
    func aSuperclassTypedValueIsNotToldToDowncastWithAs() throws {
        let container = Container()
        container.register(RvKennel.self) { (_, _: RvDog) in RvKennel() }
        container.register(RvKennel.self) { (_, _: RvDog, _: Int) in RvKennel() }
        let pet: RvAnimal = RvDog()

        let one = try #require(injectionError { try container.resolve(RvKennel.self, argument: pet) })
        let two = try #require(injectionError { try container.resolve(RvKennel.self, arguments: pet, 1) })

        let nearby = " Registered nearby: RvKennel (argument: RvDog); RvKennel (arguments: RvDog, Int)."
        #expect(one.code == .missingRegistration)
        #expect(
            one.message
                == "No registration for RvKennel (argument: RvAnimal)." + nearby
                + Self.usualFix("RvKennel (argument: RvAnimal)")
        )
        #expect(two.code == .missingRegistration)
        #expect(
            two.message
                == "No registration for RvKennel (arguments: RvAnimal, Int)." + nearby
                + Self.usualFix("RvKennel (arguments: RvAnimal, Int)")
        )
    }

    /// A value of protocol type cast to the protocol (`as any RvShape`), where the registration
    /// takes the concrete type: the fix says `as any RvSquare` (`'any' has no effect on concrete
    /// type`, an error) and explains it with the opposite case.
    @Test
    func aProtocolTypedValueIsNotToldToCastToAConcreteTypeWithAny() throws {
        let container = Container()
        container.register(RvCanvas.self) { (_, square: RvSquare) in RvCanvas(sides: square.sides) }
        let shape: any RvShape = RvSquare()

        let error = try #require(
            injectionError { try container.resolve(RvCanvas.self, argument: shape as any RvShape) }
        )

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for RvCanvas (argument: RvShape). Registered nearby: RvCanvas (argument:"
                + " RvSquare)." + Self.usualFix("RvCanvas (argument: RvShape)")
        )
    }

    /// An optional given where the registration takes the wrapped type (or a superclass of it, or a
    /// protocol): `Optional(3) is Int` holds, as Swift's casts unwrap, but no `as` unwraps.
    /// Observed: "`as any Int`: a value of protocol type given as `argument:` is passed as the type it
    /// holds, here Optional<Int>", and "`as RvAnimal`" for an `RvDog?`.
    @Test
    func anOptionalValueIsNotToldToCastToTheTypeItWraps() throws {
        let container = Container()
        container.register(RvPack.self) { (_, _: Int) in RvPack() }
        container.register(RvKennel.self) { (_, _: RvAnimal) in RvKennel() }
        container.register(RvCanvas.self) { (_, shape: any RvShape) in RvCanvas(sides: shape.sides) }
        let count: Int? = 3
        let dog: RvDog? = RvDog()
        let shape: (any RvShape)? = RvSquare()

        let int = try #require(injectionError { try container.resolve(RvPack.self, argument: count) })
        let animal = try #require(injectionError { try container.resolve(RvKennel.self, argument: dog) })
        let protocolValue = try #require(injectionError { try container.resolve(RvCanvas.self, argument: shape) })

        #expect(int.code == .missingRegistration)
        #expect(
            int.message
                == "No registration for RvPack (argument: Optional<Int>). Registered nearby: RvPack (argument: Int)."
                + Self.usualFix("RvPack (argument: Optional<Int>)")
        )
        #expect(animal.code == .missingRegistration)
        #expect(
            animal.message
                == "No registration for RvKennel (argument: Optional<RvDog>). Registered nearby: RvKennel (argument:"
                + " RvAnimal)." + Self.usualFix("RvKennel (argument: Optional<RvDog>)")
        )
        #expect(protocolValue.code == .missingRegistration)
        #expect(
            protocolValue.message
                == "No registration for RvCanvas (argument: Optional<RvShape>). Registered nearby: RvCanvas"
                + " (argument: RvShape)." + Self.usualFix("RvCanvas (argument: Optional<RvShape>)")
        )
    }

    /// `nil` of one optional type is an instance of every optional type (`Optional<String>.none is
    /// Int?` holds), and `Optional(Optional(3)) is Int?` holds: the fix names `as Optional<Int>`,
    /// which converts neither a `String?` nor an `Int??`. So does an `AnyHashable` holding an `Int`,
    /// told `as any Int`.
    @Test
    func castsSwiftOnlyMakesAtRunTimeAreNotNamed() throws {
        let container = Container()
        container.register(RvPack.self) { (_, _: Int?) in RvPack() }
        container.register(RvKennel.self) { (_, _: Int) in RvKennel() }
        let none: String? = nil
        let double: Int?? = 3
        let hashable = AnyHashable(3)

        let fromNil = try #require(injectionError { try container.resolve(RvPack.self, argument: none) })
        let fromDouble = try #require(injectionError { try container.resolve(RvPack.self, argument: double) })
        let fromHashable = try #require(injectionError { try container.resolve(RvKennel.self, argument: hashable) })

        let nearby = " Registered nearby: RvPack (argument: Optional<Int>)."
        #expect(fromNil.code == .missingRegistration)
        #expect(
            fromNil.message
                == "No registration for RvPack (argument: Optional<String>)." + nearby
                + Self.usualFix("RvPack (argument: Optional<String>)")
        )
        #expect(fromDouble.code == .missingRegistration)
        #expect(
            fromDouble.message
                == "No registration for RvPack (argument: Optional<Optional<Int>>)." + nearby
                + Self.usualFix("RvPack (argument: Optional<Optional<Int>>)")
        )
        #expect(fromHashable.code == .missingRegistration)
        #expect(
            fromHashable.message
                == "No registration for RvKennel (argument: AnyHashable). Registered nearby: RvKennel (argument: Int)."
                + Self.usualFix("RvKennel (argument: AnyHashable)")
        )
    }

    /// An array, a tuple or a class metatype whose elements are upcast: dynamic casts of those also
    /// go down and look inside, so the message names no cast for them (a hint missed, never a cast
    /// that does not compile), and the casts a caller writes find the registrations.
    @Test func anArrayATupleOrAMetatypeGivenAsAnotherTypeKeepsTheUsualFix() throws {
        let container = Container()
        container.register(RvPack.self) { (_, _: [any RvShape]) in RvPack() }
        container.register(RvPack.self, name: "pair") { (_, _: (Int, RvAnimal)) in RvPack() }
        container.register(RvPack.self, name: "type") { (_, _: RvAnimal.Type) in RvPack() }

        let array = try #require(injectionError { try container.resolve(RvPack.self, argument: [RvSquare()]) })
        let tuple = try #require(
            injectionError { try container.resolve(RvPack.self, name: "pair", argument: (1, RvDog())) }
        )
        let metatype = try #require(
            injectionError { try container.resolve(RvPack.self, name: "type", argument: RvDog.self) }
        )

        let nearby =
            " Registered nearby: RvPack (argument: Array<RvShape>); RvPack (name: \"pair\", argument: (Int,"
            + " RvAnimal)); RvPack (name: \"type\", argument: RvAnimal.Type)."
        #expect(array.code == .missingRegistration)
        #expect(
            array.message
                == "No registration for RvPack (argument: Array<RvSquare>)." + nearby
                + Self.usualFix("RvPack (argument: Array<RvSquare>)")
        )
        #expect(tuple.code == .missingRegistration)
        #expect(
            tuple.message
                == "No registration for RvPack (name: \"pair\", argument: (Int, RvDog))." + nearby
                + Self.usualFix("RvPack (name: \"pair\", argument: (Int, RvDog))")
        )
        #expect(metatype.code == .missingRegistration)
        #expect(
            metatype.message
                == "No registration for RvPack (name: \"type\", argument: RvDog.Type)." + nearby
                + Self.usualFix("RvPack (name: \"type\", argument: RvDog.Type)")
        )
        _ = try container.resolve(RvPack.self, argument: [RvSquare()] as [any RvShape])
        _ = try container.resolve(RvPack.self, name: "pair", argument: (1, RvDog()) as (Int, RvAnimal))
        _ = try container.resolve(RvPack.self, name: "type", argument: RvDog.self as RvAnimal.Type)
    }
}
