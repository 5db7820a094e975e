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

// How the headless host changes its hierarchy once a transition, its undo or a user's action is
// allowed: every change goes through `attach` and `detach`, which keep the index of shown objects and
// the record of why the others left.

extension HeadlessNavigationHost {
    func makeNode(_ object: AnyObject, _ arrival: HeadlessArrival, parent: HeadlessNode? = nil) -> HeadlessNode {
        nextOrder += 1
        return HeadlessNode(object, arrival, order: nextOrder, parent: parent)
    }

    /// Puts `node` and its subtree in the index (the root of a navigation stack if asked); they are
    /// shown again, so what was said about their departure no longer holds.
    @discardableResult
    func attach(_ node: HeadlessNode, inNavigationStack: Bool = false) -> HeadlessNode {
        if inNavigationStack { node.stackRoot = node }
        for shown in node.subtree {
            let identity = ObjectIdentifier(shown.object)
            nodes[identity] = shown
            departures[identity] = nil
        }
        return node
    }

    /// Takes `node` and its subtree out of the index, recording that `node` was `action` (`popped`)
    /// and that the others went with it. The caller unlinks `node` from its parent.
    func detach(_ node: HeadlessNode, _ action: String) {
        departures = departures.filter { $0.value.object != nil }
        for gone in node.subtree {
            let reason: String
            if gone === node {
                reason = "it was \(action)"
            } else if gone.stackRoot != nil, gone.stackRoot === node.stackRoot, node.parent != nil {
                reason = "it was popped with \(node.name)"
            } else {
                reason = "it went away with \(node.name), which was \(action)"
            }
            let identity = ObjectIdentifier(gone.object)
            nodes[identity] = nil
            departures[identity] = HeadlessDeparture(object: gone.object, reason: reason, wasPushed: gone.isPushed)
        }
    }

    /// Why `object` left the hierarchy (`it was dismissed`), and whether it was pushed, if it was shown.
    func departure(of object: AnyObject) -> HeadlessDeparture? {
        guard let departure = departures[ObjectIdentifier(object)], departure.object === object else { return nil }
        return departure
    }

    /// Shows `destination` as an allowed plan says.
    func show(_ destination: AnyObject, as plan: HeadlessPlan) {
        let source = plan.source
        switch plan.style {
        case .push:
            guard let root = source.stackAnchor?.stackRoot else { preconditionFailure("A push plan has a stack.") }
            let node = makeNode(
                destination,
                .pushed(from: source.name),
                parent: root.pushed.last ?? root
            )
            node.stackRoot = root
            root.pushed.append(node)
            attach(node)
        case .presentModally, .presentAsPopover, .presentAsSheet:
            let arrival = HeadlessArrival.presented(plan.style, from: source.name)
            source.presented = attach(makeNode(destination, arrival, parent: source))
        case .showDetail:
            let previous = roots[1]
            let node = makeNode(destination, .splitDetail(shownFrom: source.name))
            node.replacedDetail = previous
            detach(previous, "replaced as the split screen's detail by \(node.name)")
            roots[1] = attach(node, inNavigationStack: detailInNavigationStack)
        case .addAsChild:
            source.children.append(attach(makeNode(destination, .child(of: source.name), parent: source)))
        case .addAsSubview:
            source.subviews.append(attach(makeNode(destination, .subview(of: source.name), parent: source)))
        case .show, .performSegue:
            preconditionFailure("A plan's style is the one performed, never \(plan.style).")
        }
    }

    /// Restores the detail that the detail `node` replaced.
    func restoreDetail(_ node: HeadlessNode) {
        guard let previous = node.replacedDetail else { preconditionFailure("A restore plan has a detail.") }
        node.replacedDetail = nil
        detach(node, "replaced by \(previous.name), the detail it had replaced, when its showDetail was undone")
        roots[1] = attach(previous)
    }

    /// Pops every screen above `screen` in its navigation stack, and returns them, bottom first.
    @discardableResult
    func popAbove(_ screen: HeadlessNode) -> [AnyObject] {
        guard let root = screen.stackRoot else { return [] }
        let start = screen === root ? 0 : (root.pushed.firstIndex { $0 === screen } ?? root.pushed.count) + 1
        guard start < root.pushed.count else { return [] }
        let popped = root.pushed[start...].map(\.object)
        detach(root.pushed[start], "popped")
        root.pushed.removeSubrange(start...)
        return popped
    }

    /// Dismisses a presented screen, with whatever it presents or contains.
    func dismiss(_ node: HeadlessNode) {
        node.parent?.presented = nil
        detach(node, "dismissed")
    }

    /// Removes a child screen from its parent, or a view from its superview, with what it contains.
    func remove(_ node: HeadlessNode) {
        guard let parent = node.parent else { return }
        if node.isView {
            parent.subviews.removeAll { $0 === node }
            detach(node, "removed from its superview \(parent.name)")
        } else {
            parent.children.removeAll { $0 === node }
            detach(node, "removed from its parent \(parent.name)")
        }
    }
}
