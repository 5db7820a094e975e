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

// The headless host's model: a tree of nodes, one per screen or view it shows, each knowing how it
// got there. A pushed screen's parent in the tree is the screen below it in its navigation stack, so
// popping a screen takes its subtree: the screens above it and whatever they present or contain.

/// How a screen or view got where it is; the style the transition asked for, when it differs from the
/// one performed (`show`, or a segue), is the node's `requested`.
enum HeadlessArrival {
    /// The host's root screen.
    case root
    /// The split screen's primary side.
    case splitPrimary
    /// The split screen's detail: the first one (`shownFrom` is `nil`) or one a `showDetail` showed.
    case splitDetail(shownFrom: String?)
    /// Pushed onto a navigation stack.
    case pushed(from: String)
    /// Presented modally, as a popover or as a sheet (the performed style).
    case presented(ViewTransitionStyle, from: String)
    /// Added as a child screen.
    case child(of: String)
    /// Added as a subview.
    case subview(of: String)
}

/// One screen or view the host shows, held strongly, as UIKit holds its view controllers.
final class HeadlessNode {
    let object: AnyObject
    let arrival: HeadlessArrival
    /// The node above it in the tree: the screen below it in its stack, its presenter, its parent
    /// or its superview; `nil` for the root and the split screen's sides.
    weak var parent: HeadlessNode?
    /// For a screen in a navigation stack, the stack's root (itself for the root).
    weak var stackRoot: HeadlessNode?
    /// For a navigation stack's root, the screens pushed above it, bottom first.
    var pushed: [HeadlessNode] = []
    var children: [HeadlessNode] = []
    var subviews: [HeadlessNode] = []
    var presented: HeadlessNode?
    /// For a detail a `showDetail` showed, the detail it replaced, kept to be restored by the undo.
    var replacedDetail: HeadlessNode?
    /// When it was presented, to find the presentation the user sees last.
    let order: Int
    /// For a screen a transition showed: the style asked for (for its description too), the route that
    /// performed it (`nil` without one) and the node it was shown from, for `savedNavigation()`.
    var requested: ViewTransitionStyle?
    var savedRoute: SavedRoute?
    weak var source: HeadlessNode?

    init(_ object: AnyObject, _ arrival: HeadlessArrival, order: Int, parent: HeadlessNode? = nil) {
        self.object = object
        self.arrival = arrival
        self.order = order
        self.parent = parent
    }

    var name: String { screenName(object) }

    var isView: Bool {
        if case .subview = arrival { return true }
        return false
    }

    var isPushed: Bool {
        if case .pushed = arrival { return true }
        return false
    }

    var isPresented: Bool {
        if case .presented = arrival { return true }
        return false
    }

    var isChild: Bool {
        if case .child = arrival { return true }
        return false
    }

    /// The screen pushed directly above this one in its navigation stack.
    var nextInStack: HeadlessNode? {
        guard let root = stackRoot else { return nil }
        if root === self { return pushed.first }
        guard let index = root.pushed.firstIndex(where: { $0 === self }), index + 1 < root.pushed.count else {
            return nil
        }
        return root.pushed[index + 1]
    }

    /// The nodes below this one in the tree, in description order: subviews, child screens, the
    /// screen pushed above it, the screen it presents.
    var treeChildren: [HeadlessNode] {
        var nodes = subviews + children
        if let next = nextInStack { nodes.append(next) }
        if let presented { nodes.append(presented) }
        return nodes
    }

    /// This node and every node below it, in tree order.
    var subtree: [HeadlessNode] {
        [self] + treeChildren.flatMap(\.subtree)
    }

    /// The screen whose navigation stack this screen pushes onto, as UIKit's `navigationController`
    /// is found: itself in a stack, else the nearest parent (of a child screen) in one.
    var stackAnchor: HeadlessNode? {
        var node: HeadlessNode? = self
        while let current = node {
            if current.stackRoot != nil { return current }
            guard current.isChild else { return nil }
            node = current.parent
        }
        return nil
    }

    /// Whether the screen is in the split screen: one of its sides, pushed in a side's stack, or a
    /// child (of a child…) of one of those.
    var isInSplitScreen: Bool {
        var node: HeadlessNode? = self
        while let current = node {
            switch current.arrival {
            case .splitPrimary, .splitDetail: return true
            case .pushed: node = current.stackRoot
            case .child: node = current.parent
            default: return false
            }
        }
        return false
    }

    /// The screen the user sees when this node's part of the tree is on screen: the top of its
    /// navigation stack, or itself.
    var visibleScreen: HeadlessNode {
        guard stackRoot === self else { return self }
        return pushed.last ?? self
    }

    /// How it got there, as the hierarchy description says it: `pushed from HomeScreen`.
    var arrivalDescription: String {
        let stack = stackRoot === self ? ", root of a navigation stack" : ""
        switch arrival {
        case .root:
            return stack.isEmpty ? "root" : "root of a navigation stack"
        case .splitPrimary:
            return "primary of the split screen" + stack
        case .splitDetail(let source):
            return "detail of the split screen" + (source.map { ", shown from \($0)" } ?? "")
                + HeadlessNode.by(requested) + stack
        case .pushed(let source):
            return "pushed from \(source)" + HeadlessNode.by(requested)
        case .presented(let style, let source):
            return "\(HeadlessNode.participle(style)) from \(source)" + HeadlessNode.by(requested)
        case .child(let parent):
            return "child of \(parent)"
        case .subview(let superview):
            return "subview of \(superview)"
        }
    }

    /// ` by show`, ` by segue "openEditor"`, or nothing when the style asked for is the one performed.
    private static func by(_ requested: ViewTransitionStyle?) -> String {
        switch requested {
        case .show: " by show"
        case .performSegue(let identifier): " by segue \"\(identifier)\""
        default: ""
        }
    }

    /// How a style shows its destination, in words: `pushed`, `presented as a popover`.
    static func participle(_ style: ViewTransitionStyle) -> String {
        switch style {
        case .push: "pushed"
        case .presentModally: "presented modally"
        case .presentAsPopover: "presented as a popover"
        case .presentAsSheet: "presented as a sheet"
        case .performSegue(let identifier): "shown by segue \"\(identifier)\""
        case .show: "shown"
        case .showDetail: "shown as the split screen's detail"
        case .addAsChild: "added as a child"
        case .addAsSubview: "added as a subview"
        }
    }
}

/// Why a screen left the hierarchy, kept (weakly) so that a refusal to undo can say what happened.
struct HeadlessDeparture {
    weak var object: AnyObject?
    /// `it was popped`, `it was popped with EditorScreen`.
    let reason: String
    /// Whether it was a pushed screen, so that the undo of a `show` knows it was a push.
    let wasPushed: Bool
}

extension ViewTransitionStyle {
    /// Whether the style performs a segue.
    var isSegue: Bool {
        if case .performSegue = self { return true }
        return false
    }
}
