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

// The snippet of the Injector catalog's page for `Container.register` (Container-register.md),
// verbatim, with the types it assumes, and what the page says of registering: if it stops
// compiling or doing what the page says, this fails. (.ci/check-snippets finds its lines here.)

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private struct FixedClock: Clock { let now: String }

private protocol NoteStore { var clock: any Clock { get } }
private struct FileNoteStore: NoteStore { let clock: any Clock }

/// A pool that needs asynchronous set-up: it "connects" before it is returned.
private final class DatabasePool: Sendable {
    let url: String
    private init(url: String) { self.url = url }

    static func connect(to url: String) async throws -> DatabasePool {
        await Task.yield()
        return DatabasePool(url: url)
    }
}

private struct Note { let text: String }
private protocol Editor {
    var note: Note { get }
    var store: any NoteStore { get }
}
private struct NoteEditor: Editor {
    let note: Note
    let store: any NoteStore
}

private struct SetupError: Error, Equatable {}

/// The page's registrations.
private func makeContainer() -> Container {
    let container = Container()
    container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
    container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
    container.register(DatabasePool.self, scope: .singleton) { _ in
        try await DatabasePool.connect(to: "postgres://localhost/notes")
    }
    container.register(Editor.self) { (r, note: Note) in
        try NoteEditor(note: note, store: r.resolve(NoteStore.self))
    }
    return container
}

/// This file as `#fileID` names it in registration sites.
private let site = "InjectorTests/ContainerRegisterSnippetTests.swift"

struct ContainerRegisterSnippetTests {
    @Test func resolveBuildsTheSyncRegistrationsAndResolveAsyncBuildsBoth() async throws {
        let container = makeContainer()

        // The sync resolve builds the sync registrations, and refuses the async one.
        #expect(try container.resolve(NoteStore.self).clock.now == "09:00")
        let editor = try container.resolve(Editor.self, argument: Note(text: "Buy milk"))
        #expect(editor.note.text == "Buy milk")
        let refused = try #require(injectionError { try container.resolve(DatabasePool.self) })
        #expect(refused.code == .asyncResolutionRequired)
        #expect(
            refused.message
                == "DatabasePool has an async factory, which a sync resolve cannot run. Fix: resolve it with try "
                + "await resolveAsync(DatabasePool.self), from the container or scope you resolve from "
                + "(r.resolveAsync in an async factory); a sync factory that needs it must become async too."
        )

        // The async resolve builds both.
        let pool = try await container.resolveAsync(DatabasePool.self)
        #expect(pool.url == "postgres://localhost/notes")
        #expect(try await container.resolveAsync(DatabasePool.self) === pool)  // a singleton
        #expect(try await container.resolveAsync(NoteStore.self).clock.now == "09:00")
        #expect(try await container.resolveAsync(Editor.self, argument: Note(text: "x")).note.text == "x")
    }

    @Test func aScopeMayBeAServiceScopeOrAScopeValueChosenAtRunTime() throws {
        let container = Container()
        let chosen: Scope = .singleton  // a value, as read from a setting
        container.register(Clock.self, scope: chosen) { _ in SystemClock() }
        container.register(DatabasePool.self, scope: .singleton) { _ in
            try await DatabasePool.connect(to: "postgres://localhost/notes")
        }
        #expect(container.dependencyGraph().nodes.map(\.scope) == [.singleton, .singleton])
    }

    @Test func aDuplicateIsRecordedNotThrownAndReportedWithBothSitesWhenResolvedFinishedOrValidated() throws {
        let container = Container()
        let line = #line
        container.register(Clock.self) { _ in SystemClock() }
        container.register(Clock.self) { _ in FixedClock(now: "2000-01-01") }  // does not throw

        let message =
            "Clock is registered 2 times: at \(site):\(line + 1), then at \(site):\(line + 2). Fix: remove all "
            + "but one; give them different names if each is needed (resolveAll collects them); or pass "
            + "replacesExisting: true to the one meant to replace the others, as a test does when it swaps in "
            + "a double."
        let resolved = try #require(injectionError { try container.resolve(Clock.self) })
        #expect(resolved.code == .duplicateRegistration)
        #expect(resolved.message == message)
        let validated = try #require(injectionError { try container.validate() })
        #expect(validated.code == .validationFailed)
        #expect(validated.message == "Validation found 1 problem:\n- " + message)
        #expect(validated.problems.map(\.code) == [.duplicateRegistration])
        #expect(validated.problems.map(\.message) == [message])
        let finished = try #require(injectionError { try container.finishRegistration() })
        #expect(finished.code == .duplicateRegistration)
        #expect(finished.message == message)
    }

    @Test func replacesExistingReplacesTheFirstRegistration() throws {
        let container = makeContainer()
        container.register(Clock.self, replacesExisting: true) { _ in FixedClock(now: "2000-01-01") }
        try container.finishRegistration()
        #expect(try container.resolve(NoteStore.self).clock.now == "2000-01-01")
    }

    @Test func aFactoryTakingArgumentsMustKeepTheTransientScope() throws {
        let container = Container()
        let line = #line + 1
        container.register(Editor.self, scope: .graph) { (r, note: Note) in
            NoteEditor(note: note, store: FileNoteStore(clock: SystemClock()))
        }
        let error = try #require(injectionError { try container.resolve(Editor.self, argument: Note(text: "x")) })
        #expect(error.code == .sharedScopeWithArguments)
        #expect(
            error.message
                == "Editor (argument: Note) is registered as .graph at \(site):\(line), but its factory takes "
                + "resolve-time arguments: a shared instance is built once, from the first resolve's arguments, "
                + "and every later resolve would get it whatever its arguments. Fix: register it as .transient (a "
                + #"new instance for each resolve), or register one named registration per value (name: "db-a"), "#
                + "or share a service that hands out an instance per argument (a pool keyed by host)."
        )
        #expect(injectionError { try container.finishRegistration() }?.code == .sharedScopeWithArguments)
        #expect(injectionError { try container.finishRegistration() }?.message == error.message)  // the same report
    }

    @Test func eachFormReturnsTheRegistrationForHooksChecksAndForwardedTypes() async throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
            .implements((any Sendable).self)
            .verify { clock in guard clock.now == "09:00" else { throw SetupError() } }
        container.register(DatabasePool.self, scope: .singleton) { _ in
            try await DatabasePool.connect(to: "postgres://localhost/notes")
        }
        .onResolved { _, pool in #expect(pool.url == "postgres://localhost/notes") }
        .verify { pool in guard !pool.url.isEmpty else { throw SetupError() } }

        #expect(try container.resolve((any Sendable).self) is SystemClock)
        _ = try await container.resolveAsync(DatabasePool.self)
    }
}
