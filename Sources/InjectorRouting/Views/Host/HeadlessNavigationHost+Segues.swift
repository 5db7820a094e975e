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

/// The segues declared on one source, which is held weakly: a declaration keeps no screen alive.
struct HeadlessSegues {
    weak var source: AnyObject?
    var styles: [String: ViewTransitionStyle] = [:]
}

extension HeadlessNavigationHost {
    /// Declares a named segue on `source`, as a storyboard does: `performSegue(identifier:)` from
    /// `source` then performs `style`, and reports `style` as the transition performed.
    ///
    /// A source can be declared before it is shown; declaring the same identifier again on the same
    /// source replaces the style. The host holds `source` weakly.
    ///
    /// ```swift
    /// try host.declareSegue("openEditor", on: home, style: .push)
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: The segue's name, as `ViewTransitionStyle/performSegue(identifier:)` gives it.
    ///   - source: The screen that declares it.
    ///   - style: What the segue does: a push, a presentation, `show`, `showDetail`, a child or a subview.
    /// - Throws: `ViewTransitionRefusal/Reason/unsupportedStyle` when `style` is itself a segue.
    public func declareSegue(
        _ identifier: String,
        on source: AnyObject,
        style: ViewTransitionStyle
    ) throws(ViewTransitionRefusal) {
        if case .performSegue = style {
            throw ViewTransitionRefusal(
                .unsupportedStyle,
                "The segue \"\(identifier)\" on \(screenName(source)) cannot itself perform a segue (\(style)): "
                    + "declare it with the style it performs, such as push or presentModally."
            )
        }
        let identity = ObjectIdentifier(source)
        if segues[identity]?.source !== source {
            segues = segues.filter { $0.value.source != nil }
            segues[identity] = HeadlessSegues(source: source)
        }
        segues[identity]?.styles[identifier] = style
    }

    /// The style `transition` performs: its own, or, for a segue, the one its source declares.
    func declaredStyle(of transition: ViewTransition) throws(ViewTransitionRefusal) -> ViewTransitionStyle {
        guard case .performSegue(let identifier) = transition.style else { return transition.style }
        let source = transition.source
        let declared = segues[ObjectIdentifier(source)].flatMap { $0.source === source ? $0.styles : nil } ?? [:]
        guard let style = declared[identifier] else {
            let known =
                declared.isEmpty
                ? "it declares none"
                : "it declares " + declared.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw ViewTransitionRefusal(
                .undeclaredSegue,
                "\(screenName(source)) declares no segue \"\(identifier)\" (\(known)): declare it with "
                    + "declareSegue(\"\(identifier)\", on:style:) before performing it."
            )
        }
        return style
    }
}
