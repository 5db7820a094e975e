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

// The snippet of Container.register(_:name:scope:replacesExisting:fileID:line:arguments:_:using:make:)'s
// doc comment (Container+DeclaredRegistration.swift), with the types it assumes.

private struct Note: Sendable { let title: String }
private final class NoteStore: Sendable {}
private protocol Editor {
    var note: Note { get }
    var readOnly: Bool { get }
}
private struct NoteEditor: Editor {
    let note: Note
    let readOnly: Bool
    let store: NoteStore

    init(note: Note, readOnly: Bool, store: NoteStore) {
        self.note = note
        self.readOnly = readOnly
        self.store = store
    }
}

@Suite struct DeclaredArgumentsDocTests {
    @Test func aDeclaredRegistrationTakesSeveralArgumentsBeforeItsDependencies() throws {
        let container = Container()
        container.register(NoteStore.self, scope: .singleton) { _ in NoteStore() }
        container.register(NoteStore.self, name: "cloud", scope: .singleton) { _ in NoteStore() }
        let note = Note(title: "Groceries")

        // NoteEditor.init(note: Note, readOnly: Bool, store: NoteStore)
        container.register(Editor.self, arguments: Note.self, Bool.self, make: NoteEditor.init)
        let editor = try container.resolve(Editor.self, arguments: note, true)

        container.register(
            Editor.self,
            name: "cloud",
            arguments: Note.self,
            Bool.self,
            using: Resolved(NoteStore.self, name: "cloud"),
            make: NoteEditor.init
        )

        #expect(editor.note.title == "Groceries")
        #expect(editor.readOnly)
        let cloud = try #require(
            try container.resolve(Editor.self, name: "cloud", arguments: note, false) as? NoteEditor
        )
        #expect(cloud.store === (try container.resolve(NoteStore.self, name: "cloud")))
        #expect(cloud.store !== (try container.resolve(NoteStore.self)))
    }
}
