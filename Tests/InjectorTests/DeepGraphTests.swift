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

// MARK: - Test services

/// One level of a chain: the level it was made for, how many levels were built below it, and what
/// the last level (the leaf) said. A value type, so a long chain leaves no long list of objects
/// whose release would itself recurse.
private struct DeepLink: Sendable {
    let level: Int
    let levelsBelow: Int
    let leaf: String
}

private struct DeepChainBroken: Error, CustomStringConvertible {
    let description: String
}

// MARK: - Helpers

/// A container with `DeepLink` registered under the names "0" … "levels - 1": the factory of level
/// `i` resolves level `i + 1` by name (same type, other name: another key, so not a cycle); the
/// last level returns the leaf.
private func makeDeepChain(levels: Int) throws -> Container {
    let container = Container()
    for level in 0..<levels {
        if level == levels - 1 {
            container.register(DeepLink.self, name: String(level)) { _ in
                DeepLink(level: level, levelsBelow: 0, leaf: "leaf")
            }
        } else {
            let next = String(level + 1)
            container.register(DeepLink.self, name: String(level)) { r in
                let below = try r.resolve(DeepLink.self, name: next)
                guard below.level == level + 1 else {
                    throw DeepChainBroken(description: "level \(level) received level \(below.level)")
                }
                return DeepLink(level: level, levelsBelow: below.levelsBelow + 1, leaf: below.leaf)
            }
        }
    }
    try container.finishRegistration()
    return container
}

/// Checks that `outcome` is the whole chain of `levels` levels, resolved from level 0.
private func expectWholeChain(
    _ outcome: ResolveResult<DeepLink>,
    levels: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard case .resolved(let link) = outcome else {
        Issue.record("expected the chain to resolve, got \(outcome)", sourceLocation: sourceLocation)
        return
    }
    #expect(link.level == 0, sourceLocation: sourceLocation)
    #expect(link.levelsBelow == levels - 1, sourceLocation: sourceLocation)
    #expect(link.leaf == "leaf", sourceLocation: sourceLocation)
}

/// Checks that `error` is the too-deep error for a chain entered at level 0.
private func expectTooDeep(_ error: InjectionError, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(error.code == .resolutionTooDeep, "\(error.message)", sourceLocation: sourceLocation)
    #expect(error.message.contains("deep"), sourceLocation: sourceLocation)
    #expect(error.message.contains("…"), "the long path is abbreviated", sourceLocation: sourceLocation)
    #expect(
        error.message.contains("Resolving went \(error.resolutionPath.count) services deep"),
        sourceLocation: sourceLocation
    )
    #expect(error.message.contains(#"DeepLink (name: "0") -> DeepLink (name: "1")"#), sourceLocation: sourceLocation)
    #expect(
        error.message.count < 2_000,
        "the message does not spell out the whole path",
        sourceLocation: sourceLocation
    )
    // The path runs from level 0 down, one level at a time.
    let names = error.resolutionPath.map(\.name)
    #expect(names.first == "0", sourceLocation: sourceLocation)
    #expect(names == (0..<names.count).map { String($0) }, sourceLocation: sourceLocation)
    #expect(error.resolutionPath.count > 64, sourceLocation: sourceLocation)
}

// MARK: - Tests

struct DeepGraphTests {
    @Test func fiveThousandLevelChainResolvesOrThrowsResolutionTooDeepNeverAnythingElse() throws {
        let levels = 5_000
        let container = try makeDeepChain(levels: levels)

        let outcome = ResolveResult { try container.resolve(DeepLink.self, name: "0") }

        switch outcome {
        case .resolved:
            expectWholeChain(outcome, levels: levels)
        case .failed(let error):
            expectTooDeep(error)
            #expect(error.resolutionPath.count < levels)
        case .failedOtherwise(let description):
            Issue.record("expected the chain or .resolutionTooDeep, got \(description)")
        }
    }

    @Test func fiveThousandLevelChainResolvesOnAThreadWithALargeStack() async throws {
        let levels = 5_000
        let container = try makeDeepChain(levels: levels)

        let outcome = await runOnThread(stackSize: 256 << 20) {
            ResolveResult { try container.resolve(DeepLink.self, name: "0") }
        }

        expectWholeChain(outcome, levels: levels)
    }

    /// A factory that resolves through a container it captured, instead of through its resolver,
    /// starts a resolution of its own, nested in the outer one: a cycle through such resolutions is
    /// still found and named, never a stack overflow.
    @Test func cycleThroughACapturedContainerIsReportedAsACycle() async throws {
        let container = Container()
        container.register(DeepLink.self, name: "loop") { _ in try container.resolve(DeepLink.self, name: "loop") }

        let outcome = await runOnThread(stackSize: 1 << 20) {
            ResolveResult { try container.resolve(DeepLink.self, name: "loop") }
        }

        guard case .failed(let error) = outcome else {
            Issue.record("expected .circularDependency, got \(outcome)")
            return
        }
        #expect(error.code == .circularDependency)
        #expect(error.message.contains("Circular dependency: DeepLink (name: \"loop\") -> DeepLink (name: \"loop\")."))
    }

    /// A very deep chain of resolutions nested through captured containers ends in
    /// `.resolutionTooDeep` that says how it arose, not in a stack overflow.
    @Test func deepChainThroughCapturedContainersEndsInResolutionTooDeep() async throws {
        let container = makeDeepChainThroughCapturedContainer(levels: 200_000)

        let outcome = await runOnThread(stackSize: 1 << 20) {
            ResolveResult { try container.resolve(DeepLink.self, name: "0") }
        }

        guard case .failed(let error) = outcome else {
            Issue.record("expected .resolutionTooDeep, got \(outcome)")
            return
        }
        #expect(error.code == .resolutionTooDeep)
        #expect(error.message.contains("nearly used up the thread's stack"))
        #expect(error.message.contains("through a container rather than through their resolver"))
        #expect(error.message.contains("r.resolve(…)"))
    }

    @Test func thousandLevelChainResolves() throws {
        let levels = 1_000
        let container = try makeDeepChain(levels: levels)

        let outcome = ResolveResult { try container.resolve(DeepLink.self, name: "0") }

        expectWholeChain(outcome, levels: levels)
    }

    @Test func chainTooDeepForASmallThreadStackThrowsResolutionTooDeep() async throws {
        let levels = 200_000
        let container = try makeDeepChain(levels: levels)

        let outcome = await runOnThread(stackSize: 1 << 20) {
            ResolveResult { try container.resolve(DeepLink.self, name: "0") }
        }

        guard case .failed(let error) = outcome else {
            Issue.record("expected .resolutionTooDeep, got \(outcome)")
            return
        }
        expectTooDeep(error)
        #expect(error.resolutionPath.count < levels)
    }

    @Test func containerStillResolvesAfterAChainWasTooDeep() async throws {
        let levels = 200_000
        let container = try makeDeepChain(levels: levels)

        let tooDeep = await runOnThread(stackSize: 1 << 20) {
            ResolveResult { try container.resolve(DeepLink.self, name: "0") }
        }
        guard case .failed(let error) = tooDeep else {
            Issue.record("expected .resolutionTooDeep, got \(tooDeep)")
            return
        }
        #expect(error.code == .resolutionTooDeep)

        // The tail of the same chain is shallow enough for the same small stack.
        let tail = await runOnThread(stackSize: 1 << 20) {
            ResolveResult { try container.resolve(DeepLink.self, name: String(levels - 10)) }
        }
        guard case .resolved(let link) = tail else {
            Issue.record("expected the last ten levels to resolve, got \(tail)")
            return
        }
        #expect(link.level == levels - 10)
        #expect(link.levelsBelow == 9)
        #expect(link.leaf == "leaf")
    }
}

/// A chain of `levels` registrations, each resolving the next through the container it captured
/// (a resolution nested in the outer one at every level).
private func makeDeepChainThroughCapturedContainer(levels: Int) -> Container {
    let container = Container()
    for level in 0..<levels {
        container.register(DeepLink.self, name: "\(level)") { _ in
            guard level < levels - 1 else { return DeepLink(level: level, levelsBelow: 0, leaf: "leaf") }
            let below = try container.resolve(DeepLink.self, name: "\(level + 1)")
            return DeepLink(level: level, levelsBelow: below.levelsBelow + 1, leaf: below.leaf)
        }
    }
    return container
}

/// The chain resolved whole, or `.resolutionTooDeep`; anything else fails the test.
private func expectWholeChainOrTooDeep(
    _ outcome: ResolveResult<DeepLink>,
    levels: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    switch outcome {
    case .resolved:
        expectWholeChain(outcome, levels: levels, sourceLocation: sourceLocation)
    case .failed(let error):
        #expect(error.code == .resolutionTooDeep, "\(error.message)", sourceLocation: sourceLocation)
        #expect(error.message.contains("nearly used up the thread's stack"), sourceLocation: sourceLocation)
    case .failedOtherwise(let description):
        Issue.record("expected the chain or .resolutionTooDeep, got \(description)", sourceLocation: sourceLocation)
    }
}

extension DeepGraphTests {
    /// Deep chains through captured containers on a thread with an ordinary 8 MiB stack: the walk
    /// over the outer resolutions must not be what overflows it.
    @Test(arguments: [1_500, 3_000, 12_000])
    func chainThroughCapturedContainersOnAnOrdinaryStackEndsInAValueOrResolutionTooDeep(levels: Int) async {
        let container = makeDeepChainThroughCapturedContainer(levels: levels)

        let outcome = await runOnThread(stackSize: 8 << 20) {
            ResolveResult { try container.resolve(DeepLink.self, name: "0") }
        }

        expectWholeChainOrTooDeep(outcome, levels: levels)
    }

    /// On a small thread stack (256 KiB), short chains, plain or through captured containers, end in
    /// a value or `.resolutionTooDeep`, never a crash: the stack is checked from the first level.
    @Test(arguments: [10, 40, 80, 400])
    func chainOnASmallThreadStackEndsInAValueOrResolutionTooDeep(levels: Int) async throws {
        let plain = try makeDeepChain(levels: levels)
        let captured = makeDeepChainThroughCapturedContainer(levels: levels)

        let plainOutcome = await runOnThread(stackSize: 256 << 10) {
            ResolveResult { try plain.resolve(DeepLink.self, name: "0") }
        }
        let capturedOutcome = await runOnThread(stackSize: 256 << 10) {
            ResolveResult { try captured.resolve(DeepLink.self, name: "0") }
        }

        expectWholeChainOrTooDeep(plainOutcome, levels: levels)
        expectWholeChainOrTooDeep(capturedOutcome, levels: levels)
    }
}

/// A link of a chain whose every level is built by an async factory, or prepared by a hook.
private final class ChainLevel: Sendable {
    let level: Int
    init(level: Int) { self.level = level }
}

/// What each level of a deep chain kept of the path that led to it: a reference to the part it
/// shares with the level above (the path's outer part), and how long its own path is.
private final class KeptPaths: @unchecked Sendable {  // `kept` is only touched under `lock`
    private let lock = NSLock()
    private var kept: [Int: (outer: ObjectIdentifier?, own: ObjectIdentifier?, count: Int)] = [:]

    func keep(level: Int, outer: AnyObject?, own: AnyObject?, count: Int) {
        lock.withLock { kept[level] = (outer.map(ObjectIdentifier.init), own.map(ObjectIdentifier.init), count) }
    }

    /// The levels whose kept path does not share its outer part with the level above.
    func unsharedLevels(upTo levels: Int) -> [Int] {
        lock.withLock {
            (1..<levels).filter { level in
                guard let here = kept[level], let above = kept[level - 1] else { return true }
                return here.outer == nil || here.outer != above.own || here.count != above.count + 1
            }
        }
    }
}

extension DeepGraphTests {
    /// Each async factory of a deep chain keeps the path that led to it (for the resolutions it
    /// starts in child tasks) by sharing the path of the factory above: memory grows with the
    /// depth, not with its square (10,000 levels took 443 MiB when each copied its path).
    @Test func asyncFactoriesOfADeepChainShareTheirPaths() async throws {
        let levels = 300
        let kept = KeptPaths()
        let container = Container()
        container.register(ChainLevel.self) { (r, level: Int) in
            let running = try #require(ResolutionContext.runningAsyncFactory)
            kept.keep(level: level, outer: running.path?.parent, own: running.path, count: running.path?.count ?? 0)
            if level < levels - 1 { _ = try await r.resolveAsync(ChainLevel.self, arguments: level + 1) }
            return ChainLevel(level: level)
        }

        _ = try await container.resolveAsync(ChainLevel.self, argument: 0)

        #expect(kept.unsharedLevels(upTo: levels) == [])
    }

    /// The chain of hooks a deep chain of hooks keeps is freed link by link, in a debug build as in
    /// a release one: freed by recursion, 2,000 links overflowed a 256 KiB stack.
    @Test func aDeepChainOfHooksIsFreedWithoutOverflowingASmallStack() async throws {
        let levels = 2_000
        let container = Container()
        for level in 0..<levels {
            container.register(ChainLevel.self, name: "\(level)", scope: .singleton) { _ in ChainLevel(level: level) }
                .onResolved { r, _ in
                    if level < levels - 1 { _ = try r.resolve(ChainLevel.self, name: "\(level + 1)") }
                }
        }

        let outcome: ResolveResult<DeepLink> = await runOnThread(stackSize: 256 << 10) {
            do {
                let top = try container.resolve(ChainLevel.self, name: "0")
                return .resolved(DeepLink(level: top.level, levelsBelow: levels - 1, leaf: "leaf"))
            } catch let error as InjectionError {
                return .failed(error)
            } catch {
                return .failedOtherwise("\(error)")
            }
        }

        switch outcome {
        case .resolved(let link): #expect(link.level == 0)
        case .failed(let error): #expect(error.code == .resolutionTooDeep, "\(error.message)")
        case .failedOtherwise(let description): Issue.record("expected no other error, got \(description)")
        }
    }

    /// Each hook of a deep chain of hooks keeps the chain of hooks that led to it by sharing the
    /// chain of the hook above.
    @Test func hooksOfADeepChainShareTheirChains() throws {
        let levels = 300
        let kept = KeptPaths()
        let container = Container()
        for level in 0..<levels {
            container.register(ChainLevel.self, name: "\(level)") { _ in ChainLevel(level: level) }
                .onResolved { r, instance in
                    let chain = r.context.storedBookkeeping?.hookChain
                    kept.keep(level: instance.level, outer: chain?.parent, own: chain, count: chain?.count ?? 0)
                    if level < levels - 1 { _ = try r.resolve(ChainLevel.self, name: "\(level + 1)") }
                }
        }

        _ = try container.resolve(ChainLevel.self, name: "0")

        #expect(kept.unsharedLevels(upTo: levels) == [])
    }

    /// A level whose address is not on the thread's stack (a stack the thread did not report, such as
    /// a signal's) is judged by its depth, as where the stack's bounds are unknown, rather than
    /// refused at its first level.
    @Test func aLevelWhoseLocalsAreOffTheThreadsStackIsJudgedByDepth() {
        var stackGuard = StackGuard()
        var local: UInt8 = 0
        let onTheStack = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
        let offTheStack: UInt = 4096  // the first page above null: never a thread's stack

        let answers = [
            stackGuard.hasRoom(atDepth: 1, at: onTheStack),
            stackGuard.hasRoom(atDepth: 1, at: offTheStack),
            stackGuard.hasRoom(atDepth: StackGuard.depthWithoutBounds - 1, at: offTheStack),
            stackGuard.hasRoom(atDepth: StackGuard.depthWithoutBounds, at: offTheStack),
        ]

        #expect(answers == [true, true, true, false])
    }
}
