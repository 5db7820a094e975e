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

/// A navigation host that records what it is asked, refuses what a test tells it to, and completes
/// transitions at once or when the test says: for the router's side of view routing. The headless
/// host's own semantics are pinned in HeadlessNavigationHostTests.
@MainActor
final class RecordingHost: NavigationHost {
    var log: [String] = []
    /// How many transitions were performed, readable from any handler.
    let performed = Counter()
    var refuseNextPerform: ViewTransitionRefusal?
    var refuseUndo: ViewTransitionRefusal?
    var completesAtOnce = true
    /// What `show` is performed as.
    var showPerformsAs = ViewTransitionStyle.push
    private var pending: [() -> Void] = []
    /// The screens shown, held strongly as a platform's hierarchy does.
    private(set) var shown: [AnyObject] = []

    func refusal(toPerform transition: ViewTransition) -> ViewTransitionRefusal? {
        defer { refuseNextPerform = nil }
        return refuseNextPerform
    }

    func perform(_ transition: ViewTransition, completion: @escaping @MainActor (ViewTransition) -> Void) {
        let performed = transition.style == .show ? transition.performed(as: showPerformsAs) : transition
        log.append("perform \(performed)")
        self.performed.next()
        shown.append(transition.destination)
        finish { completion(performed) }
    }

    func refusal(toUndo transition: ViewTransition) -> ViewTransitionRefusal? { refuseUndo }

    func undo(_ transition: ViewTransition, completion: @escaping @MainActor () -> Void) {
        log.append("undo \(transition)")
        shown.removeAll { $0 === transition.destination }
        finish(completion)
    }

    /// Runs the completions held back while `completesAtOnce` was false.
    func completePending() {
        let held = pending
        pending = []
        for completion in held { completion() }
    }

    private func finish(_ completion: @escaping @MainActor () -> Void) {
        if completesAtOnce { completion() } else { pending.append(completion) }
    }
}
