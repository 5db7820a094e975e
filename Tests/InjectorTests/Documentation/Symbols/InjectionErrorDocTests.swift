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

// The snippet of InjectionError's doc comment (InjectionError.swift): a missing registration is
// caught by its code, and its message says what is missing and the path that needed it.

private protocol Clock: Sendable {}
private protocol NoteStore {}
private struct FileNoteStore: NoteStore { let clock: any Clock }

@Suite struct InjectionErrorDocTests {
    @Test func aMissingRegistrationIsCaughtByItsCode() throws {
        let container = Container()
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        var caught: InjectionError?

        do {
            _ = try container.resolve(NoteStore.self)
        } catch let error as InjectionError where error.code == .missingRegistration {
            print(error.message)
            // No registration for Clock, needed by NoteStore -> Clock (missing). …
            caught = error
        }

        let error = try #require(caught)
        #expect(
            error.message == "No registration for Clock, needed by NoteStore -> Clock (missing). Nothing is registered"
                + " for Clock under any name or arguments. Fix: register it, e.g. container.register(Clock.self) { r in"
                + " … }, in this container or one of its parents."
        )
        #expect(error.description == error.message)
    }
}
