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

import Foundation
import Injector
import InjectorRouting
import Testing

@testable import NotesApp

/// The app's screen flow on the headless host, in this module's default isolation (the main actor),
/// as an app's UI tests would run it.
@Suite struct ScreenFlowTests {
    private let hierarchy = """
        HomeScreen (root of a navigation stack)
        └─ EditorScreen(Groceries) (pushed from HomeScreen)
           └─ NoteDetailScreen(#7) (pushed from EditorScreen(Groceries))
        """

    @Test func signingInEditingAndADeepLinkShowTheScreensAndRemovingThemGoesBackHome() throws {
        let app = NotesApp(notes: [Note(id: 7, text: "Groceries")])
        #expect(app.host.description == "SignInScreen (root of a navigation stack)")

        let home = try app.signIn()
        let editing = try app.router.perform(url: "notes://notes/new?title=Groceries", path: .push(from: home))
        let editor = try #require(editing.destination as? EditorScreen)
        let detail = try app.router.perform(url: "notes://notes/7", path: .push(from: editor))

        #expect(app.host.description == hierarchy)
        try detail.removeRoute()
        try editing.removeRoute()
        #expect(app.host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func whatTheHostShowsIsSavedAndRestoredOnAFreshApp() throws {
        let app = NotesApp(notes: [Note(id: 7, text: "Groceries")])
        let home = try app.signIn()
        let editing = try app.router.perform(url: "notes://notes/new?title=Groceries", path: .push(from: home))
        _ = try app.router.perform(
            url: "notes://notes/7",
            path: .push(from: try #require(editing.destination as? EditorScreen))
        )

        let json = try JSONEncoder().encode(try app.host.savedNavigation())
        let relaunched = NotesApp(notes: [Note(id: 7, text: "Groceries")])
        _ = try relaunched.signIn()
        try relaunched.host.restore(
            try JSONDecoder().decode(SavedNavigation.self, from: json),
            through: relaunched.router
        )

        #expect(relaunched.host.description == hierarchy)
    }

    @Test func validatingOnTheMainActorChecksTheScreens() throws {
        let report = try NotesApp(notes: []).router.validate()

        // Only the deep link's screen, which needs its URL's parameters, is left unchecked.
        #expect(report.description == "NoteDetailView: needs route parameters")
    }
}

/// A main-actor singleton, made by its `nonisolated init`, is one instance whose state the app's
/// main-actor code uses directly.
@Test func aMainActorSingletonIsSharedAndItsStateUsedOnTheMainActor() throws {
    let app = NotesApp(notes: [])
    try app.container.resolve(Preferences.self).fontSize = 18

    #expect(try app.container.resolve(Preferences.self).fontSize == 18)
}

/// The model's async calls that take a closure run in its isolation, the main actor.
@Suite struct EditorModelTests {
    @Test func theModelsClosuresUseItsStateAndItsSessionIsClosed() async throws {
        let model = EditorModel(container: NotesApp(notes: []).container)

        let draft = try await model.edit("Dear Ada,")
        let stamped = try await model.withFixedClock("2000-01-01") { try await model.stamp() }

        #expect(draft.isDiscarded)
        #expect(stamped == "2000-01-01")
        #expect(model.saved == ["Dear Ada,", "overridden", "stamped"])
    }
}
