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

@MainActor
@Suite struct HeadlessNavigationHostTransitionTests {
    let home = headlessScreen("HomeScreen")
    let editor = headlessScreen("EditorScreen")
    let preview = headlessScreen("PreviewScreen")
    let signIn = headlessScreen("SignInScreen")

    @Test func aPushGoesOnTopOfTheSourcesStackAndItsUndoPopsBackToTheSourceWithWhatWasPushedAbove() {
        let host = HeadlessNavigationHost(navigationStackWith: home)

        let push = host.performAllowed(.push, from: home, to: editor)
        host.performAllowed(.push, from: editor, to: preview)
        host.performAllowed(.presentModally, from: preview, to: signIn)

        #expect(push.style == .push)
        #expect(
            headlessNames(host.navigationStack(containing: editor)) == ["HomeScreen", "EditorScreen", "PreviewScreen"]
        )
        host.undoAllowed(push)
        #expect(host.description == "HomeScreen (root of a navigation stack)")
        #expect(!host.contains(editor) && !host.contains(preview) && !host.contains(signIn))
        #expect(sameScreen(host.topScreen, home))
    }

    @Test func aPushFromAScreenBelowTheTopGoesOnTopAndItsUndoPopsBackToThatScreen() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.push, from: home, to: editor)

        let push = host.performAllowed(.push, from: home, to: preview)

        #expect(
            headlessNames(host.navigationStack(containing: home)) == ["HomeScreen", "EditorScreen", "PreviewScreen"]
        )
        host.undoAllowed(push)
        #expect(headlessNames(host.navigationStack(containing: home)) == ["HomeScreen"])
    }

    @Test func aChildScreenPushesOntoItsParentsStack() {
        let badge = headlessScreen("BadgeScreen")
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.addAsChild, from: home, to: badge)

        let push = host.performAllowed(.push, from: badge, to: editor)

        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                ├─ BadgeScreen (child of HomeScreen)
                └─ EditorScreen (pushed from BadgeScreen)
                """
        )
        host.undoAllowed(push)
        #expect(!host.contains(editor) && host.contains(badge))
    }

    @Test(arguments: [
        (ViewTransitionStyle.presentModally, "presented modally"),
        (.presentAsPopover, "presented as a popover"),
        (.presentAsSheet, "presented as a sheet"),
    ])
    func aPresentationShowsOneScreenOverItsSourceAndItsUndoDismissesItWithWhatItPresents(
        style: ViewTransitionStyle,
        words: String
    ) {
        let settings = headlessScreen("SettingsScreen")
        let host = HeadlessNavigationHost(root: home)

        let presentation = host.performAllowed(style, from: home, to: settings)
        host.performAllowed(.presentModally, from: settings, to: signIn)

        #expect(presentation.style == style)
        #expect(sameScreen(host.presentedScreen(of: home), settings))
        #expect(
            host.description == """
                HomeScreen (root)
                └─ SettingsScreen (\(words) from HomeScreen)
                   └─ SignInScreen (presented modally from SettingsScreen)
                """
        )
        host.undoAllowed(presentation)
        #expect(host.description == "HomeScreen (root)")
        #expect(host.presentedScreen(of: home) == nil && !host.contains(signIn))
    }

    @Test func showPushesInsideANavigationStackAndReportsAPush() {
        let host = HeadlessNavigationHost(navigationStackWith: home)

        let shown = host.performAllowed(.show, from: home, to: editor)

        #expect(shown.style == .push)
        #expect(host.description.hasSuffix("└─ EditorScreen (pushed from HomeScreen by show)"))
        host.undoAllowed(shown)
        #expect(!host.contains(editor))
    }

    @Test func showPresentsModallyOutsideANavigationStackAndReportsAModalPresentation() {
        let host = HeadlessNavigationHost(root: home)

        let shown = host.performAllowed(.show, from: home, to: editor)

        #expect(shown.style == .presentModally)
        #expect(sameScreen(host.presentedScreen(of: home), editor))
        #expect(host.description.hasSuffix("└─ EditorScreen (presented modally from HomeScreen by show)"))
        host.undoAllowed(shown)
        #expect(!host.contains(editor))
    }

    @Test func undoingAShowAsAskedUndoesWhatItReallyDid() {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        host.performAllowed(.show, from: home, to: editor)

        host.undoAllowed(ViewTransition(style: .show, source: home, destination: editor))

        #expect(!host.contains(editor))
    }

    @Test func showDetailReplacesTheSplitScreensDetailAndItsUndoRestoresThePreviousOne() {
        let list = headlessScreen("ListScreen")
        let first = headlessScreen("FirstNote")
        let second = headlessScreen("SecondNote")
        let third = headlessScreen("ThirdNote")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: first, primaryInNavigationStack: true)
        host.performAllowed(.addAsChild, from: first, to: preview)

        let toSecond = host.performAllowed(.showDetail, from: list, to: second)
        let toThird = host.performAllowed(.showDetail, from: second, to: third)

        #expect(toSecond.style == .showDetail)
        #expect(sameScreen(host.detail, third) && !host.contains(first) && !host.contains(second))
        #expect(
            host.description == """
                ListScreen (primary of the split screen, root of a navigation stack)
                ThirdNote (detail of the split screen, shown from SecondNote)
                """
        )
        host.undoAllowed(toThird)
        #expect(sameScreen(host.detail, second))
        host.undoAllowed(toSecond)
        #expect(sameScreen(host.detail, first))
        #expect(
            host.description == """
                ListScreen (primary of the split screen, root of a navigation stack)
                FirstNote (detail of the split screen)
                └─ PreviewScreen (child of FirstNote)
                """
        )
    }

    @Test func aScreenPushedInTheSplitScreensPrimaryCanShowADetail() {
        let list = headlessScreen("ListScreen")
        let note = headlessScreen("NoteScreen")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: note, primaryInNavigationStack: true)
        host.performAllowed(.push, from: list, to: preview)

        host.performAllowed(.showDetail, from: preview, to: editor)

        #expect(sameScreen(host.detail, editor))
    }

    @Test func eachDetailOfADetailStackIsTheRootOfANewStack() {
        let list = headlessScreen("ListScreen")
        let note = headlessScreen("NoteScreen")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: note, detailInNavigationStack: true)

        host.performAllowed(.showDetail, from: list, to: editor)
        host.performAllowed(.push, from: editor, to: preview)

        #expect(
            host.description == """
                ListScreen (primary of the split screen)
                EditorScreen (detail of the split screen, shown from ListScreen, root of a navigation stack)
                └─ PreviewScreen (pushed from EditorScreen)
                """
        )
    }

    @Test func aChildIsAddedToItsParentAndItsUndoRemovesItWithItsOwnChildrenAndPresentations() {
        let badge = headlessScreen("BadgeScreen")
        let host = HeadlessNavigationHost(root: home)

        let child = host.performAllowed(.addAsChild, from: home, to: editor)
        host.performAllowed(.addAsChild, from: editor, to: badge)
        host.performAllowed(.presentAsSheet, from: editor, to: signIn)

        #expect(headlessNames(host.children(of: home)) == ["EditorScreen"])
        #expect(
            host.description == """
                HomeScreen (root)
                └─ EditorScreen (child of HomeScreen)
                   ├─ BadgeScreen (child of EditorScreen)
                   └─ SignInScreen (presented as a sheet from EditorScreen)
                """
        )
        host.undoAllowed(child)
        #expect(host.description == "HomeScreen (root)")
        #expect(!host.contains(badge) && !host.contains(signIn))
    }

    @Test func aSubviewJoinsTheSourcesViewTreeAndItsUndoRemovesItWithItsSubviews() {
        let toolbar = headlessScreen("ToolbarView")
        let button = headlessScreen("ButtonView")
        let label = headlessScreen("LabelView")
        let host = HeadlessNavigationHost(root: home)

        let subview = host.performAllowed(.addAsSubview, from: home, to: toolbar)
        host.performAllowed(.addAsSubview, from: toolbar, to: button)
        host.performAllowed(.addAsSubview, from: home, to: label)

        #expect(headlessNames(host.subviews(of: home)) == ["ToolbarView", "LabelView"])
        host.undoAllowed(subview)
        #expect(
            host.description == """
                HomeScreen (root)
                └─ LabelView (subview of HomeScreen)
                """
        )
        #expect(!host.contains(button))
    }

    @Test func aDeclaredSeguePerformsItsStyleAndReportsThatStyle() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        try host.declareSegue("openEditor", on: home, style: .push)
        try host.declareSegue("signIn", on: editor, style: .presentAsSheet)
        try host.declareSegue("preview", on: editor, style: .show)

        let opened = host.performAllowed(.performSegue(identifier: "openEditor"), from: home, to: editor)
        let signedIn = host.performAllowed(.performSegue(identifier: "signIn"), from: editor, to: signIn)
        let previewed = host.performAllowed(.performSegue(identifier: "preview"), from: editor, to: preview)

        #expect(opened.style == .push)
        #expect(signedIn.style == .presentAsSheet)
        #expect(previewed.style == .push)
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                └─ EditorScreen (pushed from HomeScreen by segue "openEditor")
                   ├─ PreviewScreen (pushed from EditorScreen by segue "preview")
                   └─ SignInScreen (presented as a sheet from EditorScreen by segue "signIn")
                """
        )
        host.undoAllowed(signedIn)
        host.undoAllowed(
            ViewTransition(style: .performSegue(identifier: "openEditor"), source: home, destination: editor)
        )
        #expect(host.description == "HomeScreen (root of a navigation stack)")
    }

    @Test func aSegueRedeclaredOnTheSameSourceTakesTheNewStyle() throws {
        let host = HeadlessNavigationHost(navigationStackWith: home)
        try host.declareSegue("open", on: home, style: .push)
        try host.declareSegue("open", on: home, style: .presentModally)

        let opened = host.performAllowed(.performSegue(identifier: "open"), from: home, to: editor)

        #expect(opened.style == .presentModally)
    }

    @Test func aSegueCannotBeDeclaredToPerformASegue() {
        let host = HeadlessNavigationHost(navigationStackWith: home)

        #expect {
            try host.declareSegue("open", on: home, style: .performSegue(identifier: "other"))
        } throws: { error in
            let refusal = error as? ViewTransitionRefusal
            return refusal?.reason == .unsupportedStyle
                && refusal?.message == "The segue \"open\" on HomeScreen cannot itself perform a segue "
                    + "(performSegue(\"other\")): declare it with the style it performs, such as push or "
                    + "presentModally."
        }
    }
}
