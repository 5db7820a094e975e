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

// The README's routing example, verbatim, with the types it assumes: if it stops compiling or
// working, this fails.

private protocol ReadmeClock: Sendable { var now: String { get } }
private struct ReadmeSystemClock: ReadmeClock { let now = "09:00" }

/// The README's types, in a namespace of their own: the fixtures have a \`TimeService\` too.
private enum Readme {
    protocol TimeService: Sendable { var now: String { get } }
    struct ClockTimeService: TimeService {
        let clock: any ReadmeClock
        var now: String { clock.now }
    }
}
extension RoutableService where Protocol == any Readme.TimeService {  // declares the protocol routable
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// The README's screens (its view-routing example), in a namespace of their own.
private enum ReadmeScreens {
    struct Note { let text: String }
    final class HomeScreen: CustomStringConvertible {
        var description: String { "HomeScreen" }
    }
    protocol EditorView: AnyObject { var note: Note? { get set } }
    final class EditorScreen: EditorView, CustomStringConvertible {
        var note: Note?
        var description: String { "EditorScreen(\(note?.text ?? "new note"))" }
    }
    protocol NoteDetailView: AnyObject { var noteID: Int { get } }
    final class NoteDetailScreen: NoteDetailView, CustomStringConvertible {
        let noteID: Int
        init(noteID: Int) { self.noteID = noteID }
        var description: String { "NoteDetailScreen(#\(noteID))" }
    }
}
extension RoutableView where Protocol == any ReadmeScreens.EditorView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any ReadmeScreens.NoteDetailView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

struct ReadmeRoutingExampleTests {
    @Test func readmeRoutingExampleRoutesThroughTheContainer() throws {
        let container = Container()
        container.register((any ReadmeClock).self, scope: .singleton) { _ in ReadmeSystemClock() }
        typealias Clock = ReadmeClock
        typealias TimeService = Readme.TimeService
        typealias ClockTimeService = Readme.ClockTimeService

        let router = Router(container: container)
        router.register(RoutableService<any TimeService>(), scope: .singleton) { r in
            ClockTimeService(clock: try r.resolve((any Clock).self))
        }
        let time = try router.makeDestination(to: RoutableService<any TimeService>())

        #expect(time.now == "09:00")
    }

    /// The README's view-routing example between the markers, with what it prints captured instead
    /// (the two lines marked `captured`): a push shown on the headless host, removed, and a deep link
    /// opened and removed.
    @MainActor
    @Test func readmeViewRoutingExamplePushesAScreenAndOpensADeepLink() throws {
        let container = Container()
        typealias HomeScreen = ReadmeScreens.HomeScreen
        typealias EditorView = ReadmeScreens.EditorView
        typealias EditorScreen = ReadmeScreens.EditorScreen
        typealias NoteDetailView = ReadmeScreens.NoteDetailView
        typealias NoteDetailScreen = ReadmeScreens.NoteDetailScreen
        let note = ReadmeScreens.Note(text: "Groceries")

        // README begins
        let home = HomeScreen()
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let router = Router(container: container, host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }

        let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home)) { config in
            config.prepareDestination = { $0.note = note }
        }
        let shown = host.description  // captured: the README prints it
        try route.removeRoute()  // pops back to home

        // A deep link: a route registered with a URL pattern, its parameters typed.
        router.register(RoutableView<any NoteDetailView>()) { (_, parameters: RouteParameters) in
            NoteDetailScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("notes://notes/:id")
        let deepLink = try router.perform(url: "notes://notes/7", path: .push(from: home))
        let linked = host.description  // captured
        try deepLink.removeRoute()
        // README ends

        #expect(shown == "HomeScreen (root of a navigation stack)\n└─ EditorScreen(Groceries) (pushed from HomeScreen)")
        #expect(linked == "HomeScreen (root of a navigation stack)\n└─ NoteDetailScreen(#7) (pushed from HomeScreen)")
        #expect(route.state == .removed)
        #expect(deepLink.state == .removed)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }
}
