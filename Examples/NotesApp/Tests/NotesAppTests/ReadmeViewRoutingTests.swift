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
import InjectorRouting
import Testing

// The README's view-routing example, verbatim, compiled as an app's code is: every type below is on
// the main actor, this module's default, as an app's screens are. (The root package's tests check
// what it prints; here it must compile and run.) Its own types, not the app's: this file does not
// import NotesApp.

private struct Note { let text: String }
private protocol EditorView: AnyObject { var note: Note? { get set } }
private final class HomeScreen {}
private final class EditorScreen: EditorView { var note: Note? }
private protocol NoteDetailView: AnyObject { var noteID: Int { get } }
private final class NoteDetailScreen: NoteDetailView {
    let noteID: Int
    init(noteID: Int) { self.noteID = noteID }
}
extension RoutableView where Protocol == any EditorView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any NoteDetailView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

@Test func theReadmesViewRoutingExampleRunsOnTheMainActorWithMainActorScreens() throws {
    let container = Container()
    let note = Note(text: "Groceries")
    var printed: [String] = []
    func print(_ item: Any) { printed.append("\(item)") }

    let home = HomeScreen()
    let host = HeadlessNavigationHost(navigationStackWith: home)
    let router = Router(container: container, host: host)
    router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }

    let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
        config.prepareDestination = { $0.note = note }
    }
    print(host)  // HomeScreen (root of a navigation stack)
    // └─ EditorScreen(Groceries) (pushed from HomeScreen)
    try route.removeRoute()  // pops back to home

    // A deep link: a route registered with a URL pattern, its parameters typed.
    router.register(RoutableView<any NoteDetailView>()) { (_, parameters: RouteParameters) in
        NoteDetailScreen(noteID: try parameters.value("id", as: Int.self))
    }
    .url("notes://notes/:id")
    let deepLink = try router.perform(url: "notes://notes/7", path: .push(from: home))
    try deepLink.removeRoute()

    #expect(printed.count == 1)
    #expect(route.state == .removed)
    #expect(deepLink.state == .removed)
}
