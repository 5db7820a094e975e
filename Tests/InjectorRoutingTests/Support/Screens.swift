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

import InjectorRouting

// Screens the view routing tests show.

protocol EditorView: AnyObject {
    var title: String { get set }
}

final class EditorScreen: EditorView, CustomStringConvertible {
    var title = "untitled"
    let serial: Int
    init(serial: Int = 0) { self.serial = serial }
    var description: String { "EditorScreen #\(serial)" }
}

protocol SignInView: AnyObject {}
final class SignInViewScreen: SignInView, CustomStringConvertible {
    var description: String { "SignInScreen" }
}

protocol NoteView: AnyObject {
    var noteID: Int { get }
}
final class NoteScreen: NoteView, CustomStringConvertible {
    let noteID: Int
    init(noteID: Int) { self.noteID = noteID }
    var description: String { "NoteScreen #\(noteID)" }
}

/// A screen shared by the whole app (a singleton route): it holds no mutable state.
protocol PanelView: AnyObject, Sendable {}
final class PanelScreen: PanelView, CustomStringConvertible {
    var description: String { "PanelScreen" }
}

/// A screen shared while something holds it (a weak route).
protocol BadgeView: AnyObject, Sendable {}
final class BadgeScreen: BadgeView, CustomStringConvertible {
    var description: String { "BadgeScreen" }
}

extension RoutableView where Protocol == any PanelView {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any BadgeView {
    init() { self.init(declaredProtocol: Protocol.self) }
}

final class HomeScreen: CustomStringConvertible {
    var description: String { "HomeScreen" }
}

extension RoutableView where Protocol == any EditorView {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any SignInView {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any NoteView {
    init() { self.init(declaredProtocol: Protocol.self) }
}
