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

// The README's routing examples, verbatim, with the types they assume: a service routed by protocol
// through the container, and view routes on the headless navigation host, with what it prints. The
// same lines pin the blocks of the DocC articles *Routing* (the route's registration) and *View
// routing without UIKit* (the deep link). If they stop compiling or working, this fails.

// README begins (routing)
private protocol TimeService: Sendable { var now: String { get } }
extension RoutableService where Protocol == any TimeService {  // declares the protocol routable
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
// README pauses

/// The README's clock; the fixtures have a `Clock` of their own, which the test's typealias hides.
private protocol ReadmeClock: Sendable { var now: String { get } }
private struct ReadmeSystemClock: ReadmeClock { let now = "09:00" }
private struct ReadmeFixedClock: ReadmeClock { let now = "2000-01-01" }
private final class ClockTimeService: TimeService {
    let clock: any ReadmeClock
    init(clock: any ReadmeClock) { self.clock = clock }
    var now: String { clock.now }
}

/// The README's screens (its view-routing example), in a namespace of their own: the fixtures have
/// screens of the same names. Main-actor classes, as an app's screens are.
private enum ReadmeScreens {
    struct Note { let text: String }
    @MainActor final class HomeScreen {}
    @MainActor protocol EditorView: AnyObject { var note: Note? { get set } }
    @MainActor final class EditorScreen: EditorView {
        var note: Note?
    }
    @MainActor protocol NoteDetailView: AnyObject { var noteID: Int { get } }
    @MainActor final class NoteDetailScreen: NoteDetailView {
        let noteID: Int
        init(noteID: Int) { self.noteID = noteID }
    }
}
extension ReadmeScreens.HomeScreen: @MainActor CustomStringConvertible {
    var description: String { "HomeScreen" }
}
extension ReadmeScreens.EditorScreen: @MainActor CustomStringConvertible {
    var description: String { "EditorScreen(\(note?.text ?? "new note"))" }
}
extension ReadmeScreens.NoteDetailScreen: @MainActor CustomStringConvertible {
    var description: String { "NoteDetailScreen(#\(noteID))" }
}
extension RoutableView where Protocol == any ReadmeScreens.EditorView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableView where Protocol == any ReadmeScreens.NoteDetailView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

@Suite struct ReadmeRoutingExampleTests {
    /// A route is a container registration: the router makes the destination through the
    /// container, in the route's lifetime, and the container's overrides reach it.
    @Test func aServiceRouteMakesItsDestinationThroughTheContainer() throws {
        let container = Container()
        container.register((any ReadmeClock).self, scope: .singleton) { _ in ReadmeSystemClock() }
        typealias Clock = ReadmeClock

        // README resumes
        let router = Router(container: container)
        router.register(RoutableService<any TimeService>(), scope: .singleton) { r in
            ClockTimeService(clock: try r.resolve((any Clock).self))
        }
        let time = try router.makeDestination(to: RoutableService<any TimeService>())
        // RoutableService<any Undeclared>() does not compile.
        // README ends

        #expect(time.now == "09:00")
        let again = try router.makeDestination(to: RoutableService<any TimeService>())
        let resolved = try container.resolve((any TimeService).self)
        #expect((again as? ClockTimeService) === time as? ClockTimeService)  // the route's singleton
        #expect((resolved as? ClockTimeService) === time as? ClockTimeService)  // the container's registration
        let overridden = try container.withOverrides {
            $0.register((any Clock).self) { _ in ReadmeFixedClock() }
        } operation: {
            try router.makeDestination(to: RoutableService<any TimeService>())
        }
        #expect(overridden.now == "2000-01-01")
    }

    /// The README's view-routing example: a push shown on the headless host as the README prints it,
    /// removed, and a deep link opened and removed.
    @MainActor
    @Test func aViewRoutePushesAScreenOnTheHeadlessHostAndADeepLinkOpensAnother() throws {
        let container = Container()
        typealias HomeScreen = ReadmeScreens.HomeScreen
        typealias EditorView = ReadmeScreens.EditorView
        typealias EditorScreen = ReadmeScreens.EditorScreen
        typealias NoteDetailView = ReadmeScreens.NoteDetailView
        typealias NoteDetailScreen = ReadmeScreens.NoteDetailScreen
        let note = ReadmeScreens.Note(text: "Groceries")
        // What the README prints, kept to compare.
        var printed: [String] = []
        func print(_ item: Any) { printed.append("\(item)") }

        // README begins
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
        // README pauses
        #expect(host.description == "HomeScreen (root of a navigation stack)")
        #expect(route.state == .removed)

        // README resumes
        // A deep link: a route registered with a URL pattern, its parameters typed.
        router.register(RoutableView<any NoteDetailView>()) { (_, parameters: RouteParameters) in
            NoteDetailScreen(noteID: try parameters.value("id", as: Int.self))
        }
        .url("notes://notes/:id")
        let deepLink = try router.perform(url: "notes://notes/7", path: .push(from: home))
        // README pauses
        print(host)
        // README resumes
        try deepLink.removeRoute()
        // README ends

        #expect(
            printed == [
                "HomeScreen (root of a navigation stack)\n└─ EditorScreen(Groceries) (pushed from HomeScreen)",
                "HomeScreen (root of a navigation stack)\n└─ NoteDetailScreen(#7) (pushed from HomeScreen)",
            ]
        )
        #expect(deepLink.state == .removed)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }
}
