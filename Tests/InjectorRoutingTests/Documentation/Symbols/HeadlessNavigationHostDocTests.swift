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
    }
}
