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

// The app's wiring, at launch, on the main actor.
import Injector
import InjectorRouting

/// The app: its container, its navigation host and its router.
final class NotesApp {
    let container = Container()
    let host = HeadlessNavigationHost(navigationStackWith: SignInScreen())
    let router: Router

    init(notes: [Note]) {
        container.register((any NoteStore).self, scope: .singleton) { _ in MemoryNoteStore(notes) }
        container.register((any Clock).self) { _ in SystemClock() }
        container.register(Draft.self, scope: .scoped(to: .session)) { _ in Draft() }
        container.register(Preferences.self, scope: .singleton) { _ in Preferences() }
        router = Router(container: container, host: host)
        router.register(RoutableView<any EditorView>()) { r in
            EditorScreen(store: try r.resolve((any NoteStore).self))
        }
        .prepare { editor, context in
            if editor.note == nil, let title = context.parameters["title"] { editor.note = Note(id: 0, text: title) }
        }
        .url("notes://notes/new")
        router.register(RoutableView<any NoteDetailView>()) { (_, parameters: RouteParameters) in
            NoteDetailScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("notes://notes/:id")
    }

    /// Signs in: home replaces the sign-in screen as the root.
    func signIn() throws -> HomeScreen {
        let home = HomeScreen()
        try host.replaceRoot(with: home, inNavigationStack: true)
        return home
    }
}
