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

    /// The fix for a named forwarding removes it as it was written, with its name.
    @Test func theFixForANamedForwardingNamesIt() throws {
        let container = Container()
        container.register(FileNoteStore.self, scope: .singleton) { _ in FileNoteStore() }
            .implements((any NoteIndexer).self, name: "search")

        let error = try #require(injectionError { try container.resolve((any NoteIndexer).self, name: "search") })

        #expect(error.code == .invalidForwarding)
        #expect(
            error.message
                == "NoteIndexer (name: \"search\") is registered to resolve FileNoteStore (implements), but its"
                + " instance, a FileNoteStore, does not conform to NoteIndexer. Fix: make FileNoteStore conform to"
                + " NoteIndexer, or remove .implements(NoteIndexer.self, name: \"search\") from FileNoteStore's"
                + " registration."
        )
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

    /// A forwarded type registered again is a duplicate whose message marks the `implements` site,
    /// since that line shows another service's registration.
    @Test func aDuplicateOfAForwardedTypeNamesTheImplementsSiteAsOne() throws {
        let container = Container()
        let line = #line + 1
        container.register(FileNoteStore.self, scope: .singleton) { _ in FileNoteStore() }
            .implements((any NoteReader).self)
        container.register((any NoteReader).self) { _ in FileNoteStore() }

        let error = try #require(injectionError { try container.resolve((any NoteReader).self) })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "NoteReader is registered 2 times: at InjectorTests/ForwardingTests.swift:\(line + 1) by .implements,"
                + " then at InjectorTests/ForwardingTests.swift:\(line + 2). Fix: remove all but one; give them different"
                + " names if each is needed (resolveAll collects them); or pass replacesExisting: true to the one meant"
                + " to replace the others, as a test does when it swaps in a double."
        )
    }

    /// An `implements` after `finishRegistration()` is refused, and the message marks its site as one.
    @Test func aLateImplementsIsReportedAsOne() throws {
        let container = Container()
        let registration = container.register(FileNoteStore.self, scope: .singleton) { _ in FileNoteStore() }
        try container.finishRegistration()
        let line = #line + 1
        registration.implements((any NoteReader).self)

        let error = try #require(injectionError { try container.resolve((any NoteReader).self) })

        #expect(error.code == .registrationAfterFinish)
        #expect(
            error.message
                == "NoteReader was registered after finishRegistration() (at InjectorTests/ForwardingTests.swift:\(line)"
                + " by .implements); the registry was already frozen. Fix: make it before finishRegistration(), or in a"
                + " child container (container.makeChild())."
        )
    }
}
