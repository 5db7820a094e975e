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

// The app's screens, shown by view routes on a navigation host (the headless one here).
import Injector
import InjectorRouting

/// The screen the app starts on. The app's screens are main-actor classes, as UIKit's view
/// controllers are: a view route makes each on the main actor.
@MainActor final class HomeScreen {}

/// Edits a note.
@MainActor protocol EditorView: AnyObject {
    var note: Note? { get set }
}

@MainActor final class EditorScreen: EditorView {
    var note: Note?
}

/// Asks the user to sign in.
@MainActor protocol SignInView: AnyObject {}

@MainActor final class SignInScreen: SignInView {}

/// Shows one note, opened by a deep link.
@MainActor protocol NoteDetailView: AnyObject {
    var noteID: Int { get }
}

@MainActor final class NoteDetailScreen: NoteDetailView {
    let noteID: Int
    init(noteID: Int) { self.noteID = noteID }
}

// How the navigation host names each screen in the hierarchy it prints, on the main actor.
extension HomeScreen: @MainActor CustomStringConvertible {
    var description: String { "HomeScreen" }
}
extension EditorScreen: @MainActor CustomStringConvertible {
    var description: String { "EditorScreen(\(note?.text ?? "new note"))" }
}
extension SignInScreen: @MainActor CustomStringConvertible {
    var description: String { "SignInScreen" }
}
extension NoteDetailScreen: @MainActor CustomStringConvertible {
    var description: String { "NoteDetailScreen(#\(noteID))" }
}

extension RoutableView where Protocol == any EditorView {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any SignInView {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any NoteDetailView {
    init() { self.init(declaredProtocol: Protocol.self) }
}

/// Registers the app's screens. `isSignedIn` stands for the app's session.
@MainActor
func registerScreens(on router: Router, isSignedIn: @escaping @Sendable () -> Bool) {
    router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
    router.register(RoutableView<any SignInView>()) { _ in SignInScreen() }
    router.register(RoutableView<any NoteDetailView>()) { (_, parameters: RouteParameters) in
        NoteDetailScreen(noteID: try parameters.value("id", as: Int.self))
    }
    .url("notes://screens/notes/:id")
    router.addInterceptor(named: "sign-in before editing") { request in
        guard request.isRouting(to: RoutableView<any EditorView>()), !isSignedIn() else { return .proceed }
        return .redirect(to: RoutableView<any SignInView>(), style: .presentModally)
    }
    router.addObserver(for: (any EditorView).self) { observation in
        print("  observer: \(observation.event) \(observation.destination)")
    }
}
