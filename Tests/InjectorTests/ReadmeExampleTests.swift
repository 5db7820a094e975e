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

// The README's first example, verbatim, with the types it assumes: if the README's code stops
// compiling or working, this fails.

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

struct ReadmeExampleTests {
    @Test func readmeFirstExampleRegistersAndResolves() throws {
        let note = Note(text: "Buy milk")

        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Editor.self) { (r, note: Note) in
            try NoteEditor(note: note, store: r.resolve(NoteStore.self))
        }
        try container.finishRegistration()  // freezes the registry: lookups take no lock from here

        let store = try container.resolve(NoteStore.self)
        let pdf = try container.resolve(Exporter.self, name: "pdf")
        let editor = try container.resolve(Editor.self, argument: note)  // given at resolve time

        #expect(store.clock.now == "09:00")
        #expect(pdf.format == "pdf")
        #expect(editor.note.text == "Buy milk")
    }
}
