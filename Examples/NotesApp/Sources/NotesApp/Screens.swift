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

// The app's screens: main-actor classes, as every type of this module is by default and as UIKit's
// view controllers are. View routes make them on the main actor.
import Injector
import InjectorRouting

/// The user's preferences: main-actor state, shared by the whole app (a singleton). A factory runs
/// wherever it is resolved, so the class is made by a `nonisolated init`; its state stays on the
/// main actor.
final class Preferences {
    var fontSize = 14
    nonisolated init() {}
}

/// The screen the app starts on, before signing in.
final class SignInScreen {}

/// The screen the app shows once signed in.
final class HomeScreen {}

protocol EditorView: AnyObject { var note: Note? { get set } }

final class EditorScreen: EditorView {
    let store: any NoteStore
    var note: Note?
    init(store: any NoteStore) { self.store = store }
}

protocol NoteDetailView: AnyObject { var noteID: Int { get } }

final class NoteDetailScreen: NoteDetailView {
    let noteID: Int
    init(noteID: Int) { self.noteID = noteID }
}

extension RoutableView where Protocol == any EditorView {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any NoteDetailView {
    init() { self.init(declaredProtocol: Protocol.self) }
}

// How the navigation host names each screen in the hierarchy it prints.
extension SignInScreen: CustomStringConvertible {
    var description: String { "SignInScreen" }
}
extension HomeScreen: CustomStringConvertible {
    var description: String { "HomeScreen" }
}
extension EditorScreen: CustomStringConvertible {
    var description: String { "EditorScreen(\(note?.text ?? "new note"))" }
}
extension NoteDetailScreen: CustomStringConvertible {
    var description: String { "NoteDetailScreen(#\(noteID))" }
}
