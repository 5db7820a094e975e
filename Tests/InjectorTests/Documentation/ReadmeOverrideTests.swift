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

// The docs' "Testing with overrides": task-local overrides on one shared container, which tests
// running in parallel override differently with nothing to reset, and a child container that
// shadows its parent's registrations without leaking into the parent's singletons.

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private struct FixedClock: Clock { let now: String }
private struct Note {
    let text: String
    var created = ""
}
private protocol NoteStore: Sendable {
    var clock: any Clock { get }
    func add(_ text: String) throws -> Note
}
private struct FileNoteStore: NoteStore {
    let clock: any Clock
    func add(_ text: String) throws -> Note { Note(text: text, created: clock.now) }
}
private protocol Editor {
    var note: Note { get }
    var store: any NoteStore { get }
}
private struct NoteEditor: Editor {
    let note: Note
    let store: any NoteStore
}
/// A singleton that depends on the clock.
private final class NoteIndex: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
}

/// One container for every test of this file, as an app's test suite shares one.
private let app: Container = {
    let container = Container()
    container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
    container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
    container.register(Editor.self) { (r, note: Note) in try NoteEditor(note: note, store: r.resolve(NoteStore.self)) }
    container.register(NoteIndex.self, scope: .singleton) { r in try NoteIndex(clock: r.resolve(Clock.self)) }
    try! container.finishRegistration()
    return container
}()

@Suite struct ReadmeOverrideTests {
    // README begins
    @Test func savingStampsTheNoteWithTheClock() throws {
        // The README's layout, which swift-format would break apart.
        // swift-format-ignore
        try app.withOverrides { $0.register(Clock.self) { _ in FixedClock(now: "2000-01-01") } } operation: {
            let store = try app.resolve(NoteStore.self)  // built with the fixed clock
            #expect(try store.add("hello").created == "2000-01-01")
        }
    }
    // README ends

    /// Tasks running at once each override the same service differently on the one container, and
    /// nothing is left to reset afterwards.
    @Test func tasksRunningAtOnceEachSeeTheirOwnOverrides() async throws {
        let stamps = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for day in 1...20 {
                let today = "2000-01-\(day)"
                group.addTask {
                    try app.withOverrides {
                        $0.register(Clock.self) { _ in FixedClock(now: today) }
                    } operation: {
                        (today, try app.resolve(NoteStore.self).add("hello").created)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(stamps.count == 20)
        #expect(stamps.allSatisfy { $0.0 == $0.1 })
        #expect(try app.resolve(NoteStore.self).add("hello").created == "09:00")
    }

    /// A singleton resolved inside is built afresh for the call, with the override; the container's
    /// own is left alone.
    @Test func aSingletonResolvedInsideAnOverrideIsBuiltAfreshAndTheContainersOwnIsLeftAlone() throws {
        let own = try app.resolve(NoteIndex.self)

        let inside = try app.withOverrides {
            $0.register(Clock.self) { _ in FixedClock(now: "2000-01-01") }
        } operation: {
            try app.resolve(NoteIndex.self)
        }

        #expect(inside !== own)
        #expect(inside.clock.now == "2000-01-01")
        #expect(own.clock.now == "09:00")
        #expect(try app.resolve(NoteIndex.self) === own)
    }

    @Test func aChildContainersShadowReachesTheParentsTransientsButNotItsSingletons() throws {
        // README begins
        let test = app.makeChild()
        test.register(Clock.self) { _ in FixedClock(now: "2000-01-01") }
        let editor = try test.resolve(Editor.self, argument: Note(text: "x"))  // built with the fixed clock
        // README ends

        #expect(editor.store.clock.now == "2000-01-01")
        #expect(editor.note.text == "x")
        #expect(try test.resolve(NoteIndex.self).clock.now == "09:00")  // the parent's singleton
        #expect(try app.resolve(Editor.self, argument: Note(text: "x")).store.clock.now == "09:00")
    }
}
