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

    /// The style of the segue `source` declares under `identifier`, if any.
    func segueStyle(_ identifier: String, on source: AnyObject) -> ViewTransitionStyle? {
        guard let declared = segues[ObjectIdentifier(source)], declared.source === source else { return nil }
        return declared.styles[identifier]
    }

    /// The identifiers of the segues `source` declares, sorted.
    func declaredSegues(on source: AnyObject) -> [String] {
        guard let declared = segues[ObjectIdentifier(source)], declared.source === source else { return [] }
        return declared.styles.keys.sorted()
    }
}
