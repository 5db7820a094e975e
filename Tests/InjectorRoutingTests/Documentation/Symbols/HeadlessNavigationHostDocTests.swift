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

// The swift block of HeadlessNavigationHost's doc comment, verbatim, with the hierarchy it prints,
// and the rules the comment states for a push, a refusal and a held completion. The fixtures have a
// `HomeScreen` and an `EditorScreen` of their own, so the comment's live in the namespace below.

/// The doc comment's screens, and its tests.
enum HeadlessNavigationHostDoc {
    fileprivate final class HomeScreen: CustomStringConvertible {
        var description: String { "HomeScreen" }
    }
    fileprivate final class EditorScreen: CustomStringConvertible {
        var description: String { "EditorScreen" }
    }
    /// A screen named for the comment's other rules.
    fileprivate final class Screen: CustomStringConvertible {
        let description: String
        init(_ name: String) { description = name }
    }
}

extension HeadlessNavigationHostDoc {
    @MainActor
    struct HeadlessNavigationHostDocTests {
        fileprivate let home = HomeScreen()
        fileprivate let editor = EditorScreen()

        @Test func aPushFromTheRootOfANavigationStackPrintsAsTheCommentShows() {
            var printed: [String] = []
            func print(_ item: Any) { printed.append("\(item)") }
            var completed: [String] = []

            let host = HeadlessNavigationHost(navigationStackWith: home)
            host.perform(ViewTransition(style: .push, source: home, destination: editor)) { _ in }
            print(host)
            // HomeScreen (root of a navigation stack)
            // └─ EditorScreen (pushed from HomeScreen)

            #expect(printed == ["HomeScreen (root of a navigation stack)\n└─ EditorScreen (pushed from HomeScreen)"])
            let push = ViewTransition(style: .push, source: home, destination: editor)
            host.undo(push) { completed.append("undone") }  // pops back to the source
            #expect(completed == ["undone"])  // at once, by default
            #expect(host.description == "HomeScreen (root of a navigation stack)")
        }

        @Test func aPushFromAScreenInNoNavigationStackIsRefusedAndChangesNothing() {
            let host = HeadlessNavigationHost(root: home)
            let refusal = host.refusal(toPerform: ViewTransition(style: .push, source: home, destination: editor))
            #expect(refusal != nil)
            #expect(host.description == "HomeScreen (root)")
        }

        @Test func theHierarchyChangesAtOnceAndAHeldCompletionRunsWhenPendingTransitionsComplete() {
            var completed: [String] = []
            let host = HeadlessNavigationHost(navigationStackWith: home, completesTransitionsImmediately: false)
            host.perform(ViewTransition(style: .push, source: home, destination: editor)) { performed in
                completed.append("\(performed.style)")
            }
            #expect(
                host.description == "HomeScreen (root of a navigation stack)\n└─ EditorScreen (pushed from HomeScreen)"
            )
            #expect(completed.isEmpty)
            host.completePendingTransitions()
            #expect(completed == ["push"])
        }

        // MARK: The comment's rules

        @Test func undoingAPushPopsBackToTheSourceWithWhateverWasPushedAbove() {
            let above = Screen("AboveScreen")
            let host = HeadlessNavigationHost(navigationStackWith: home)
            host.perform(ViewTransition(style: .push, source: home, destination: editor)) { _ in }
            host.perform(ViewTransition(style: .push, source: editor, destination: above)) { _ in }
            host.undo(ViewTransition(style: .push, source: home, destination: editor)) {}
            #expect(host.description == "HomeScreen (root of a navigation stack)")
        }

        @Test func aPresentationNeedsASourceThatPresentsNothingYetAndItsUndoDismissesWhatTheDestinationPresents() {
            let sheet = Screen("SheetScreen")
            let host = HeadlessNavigationHost(root: home)
            host.perform(ViewTransition(style: .presentModally, source: home, destination: editor)) { _ in }
            let refusal = host.refusal(
                toPerform: ViewTransition(style: .presentAsSheet, source: home, destination: sheet)
            )
            #expect(
                refusal?.message
                    == "HomeScreen already presents EditorScreen, so SheetScreen cannot be presented as a sheet from it: "
                    + "dismiss EditorScreen first, or present from EditorScreen."
            )
            host.perform(ViewTransition(style: .presentAsSheet, source: editor, destination: sheet)) { _ in }
            #expect(
                host.description
                    == "HomeScreen (root)\n└─ EditorScreen (presented modally from HomeScreen)\n"
                    + "   └─ SheetScreen (presented as a sheet from EditorScreen)"
            )
            host.undo(ViewTransition(style: .presentModally, source: home, destination: editor)) {}
            #expect(host.description == "HomeScreen (root)")
        }

        @Test func showPushesInsideANavigationStackAndPresentsModallyOutsideOne() {
            var performed: [String] = []
            let stacked = HeadlessNavigationHost(navigationStackWith: home)
            stacked.perform(ViewTransition(style: .show, source: home, destination: editor)) {
                performed.append("\($0.style)")
            }
            let source = Screen("PlainScreen")
            let alone = HeadlessNavigationHost(root: source)
            alone.perform(ViewTransition(style: .show, source: source, destination: Screen("Shown"))) {
                performed.append("\($0.style)")
            }
            #expect(performed == ["push", "presentModally"])
        }

        @Test func showDetailReplacesTheDetailOfTheSplitScreenAndItsUndoRestoresThePreviousOne() {
            let list = Screen("ListScreen")
            let first = Screen("FirstDetail")
            let second = Screen("SecondDetail")
            let host = HeadlessNavigationHost(splitScreenWith: list, detail: first)
            host.perform(ViewTransition(style: .showDetail, source: list, destination: second)) { _ in }
            #expect(
                host.description
                    == "ListScreen (primary of the split screen)\nSecondDetail (detail of the split screen, shown from "
                    + "ListScreen)"
            )
            host.undo(ViewTransition(style: .showDetail, source: list, destination: second)) {}
            #expect(
                host.description == "ListScreen (primary of the split screen)\nFirstDetail (detail of the split screen)"
            )
        }

        @Test func aSeguePerformsItsDeclaredStyle() throws {
            var performed: [String] = []
            let host = HeadlessNavigationHost(navigationStackWith: home)
            try host.declareSegue("edit", on: home, style: .push)
            host.perform(ViewTransition(style: .performSegue(identifier: "edit"), source: home, destination: editor)) {
                performed.append("\($0.style)")
            }
            #expect(performed == ["push"])
            #expect(
                host.description
                    == "HomeScreen (root of a navigation stack)\n└─ EditorScreen (pushed from HomeScreen by segue \"edit\")"
            )
        }

        @Test func undoingAChildRemovesItWithEverythingItContains() {
            let badge = Screen("BadgeView")
            let host = HeadlessNavigationHost(root: home)
            host.perform(ViewTransition(style: .addAsChild, source: home, destination: editor)) { _ in }
            host.perform(ViewTransition(style: .addAsSubview, source: editor, destination: badge)) { _ in }
            #expect(
                host.description
                    == "HomeScreen (root)\n└─ EditorScreen (child of HomeScreen)\n   └─ BadgeView (subview of EditorScreen)"
            )
            host.undo(ViewTransition(style: .addAsChild, source: home, destination: editor)) {}
            #expect(host.description == "HomeScreen (root)")
        }

        @Test func theSourceMustBeShownAndTheDestinationMustNotBe() {
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let hidden = Screen("HiddenScreen")
            #expect(
                host.refusal(toPerform: ViewTransition(style: .push, source: hidden, destination: editor))?.message
                    == "HiddenScreen is not in the hierarchy, so EditorScreen cannot be pushed from it: perform the "
                    + "transition from a screen that is shown."
            )
            host.perform(ViewTransition(style: .push, source: home, destination: editor)) { _ in }
            #expect(
                host.refusal(toPerform: ViewTransition(style: .push, source: editor, destination: home))?.message
                    == "HomeScreen is already shown (root of a navigation stack), so it cannot be pushed from "
                    + "EditorScreen too: a screen is shown in one place at a time; remove it first, or show a new one."
            )
        }
    }
}
