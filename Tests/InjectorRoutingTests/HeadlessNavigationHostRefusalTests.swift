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

/// Each refusal: its reason, its whole message, and a hierarchy left as it was.
@MainActor
@Suite struct HeadlessNavigationHostRefusalTests {
    let home = headlessScreen("HomeScreen")
    let editor = headlessScreen("EditorScreen")
    let settings = headlessScreen("SettingsScreen")

    /// Expects `style` from `source` to `destination` to be refused for `reason` with `message`, and
    /// the host's hierarchy to be unchanged.
    func expectRefusal(
        _ host: HeadlessNavigationHost,
        _ style: ViewTransitionStyle,
        from source: AnyObject,
        to destination: AnyObject,
        _ reason: ViewTransitionRefusal.Reason,
        _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = host.description
        let refusal = host.refusal(toPerform: ViewTransition(style: style, source: source, destination: destination))
        #expect(refusal?.reason == reason, sourceLocation: sourceLocation)
        #expect(refusal?.message == message, sourceLocation: sourceLocation)
        #expect(host.description == before, sourceLocation: sourceLocation)
    }

    @Test func aSourceNeverShownIsNotInTheHierarchy() {
        let host = HeadlessNavigationHost(navigationStackWith: home)

        expectRefusal(
            host,
            .push,
            from: settings,
            to: editor,
            .sourceNotInHierarchy,
            "SettingsScreen is not in the hierarchy, so EditorScreen cannot be pushed from it: perform the "
                + "transition from a screen that is shown."
        )
    }

    @Test func aDismissedSourceIsNotInTheHierarchyAndTheMessageSaysItWasDismissed() throws {
        let host = HeadlessNavigationHost(root: home)
        host.performAllowed(.presentModally, from: home, to: settings)
        try host.dismiss(settings)

        expectRefusal(
            host,
            .presentAsSheet,
            from: settings,
            to: editor,
            .sourceNotInHierarchy,
            "SettingsScreen is not in the hierarchy (it was dismissed), so EditorScreen cannot be presented as "
                + "a sheet from it: perform the transition from a screen that is shown."
        )
    }

    @Test func aPushFromAScreenInNoNavigationStackIsRefused() {
        let host = HeadlessNavigationHost(root: home)

        expectRefusal(
            host,
            .push,
            from: home,
            to: editor,
            .noNavigationStack,
            "HomeScreen is in no navigation stack, so EditorScreen cannot be pushed from it: push from a screen "
                + "in a navigation stack, or use show, which presents outside one."
        )
    }

    @Test func aPresentedScreenIsInNoNavigationStack() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.presentModally, from: home, to: settings)

        expectRefusal(
            host,
            .push,
            from: settings,
            to: editor,
            .noNavigationStack,
            "SettingsScreen is in no navigation stack, so EditorScreen cannot be pushed from it: push from a "
                + "screen in a navigation stack, or use show, which presents outside one."
        )
    }

    @Test(arguments: [ViewTransitionStyle.presentModally, .presentAsPopover, .presentAsSheet, .show])
    func aSourceThatAlreadyPresentsCannotPresentAgain(style: ViewTransitionStyle) {
        let host = HeadlessNavigationHost(root: home)
        host.performAllowed(.presentAsSheet, from: home, to: settings)
        let words = [
            .presentModally: "presented modally", .presentAsPopover: "presented as a popover",
            .presentAsSheet: "presented as a sheet", ViewTransitionStyle.show: "shown",
        ][style]!

        expectRefusal(
            host,
            style,
            from: home,
            to: editor,
            .alreadyPresenting,
            "HomeScreen already presents SettingsScreen, so EditorScreen cannot be \(words) from it: dismiss "
                + "SettingsScreen first, or present from SettingsScreen."
        )
    }

    @Test func showDetailWithoutASplitScreenIsRefused() {
        let host = HeadlessNavigationHost(navigationStackWith: home)

        expectRefusal(
            host,
            .showDetail,
            from: home,
            to: editor,
            .noSplitScreen,
            "HomeScreen is in no split screen (this host has none), so EditorScreen cannot be shown as the split "
                + "screen's detail from it: perform showDetail from a screen in a split screen's primary or "
                + "detail, or use show."
        )
    }

    @Test func showDetailFromAScreenPresentedOverTheSplitScreenIsRefused() {
        let list = headlessScreen("ListScreen")
        let note = headlessScreen("NoteScreen")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: note)
        host.performAllowed(.presentModally, from: list, to: settings)

        expectRefusal(
            host,
            .showDetail,
            from: settings,
            to: editor,
            .noSplitScreen,
            "SettingsScreen is in no split screen, so EditorScreen cannot be shown as the split screen's detail "
                + "from it: perform showDetail from a screen in a split screen's primary or detail, or use show."
        )
    }

    @Test func pushingTheSameScreenTwiceIsRefused() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.push, from: home, to: editor)

        expectRefusal(
            host,
            .push,
            from: editor,
            to: editor,
            .destinationAlreadyShown,
            "EditorScreen is already shown (pushed from HomeScreen), so it cannot be pushed from EditorScreen too: "
                + "a screen is shown in one place at a time; remove it first, or show a new one."
        )
    }

    @Test func aScreenShownElsewhereCannotBeShownAgain() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.addAsChild, from: home, to: editor)

        expectRefusal(
            host,
            .presentModally,
            from: home,
            to: editor,
            .destinationAlreadyShown,
            "EditorScreen is already shown (child of HomeScreen), so it cannot be presented modally from "
                + "HomeScreen too: a screen is shown in one place at a time; remove it first, or show a new one."
        )
    }

    @Test func aReplacedDetailIsKeptForItsRestoreAndCannotBeShownElsewhere() {
        let list = headlessScreen("ListScreen")
        let note = headlessScreen("NoteScreen")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: note)
        host.performAllowed(.showDetail, from: list, to: editor)

        expectRefusal(
            host,
            .presentModally,
            from: list,
            to: note,
            .destinationAlreadyShown,
            "NoteScreen is already shown (kept to come back as the split screen's detail when EditorScreen's "
                + "showDetail is undone), so it cannot be presented modally from ListScreen too: a screen is "
                + "shown in one place at a time; remove it first, or show a new one."
        )
    }

    @Test func anUndeclaredSegueIsRefusedWithTheSeguesTheSourceDeclares() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)

        expectRefusal(
            host,
            .performSegue(identifier: "openEditor"),
            from: home,
            to: editor,
            .undeclaredSegue,
            "HomeScreen declares no segue \"openEditor\" (it declares none): declare it with "
                + "declareSegue(\"openEditor\", on:style:) before performing it."
        )
        try host.declareSegue("settings", on: home, style: .presentAsSheet)
        try host.declareSegue("about", on: home, style: .push)
        expectRefusal(
            host,
            .performSegue(identifier: "openEditor"),
            from: home,
            to: editor,
            .undeclaredSegue,
            "HomeScreen declares no segue \"openEditor\" (it declares \"about\", \"settings\"): declare it with "
                + "declareSegue(\"openEditor\", on:style:) before performing it."
        )
    }

    @Test func aSegueDeclaredOnAnotherSourceDoesNotCount() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        try host.declareSegue("open", on: settings, style: .push)

        let refusal = host.refusal(
            toPerform: ViewTransition(style: .performSegue(identifier: "open"), source: home, destination: editor)
        )

        #expect(refusal?.reason == .undeclaredSegue)
    }

    @Test func aSegueIsCheckedAsTheStyleItDeclares() throws {
        let host = HeadlessNavigationHost(root: home)
        try host.declareSegue("open", on: home, style: .push)

        expectRefusal(
            host,
            .performSegue(identifier: "open"),
            from: home,
            to: editor,
            .noNavigationStack,
            "HomeScreen is in no navigation stack, so EditorScreen cannot be shown by segue \"open\" from it: push "
                + "from a screen in a navigation stack, or use show, which presents outside one."
        )
    }

    @Test(arguments: [
        (ViewTransitionStyle.push, "pushed"),
        (.presentModally, "presented modally"),
        (.show, "shown"),
        (.showDetail, "shown as the split screen's detail"),
        (.addAsChild, "added as a child"),
    ])
    func aViewOnlyTakesSubviews(style: ViewTransitionStyle, words: String) {
        let toolbar = headlessScreen("ToolbarView")
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.addAsSubview, from: home, to: toolbar)

        expectRefusal(
            host,
            style,
            from: toolbar,
            to: editor,
            .unsupportedStyle,
            "ToolbarView is a view (subview of HomeScreen), so EditorScreen cannot be \(words) from it: only "
                + "addAsSubview starts from a view; perform the transition from a screen."
        )
    }
}
