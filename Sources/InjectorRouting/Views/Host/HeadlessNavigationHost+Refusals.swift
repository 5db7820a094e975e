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

// The headless host's rules: whether a transition, or its undo, can happen now, and if not, a sentence
// that names the screens and says what to do. Deciding never changes the hierarchy.

/// An allowed transition: the style really performed (never `show` or a segue) from the source's node.
typealias HeadlessPlan = (style: ViewTransitionStyle, source: HeadlessNode)

extension HeadlessNavigationHost {
    /// Where and how `transition` would show its destination; throws why it cannot.
    func plan(_ transition: ViewTransition) throws(ViewTransitionRefusal) -> HeadlessPlan {
        let destination = screenName(transition.destination)
        let sourceName = screenName(transition.source)
        let refused = "\(destination) cannot be \(HeadlessNode.participle(transition.style)) from"
        guard let source = nodes[ObjectIdentifier(transition.source)] else {
            let gone = departure(of: transition.source).map { " (\($0.reason))" } ?? ""
            throw ViewTransitionRefusal(
                .sourceNotInHierarchy,
                "\(sourceName) is not in the hierarchy\(gone), so \(refused) it: perform the transition "
                    + "from a screen that is shown."
            )
        }
        if let shown = whereShown(transition.destination) {
            throw ViewTransitionRefusal(
                .destinationAlreadyShown,
                "\(destination) is already shown (\(shown)), so it cannot be "
                    + "\(HeadlessNode.participle(transition.style)) from \(sourceName) too: a screen is shown "
                    + "in one place at a time; remove it first, or show a new one."
            )
        }
        var style = try declaredStyle(of: transition)
        if source.isView, style != .addAsSubview {
            throw ViewTransitionRefusal(
                .unsupportedStyle,
                "\(sourceName) is a view (\(source.arrivalDescription)), so \(refused) it: only addAsSubview "
                    + "starts from a view; perform the transition from a screen."
            )
        }
        if style == .show { style = source.stackAnchor == nil ? .presentModally : .push }
        switch style {
        case .push where source.stackAnchor == nil:
            throw ViewTransitionRefusal(
                .noNavigationStack,
                "\(sourceName) is in no navigation stack, so \(refused) it: push from a screen in a navigation "
                    + "stack, or use show, which presents outside one."
            )
        case .presentModally, .presentAsPopover, .presentAsSheet:
            if let presented = source.presented {
                throw ViewTransitionRefusal(
                    .alreadyPresenting,
                    "\(sourceName) already presents \(presented.name), so \(refused) it: dismiss "
                        + "\(presented.name) first, or present from \(presented.name)."
                )
            }
        case .showDetail where roots.count < 2 || !source.isInSplitScreen:
            let none = roots.count < 2 ? " (this host has none)" : ""
            throw ViewTransitionRefusal(
                .noSplitScreen,
                "\(sourceName) is in no split screen\(none), so \(refused) it: perform showDetail from a screen "
                    + "in a split screen's primary or detail, or use show."
            )
        default:
            break
        }
        return (style, source)
    }

    /// The undo of a performed `transition`, to run; throws why it cannot be undone.
    func undoPlan(_ transition: ViewTransition) throws(ViewTransitionRefusal) -> () -> Void {
        let node = nodes[ObjectIdentifier(transition.destination)]
        let sourceNode = nodes[ObjectIdentifier(transition.source)]
        var style = try declaredStyle(of: transition)
        // A show was performed as a push if its destination is, or was when it left, a pushed screen.
        let wasPushed = node?.isPushed ?? departure(of: transition.destination)?.wasPushed ?? false
        if style == .show { style = wasPushed ? .push : .presentModally }
        let source = screenName(transition.source)
        switch style {
        case .push:
            guard let node, node.isPushed, let root = node.stackRoot else {
                throw notShown(transition.destination, "in \(source)'s navigation stack")
            }
            guard let anchor = sourceNode?.stackAnchor else {
                // The source left (a child screen removed from its parent, say): pop back to below the
                // destination.
                return { _ = self.popAbove(node.parent ?? root) }
            }
            let stack = [root] + root.pushed
            guard anchor.stackRoot === root,
                let anchorIndex = stack.firstIndex(where: { $0 === anchor }),
                let index = stack.firstIndex(where: { $0 === node }), anchorIndex < index
            else {
                throw notShown(transition.destination, "in \(source)'s navigation stack")
            }
            return { _ = self.popAbove(anchor) }
        case .presentModally, .presentAsPopover, .presentAsSheet:
            guard let node, node.isPresented, node.parent?.object === transition.source else {
                throw notShown(transition.destination, "presented from \(source)")
            }
            return { self.dismiss(node) }
        case .showDetail:
            guard let node, roots.count == 2, roots[1] === node else {
                throw notShown(transition.destination, "the split screen's detail")
            }
            guard node.replacedDetail != nil else {
                throw ViewTransitionRefusal(
                    .notShown,
                    "\(node.name) is the split screen's first detail: no showDetail put it there, so nothing is "
                        + "left to undo."
                )
            }
            return { self.restoreDetail(node) }
        case .addAsChild:
            guard let node, node.isChild, node.parent?.object === transition.source else {
                throw notShown(transition.destination, "a child of \(source)")
            }
            return { self.remove(node) }
        case .addAsSubview:
            guard let node, node.isView, node.parent?.object === transition.source else {
                throw notShown(transition.destination, "a subview of \(source)")
            }
            return { self.remove(node) }
        case .show, .performSegue:
            preconditionFailure("show and segues are resolved above.")
        }
    }

    /// The undo of a performed `transition` whose source is gone, to run; throws why it cannot be. The
    /// destination must still be where the transition's style puts a screen: pushed, presented, the
    /// split screen's detail a `showDetail` put there, a child screen or a subview.
    func undoPlan(_ transition: OrphanedTransition) throws(ViewTransitionRefusal) -> () -> Void {
        let style = transition.style
        let place = "\(HeadlessNode.participle(style))"
        guard let node = nodes[ObjectIdentifier(transition.destination)] else {
            throw notShown(transition.destination, place)
        }
        switch node.arrival {
        case .pushed where [.push, .show, node.requested].contains(style):
            guard let below = node.parent ?? node.stackRoot else {
                preconditionFailure("A pushed screen has a screen below it.")
            }
            return { _ = self.popAbove(below) }
        case .presented(let performed, _) where [performed, .show, node.requested].contains(style):
            return { self.dismiss(node) }
        case .splitDetail(.some(_)) where [.showDetail, node.requested].contains(style):
            guard node.replacedDetail != nil, roots.count == 2, roots[1] === node else { break }
            return { self.restoreDetail(node) }
        // A child or a subview keeps no record of a segue that added it: any segue may have.
        case .child where style == .addAsChild || style.isSegue,
            .subview where style == .addAsSubview || style.isSegue:
            return { self.remove(node) }
        default:
            break
        }
        throw notShown(transition.destination, place)
    }

    /// Where `object` is shown (`pushed from HomeScreen`), or why it is held: a replaced detail waits
    /// to be restored, so it cannot be shown elsewhere.
    func whereShown(_ object: AnyObject) -> String? {
        if let node = nodes[ObjectIdentifier(object)] { return node.arrivalDescription }
        guard roots.count == 2 else { return nil }
        var detail = roots[1]
        while let replaced = detail.replacedDetail {
            if replaced.subtree.contains(where: { $0.object === object }) {
                return "kept to come back as the split screen's detail when \(detail.name)'s showDetail is undone"
            }
            detail = replaced
        }
        return nil
    }

    private func notShown(_ object: AnyObject, _ place: String) -> ViewTransitionRefusal {
        let destination = screenName(object)
        let message =
            if let node = nodes[ObjectIdentifier(object)] {
                "\(destination) is no longer \(place): it is now \(node.arrivalDescription). Nothing is left to undo."
            } else if let gone = departure(of: object) {
                "\(destination) is no longer \(place): \(gone.reason). Nothing is left to undo."
            } else {
                "\(destination) is not \(place): it was never shown there, so nothing is left to undo."
            }
        return ViewTransitionRefusal(.notShown, message)
    }
}
