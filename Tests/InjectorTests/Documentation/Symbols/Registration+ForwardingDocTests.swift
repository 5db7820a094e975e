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

import Injector
import Testing

// The snippet of Registration.implements(_:name:fileID:line:)'s doc comment
// (Registration+Forwarding.swift), with the types it assumes: one registration serves several
// protocols with one instance in its scope; registering a forwarded key again is a duplicate.

private protocol Clock: Sendable {}
private struct SystemClock: Clock {}
private protocol NoteReader: AnyObject, Sendable {}
private protocol NoteWriter: AnyObject, Sendable {}
private final class FileNoteStore: NoteReader, NoteWriter {
    let clock: any Clock
    init(clock: any Clock) throws { self.clock = clock }
}
private final class Draft {}

@Suite struct RegistrationForwardingDocTests {
    @Test func oneSingletonServesSeveralProtocols() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }

        // The snippet's layout, which swift-format would break apart.
        // swift-format-ignore
        container.register(FileNoteStore.self, scope: .singleton) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
            .implements(NoteReader.self)
            .implements(NoteWriter.self)
        let reader = try container.resolve(NoteReader.self)  // the FileNoteStore singleton

        let store = try container.resolve(FileNoteStore.self)
        #expect(reader === store)
        #expect(try container.resolve(NoteWriter.self) === store)
    }

    @Test func forwardingToATypeTheInstanceDoesNotConformToThrows() throws {
        let container = Container()
        container.register(Draft.self) { _ in Draft() }.implements(NoteReader.self)
        let error = try #require(injectionError { try container.resolve(NoteReader.self) })
        #expect(error.code == .invalidForwarding)
        #expect(
            error.message == "NoteReader is registered to resolve Draft (implements), but its instance, a Draft, does"
                + " not conform to NoteReader. Fix: make Draft conform to NoteReader, or remove"
                + " .implements(NoteReader.self) from Draft's registration."
        )
    }

    @Test func aTransientIsNewEachTimeAndTheForwardedKeyIsARegistrationOfItsOwn() throws {
        let container = Container()
        let line = #line + 1
        container.register(Draft.self) { _ in Draft() }.implements(AnyObject.self)
        #expect(try container.resolve(AnyObject.self) !== (try container.resolve(AnyObject.self)))
        container.register(AnyObject.self) { _ in Draft() }
        let error = try #require(injectionError { try container.resolve(AnyObject.self) })
        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message == "AnyObject is registered 2 times: at"
                + " InjectorTests/Registration+ForwardingDocTests.swift:\(line) by .implements, then at"
                + " InjectorTests/Registration+ForwardingDocTests.swift:\(line + 2). Fix: remove all but one; give them"
                + " different names if each is needed (resolveAll collects them); or pass replacesExisting: true to the"
                + " one meant to replace the others, as a test does when it swaps in a double."
        )
    }
}
