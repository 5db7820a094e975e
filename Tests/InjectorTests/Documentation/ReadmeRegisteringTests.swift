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
import Injector
import Testing

// The docs' "Registering and resolving": a factory resolving its dependencies through its
// resolver, a resolve whose type comes from the context, and a registration that replaces another.

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private struct FixedClock: Clock { let now = "2000-01-01" }
private protocol NoteStore {
    var clock: any Clock { get }
    var directory: URL { get }
}
private struct FileNoteStore: NoteStore {
    let clock: any Clock
    let directory: URL
}

@Suite struct ReadmeRegisteringTests {
    private static let notes = URL(fileURLWithPath: "/var/notes")

    @Test func aFactoryResolvesItsDependenciesThroughItsResolver() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(URL.self, name: "notes") { _ in Self.notes }

        // README begins
        container.register(NoteStore.self) { r in
            try FileNoteStore(clock: r.resolve(Clock.self), directory: r.resolve(URL.self, name: "notes"))
        }
        let store = try container.resolve(NoteStore.self)
        let clock: Clock = try container.resolve()  // the type may come from the context
        // README ends

        #expect(store.clock.now == "09:00")
        #expect(store.directory == Self.notes)
        #expect(clock.now == "09:00")
    }

    /// "errors carry the whole path": a dependency missing below the factory is named with the path
    /// that needed it.
    @Test func aMissingDependencyIsReportedWithThePathThatNeedsIt() {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in
            try FileNoteStore(clock: r.resolve(Clock.self), directory: r.resolve(URL.self, name: "notes"))
        }

        let error = injectionError { try container.resolve(NoteStore.self) }

        #expect(error?.code == .missingRegistration)
        #expect(error?.resolutionPath.map(\.description) == ["NoteStore", "URL (name: \"notes\")"])
        #expect(
            error?.message == "No registration for URL (name: \"notes\"), needed by NoteStore -> URL (name: \"notes\")"
                + " (missing). Nothing is registered for URL under any name or arguments. Fix: register it, e.g."
                + " container.register(URL.self, name: \"notes\") { r in … }, in this container or one of its parents."
        )
    }

    /// A second registration of a key is recorded, not refused; resolving the key then throws,
    /// naming both sites.
    @Test func registeringAKeyTwiceIsAnErrorNamingBothSites() {
        let container = Container()
        let first = #line + 1
        container.register(Clock.self) { _ in SystemClock() }
        let second = #line + 1
        container.register(Clock.self) { _ in FixedClock() }

        let error = injectionError { try container.resolve(Clock.self) }

        #expect(error?.code == .duplicateRegistration)
        #expect(
            error?.message == "Clock is registered 2 times: at \(Self.site(first)), then at \(Self.site(second))."
                + " Fix: remove all but one; give them different names if each is needed (resolveAll collects"
                + " them); or pass replacesExisting: true to the one meant to replace the others, as a test"
                + " does when it swaps in a double."
        )
        #expect(injectionError { try container.finishRegistration() }?.code == .duplicateRegistration)
        #expect(injectionError { try container.finishRegistration() }?.message == error?.message)  // the same report
    }

    @Test func aRegistrationThatSaysReplacesExistingReplacesTheOther() throws {
        let container = Container()
        container.register(Clock.self) { _ in SystemClock() }

        // README begins
        container.register(Clock.self, replacesExisting: true) { _ in FixedClock() }
        // README ends

        try container.finishRegistration()
        #expect(try container.resolve(Clock.self).now == "2000-01-01")
    }

    private static func site(_ line: Int) -> String { "InjectorTests/ReadmeRegisteringTests.swift:\(line)" }
}
