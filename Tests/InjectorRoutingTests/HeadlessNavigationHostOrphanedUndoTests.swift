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

/// The headless host undoes a transition whose source is gone from where its destination is: the
/// style says what to undo, the destination's place in the hierarchy says how.
@MainActor
@Suite struct HeadlessNavigationHostOrphanedUndoTests {
    let home = headlessScreen("HomeScreen")
    let editor = headlessScreen("EditorScreen")
    let preview = headlessScreen("PreviewScreen")

    /// Undoes `style` for `destination` from a source named GoneScreen, which the host allows.
    private func undoOrphaned(
        _ style: ViewTransitionStyle,
        of destination: AnyObject,
        on host: HeadlessNavigationHost
    ) {
        let transition = OrphanedTransition(style: style, sourceName: "GoneScreen", destination: destination)
        #expect(host.refusal(toUndo: transition) == nil)
        var undone = 0
        host.undo(transition) { undone += 1 }
        #expect(undone == 1)
    }

    @Test func aPushIsPoppedBackToTheScreenBelowItWithWhatWasPushedAbove() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.push, from: home, to: editor)
        host.performAllowed(.push, from: editor, to: preview)

        undoOrphaned(.push, of: editor, on: host)

        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aPresentationIsDismissedAndAChildOrSubviewIsRemovedFromItsParent() {
        let host = HeadlessNavigationHost(root: home)
        let badge = headlessScreen("BadgeView")
        host.performAllowed(.presentAsSheet, from: home, to: editor)
        host.performAllowed(.addAsChild, from: editor, to: preview)
        host.performAllowed(.addAsSubview, from: preview, to: badge)

        undoOrphaned(.addAsSubview, of: badge, on: host)
        #expect(host.subviews(of: preview).isEmpty)
        undoOrphaned(.addAsChild, of: preview, on: host)
        #expect(host.children(of: editor).isEmpty)
        undoOrphaned(.presentAsSheet, of: editor, on: host)

        #expect(host.description == "HomeScreen (root)")
    }

    @Test func aShowOrASegueIsUndoneAsTheStyleItWasPerformedAs() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        try host.declareSegue("openPreview", on: editor, style: .presentModally)
        host.performAllowed(.show, from: home, to: editor)
        host.performAllowed(.performSegue(identifier: "openPreview"), from: editor, to: preview)

        undoOrphaned(.performSegue(identifier: "openPreview"), of: preview, on: host)
        undoOrphaned(.show, of: editor, on: host)

        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aShowDetailRestoresThePreviousDetail() {
        let list = headlessScreen("ListScreen")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: home)
        host.performAllowed(.showDetail, from: list, to: editor)

        undoOrphaned(.showDetail, of: editor, on: host)

        #expect(sameScreen(host.detail, home))
    }

    @Test func aDestinationNoLongerWhereItsStylePutsAScreenIsRefusedWithWhatHappenedToIt() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.push, from: home, to: editor)
        host.performAllowed(.presentModally, from: editor, to: preview)
        try host.pop(editor)
        host.performAllowed(.push, from: home, to: preview)

        let popped = host.refusal(
            toUndo: OrphanedTransition(style: .push, sourceName: "GoneScreen", destination: editor)
        )
        let movedOn = host.refusal(
            toUndo: OrphanedTransition(style: .presentModally, sourceName: "GoneScreen", destination: preview)
        )

        #expect(popped?.reason == .notShown)
        #expect(popped?.message == "EditorScreen is no longer pushed: it was popped. Nothing is left to undo.")
        #expect(movedOn?.reason == .notShown)
        #expect(
            movedOn?.message
                == "PreviewScreen is no longer presented modally: it is now pushed from HomeScreen. Nothing is left "
                + "to undo."
        )
    }
}
