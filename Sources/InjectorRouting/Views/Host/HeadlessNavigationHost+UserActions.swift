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

// What a user does without a router: tap back, swipe a sheet away. Tests simulate these to see a route
// find its screen gone. Misuse throws a refusal; a refusal changes nothing.

extension HeadlessNavigationHost {
    /// Pops `screen`, and every screen above it, off its navigation stack, back to the screen below
    /// it, as the user tapping back on `screen` does.
    ///
    /// - Returns: The screens popped, bottom first.
    /// - Throws: `ViewTransitionRefusal/Reason/notShown` when `screen` is not shown;
    ///   `ViewTransitionRefusal/Reason/noNavigationStack` when it is in no navigation stack or is the
    ///   root of one (nothing is below it to go back to).
    @discardableResult
    public func pop(_ screen: AnyObject) throws(ViewTransitionRefusal) -> [AnyObject] {
        let node = try shownNode(screen, for: "popped")
        guard node.isPushed, let below = node.parent else {
            let why =
                node.stackRoot === node
                ? "is the root of its navigation stack: nothing is below it to go back to"
                : "is in no navigation stack (it is \(node.arrivalDescription))"
            throw ViewTransitionRefusal(
                .noNavigationStack,
                "\(node.name) cannot be popped: it \(why). Pop a screen pushed above a stack's root instead."
            )
        }
        return popAbove(below)
    }

    /// Pops every screen above the root of the navigation stack `screen` is in.
    ///
    /// - Returns: The screens popped, bottom first (none when the root is on top).
    /// - Throws: `ViewTransitionRefusal/Reason/notShown` when `screen` is not shown;
    ///   `ViewTransitionRefusal/Reason/noNavigationStack` when it is in no navigation stack.
    @discardableResult
    public func popToRoot(ofStackContaining screen: AnyObject) throws(ViewTransitionRefusal) -> [AnyObject] {
        let node = try shownNode(screen, for: "popped to its stack's root")
        guard let root = node.stackAnchor?.stackRoot else {
            throw ViewTransitionRefusal(
                .noNavigationStack,
                "\(node.name) is in no navigation stack (it is \(node.arrivalDescription)), so there is no root "
                    + "to pop to. Pass a screen in a navigation stack."
            )
        }
        return popAbove(root)
    }

    /// Dismisses the presented `screen`, with whatever it presents or contains, as swiping a sheet
    /// away does.
    ///
    /// - Throws: `ViewTransitionRefusal/Reason/notShown` when `screen` is not shown or not presented.
    public func dismiss(_ screen: AnyObject) throws(ViewTransitionRefusal) {
        let node = try shownNode(
            screen,
            for: "dismissed",
            mustBe: "presented",
            fix: "Dismiss the screen presented over it, or pop it."
        ) { $0.isPresented }
        dismiss(node)
    }

    /// Removes the child `screen` from its parent, with whatever it presents or contains.
    ///
    /// - Throws: `ViewTransitionRefusal/Reason/notShown` when `screen` is not shown or not a child.
    public func removeFromParent(_ screen: AnyObject) throws(ViewTransitionRefusal) {
        let node = try shownNode(
            screen,
            for: "removed from its parent",
            mustBe: "a child screen",
            fix: "Pass a screen added as a child."
        ) { $0.isChild }
        remove(node)
    }

    /// Removes `view` from its superview, with its own subviews.
    ///
    /// - Throws: `ViewTransitionRefusal/Reason/notShown` when `view` is not shown or not a subview.
    public func removeFromSuperview(_ view: AnyObject) throws(ViewTransitionRefusal) {
        let node = try shownNode(
            view,
            for: "removed from its superview",
            mustBe: "a subview",
            fix: "Pass a view added as a subview."
        ) { $0.isView }
        remove(node)
    }

    /// Replaces everything the host shows with `screen`, as setting a window's root view controller
    /// does (sign-in, then home): the screens shown before leave, and a route whose screen or source
    /// was among them finds it gone.
    ///
    /// - Parameters:
    ///   - screen: The new root.
    ///   - inNavigationStack: Whether it is the root of a navigation stack.
    /// - Returns: The top-level screens it replaced (the root, or a split screen's primary and detail).
    /// - Throws: `ViewTransitionRefusal/Reason/destinationAlreadyShown` when `screen` is shown already.
    @discardableResult
    public func replaceRoot(
        with screen: AnyObject,
        inNavigationStack: Bool = false
    ) throws(ViewTransitionRefusal) -> [AnyObject] {
        if let shown = nodes[ObjectIdentifier(screen)] {
            throw ViewTransitionRefusal(
                .destinationAlreadyShown,
                "\(shown.name) cannot replace the root: it is shown already (it is \(shown.arrivalDescription)). "
                    + "Pass a screen that is not shown."
            )
        }
        let new = makeNode(screen, .root)
        let replaced = roots
        for root in replaced { detach(root, "replaced as the root by \(new.name)") }
        roots = [attach(new, inNavigationStack: inNavigationStack)]
        return replaced.map(\.object)
    }

    /// The node of a shown `screen` that is `kind` (`presented`), or a refusal saying it cannot be
    /// `action` (`dismissed`) and how to `fix` the call.
    private func shownNode(
        _ screen: AnyObject,
        for action: String,
        mustBe kind: String,
        fix: String,
        where isKind: (HeadlessNode) -> Bool
    ) throws(ViewTransitionRefusal) -> HeadlessNode {
        let node = try shownNode(screen, for: action)
        guard isKind(node) else {
            throw ViewTransitionRefusal(
                .notShown,
                "\(node.name) cannot be \(action): it is not \(kind) (it is \(node.arrivalDescription)). \(fix)"
            )
        }
        return node
    }

    /// The node of a shown `screen`, or a refusal saying it cannot be `action` (`dismissed`).
    private func shownNode(_ screen: AnyObject, for action: String) throws(ViewTransitionRefusal) -> HeadlessNode {
        guard let node = nodes[ObjectIdentifier(screen)] else {
            let why = departure(of: screen)?.reason ?? "it was never shown"
            throw ViewTransitionRefusal(
                .notShown,
                "\(screenName(screen)) cannot be \(action): it is not in the hierarchy (\(why))."
            )
        }
        return node
    }
}
