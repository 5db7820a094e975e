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

// One registration reachable as several protocols (`implements`).

private protocol NoteReader: Sendable {}
private protocol NoteWriter: Sendable {}
private protocol NoteIndexer: Sendable {}
private final class FileNoteStore: NoteReader, NoteWriter, Disposable, Sendable {
    let disposals = CallCounter()
    func dispose() { disposals.next() }
}

struct ForwardingTests {
    /// A singleton that implements two protocols is one instance, reachable as each.
    @Test func singletonImplementingTwoProtocolsIsOneInstance() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(FileNoteStore.self, scope: .singleton) { _ in
            calls.next()
            return FileNoteStore()
        }
        .implements((any NoteReader).self)
        .implements((any NoteWriter).self, name: "primary")
        try container.finishRegistration()

        let reader = try container.resolve((any NoteReader).self)
        let writer = try container.resolve((any NoteWriter).self, name: "primary")
        let store = try container.resolve(FileNoteStore.self)

        #expect(reader as AnyObject === store)
        #expect(writer as AnyObject === store)
        #expect(calls.count == 1)
        try container.shutdown()
        #expect(store.disposals.count == 1)
    }

    /// A scoped registration is one instance per scope, as each protocol, disposed once by its scope.
    @Test func scopedRegistrationIsOneInstancePerScopeAsEachProtocol() throws {
        let container = Container()
        container.register(FileNoteStore.self, scope: .scoped) { _ in FileNoteStore() }
            .implements((any NoteReader).self)
            .implements((any NoteWriter).self)
        let first = container.makeScope()
        let second = container.makeScope()

        let reader = try first.resolve((any NoteReader).self) as! FileNoteStore
        let writer = try first.resolve((any NoteWriter).self) as! FileNoteStore
        let other = try second.resolve((any NoteReader).self) as! FileNoteStore
        try first.close()
        try second.close()

        #expect(reader === writer)
        #expect(reader !== other)
        #expect(reader.disposals.count == 1)
        #expect(other.disposals.count == 1)
    }

    /// A transient registration gives a new instance each time, under either type.
    @Test func transientRegistrationGivesANewInstanceEachTime() throws {
        let container = Container()
        container.register(FileNoteStore.self) { _ in FileNoteStore() }.implements((any NoteReader).self)

        let first = try container.resolve((any NoteReader).self) as! FileNoteStore
        let second = try container.resolve((any NoteReader).self) as! FileNoteStore

        #expect(first !== second)
    }

    /// A type the instance does not conform to is an error when resolved, and in validation.
    @Test func typeTheInstanceDoesNotConformToIsReported() throws {
        let container = Container()
        container.register(FileNoteStore.self, scope: .singleton) { _ in FileNoteStore() }
            .implements((any NoteIndexer).self)

        let error = try #require(injectionError { try container.resolve((any NoteIndexer).self) })
        let validation = try #require(injectionError { try container.validate() })

        #expect(error.code == .invalidForwarding)
        #expect(
            error.message
                == "NoteIndexer is registered to resolve FileNoteStore (implements), but its instance, a"
                + " FileNoteStore, does not conform to NoteIndexer. Fix: make FileNoteStore conform to"
                + " NoteIndexer, or remove .implements(NoteIndexer.self) from FileNoteStore's registration."
        )
        #expect(validation.problems.map(\.code) == [.invalidForwarding])
    }

    /// A registration that takes arguments cannot be forwarded: resolving the other type says so.
    @Test func registrationWithArgumentsCannotBeForwarded() throws {
        let container = Container()
        container.register(FileNoteStore.self) { (_, _: String) in FileNoteStore() }
            .implements((any NoteReader).self)

        let error = try #require(injectionError { try container.resolve((any NoteReader).self) })

        #expect(error.code == .invalidForwarding)
        #expect(
            error.message
                == "NoteReader is registered to resolve FileNoteStore (argument: String) (implements), but that registration's"
                + " factory takes resolve-time arguments, which a resolve of NoteReader cannot give. Fix:"
                + " register NoteReader with a factory of its own that takes the arguments, or remove"
                + " .implements from it."
        )
    }
}
