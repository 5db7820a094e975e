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

// What a test or a terminal UI reads from the headless host. Nothing here changes the hierarchy.

extension HeadlessNavigationHost {
    /// Whether `screen` (a screen or a view) is in the hierarchy.
    public func contains(_ screen: AnyObject) -> Bool {
        nodes[ObjectIdentifier(screen)] != nil
    }

    /// The navigation stack `screen` is in, bottom first, or `nil` when it is in none.
    ///
    /// As UIKit's `navigationController`, a child screen is in the stack of its parent.
    public func navigationStack(containing screen: AnyObject) -> [AnyObject]? {
        guard let root = nodes[ObjectIdentifier(screen)]?.stackAnchor?.stackRoot else { return nil }
        return [root.object] + root.pushed.map(\.object)
    }

    /// The screen `screen` presents, or `nil` when it presents none.
    public func presentedScreen(of screen: AnyObject) -> AnyObject? {
        nodes[ObjectIdentifier(screen)]?.presented?.object
    }

    /// The screen that presents `screen`, or `nil` when `screen` is not presented.
    public func presentingScreen(of screen: AnyObject) -> AnyObject? {
        guard let node = nodes[ObjectIdentifier(screen)], node.isPresented else { return nil }
        return node.parent?.object
    }

    /// The child screens of `screen`, in the order they were added.
    public func children(of screen: AnyObject) -> [AnyObject] {
        nodes[ObjectIdentifier(screen)]?.children.map(\.object) ?? []
    }

    /// The subviews of `view` (a screen's view or a view in its tree), in the order they were added.
    public func subviews(of view: AnyObject) -> [AnyObject] {
        nodes[ObjectIdentifier(view)]?.subviews.map(\.object) ?? []
    }

    /// The split screen's primary screen, or `nil` when the host has no split screen.
    public var primary: AnyObject? {
        roots.count == 2 ? roots[0].object : nil
    }

    /// The split screen's current detail, or `nil` when the host has no split screen.
    public var detail: AnyObject? {
        roots.count == 2 ? roots[1].object : nil
    }

    /// The screen the user sees: the top of the last presentation's stack, or, when nothing is
    /// presented, the top of the root's stack (of the detail's, for a split screen).
    ///
    /// Presentations cover the screen that presents them; when several screens present, the one
    /// presented last is on top.
    public var topScreen: AnyObject {
        var layer = roots
        while true {
            let presentations = layer.flatMap(\.subtree).compactMap(\.presented)
            guard let presented = presentations.max(by: { $0.order < $1.order }) else { break }
            layer = [presented]
        }
        return (layer.last ?? roots[0]).visibleScreen.object
    }
}
