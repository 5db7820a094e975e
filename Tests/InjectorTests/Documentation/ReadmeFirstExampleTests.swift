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

// The docs' first example, verbatim, with the types it assumes: if the README's code stops
// compiling or working, this fails. Its comment on finishRegistration() is checked too: duplicates
// are reported, and a registration after it is an error.

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private protocol NoteStore { var clock: any Clock { get } }
private struct FileNoteStore: NoteStore { let clock: any Clock }
private protocol Exporter { var format: String { get } }
private struct PDFExporter: Exporter { let format = "pdf" }
private struct Note { let text: String }
private protocol Editor { var note: Note { get } }
private struct NoteEditor: Editor {
    let note: Note
    let store: any NoteStore
}

@Suite struct ReadmeFirstExampleTests {
    @Test func readmeFirstExampleRegistersAndResolves() throws {
        let note = Note(text: "Buy milk")

        // README begins
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Editor.self) { (r, note: Note) in
            try NoteEditor(note: note, store: r.resolve(NoteStore.self))
        }
        try container.finishRegistration()  // reports duplicates; later registrations are errors

        let store = try container.resolve(NoteStore.self)
        let pdf = try container.resolve(Exporter.self, name: "pdf")
        let editor = try container.resolve(Editor.self, argument: note)  // given at resolve time
        // README ends

        #expect(store.clock.now == "09:00")
        #expect(pdf.format == "pdf")
        #expect(editor.note.text == "Buy milk")
        #expect((editor as? NoteEditor)?.store.clock.now == "09:00")
    }

    /// "reports duplicates": `finishRegistration()` throws the duplicate, naming both sites.
    @Test func finishRegistrationReportsADuplicateWithBothSites() {
        let container = Container()
        let first = #line + 1
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        let second = #line + 1
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }

        let error = injectionError { try container.finishRegistration() }

        #expect(error?.code == .duplicateRegistration)
        #expect(
            error?.message == "Clock is registered 2 times: at \(Self.site(first)), then at \(Self.site(second))."
                + " Fix: remove all but one; give them different names if each is needed (resolveAll collects"
                + " them); or pass replacesExisting: true to the one meant to replace the others, as a test"
                + " does when it swaps in a double."
        )
    }

    /// "later registrations are errors": a registration after `finishRegistration()` is recorded, and
    /// resolving its key throws.
    @Test func aRegistrationAfterFinishRegistrationIsAnErrorWhenResolved() throws {
        let container = Container()
        try container.finishRegistration()
        let late = #line + 1
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }

        let error = injectionError { try container.resolve(Exporter.self, name: "pdf") }

        #expect(error?.code == .registrationAfterFinish)
        #expect(
            error?.message
                == "Exporter (name: \"pdf\") was registered after finishRegistration() (at \(Self.site(late)));"
                + " the registry was already frozen. Fix: make it before finishRegistration(), or in a child"
                + " container (container.makeChild())."
        )
    }

    private static func site(_ line: Int) -> String { "InjectorTests/ReadmeFirstExampleTests.swift:\(line)" }
}
