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

/// A screen or view for the headless host's tests, named by its description.
final class HeadlessScreen: CustomStringConvertible {
    let description: String
    init(_ name: String) { description = name }
}

/// A screen named `name`, typed as the host sees it.
func headlessScreen(_ name: String) -> AnyObject { HeadlessScreen(name) }

/// Whether `a` and `b` are the same object.
///
/// `#expect(host.topScreen === home)` crashes Swift 6.3.1 ("Invalid conformance in type-checked AST")
/// when it lowers the macro's `===` between two `AnyObject`s in a main-actor test.
func sameScreen(_ a: AnyObject?, _ b: AnyObject?) -> Bool { a === b }

/// A screen without a description of its own: the host names it by its type.
final class UndescribedHeadlessScreen {}

/// Holds what a completion was called with.
@MainActor
final class HeadlessCompletions {
    var performed: [ViewTransition] = []
    var undone = 0
}

extension HeadlessNavigationHost {
    /// Performs `style` from `source` to `destination`, recording an issue if it is refused, and
    /// returns the transition the completion reported.
    @discardableResult
    func performAllowed(
        _ style: ViewTransitionStyle,
        from source: AnyObject,
        to destination: AnyObject,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ViewTransition {
        let transition = ViewTransition(style: style, source: source, destination: destination)
        if let refusal = refusal(toPerform: transition) {
            Issue.record("\(transition) was refused: \(refusal)", sourceLocation: sourceLocation)
            return transition
        }
        let completions = HeadlessCompletions()
        perform(transition) { completions.performed.append($0) }
        #expect(completions.performed.count == 1, sourceLocation: sourceLocation)
        return completions.performed.first ?? transition
    }

    /// Undoes a performed transition, recording an issue if it is refused.
    func undoAllowed(_ transition: ViewTransition, sourceLocation: SourceLocation = #_sourceLocation) {
        if let refusal = refusal(toUndo: transition) {
            Issue.record("Undoing \(transition) was refused: \(refusal)", sourceLocation: sourceLocation)
            return
        }
        let completions = HeadlessCompletions()
        undo(transition) { completions.undone += 1 }
        #expect(completions.undone == 1, sourceLocation: sourceLocation)
    }
}

@MainActor
@Suite struct HeadlessNavigationHostTests {
    @Test func aPlainRootIsTheTopScreenAndInNoNavigationStack() {
        let home = headlessScreen("HomeScreen")
        let host = HeadlessNavigationHost(root: home)

        #expect(host.description == "HomeScreen (root)")
        #expect(sameScreen(host.topScreen, home))
        #expect(host.contains(home))
        #expect(host.navigationStack(containing: home) == nil)
        #expect(host.detail == nil && host.primary == nil)
    }

    @Test func aNavigationStackHostStartsWithItsRootAlone() {
        let home = headlessScreen("HomeScreen")
        let host = HeadlessNavigationHost(navigationStackWith: home)

        #expect(host.description == "HomeScreen (root of a navigation stack)")
        #expect(host.hierarchyDescription == host.description)
        #expect(String(describing: host) == host.description)
        #expect("\(host)" == host.description)
        #expect(headlessNames(host.navigationStack(containing: home)) == ["HomeScreen"])
        #expect(sameScreen(host.topScreen, home))
    }

    @Test func aSplitScreenShowsItsPrimaryThenItsDetailEitherInANavigationStackIfAsked() {
        let list = headlessScreen("ListScreen")
        let note = headlessScreen("NoteScreen")
        let host = HeadlessNavigationHost(splitScreenWith: list, detail: note, primaryInNavigationStack: true)

        #expect(
            host.description == """
                ListScreen (primary of the split screen, root of a navigation stack)
                NoteScreen (detail of the split screen)
                """
        )
        #expect(sameScreen(host.primary, list) && sameScreen(host.detail, note))
        #expect(sameScreen(host.topScreen, note))
        #expect(host.navigationStack(containing: list)?.count == 1)
        #expect(host.navigationStack(containing: note) == nil)
    }

    @Test func aScreenWithoutADescriptionIsNamedByItsType() {
        let host = HeadlessNavigationHost(navigationStackWith: UndescribedHeadlessScreen())

        #expect(host.description == "UndescribedHeadlessScreen (root of a navigation stack)")
    }

    @Test func theHierarchyTextListsEveryScreenInTreeOrderWithHowItGotThere() throws {
        let home = headlessScreen("HomeScreen")
        let toolbar = headlessScreen("ToolbarView")
        let button = headlessScreen("ButtonView")
        let badge = headlessScreen("BadgeScreen")
        let editor = headlessScreen("EditorScreen")
        let preview = headlessScreen("PreviewScreen")
        let signIn = headlessScreen("SignInScreen")
        let help = headlessScreen("HelpScreen")
        let settings = headlessScreen("SettingsScreen")
        let host = HeadlessNavigationHost(navigationStackWith: home)
        try host.declareSegue("preview", on: editor, style: .push)

        host.performAllowed(.addAsSubview, from: home, to: toolbar)
        host.performAllowed(.addAsSubview, from: toolbar, to: button)
        host.performAllowed(.addAsChild, from: home, to: badge)
        host.performAllowed(.push, from: home, to: editor)
        host.performAllowed(.performSegue(identifier: "preview"), from: editor, to: preview)
        host.performAllowed(.show, from: preview, to: help)
        host.performAllowed(.presentModally, from: editor, to: signIn)
        host.performAllowed(.presentAsSheet, from: home, to: settings)

        print(host.description)
        #expect(
            host.description == """
                HomeScreen (root of a navigation stack)
                ├─ ToolbarView (subview of HomeScreen)
                │  └─ ButtonView (subview of ToolbarView)
                ├─ BadgeScreen (child of HomeScreen)
                ├─ EditorScreen (pushed from HomeScreen)
                │  ├─ PreviewScreen (pushed from EditorScreen by segue "preview")
                │  │  └─ HelpScreen (pushed from PreviewScreen by show)
                │  └─ SignInScreen (presented modally from EditorScreen)
                └─ SettingsScreen (presented as a sheet from HomeScreen)
                """
        )
        #expect(sameScreen(host.topScreen, settings))
        #expect(headlessNames(host.subviews(of: toolbar)) == ["ButtonView"])
        #expect(headlessNames(host.children(of: home)) == ["BadgeScreen"])
        #expect(sameScreen(host.presentedScreen(of: editor), signIn))
        #expect(sameScreen(host.presentingScreen(of: signIn), editor))
        #expect(host.presentingScreen(of: editor) == nil)
        #expect(
            headlessNames(host.navigationStack(containing: badge))
                == ["HomeScreen", "EditorScreen", "PreviewScreen", "HelpScreen"]
        )
    }

    @Test func theTopScreenIsTheLastPresentationOrElseTheTopOfTheStack() throws {
        let home = headlessScreen("HomeScreen")
        let editor = headlessScreen("EditorScreen")
        let signIn = headlessScreen("SignInScreen")
        let host = HeadlessNavigationHost(navigationStackWith: home)

        host.performAllowed(.push, from: home, to: editor)
        #expect(sameScreen(host.topScreen, editor))
        host.performAllowed(.presentAsPopover, from: home, to: signIn)
        #expect(sameScreen(host.topScreen, signIn))
        try host.dismiss(signIn)
        #expect(sameScreen(host.topScreen, editor))
    }
}

/// The names of headless test screens, to compare lists of them.
func headlessNames(_ objects: [AnyObject]?) -> [String]? {
    objects?.map { String(describing: $0) }
}
