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

/// Built with its child in `init`; the child learns its parent in an `onResolved` hook.
private final class PropParent: @unchecked Sendable {
    let child: PropChild
    init(child: PropChild) { self.child = child }
}

private final class PropChild: @unchecked Sendable {
    /// Strong, so that a graph-scoped parent resolved from the child side stays alive (the cycle
    /// leaks, which a test can afford).
    var parent: PropParent?
}

/// A node of a property ring: `next` is set by a hook.
private final class PropRingNode: @unchecked Sendable {
    let label: String
    var next: PropRingNode?
    init(label: String) { self.label = label }
}

private final class PropTransientA: @unchecked Sendable {
    var b: PropTransientB?
}

private final class PropTransientB: @unchecked Sendable {
    var a: PropTransientA?
}

/// The order test's chain: Top is built with Left and Right; Left is built with Leaf.
private final class PropLeaf: Sendable {}

private final class PropLeft: Sendable {
    let leaf: PropLeaf
    init(leaf: PropLeaf) { self.leaf = leaf }
}

private final class PropRight: Sendable {}

private final class PropTop: Sendable {
    let left: PropLeft
    let right: PropRight
    init(left: PropLeft, right: PropRight) {
        self.left = left
        self.right = right
    }
}

private struct PropHookFailure: Error, Equatable, CustomStringConvertible {
    let reason: String
    var description: String { "PropHookFailure(\(reason))" }
}

// MARK: - Helpers

private func registerParentAndChild(in container: Container, scope: Scope, log: EventLog) {
    container.register(PropParent.self, scope: scope) { r in
        log.record("Parent factory")
        return PropParent(child: try r.resolve(PropChild.self))
    }
    container.register(PropChild.self, scope: scope) { _ in
        log.record("Child factory")
        return PropChild()
    }
    .onResolved { r, child in
        log.record("Child hook")
        child.parent = try r.resolve(PropParent.self)
    }
}

private let propRingLabels = ["A", "B", "C", "D"]

/// Registers four nodes named A…D; each node's hook sets `next` to the following one (D's to A).
private func registerRing(in container: Container, scope: Scope, log: EventLog) {
    for (index, label) in propRingLabels.enumerated() {
        let nextLabel = propRingLabels[(index + 1) % propRingLabels.count]
        container.register(PropRingNode.self, name: label, scope: scope) { _ in
            log.record("\(label) factory")
            return PropRingNode(label: label)
        }
        .onResolved { r, node in
            log.record("\(label) hook")
            node.next = try r.resolve(PropRingNode.self, name: nextLabel)
        }
    }
}

/// Follows `next` four times from `start` and checks it is the ring A -> B -> C -> D -> A of
/// distinct nodes, starting at `start`'s label.
private func expectConsistentRing(from start: PropRingNode, sourceLocation: SourceLocation = #_sourceLocation) {
    var nodes: [PropRingNode] = [start]
    var current = start
    for _ in 0..<4 {
        guard let next = current.next else {
            Issue.record("\(current.label).next is nil", sourceLocation: sourceLocation)
            return
        }
        nodes.append(next)
        current = next
    }
    #expect(nodes[4] === start, "four steps lead back to the start", sourceLocation: sourceLocation)
    #expect(
        Set(nodes.prefix(4).map(ObjectIdentifier.init)).count == 4,
        "four distinct nodes",
        sourceLocation: sourceLocation
    )
    let startIndex = propRingLabels.firstIndex(of: start.label) ?? 0
    let expected = (0...4).map { propRingLabels[(startIndex + $0) % 4] }
    #expect(nodes.map(\.label) == expected, sourceLocation: sourceLocation)
}

// MARK: - Tests

struct PropertyCycleTests {
    @Test(arguments: [Scope.graph, .singleton])
    func constructorToPropertyCycleGivesMutuallyConsistentParentAndChild(scope: Scope) throws {
        let container = Container()
        let log = EventLog()
        registerParentAndChild(in: container, scope: scope, log: log)

        let parent = try container.resolve(PropParent.self)

        #expect(parent.child.parent === parent)
        #expect(log.events == ["Parent factory", "Child factory", "Child hook"], "no factory runs twice")
    }

    @Test(arguments: [Scope.graph, .singleton])
    func propertyCycleResolvedFromTheChildSideIsConsistentToo(scope: Scope) throws {
        let container = Container()
        let log = EventLog()
        registerParentAndChild(in: container, scope: scope, log: log)

        let child = try container.resolve(PropChild.self)

        let parent = try #require(child.parent)
        #expect(parent.child === child)
        #expect(log.events == ["Child factory", "Child hook", "Parent factory"])
    }

    @Test func graphScopedPropertyCycleGivesNewPairsPerTopLevelResolve() throws {
        let container = Container()
        let log = EventLog()
        registerParentAndChild(in: container, scope: .graph, log: log)

        let first = try container.resolve(PropParent.self)
        let second = try container.resolve(PropParent.self)

        #expect(first !== second)
        #expect(first.child !== second.child)
        #expect(first.child.parent === first)
        #expect(second.child.parent === second)
    }

    @Test func singletonPropertyCycleIsPublishedOnceAndSharedByLaterResolves() throws {
        let container = Container()
        let log = EventLog()
        registerParentAndChild(in: container, scope: .singleton, log: log)

        let parent = try container.resolve(PropParent.self)
        let child = try container.resolve(PropChild.self)
        let again = try container.resolve(PropParent.self)

        #expect(child === parent.child)
        #expect(again === parent)
        #expect(child.parent === parent)
        #expect(log.count("Parent factory") == 1)
        #expect(log.count("Child factory") == 1)
        #expect(log.count("Child hook") == 1, "a published singleton is not prepared again")
    }

    @Test(arguments: [Scope.graph, .singleton])
    func fourObjectRingThroughHooksIsConsistent(scope: Scope) throws {
        let container = Container()
        let log = EventLog()
        registerRing(in: container, scope: scope, log: log)

        let a = try container.resolve(PropRingNode.self, name: "A")

        expectConsistentRing(from: a)
        for label in propRingLabels {
            #expect(log.count("\(label) factory") == 1, "\(label)'s factory ran once")
            #expect(log.count("\(label) hook") == 1, "\(label)'s hook ran once")
        }
        // A is built first; each hook then builds the next node, whose hook runs after it.
        #expect(
            log.events == [
                "A factory", "A hook", "B factory", "B hook", "C factory", "C hook", "D factory", "D hook",
            ]
        )
    }

    @Test func singletonRingIsTheSameRingFromEveryEntryPoint() throws {
        let container = Container()
        let log = EventLog()
        registerRing(in: container, scope: .singleton, log: log)

        let a = try container.resolve(PropRingNode.self, name: "A")
        let c = try container.resolve(PropRingNode.self, name: "C")

        expectConsistentRing(from: c)
        #expect(a.next?.next === c)
        #expect(c.next?.next === a)
        #expect(log.events.count == 8, "the second resolve found the published ring")
    }

    @Test func graphRingEnteredAtAnotherNodeIsANewRing() throws {
        let container = Container()
        let log = EventLog()
        registerRing(in: container, scope: .graph, log: log)

        let a = try container.resolve(PropRingNode.self, name: "A")
        let c = try container.resolve(PropRingNode.self, name: "C")

        expectConsistentRing(from: a)
        expectConsistentRing(from: c)
        #expect(a.next?.next !== c)
    }

    @Test func hooksRunAfterTheOutermostConstructionInCompletionOrder() throws {
        let container = Container()
        let log = EventLog()
        container.register(PropLeaf.self) { _ in
            log.record("Leaf factory")
            return PropLeaf()
        }
        .onResolved { _, _ in log.record("Leaf hook") }
        .verify { _ in log.record("Leaf verify") }
        container.register(PropLeft.self) { r in
            log.record("Left factory begins")
            defer { log.record("Left factory ends") }
            return PropLeft(leaf: try r.resolve(PropLeaf.self))
        }
        .onResolved { _, _ in log.record("Left hook") }
        container.register(PropRight.self) { _ in
            log.record("Right factory")
            return PropRight()
        }
        .onResolved { _, _ in log.record("Right hook") }
        container.register(PropTop.self) { r in
            log.record("Top factory begins")
            defer { log.record("Top factory ends") }
            return PropTop(left: try r.resolve(PropLeft.self), right: try r.resolve(PropRight.self))
        }
        .onResolved { _, _ in log.record("Top hook") }
        .verify { _ in log.record("Top verify") }

        _ = try container.resolve(PropTop.self)

        #expect(
            log.events == [
                "Top factory begins",
                "Left factory begins", "Leaf factory", "Left factory ends",
                "Right factory",
                "Top factory ends",
                // Deferred until the outermost factory returned; then in completion order, each
                // instance's hooks followed by its checks.
                "Leaf hook", "Leaf verify", "Left hook", "Right hook", "Top hook", "Top verify",
            ]
        )
    }

    @Test func hookThrowingFailsWithPreparationFailedWrappingItsError() throws {
        let container = Container()
        container.register(PropRingNode.self) { _ in PropRingNode(label: "solo") }
            .onResolved { _, _ in throw PropHookFailure(reason: "no network") }

        let error = try #require(injectionError { try container.resolve(PropRingNode.self) })

        #expect(error.code == .preparationFailed)
        #expect(error.underlyingError as? PropHookFailure == PropHookFailure(reason: "no network"))
        #expect(error.message.contains("onResolved"))
        #expect(error.message.contains("PropRingNode"))
        #expect(error.message.contains("PropHookFailure(no network)"))
        #expect(error.resolutionPath.last?.description == "PropRingNode")
    }

    @Test func hookOfANestedDependencyThrowingFailsTheTopLevelResolve() throws {
        let container = Container()
        container.register(PropParent.self) { r in PropParent(child: try r.resolve(PropChild.self)) }
        container.register(PropChild.self) { _ in PropChild() }
            .onResolved { _, _ in throw PropHookFailure(reason: "child broke") }

        let error = try #require(injectionError { try container.resolve(PropParent.self) })

        #expect(error.code == .preparationFailed)
        #expect(error.underlyingError as? PropHookFailure == PropHookFailure(reason: "child broke"))
        #expect(error.message.contains("onResolved"))
        #expect(error.message.contains("PropChild"))
    }

    @Test func verifyFailureFailsWithPreparationFailedSayingVerify() throws {
        let container = Container()
        container.register(PropChild.self) { _ in PropChild() }
            .verify { child in
                guard child.parent != nil else { throw PropHookFailure(reason: "child has no parent") }
            }

        let error = try #require(injectionError { try container.resolve(PropChild.self) })

        #expect(error.code == .preparationFailed)
        #expect(error.underlyingError as? PropHookFailure == PropHookFailure(reason: "child has no parent"))
        #expect(error.message.contains("verify"))
        #expect(error.message.contains("PropChild"))
        #expect(!error.message.contains("onResolved"))
    }

    @Test func verifyRunsAfterHooksSoItSeesTheBackReference() throws {
        let container = Container()
        let log = EventLog()
        registerParentAndChild(in: container, scope: .graph, log: log)
        container.register(PropChild.self, scope: .graph, replacesExisting: true) { _ in PropChild() }
            .onResolved { r, child in child.parent = try r.resolve(PropParent.self) }
            .verify { child in
                guard child.parent != nil else { throw PropHookFailure(reason: "verify ran before the hook") }
            }

        let parent = try container.resolve(PropParent.self)
        #expect(parent.child.parent === parent)
    }

    @Test func transientHookCycleThrowsCircularDependencyMentioningOnResolved() throws {
        let container = Container()
        let log = EventLog()
        container.register(PropTransientA.self) { _ in
            log.record("A factory")
            return PropTransientA()
        }
        .onResolved { r, a in
            log.record("A hook")
            a.b = try r.resolve(PropTransientB.self)
        }
        container.register(PropTransientB.self) { _ in
            log.record("B factory")
            return PropTransientB()
        }
        .onResolved { r, b in
            log.record("B hook")
            b.a = try r.resolve(PropTransientA.self)
        }

        let error = try #require(injectionError { try container.resolve(PropTransientA.self) })

        #expect(error.code == .circularDependency)
        #expect(error.message.contains("onResolved"))
        #expect(error.message.contains("PropTransientA -> PropTransientB -> PropTransientA"))
        #expect(error.resolutionPath.map(\.description) == ["PropTransientA", "PropTransientB", "PropTransientA"])
        // It stopped when the cycle closed: A, then B, then one more A whose hook never ran.
        #expect(log.events == ["A factory", "A hook", "B factory", "B hook", "A factory"])
    }

    @Test func transientSelfHookCycleThrowsCircularDependency() throws {
        let container = Container()
        let log = EventLog()
        container.register(PropTransientA.self) { _ in
            log.record("A factory")
            return PropTransientA()
        }
        .onResolved { r, _ in
            log.record("A hook")
            _ = try r.resolve(PropTransientA.self)
        }

        let error = try #require(injectionError { try container.resolve(PropTransientA.self) })

        #expect(error.code == .circularDependency)
        #expect(error.message.contains("onResolved"))
        #expect(error.message.contains("PropTransientA -> PropTransientA"))
        #expect(log.events == ["A factory", "A hook", "A factory"])
    }

    @Test func singletonWhoseHookThrowsIsNotCached() throws {
        let container = Container()
        let log = EventLog()
        container.register(PropRingNode.self, scope: .singleton) { _ in
            log.record("factory")
            return PropRingNode(label: "singleton")
        }
        .onResolved { _, _ in
            log.record("hook")
            if log.count("hook") == 1 { throw PropHookFailure(reason: "first preparation fails") }
        }

        let error = try #require(injectionError { try container.resolve(PropRingNode.self) })
        #expect(error.code == .preparationFailed)
        #expect(error.underlyingError as? PropHookFailure == PropHookFailure(reason: "first preparation fails"))
        #expect(error.message.contains("onResolved"))

        // The next resolve runs the factory again and, now that the hook succeeds, publishes it.
        let second = try container.resolve(PropRingNode.self)
        let third = try container.resolve(PropRingNode.self)
        #expect(second === third)
        #expect(log.events == ["factory", "hook", "factory", "hook"])
    }

    @Test func singletonWhoseDependencysHookThrowsIsNotCachedEither() throws {
        let container = Container()
        let log = EventLog()
        container.register(PropParent.self, scope: .singleton) { r in
            log.record("Parent factory")
            return PropParent(child: try r.resolve(PropChild.self))
        }
        container.register(PropChild.self, scope: .singleton) { _ in
            log.record("Child factory")
            return PropChild()
        }
        .onResolved { _, _ in
            log.record("Child hook")
            if log.count("Child hook") == 1 { throw PropHookFailure(reason: "first preparation fails") }
        }

        let error = try #require(injectionError { try container.resolve(PropParent.self) })
        #expect(error.code == .preparationFailed)

        let parent = try container.resolve(PropParent.self)
        #expect(try container.resolve(PropChild.self) === parent.child)
        #expect(
            log.events == [
                "Parent factory", "Child factory", "Child hook",
                "Parent factory", "Child factory", "Child hook",
            ]
        )
    }
}
