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

/// What a user does behind the router's back, and the undo that then finds its screen gone.
@MainActor
@Suite struct HeadlessNavigationHostUserActionTests {
    let home = headlessScreen("HomeScreen")
    let editor = headlessScreen("EditorScreen")
    let preview = headlessScreen("PreviewScreen")
    let settings = headlessScreen("SettingsScreen")

    func expectNotShown(
        _ host: HeadlessNavigationHost,
        undoing transition: ViewTransition,
        _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let refusal = host.refusal(toUndo: transition)
        #expect(refusal?.reason == .notShown, sourceLocation: sourceLocation)
        #expect(refusal?.message == message, sourceLocation: sourceLocation)
    }

    @Test func aPoppedScreensPushCannotBeUndone() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let push = host.performAllowed(.push, from: home, to: editor)

        #expect(headlessNames(try host.pop(editor)) == ["EditorScreen"])

        #expect(host.description == "HomeScreen (root of a navigation stack)")
        expectNotShown(
            host,
            undoing: push,
            "EditorScreen is no longer in HomeScreen's navigation stack: it was popped. Nothing is left to undo."
        )
    }

    @Test func replacingTheRootRemovesEverythingShownAndSaysSoToAnUndo() throws {
        let signIn = headlessScreen("SignInScreen")
        let host = HeadlessNavigationHost(navigationStackWith: signIn)
        let push = host.performAllowed(.push, from: signIn, to: editor)
        let presentation = host.performAllowed(.presentModally, from: editor, to: settings)

        let replaced = try host.replaceRoot(with: home, inNavigationStack: true)

        #expect(headlessNames(replaced) == ["SignInScreen"])
        #expect(host.description == "HomeScreen (root of a navigation stack)")
        expectNotShown(
            host,
            undoing: push,
            "EditorScreen is no longer in SignInScreen's navigation stack: it went away with SignInScreen, which "
                + "was replaced as the root by HomeScreen. Nothing is left to undo."
        )
        #expect(host.refusal(toUndo: presentation)?.reason == .notShown)
        host.performAllowed(.push, from: home, to: preview)
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ PreviewScreen (pushed from HomeScreen)
                """
        )
    }

    @Test func aSplitScreenIsReplacedByAPlainRootAndAScreenShownAlreadyIsRefused() throws {
        let host = HeadlessNavigationHost(splitScreenWith: home, detail: editor)

        let error = #expect(throws: ViewTransitionRefusal.self) { try host.replaceRoot(with: editor) }
        let replaced = try host.replaceRoot(with: settings)

        #expect(error?.reason == .destinationAlreadyShown)
        #expect(
            error?.message
                == "EditorScreen cannot replace the root: it is shown already (it is detail of the split screen). "
                + "Pass a screen that is not shown."
        )
        #expect(headlessNames(replaced) == ["HomeScreen", "EditorScreen"])
        #expect(host.description == "SettingsScreen (root)")
    }

    @Test func aScreenPoppedWithTheScreenBelowItSaysSo() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.push, from: home, to: editor)
        let push = host.performAllowed(.push, from: editor, to: preview)
        let presentation = host.performAllowed(.presentModally, from: preview, to: settings)

        let popped = try host.pop(editor)

        #expect(headlessNames(popped) == ["EditorScreen", "PreviewScreen"])
        expectNotShown(
            host,
            undoing: push,
            "PreviewScreen is no longer in EditorScreen's navigation stack: it was popped with EditorScreen. "
                + "Nothing is left to undo."
        )
        expectNotShown(
            host,
            undoing: presentation,
            "SettingsScreen is no longer presented from PreviewScreen: it went away with EditorScreen, which was "
                + "popped. Nothing is left to undo."
        )
    }

    @Test func aShowThatPushedAndWasPoppedSaysItWasPopped() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.show, from: home, to: editor)
        try host.pop(editor)

        expectNotShown(
            host,
            undoing: ViewTransition(style: .show, source: home, destination: editor),
            "EditorScreen is no longer in HomeScreen's navigation stack: it was popped. Nothing is left to undo."
        )
    }

    @Test func poppingToTheRootPopsEveryScreenAboveIt() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.push, from: home, to: editor)
        host.performAllowed(.push, from: editor, to: preview)

        let popped = try host.popToRoot(ofStackContaining: preview)

        #expect(headlessNames(popped) == ["EditorScreen", "PreviewScreen"])
        #expect(sameScreen(host.topScreen, home))
        #expect(try host.popToRoot(ofStackContaining: home).isEmpty)
    }

    @Test func aDismissedScreensPresentationCannotBeUndone() throws {
        let host = HeadlessNavigationHost(root: home)
        let presentation = host.performAllowed(.presentAsSheet, from: home, to: settings)

        try host.dismiss(settings)

        #expect(host.presentedScreen(of: home) == nil)
        expectNotShown(
            host,
            undoing: presentation,
            "SettingsScreen is no longer presented from HomeScreen: it was dismissed. Nothing is left to undo."
        )
    }

    @Test func aScreenShownAgainElsewhereSaysWhereItIsNow() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let presentation = host.performAllowed(.presentModally, from: home, to: settings)
        try host.dismiss(settings)
        host.performAllowed(.push, from: home, to: settings)

        expectNotShown(
            host,
            undoing: presentation,
            "SettingsScreen is no longer presented from HomeScreen: it is now pushed from HomeScreen. Nothing is "
                + "left to undo."
        )
    }

    @Test func aTransitionUndoneOnceCannotBeUndoneAgain() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        let push = host.performAllowed(.push, from: home, to: editor)
        host.undoAllowed(push)

        expectNotShown(
            host,
            undoing: push,
            "EditorScreen is no longer in HomeScreen's navigation stack: it was popped. Nothing is left to undo."
        )
    }

    @Test func aTransitionNeverPerformedCannotBeUndone() {
        let host = HeadlessNavigationHost(navigationStackWith: home)

        expectNotShown(
            host,
            undoing: ViewTransition(style: .addAsChild, source: home, destination: editor),
            "EditorScreen is not a child of HomeScreen: it was never shown there, so nothing is left to undo."
        )
    }

    @Test func aReplacedDetailsShowDetailCannotBeUndone() {
        let list = headlessScreen("ListScreen")
        let note = headlessScreen("NoteScreen")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: note)
        let first = host.performAllowed(.showDetail, from: list, to: editor)
        host.performAllowed(.showDetail, from: list, to: preview)

        expectNotShown(
            host,
            undoing: first,
            "EditorScreen is no longer the split screen's detail: it was replaced as the split screen's detail by "
                + "PreviewScreen. Nothing is left to undo."
        )
    }

    @Test func theFirstDetailOfASplitScreenHasNoShowDetailToUndo() {
        let list = headlessScreen("ListScreen")
        let note = headlessScreen("NoteScreen")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: note)

        expectNotShown(
            host,
            undoing: ViewTransition(style: .showDetail, source: list, destination: note),
            "NoteScreen is the split screen's first detail: no showDetail put it there, so nothing is left to undo."
        )
    }

    @Test func aChildOrSubviewRemovedByTheUserCannotBeRemovedAgain() throws {
        let toolbar = headlessScreen("ToolbarView")
        let host = HeadlessNavigationHost(root: home)
        let child = host.performAllowed(.addAsChild, from: home, to: editor)
        let subview = host.performAllowed(.addAsSubview, from: home, to: toolbar)

        try host.removeFromParent(editor)
        try host.removeFromSuperview(toolbar)

        #expect(host.description == "HomeScreen (root)")
        expectNotShown(
            host,
            undoing: child,
            "EditorScreen is no longer a child of HomeScreen: it was removed from its parent HomeScreen. Nothing is "
                + "left to undo."
        )
        expectNotShown(
            host,
            undoing: subview,
            "ToolbarView is no longer a subview of HomeScreen: it was removed from its superview HomeScreen. "
                + "Nothing is left to undo."
        )
    }

    @Test func aUsersActionOnAScreenItCannotActOnThrowsAndChangesNothing() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.addAsChild, from: home, to: editor)
        let before = host.description

        let refusals:
            [(reason: ViewTransitionRefusal.Reason, message: String, action: () throws(ViewTransitionRefusal) -> Void)] =
                [
                    (
                        .noNavigationStack,
                        "HomeScreen cannot be popped: it is the root of its navigation stack: nothing is below it to go "
                            + "back to. Pop a screen pushed above a stack's root instead.",
                        { () throws(ViewTransitionRefusal) in _ = try host.pop(home) }
                    ),
                    (
                        .notShown,
                        "SettingsScreen cannot be dismissed: it is not in the hierarchy (it was never shown).",
                        { () throws(ViewTransitionRefusal) in try host.dismiss(settings) }
                    ),
                    (
                        .notShown,
                        "EditorScreen cannot be dismissed: it is not presented (it is child of HomeScreen). Dismiss the "
                            + "screen presented over it, or pop it.",
                        { () throws(ViewTransitionRefusal) in try host.dismiss(editor) }
                    ),
                    (
                        .notShown,
                        "HomeScreen cannot be removed from its parent: it is not a child screen (it is root of a navigation "
                            + "stack). Pass a screen added as a child.",
                        { () throws(ViewTransitionRefusal) in try host.removeFromParent(home) }
                    ),
                    (
                        .notShown,
                        "EditorScreen cannot be removed from its superview: it is not a subview (it is child of HomeScreen). "
                            + "Pass a view added as a subview.",
                        { () throws(ViewTransitionRefusal) in try host.removeFromSuperview(editor) }
                    ),
                ]
        for expected in refusals {
            do {
                try expected.action()
                Issue.record("Expected a refusal: \(expected.message)")
            } catch {
                #expect(error.reason == expected.reason)
                #expect(error.message == expected.message)
            }
        }
        #expect(host.description == before)
    }

    @Test func theHostHoldsWhatItShowsAndLetsGoOfWhatItNoLongerShows() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        weak var pushed: AnyObject?
        weak var presented: AnyObject?
        weak var child: AnyObject?
        do {
            let shownPushed = headlessScreen("EditorScreen")
            let shownPresented = headlessScreen("SheetScreen")
            let shownChild = headlessScreen("BadgeScreen")
            (pushed, presented, child) = (shownPushed, shownPresented, shownChild)
            host.performAllowed(.push, from: home, to: shownPushed)
            host.performAllowed(.presentAsSheet, from: shownPushed, to: shownPresented)
            host.performAllowed(.addAsChild, from: shownPresented, to: shownChild)
            try host.declareSegue("next", on: shownPushed, style: .push)
        }

        #expect(pushed != nil && presented != nil && child != nil)
        try host.popToRoot(ofStackContaining: home)
        #expect(pushed == nil && presented == nil && child == nil)
    }
}
