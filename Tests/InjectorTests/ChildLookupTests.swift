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

// A lookup that misses this container's published table goes on from the parent's table without
// probing its own again. These pin what that must keep: a container's own registration comes
// first, and a key it lacks is found in the nearest ancestor, from the first lookup (which
// publishes the table) and from every later one (which probes the published table).

private protocol LookupClock: Sendable {
    var label: String { get }
}

private final class LookupClockImpl: LookupClock {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class LookupRootOnly: Sendable {}

private final class LookupNowhere: Sendable {}

struct ChildLookupTests {
    /// A root registering the clock and `LookupRootOnly`, a child shadowing the clock, and a
    /// grandchild registering nothing of these, each finished: every table is published.
    private func family() throws -> (root: Container, child: Container, grandchild: Container) {
        let root = Container()
        root.register((any LookupClock).self) { _ in LookupClockImpl("root") }
        root.register(LookupRootOnly.self) { _ in LookupRootOnly() }
        let child = root.makeChild()
        child.register((any LookupClock).self) { _ in LookupClockImpl("child") }
        let grandchild = child.makeChild()
        grandchild.register(String.self) { _ in "grandchild's own" }
        try root.finishRegistration()
        try child.finishRegistration()
        try grandchild.finishRegistration()
        return (root, child, grandchild)
    }

    @Test func aChildsOwnRegistrationShadowsItsParentsOnEveryLookup() throws {
        let (root, child, grandchild) = try family()

        for _ in 0..<3 {
            #expect(try child.resolve((any LookupClock).self).label == "child")
            #expect(try grandchild.resolve((any LookupClock).self).label == "child")
            #expect(try root.resolve((any LookupClock).self).label == "root")
        }
    }

    @Test func aKeyOnlyAnAncestorRegistersIsFoundFromEveryDescendant() throws {
        let (root, child, grandchild) = try family()

        for _ in 0..<3 {
            _ = try child.resolve(LookupRootOnly.self)
            _ = try grandchild.resolve(LookupRootOnly.self)
            _ = try root.resolve(LookupRootOnly.self)
            #expect(try grandchild.resolve(String.self) == "grandchild's own")
        }
    }

    @Test func aKeyRegisteredNowhereIsMissingFromADescendantOnEveryLookup() throws {
        let (_, _, grandchild) = try family()

        for _ in 0..<2 {
            let error = try #require(injectionError { _ = try grandchild.resolve(LookupNowhere.self) })
            #expect(error.code == .missingRegistration)
            #expect(error.message.hasPrefix("No registration for LookupNowhere."))
        }
    }

    @Test func aChildWhoseTableIsPublishedBeforeItsParentRegistersFindsTheParentsLaterRegistration() throws {
        let root = Container()
        let child = root.makeChild()
        child.register(String.self) { _ in "child's own" }
        #expect(try child.resolve(String.self) == "child's own")  // publishes the child's table
        root.register(LookupRootOnly.self) { _ in LookupRootOnly() }

        _ = try child.resolve(LookupRootOnly.self)
        _ = try child.resolve(LookupRootOnly.self)
    }
}
