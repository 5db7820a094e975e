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

// Instances the app already has, registered owned by the container or by the caller.

private protocol InstanceStore: Sendable {}
private final class OpenDatabase: InstanceStore, Disposable, Sendable {
    let disposals = CallCounter()
    func dispose() { disposals.next() }
}
private struct OpenFile: InstanceStore, Disposable, Sendable {
    let disposals: CallCounter
    func dispose() { disposals.next() }
}

struct ExistingInstanceTests {
    /// An instance owned by the container is what every resolve returns, and shutdown disposes
    /// it once, though nothing resolved it.
    @Test func instanceOwnedByTheContainerIsDisposedAtShutdownOnce() throws {
        let container = Container()
        let database = OpenDatabase()
        container.register(OpenDatabase.self, instance: database, ownedBy: .container)
        try container.finishRegistration()

        #expect(try container.resolve(OpenDatabase.self) === database)
        try container.shutdown()
        try container.shutdown()
        #expect(database.disposals.count == 1)
    }

    /// An instance owned by the caller is never disposed by the container.
    @Test func instanceOwnedByTheCallerIsNeverDisposed() throws {
        let container = Container()
        let database = OpenDatabase()
        container.register(OpenDatabase.self, instance: database, ownedBy: .caller)

        #expect(try container.resolve(OpenDatabase.self) === database)
        try container.shutdown()
        #expect(database.disposals.count == 0)
    }

    /// No scope disposes a registered instance, class or value, even passed on by a transient
    /// under another key; nor does validation.
    @Test(arguments: [InstanceOwnership.container, .caller])
    func scopesAndValidationNeverDisposeARegisteredInstance(ownership: InstanceOwnership) throws {
        let container = Container()
        let database = OpenDatabase()
        let fileDisposals = CallCounter()
        container.register(OpenDatabase.self, instance: database, ownedBy: ownership)
        container.register(OpenFile.self, instance: OpenFile(disposals: fileDisposals), ownedBy: ownership)
        container.register((any InstanceStore).self, name: "database") { r in try r.resolve(OpenDatabase.self) }
        container.register((any InstanceStore).self, name: "file") { r in try r.resolve(OpenFile.self) }

        let scope = container.makeScope()
        _ = try scope.resolve((any InstanceStore).self, name: "database")
        _ = try scope.resolve((any InstanceStore).self, name: "file")
        try scope.close()
        try container.validate()

        #expect(database.disposals.count == 0)
        #expect(fileDisposals.count == 0)
        try container.shutdown()
        #expect(database.disposals.count == (ownership == .container ? 1 : 0))
        #expect(fileDisposals.count == (ownership == .container ? 1 : 0))
    }

    /// Registering an instance for a key already registered is a duplicate, reported with both
    /// sites.
    @Test func instanceRegisteredTwiceIsADuplicate() throws {
        let container = Container()
        let first = #line + 1
        container.register(OpenDatabase.self, instance: OpenDatabase(), ownedBy: .caller)
        let second = #line + 1
        container.register(OpenDatabase.self, instance: OpenDatabase(), ownedBy: .caller)

        let error = try #require(injectionError { try container.resolve(OpenDatabase.self) })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "OpenDatabase is registered 2 times: at InjectorTests/ExistingInstanceTests.swift:\(first),"
                + " then at InjectorTests/ExistingInstanceTests.swift:\(second). Fix: remove all but one; give"
                + " them different names if each is needed (resolveAll collects them); or pass"
                + " replacesExisting: true to the one meant to replace the others, as a test does when it"
                + " swaps in a double."
        )
    }
}
