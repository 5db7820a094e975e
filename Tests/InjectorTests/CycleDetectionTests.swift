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

// MARK: - Test services (constructor cycles never finish, so these types are never built)

private final class CycleA: Sendable {
    let b: CycleB
    init(b: CycleB) { self.b = b }
}

private final class CycleB: Sendable {
    let c: CycleC
    init(c: CycleC) { self.c = c }
}

private final class CycleC: Sendable {
    let a: CycleA
    init(a: CycleA) { self.a = a }
}

private final class CycleSelf: Sendable {
    let inner: CycleSelf?
    init(inner: CycleSelf?) { self.inner = inner }
}

private final class CycleNode: Sendable {
    let next: CycleNode?
    init(next: CycleNode?) { self.next = next }
}

/// The diamond: Top needs Left and Right; both need Bottom.
private final class DiamondBottom: Sendable {}

private final class DiamondLeft: Sendable {
    let bottom: DiamondBottom
    init(bottom: DiamondBottom) { self.bottom = bottom }
}

private final class DiamondRight: Sendable {
    let bottom: DiamondBottom
    init(bottom: DiamondBottom) { self.bottom = bottom }
}

private final class DiamondTop: Sendable {
    let left: DiamondLeft
    let right: DiamondRight
    init(left: DiamondLeft, right: DiamondRight) {
        self.left = left
        self.right = right
    }
}

/// Entry needs Alpha; Alpha and Beta need each other: a loop that starts below the top.
private final class Entry: Sendable {}
private final class Alpha: Sendable {}
private final class Beta: Sendable {}

// MARK: - Helpers

/// Registers Entry -> Alpha -> Beta -> Alpha, with sync factories or async ones.
private func registerLoopBelowTheTop(in container: Container, async: Bool) {
    if async {
        container.register(Entry.self) { r in
            _ = try await r.resolveAsync(Alpha.self)
            return Entry()
        }
        container.register(Alpha.self) { r in
            _ = try await r.resolveAsync(Beta.self)
            return Alpha()
        }
        container.register(Beta.self) { r in
            _ = try await r.resolveAsync(Alpha.self)
            return Beta()
        }
    } else {
        container.register(Entry.self) { r in
            _ = try r.resolve(Alpha.self)
            return Entry()
        }
        container.register(Alpha.self) { r in
            _ = try r.resolve(Beta.self)
            return Alpha()
        }
        container.register(Beta.self) { r in
            _ = try r.resolve(Alpha.self)
            return Beta()
        }
    }
}

/// What a resolve of Entry says of its loop.
private let loopBelowTheTopMessage =
    "Circular dependency: Entry -> Alpha -> Beta -> Alpha. The loop is Alpha -> Beta -> Alpha: each of"
    + " these asks for the next in its factory, so none of them can be built first. Fix: break the cycle with"
    + " property injection: let one of them receive the other after construction, in an onResolved hook, and"
    + " give the one resolved back the .graph or .singleton scope so that the hook receives the same instance."

/// Registers A -> B -> C -> A, each as `scope`, counting factory calls.
private func registerCycleABC(in container: Container, scope: Scope, calls: EventLog) {
    container.register(CycleA.self, scope: scope) { r in
        calls.record("A")
        return CycleA(b: try r.resolve(CycleB.self))
    }
    container.register(CycleB.self, scope: scope) { r in
        calls.record("B")
        return CycleB(c: try r.resolve(CycleC.self))
    }
    container.register(CycleC.self, scope: scope) { r in
        calls.record("C")
        return CycleC(a: try r.resolve(CycleA.self))
    }
}

// MARK: - Tests

struct CycleDetectionTests {
    @Test(arguments: [Scope.transient, .graph, .singleton, .weak])
    func constructorCycleOfThreeThrowsAtTheFirstReenteredKey(scope: Scope) throws {
        let container = Container()
        let calls = EventLog()
        registerCycleABC(in: container, scope: scope, calls: calls)

        let error = try #require(injectionError { try container.resolve(CycleA.self) })

        #expect(error.code == .circularDependency)
        #expect(error.message.contains("CycleA -> CycleB -> CycleC -> CycleA"))
        #expect(error.message.contains("onResolved"))
        #expect(error.resolutionPath.map(\.description) == ["CycleA", "CycleB", "CycleC", "CycleA"])
        #expect(error.description == error.message)
        #expect(calls.counts == ["A": 1, "B": 1, "C": 1], "no factory runs twice")
    }

    @Test func cycleEnteredFromTheMiddleIsWrittenFromWhereItWasEntered() throws {
        let container = Container()
        let calls = EventLog()
        registerCycleABC(in: container, scope: .transient, calls: calls)

        let error = try #require(injectionError { try container.resolve(CycleB.self) })

        #expect(error.code == .circularDependency)
        #expect(error.message.contains("CycleB -> CycleC -> CycleA -> CycleB"))
        #expect(error.message.contains("onResolved"))
        #expect(error.resolutionPath.map(\.description) == ["CycleB", "CycleC", "CycleA", "CycleB"])
        #expect(calls.counts == ["A": 1, "B": 1, "C": 1])
    }

    @Test func cycleBehindAnAcyclicPrefixShowsThePathFromTheTopAndTheLoop() throws {
        // Entry -> A -> B -> C -> A: the loop is A -> B -> C -> A; the path starts at Entry.
        let container = Container()
        let calls = EventLog()
        registerCycleABC(in: container, scope: .transient, calls: calls)
        container.register(CycleNode.self) { r in
            calls.record("Entry")
            _ = try r.resolve(CycleA.self)
            return CycleNode(next: nil)
        }

        let error = try #require(injectionError { try container.resolve(CycleNode.self) })

        #expect(error.code == .circularDependency)
        #expect(
            error.message
                == "Circular dependency: CycleNode -> CycleA -> CycleB -> CycleC -> CycleA. The loop is CycleA"
                + " -> CycleB -> CycleC -> CycleA: each of these asks for the next in its factory, so none of them"
                + " can be built first. Fix: break the cycle with property injection: let one of them receive the"
                + " other after construction, in an onResolved hook, and give the one resolved back the .graph or"
                + " .singleton scope so that the hook receives the same instance."
        )
        #expect(
            error.resolutionPath.map(\.description) == ["CycleNode", "CycleA", "CycleB", "CycleC", "CycleA"]
        )
        #expect(calls.counts == ["Entry": 1, "A": 1, "B": 1, "C": 1])
    }

    /// A loop that starts below the top-level service is written from the top, then the loop.
    @Test func loopBelowTheTopShowsThePathFromTheTop() throws {
        let container = Container()
        registerLoopBelowTheTop(in: container, async: false)

        let error = try #require(injectionError { try container.resolve(Entry.self) })

        #expect(error.code == .circularDependency)
        #expect(error.message == loopBelowTheTopMessage)
        #expect(error.resolutionPath.map(\.description) == ["Entry", "Alpha", "Beta", "Alpha"])
    }

    /// The same loop met by an async resolve says the same.
    @Test func loopBelowTheTopShowsThePathFromTheTopInAnAsyncResolve() async throws {
        let container = Container()
        registerLoopBelowTheTop(in: container, async: true)

        let error = await injectionErrorAsync { try await container.resolveAsync(Entry.self) }

        #expect(error?.code == .circularDependency)
        #expect(error?.message == loopBelowTheTopMessage)
        #expect(error?.resolutionPath.map(\.description) == ["Entry", "Alpha", "Beta", "Alpha"])
    }

    /// Validation reports the loop once, from the first registration that reaches it: Entry's, with
    /// the path from Entry.
    @Test(arguments: [false, true])
    func validationReportsTheLoopBelowTheTopOnceWithThePathFromTheTop(async: Bool) async throws {
        let container = Container()
        registerLoopBelowTheTop(in: container, async: async)

        let error = await injectionErrorAsync {
            async ? try await container.validateAsync() : try container.validate()
        }

        #expect(error?.code == .validationFailed)
        #expect(error?.problems.map(\.code) == [.circularDependency])
        #expect(error?.problems.first?.message == loopBelowTheTopMessage)
    }

    @Test(arguments: [Scope.transient, .graph, .singleton])
    func selfCycleThrowsWithTheKeyTwice(scope: Scope) throws {
        let container = Container()
        let calls = EventLog()
        container.register(CycleSelf.self, scope: scope) { r in
            calls.record("Self")
            return CycleSelf(inner: try r.resolve(CycleSelf.self))
        }

        let error = try #require(injectionError { try container.resolve(CycleSelf.self) })

        #expect(error.code == .circularDependency)
        #expect(error.message.contains("CycleSelf -> CycleSelf"))
        #expect(error.message.contains("onResolved"))
        #expect(error.resolutionPath.map(\.description) == ["CycleSelf", "CycleSelf"])
        #expect(calls.count("Self") == 1, "the factory never runs twice")
    }

    @Test func cycleThroughASingletonThrowsAndLeavesTheSingletonUnbuilt() throws {
        // A (transient) -> B (singleton) -> C (transient) -> A
        let container = Container()
        let calls = EventLog()
        container.register(CycleA.self) { r in
            calls.record("A")
            return CycleA(b: try r.resolve(CycleB.self))
        }
        container.register(CycleB.self, scope: .singleton) { r in
            calls.record("B")
            return CycleB(c: try r.resolve(CycleC.self))
        }
        container.register(CycleC.self) { r in
            calls.record("C")
            return CycleC(a: try r.resolve(CycleA.self))
        }

        let error = try #require(injectionError { try container.resolve(CycleA.self) })
        #expect(error.code == .circularDependency)
        #expect(error.message.contains("CycleA -> CycleB -> CycleC -> CycleA"))
        #expect(error.message.contains("onResolved"))
        #expect(calls.counts == ["A": 1, "B": 1, "C": 1])

        // The singleton was not published half-built: resolving it directly runs its factory again
        // and meets the same cycle, entered at B this time.
        let direct = try #require(injectionError { try container.resolve(CycleB.self) })
        #expect(direct.code == .circularDependency)
        #expect(direct.message.contains("CycleB -> CycleC -> CycleA -> CycleB"))
        #expect(calls.counts == ["A": 2, "B": 2, "C": 2])
    }

    @Test func cycleThroughAChildContainersShadowIsDetected() throws {
        // The parent's A needs B; only the child registers B (which needs C) and C (which needs A).
        // Resolved through the child, the parent's transient A sees the child's B: A -> B -> C -> A.
        let parent = Container()
        let calls = EventLog()
        parent.register(CycleA.self) { r in
            calls.record("A")
            return CycleA(b: try r.resolve(CycleB.self))
        }
        let child = parent.makeChild()
        child.register(CycleB.self) { r in
            calls.record("B")
            return CycleB(c: try r.resolve(CycleC.self))
        }
        child.register(CycleC.self) { r in
            calls.record("C")
            return CycleC(a: try r.resolve(CycleA.self))
        }

        let error = try #require(injectionError { try child.resolve(CycleA.self) })
        #expect(error.code == .circularDependency)
        #expect(error.message.contains("CycleA -> CycleB -> CycleC -> CycleA"))
        #expect(error.message.contains("onResolved"))
        #expect(error.resolutionPath.map(\.description) == ["CycleA", "CycleB", "CycleC", "CycleA"])
        #expect(calls.counts == ["A": 1, "B": 1, "C": 1])

        // The parent alone has no B: there it is a missing registration, not a cycle.
        let fromParent = try #require(injectionError { try parent.resolve(CycleA.self) })
        #expect(fromParent.code == .missingRegistration)
    }

    @Test func cycleThroughAParentSingletonBuiltForAChildIsDetected() throws {
        // Parent: A (singleton) -> B -> C -> A, all in the parent; the child only asks.
        let parent = Container()
        let calls = EventLog()
        parent.register(CycleA.self, scope: .singleton) { r in
            calls.record("A")
            return CycleA(b: try r.resolve(CycleB.self))
        }
        parent.register(CycleB.self) { r in
            calls.record("B")
            return CycleB(c: try r.resolve(CycleC.self))
        }
        parent.register(CycleC.self) { r in
            calls.record("C")
            return CycleC(a: try r.resolve(CycleA.self))
        }
        let child = parent.makeChild()

        let error = try #require(injectionError { try child.resolve(CycleA.self) })
        #expect(error.code == .circularDependency)
        #expect(error.message.contains("CycleA -> CycleB -> CycleC -> CycleA"))
        #expect(calls.counts == ["A": 1, "B": 1, "C": 1])
    }

    @Test func cycleThroughNamedRegistrationsShowsTheNames() throws {
        // CycleNode "first" -> "second" -> "third" -> "first"; an unnamed CycleNode is not involved.
        let container = Container()
        let calls = EventLog()
        let names = ["first", "second", "third"]
        for (index, name) in names.enumerated() {
            let next = names[(index + 1) % names.count]
            container.register(CycleNode.self, name: name) { r in
                calls.record(name)
                return CycleNode(next: try r.resolve(CycleNode.self, name: next))
            }
        }
        container.register(CycleNode.self) { _ in
            calls.record("unnamed")
            return CycleNode(next: nil)
        }

        let error = try #require(injectionError { try container.resolve(CycleNode.self, name: "first") })

        #expect(error.code == .circularDependency)
        let cycle =
            #"CycleNode (name: "first") -> CycleNode (name: "second") -> CycleNode (name: "third") -> CycleNode (name: "first")"#
        #expect(error.message.contains(cycle))
        #expect(error.message.contains("onResolved"))
        #expect(error.resolutionPath.map(\.name) == ["first", "second", "third", "first"])
        #expect(calls.counts == ["first": 1, "second": 1, "third": 1])
    }

    @Test func sameTypeUnderAnotherNameIsNotACycle() throws {
        let container = Container()
        container.register(CycleNode.self, name: "outer") { r in
            CycleNode(next: try r.resolve(CycleNode.self, name: "inner"))
        }
        container.register(CycleNode.self, name: "inner") { _ in CycleNode(next: nil) }

        let node = try container.resolve(CycleNode.self, name: "outer")
        #expect(node.next != nil)
        #expect(node.next?.next == nil)
    }

    @Test func cycleErrorIsThrownAgainOnTheNextResolveNotCached() throws {
        let container = Container()
        let calls = EventLog()
        registerCycleABC(in: container, scope: .singleton, calls: calls)

        let first = try #require(injectionError { try container.resolve(CycleA.self) })
        let second = try #require(injectionError { try container.resolve(CycleA.self) })

        for error in [first, second] {
            #expect(error.code == .circularDependency)
            #expect(error.message.contains("CycleA -> CycleB -> CycleC -> CycleA"))
            #expect(error.resolutionPath.map(\.description) == ["CycleA", "CycleB", "CycleC", "CycleA"])
        }
        // Each resolve ran every factory once more: the error was raised afresh, not replayed.
        #expect(calls.counts == ["A": 2, "B": 2, "C": 2])
    }

    @Test(arguments: [Scope.transient, .graph])
    func cyclesArePerTopLevelResolveSoSequentialDiamondsDoNotFalsePositive(scope: Scope) throws {
        let container = Container()
        let calls = EventLog()
        container.register(DiamondBottom.self, scope: scope) { _ in
            calls.record("Bottom")
            return DiamondBottom()
        }
        container.register(DiamondLeft.self) { r in
            calls.record("Left")
            return DiamondLeft(bottom: try r.resolve(DiamondBottom.self))
        }
        container.register(DiamondRight.self) { r in
            calls.record("Right")
            return DiamondRight(bottom: try r.resolve(DiamondBottom.self))
        }
        container.register(DiamondTop.self) { r in
            calls.record("Top")
            return DiamondTop(left: try r.resolve(DiamondLeft.self), right: try r.resolve(DiamondRight.self))
        }

        let first = try container.resolve(DiamondTop.self)
        let second = try container.resolve(DiamondTop.self)

        // Bottom is asked for twice per resolve (once under Left, once under Right): not a cycle.
        let bottomsPerResolve = scope == .graph ? 1 : 2
        #expect(calls.counts == ["Top": 2, "Left": 2, "Right": 2, "Bottom": 2 * bottomsPerResolve])
        #expect((first.left.bottom === first.right.bottom) == (scope == .graph))
        #expect(first.left.bottom !== second.left.bottom)
    }

    @Test func sameKeyResolvedTwiceBySiblingsInOneFactoryIsNotACycle() throws {
        let container = Container()
        let calls = EventLog()
        container.register(DiamondBottom.self) { _ in
            calls.record("Bottom")
            return DiamondBottom()
        }
        container.register(DiamondLeft.self) { r in
            _ = try r.resolve(DiamondBottom.self)
            _ = try r.resolve(DiamondBottom.self)
            return DiamondLeft(bottom: try r.resolve(DiamondBottom.self))
        }

        _ = try container.resolve(DiamondLeft.self)
        #expect(calls.count("Bottom") == 3)
    }

    @Test func failedCyclicSingletonResolveReleasesTheConstructionLock() async throws {
        let container = Container()
        let calls = EventLog()
        registerCycleABC(in: container, scope: .singleton, calls: calls)
        container.register(DiamondBottom.self, scope: .singleton) { _ in DiamondBottom() }

        let error = try #require(injectionError { try container.resolve(CycleA.self) })
        #expect(error.code == .circularDependency)

        // Another thread builds a singleton of the same container tree: it would block forever if
        // the failed resolve had kept the (recursive, per-tree) construction lock.
        let built: Bool = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: (try? container.resolve(DiamondBottom.self)) != nil)
            }
            thread.start()
        }
        #expect(built)
    }
}

/// A tree built by resolving its subtrees with smaller depths.
private final class ArgumentTree: Sendable {
    let depth: Int
    let children: [ArgumentTree]
    init(depth: Int, children: [ArgumentTree]) {
        self.depth = depth
        self.children = children
    }
}

/// A value that is not Hashable: resolutions with it cannot be compared.
private struct OpaqueDepth: Sendable { let value: Int }

extension CycleDetectionTests {
    /// A registration that resolves itself with other arguments is finite recursion, not a cycle:
    /// each level builds, down to the leaves.
    @Test func finiteRecursionThroughArgumentsResolves() throws {
        let container = Container()
        container.register(ArgumentTree.self) { (r, depth: Int) in
            let children =
                depth == 0 ? [] : try (0..<2).map { _ in try r.resolve(ArgumentTree.self, argument: depth - 1) }
            return ArgumentTree(depth: depth, children: children)
        }

        let tree = try container.resolve(ArgumentTree.self, argument: 4)

        #expect(tree.depth == 4)
        #expect(tree.children.map(\.depth) == [3, 3])
        #expect(tree.children[0].children[1].children[0].children[1].depth == 0)
    }

    /// Recursion through arguments that are not Hashable resolves too.
    @Test func finiteRecursionThroughUnhashableArgumentsResolves() throws {
        let container = Container()
        container.register(ArgumentTree.self) { (r, depth: OpaqueDepth) in
            let children =
                depth.value == 0
                ? [] : [try r.resolve(ArgumentTree.self, argument: OpaqueDepth(value: depth.value - 1))]
            return ArgumentTree(depth: depth.value, children: children)
        }

        let tree = try container.resolve(ArgumentTree.self, argument: OpaqueDepth(value: 3))

        #expect(tree.children.first?.children.first?.children.first?.depth == 0)
    }

    /// A registration that resolves itself with the same arguments is still a cycle, named as one.
    @Test func recursionWithTheSameArgumentsIsACycle() throws {
        let container = Container()
        container.register(ArgumentTree.self) { (r, depth: Int) in
            try ArgumentTree(depth: depth, children: [r.resolve(ArgumentTree.self, argument: depth)])
        }

        let error = try #require(injectionError { try container.resolve(ArgumentTree.self, argument: 2) })

        #expect(error.code == .circularDependency)
        #expect(
            error.message.hasPrefix(
                "Circular dependency: ArgumentTree (argument: Int) -> ArgumentTree (argument: Int). Each of these"
                    + " asks for the next in its factory, so none of them can be built first."
            )
        )
    }

    /// Recursion whose arguments never repeat and never end is stopped by the stack guard.
    @Test func endlessRecursionThroughArgumentsEndsInResolutionTooDeep() async throws {
        let container = Container()
        container.register(ArgumentTree.self) { (r, depth: Int) in
            try ArgumentTree(depth: depth, children: [r.resolve(ArgumentTree.self, argument: depth + 1)])
        }

        let outcome: InjectionError?? = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: injectionError { try container.resolve(ArgumentTree.self, argument: 0) })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }

        let error = try #require(outcome ?? nil)
        #expect(error.code == .resolutionTooDeep)
        #expect(
            error.message.contains(
                "Such a chain is usually a registration that resolves itself under another name or argument."
            )
        )
    }
}

/// A transient instance numbered by its resolve-time argument, whose hook may resolve another.
private final class Countdown: Sendable {
    let serial: Int
    init(_ serial: Int) { self.serial = serial }
}

/// A value that cannot be compared, given as a resolve-time argument.
private struct Uncomparable: Sendable {
    let serial: Int
}

@Suite struct HookRecursionTests {
    /// A hook that resolves its own registration with other arguments is recursion, as in a factory:
    /// it ends, and every level is prepared, in a sync resolve as in an async one.
    @Test(arguments: [false, true])
    func aHookResolvingItsRegistrationWithOtherArgumentsRecursesToTheEnd(async: Bool) async throws {
        let prepared = EventLog()
        let container = Container()
        container.register(Countdown.self) { (_: Resolver, serial: Int) in Countdown(serial) }
            .onResolved { r, countdown in
                prepared.record("\(countdown.serial)")
                if countdown.serial > 0 { _ = try r.resolve(Countdown.self, argument: countdown.serial - 1) }
            }

        let top =
            async
            ? try await container.resolveAsync(Countdown.self, argument: 3)
            : try container.resolve(Countdown.self, argument: 3)
        #expect(top.serial == 3)
        #expect(prepared.events == ["3", "2", "1", "0"])
    }

    /// Arguments that cannot be compared are taken as other arguments, as on the construction path.
    @Test func aHookResolvingItsRegistrationWithUncomparableArgumentsRecurses() throws {
        let container = Container()
        container.register(Countdown.self) { (_: Resolver, given: Uncomparable) in Countdown(given.serial) }
            .onResolved { r, countdown in
                if countdown.serial > 0 {
                    _ = try r.resolve(Countdown.self, argument: Uncomparable(serial: countdown.serial - 1))
                }
            }

        #expect(try container.resolve(Countdown.self, argument: Uncomparable(serial: 2)).serial == 2)
    }

    /// The same arguments again, even two hooks apart, close a cycle, reported with its path.
    @Test func aHookResolvingItsRegistrationWithTheSameArgumentsAgainIsACycle() throws {
        let container = Container()
        container.register(Countdown.self) { (_: Resolver, serial: Int) in Countdown(serial) }
            .onResolved { r, countdown in _ = try r.resolve(Countdown.self, argument: 1 - countdown.serial) }

        let error = try #require(injectionError { try container.resolve(Countdown.self, argument: 0) })

        #expect(error.code == .circularDependency)
        #expect(
            error.message
                == "Circular dependency through onResolved hooks: Countdown (argument: Int) -> Countdown (argument:"
                + " Int) -> Countdown (argument: Int). Each hook makes a new transient instance whose own hook makes"
                + " another, without end. Fix: give one of them the .graph scope, so that the hook resolving it back"
                + " receives the instance being prepared."
        )
    }

    /// A recursion through hooks whose arguments never repeat is stopped once hooks led back more than
    /// 1,000 times, its path elided.
    @Test func endlessRecursionThroughHooksEndsInResolutionTooDeep() throws {
        let container = Container()
        container.register(Countdown.self) { (_: Resolver, serial: Int) in Countdown(serial) }
            .onResolved { r, countdown in _ = try r.resolve(Countdown.self, argument: countdown.serial + 1) }

        let error = try #require(injectionError { try container.resolve(Countdown.self, argument: 0) })

        let link = "Countdown (argument: Int)"
        let shown = Array(repeating: link, count: 8).joined(separator: " -> ")
        #expect(error.code == .resolutionTooDeep)
        #expect(
            error.message
                == "onResolved hooks led back to registrations they came from, with other arguments each time, more"
                + " than 1000 times in one resolve, and no end is in sight; the last, to \(link): \(shown) -> … (986"
                + " more) -> \(shown). Fix: end the recursion sooner, or build such a structure in a factory or a loop"
                + " rather than through hooks."
        )
    }
}
