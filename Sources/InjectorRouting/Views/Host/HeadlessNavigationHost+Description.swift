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

extension HeadlessNavigationHost {
    /// The hierarchy as text: one line per screen or view, in tree order, each saying how it got there.
    ///
    /// Each line is `Name (how it got there)`, the name being the screen's `description` when it is
    /// `CustomStringConvertible`, else its type's name. The top-level lines are the root, or the split
    /// screen's primary then detail. Below a screen, indented with `├─ `, `└─ ` and `│  `, come in this
    /// order: its subviews, its child screens, the screen pushed directly above it in its navigation
    /// stack, and the screen it presents; each in the order it was added. So a navigation stack reads
    /// downwards, and popping a screen removes the lines below it.
    ///
    /// ```
    /// HomeScreen (root of a navigation stack)
    /// ├─ ToolbarView (subview of HomeScreen)
    /// ├─ EditorScreen (pushed from HomeScreen)
    /// │  ├─ PreviewScreen (pushed from EditorScreen by segue "preview")
    /// │  └─ SignInScreen (presented modally from EditorScreen)
    /// └─ SettingsScreen (presented as a sheet from HomeScreen)
    /// ```
    ///
    /// How it got there is one of: `root`, `root of a navigation stack`, `primary of the split screen`,
    /// `detail of the split screen` (`, shown from X` after a `showDetail`), `pushed from X`,
    /// `presented modally from X`, `presented as a popover from X`, `presented as a sheet from X`,
    /// `child of X`, `subview of X`; followed by ` by show` or ` by segue "name"` when the transition
    /// asked for one, and by `, root of a navigation stack` for a split screen's side in one.
    public var description: String {
        var lines: [String] = []
        for root in roots { describe(root, into: &lines, prefix: "", childPrefix: "") }
        return lines.joined(separator: "\n")
    }

    /// The same as ``description``: the hierarchy, one line per screen.
    public var hierarchyDescription: String { description }

    private func describe(_ node: HeadlessNode, into lines: inout [String], prefix: String, childPrefix: String) {
        lines.append("\(prefix)\(node.name) (\(node.arrivalDescription))")
        let below = node.treeChildren
        for (index, child) in below.enumerated() {
            let isLast = index == below.count - 1
            describe(
                child,
                into: &lines,
                prefix: childPrefix + (isLast ? "└─ " : "├─ "),
                childPrefix: childPrefix + (isLast ? "   " : "│  ")
            )
        }
    }
}
