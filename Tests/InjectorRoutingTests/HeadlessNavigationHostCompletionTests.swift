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
import Testing

/// When a transition ends: at once by default, or when the test says so.
@MainActor
@Suite struct HeadlessNavigationHostCompletionTests {
    let home = headlessScreen("HomeScreen")
    let editor = headlessScreen("EditorScreen")
    let settings = headlessScreen("SettingsScreen")

    @Test func completionsRunAtOnceByDefault() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let completions = HeadlessCompletions()
        let push = ViewTransition(style: .push, source: home, destination: editor)

        host.perform(push) { completions.performed.append($0) }
        #expect(completions.performed.count == 1)
        host.undo(push) { completions.undone += 1 }
        #expect(completions.undone == 1)
        #expect(host.pendingTransitionCount == 0)
    }

    @Test func heldCompletionsWaitForCompletePendingTransitionsAndRunInOrder() {
        let host = HeadlessNavigationHost(navigationStackWith: home, completesTransitionsImmediately: false)
        var ended: [String] = []
        let push = ViewTransition(style: .push, source: home, destination: editor)
        let presentation = ViewTransition(style: .show, source: editor, destination: settings)

        host.perform(push) { ended.append("\($0)") }
        host.perform(presentation) { ended.append("\($0)") }

        #expect(ended.isEmpty)
        #expect(host.pendingTransitionCount == 2)
        // The hierarchy changes at once; only the completion waits.
        #expect(sameScreen(host.topScreen, settings))
        #expect(host.completePendingTransitions() == 2)
        #expect(ended == ["push EditorScreen from HomeScreen", "push SettingsScreen from EditorScreen"])
        host.undo(push) { ended.append("undone") }
        let editorShown = host.contains(editor)
        #expect(!editorShown)
        #expect(ended.count == 2)
        #expect(host.completePendingTransitions() == 1)
        #expect(ended.last == "undone")
    }

    @Test func aTransitionACompletionPerformsWaitsForTheNextCall() {
        let host = HeadlessNavigationHost(navigationStackWith: home, completesTransitionsImmediately: false)
        var ended: [String] = []
        host.perform(ViewTransition(style: .push, source: home, destination: editor)) { _ in
            ended.append("editor")
            host.perform(ViewTransition(style: .presentModally, source: editor, destination: settings)) { _ in
                ended.append("settings")
            }
        }

        #expect(host.completePendingTransitions() == 1)
        #expect(ended == ["editor"])
        #expect(host.completePendingTransitions() == 1)
        #expect(ended == ["editor", "settings"])
        #expect(host.completePendingTransitions() == 0)
    }

    @Test func completionsCanBeHeldFromAnyPointOn() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.push, from: home, to: editor)

        host.completesTransitionsImmediately = false
        var ended = false
        host.perform(ViewTransition(style: .presentAsSheet, source: editor, destination: settings)) { _ in ended = true
        }

        #expect(!ended)
        host.completePendingTransitions()
        #expect(ended)
    }
}
