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

// The snippets of Container's doc comments (Container.swift), for makeChild() and makeScope(tag:),
// with the types they assume: a child's registration shadows its parent's for what the child
// resolves, never for the parent; a scope made with makeScope lives until its maker closes it.

extension ScopeTag {
    fileprivate static let session: ScopeTag = "session"
}

private protocol Clock: Sendable { var now: Date { get } }
private struct SystemClock: Clock { var now: Date { Date() } }
private struct FixedClock: Clock { let now: Date }
private protocol NoteStore: Sendable { var clock: any Clock { get } }
private struct FileNoteStore: NoteStore { let clock: any Clock }

private protocol Editor: AnyObject {}
private final class NoteEditor: Editor, Disposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() { log.record("NoteEditor") }
}

@Suite struct ContainerDocTests {
    @Test func aChildsShadowIsSeenByWhatTheChildResolvesNotByTheParent() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }

        let test = container.makeChild()
        test.register(Clock.self) { _ in FixedClock(now: .distantPast) }
        let store = try test.resolve(NoteStore.self)  // built with the fixed clock

        #expect(store.clock.now == .distantPast)
        #expect(try container.resolve(NoteStore.self).clock is SystemClock)
    }

    @Test func aChildsShadowNeverLeaksIntoAParentsSingleton() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self, scope: .singleton) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        let test = container.makeChild()
        test.register(Clock.self) { _ in FixedClock(now: .distantPast) }
        #expect(try test.resolve(NoteStore.self).clock is SystemClock)
        #expect(try test.resolve(Clock.self) is FixedClock)
        #expect(try container.resolve(Clock.self) is SystemClock)
    }

    @Test func aScopeMadeWithMakeScopeLivesUntilItIsClosed() async throws {
        let container = Container()
        let log = EventLog()
        container.register(Editor.self, scope: .scoped(to: .session)) { _ in NoteEditor(log: log) }

        let session = container.makeScope(tag: .session)  // lives past this call
        let editor = try session.resolve(Editor.self)
        // … when the session ends:
        #expect(try session.resolve(Editor.self) === editor)
        #expect(log.events.isEmpty)
        try await session.closeAsync()

        #expect(log.events == ["NoteEditor"])
        let error = try #require(injectionError { try session.resolve(Editor.self) })
        #expect(error.code == .scopeClosed)
        #expect(
            error.message == "Editor was resolved from the scope \"session\" after it was closed; its instances are"
                + " disposed. Fix: resolve what the work needs before closing the scope, or make a new one with"
                + " container.makeScope(tag: \"session\")."
        )
    }
}
