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

/// A navigation host without a user interface, with UIKit's semantics: navigation stacks, one
/// presented screen per presenter, a split screen, child screens, view trees and named segues.
///
/// It makes navigation logic (coordinators, deep links, login flows) testable on Linux, and a
/// terminal UI can draw what it holds. Screens and views are plain objects, identified by identity;
/// the host holds the ones it shows strongly, as UIKit holds its view controllers.
///
/// ```swift
/// let host = HeadlessNavigationHost(navigationStackWith: home)
/// host.perform(ViewTransition(style: .push, source: home, destination: editor)) { _ in }
/// print(host)
/// // HomeScreen (root of a navigation stack)
/// // └─ EditorScreen (pushed from HomeScreen)
/// ```
///
/// - A push needs a source in a navigation stack (or a child of a screen in one) and pushes on top of
///   that stack; undoing it pops back to the source, with whatever was pushed above.
/// - A presentation (modal, popover, sheet) needs a source that presents nothing yet; undoing it
///   dismisses the destination and whatever it presents.
/// - `show` pushes inside a navigation stack and presents modally outside one; `showDetail` replaces
///   the detail of the split screen the source is in, and its undo restores the previous detail.
/// - A segue performs the style declared with ``declareSegue(_:on:style:)``.
/// - `addAsChild` and `addAsSubview` add to the source's child screens or view tree; undoing them
///   removes the destination with everything it contains.
///
/// The source must be shown and the destination must not be; a refusal changes nothing. The
/// hierarchy changes as soon as `perform` or `undo` is called; the completion runs at once, or when
/// ``completePendingTransitions()`` is called if ``completesTransitionsImmediately`` is `false`.
@MainActor
public final class HeadlessNavigationHost: NavigationHost, @MainActor CustomStringConvertible {
    /// Whether `perform` and `undo` call their completion at once (the default); when `false`, the
    /// completions wait for ``completePendingTransitions()``, as an animated host's wait for the
    /// animation to end.
    ///
    /// The hierarchy changes at once either way. A held completion keeps its transition, and so its
    /// screens, until it runs.
    public var completesTransitionsImmediately: Bool

    /// The top-level screens: the root, or the split screen's primary and detail.
    var roots: [HeadlessNode] = []
    /// Whether the host is a split screen whose detail is in a navigation stack: every detail a
    /// `showDetail` shows is then the root of a new stack, as if wrapped in a navigation controller.
    var detailInNavigationStack = false
    /// Every node in the hierarchy, by its object's identity.
    var nodes: [ObjectIdentifier: HeadlessNode] = [:]
    /// Why screens left the hierarchy, for refusals to say what happened.
    var departures: [ObjectIdentifier: HeadlessDeparture] = [:]
    /// The segues declared on each source.
    var segues: [ObjectIdentifier: HeadlessSegues] = [:]
    /// Completions waiting for ``completePendingTransitions()``.
    var pendingCompletions: [@MainActor () -> Void] = []
    /// The order of the next node made, so that the last presentation is the one the user sees.
    var nextOrder = 0

    /// A host whose root is a plain screen, in no navigation stack: it can present, add children and
    /// subviews, but a push from it is refused.
    ///
    /// - Parameters:
    ///   - root: The screen shown first.
    ///   - completesTransitionsImmediately: Whether completions run at once; see
    ///     ``completesTransitionsImmediately``.
    public init(root: AnyObject, completesTransitionsImmediately: Bool = true) {
        self.completesTransitionsImmediately = completesTransitionsImmediately
        roots = [attach(makeNode(root, .root), inNavigationStack: false)]
    }

    /// A host whose root is a navigation stack with `root` at its bottom, as a navigation controller
    /// made with a root view controller.
    ///
    /// - Parameters:
    ///   - root: The stack's root screen.
    ///   - completesTransitionsImmediately: Whether completions run at once; see
    ///     ``completesTransitionsImmediately``.
    public init(navigationStackWith root: AnyObject, completesTransitionsImmediately: Bool = true) {
        self.completesTransitionsImmediately = completesTransitionsImmediately
        roots = [attach(makeNode(root, .root), inNavigationStack: true)]
    }

    /// A host whose root is a split screen showing `primary` beside `detail`, either side in a
    /// navigation stack of its own if asked.
    ///
    /// `showDetail` from a screen in the split screen replaces the detail; when
    /// `detailInNavigationStack` is `true`, each new detail is the root of a new navigation stack, as
    /// if wrapped in a navigation controller, so that it can push.
    ///
    /// - Parameters:
    ///   - primary: The screen on the primary side (the list).
    ///   - detail: The first detail; the two must be different objects.
    ///   - primaryInNavigationStack: Whether the primary is the root of a navigation stack.
    ///   - detailInNavigationStack: Whether the detail, and every detail shown after it, is the root
    ///     of a navigation stack.
    ///   - completesTransitionsImmediately: Whether completions run at once; see
    ///     ``completesTransitionsImmediately``.
    public init(
        splitScreenWith primary: AnyObject,
        detail: AnyObject,
        primaryInNavigationStack: Bool = false,
        detailInNavigationStack: Bool = false,
        completesTransitionsImmediately: Bool = true
    ) {
        precondition(
            primary !== detail,
            "A split screen shows two different screens, not \(screenName(primary)) twice."
        )
        self.completesTransitionsImmediately = completesTransitionsImmediately
        self.detailInNavigationStack = detailInNavigationStack
        roots = [
            attach(makeNode(primary, .splitPrimary), inNavigationStack: primaryInNavigationStack),
            attach(
                makeNode(detail, .splitDetail(shownFrom: nil)),
                inNavigationStack: detailInNavigationStack
            ),
        ]
    }

    // MARK: NavigationHost

    /// Why `transition` cannot be performed now, or `nil` when it can; see the type's rules.
    public func refusal(toPerform transition: ViewTransition) -> ViewTransitionRefusal? {
        do { _ = try plan(transition) } catch { return error }
        return nil
    }

    /// Performs a transition that ``refusal(toPerform:)`` allowed, and calls `completion` with the
    /// transition really performed: a `show` as a push or a modal presentation, a segue as its style.
    ///
    /// Performing a refused transition is a programming error: it stops the program with the
    /// refusal's message.
    public func perform(_ transition: ViewTransition, completion: @escaping @MainActor (ViewTransition) -> Void) {
        let plan: HeadlessPlan
        do { plan = try self.plan(transition) } catch {
            preconditionFailure("Cannot perform \(transition): \(error.message)")
        }
        show(transition.destination, as: plan)
        if let shown = nodes[ObjectIdentifier(transition.destination)] {
            (shown.requested, shown.savedRoute, shown.source) = (transition.style, transition.savedRoute, plan.source)
        }
        let performed = transition.performed(as: plan.style)
        finish { completion(performed) }
    }

    /// Why the performed `transition` cannot be undone now, or `nil` when it can: `.notShown` when its
    /// destination is no longer where the transition put it, with what happened to it.
    public func refusal(toUndo transition: ViewTransition) -> ViewTransitionRefusal? {
        do { _ = try undoPlan(transition) } catch { return error }
        return nil
    }

    /// Undoes a performed transition that ``refusal(toUndo:)`` allowed: pops back to its source,
    /// dismisses, restores the previous detail, removes from the parent or from the superview; then
    /// calls `completion`.
    ///
    /// Undoing a refused transition is a programming error: it stops the program with the refusal's
    /// message.
    public func undo(_ transition: ViewTransition, completion: @escaping @MainActor () -> Void) {
        do { try undoPlan(transition)() } catch { preconditionFailure("Cannot undo \(transition): \(error.message)") }
        finish(completion)
    }

    /// Why the performed `transition`, whose source is gone, cannot be undone now, or `nil` when it
    /// can: `.notShown` when its destination is no longer where the transition put it (as its style
    /// says), with what happened to it.
    public func refusal(toUndo transition: OrphanedTransition) -> ViewTransitionRefusal? {
        do { _ = try undoPlan(transition) } catch { return error }
        return nil
    }

    /// Undoes a performed transition whose source is gone, which `refusal(toUndo:)` allowed:
    /// pops the destination, with what was pushed above it, back to the screen below it; dismisses
    /// it; restores the previous detail; removes it from its parent or from its superview; then
    /// calls `completion`.
    ///
    /// Undoing a refused transition is a programming error: it stops the program with the refusal's
    /// message.
    public func undo(_ transition: OrphanedTransition, completion: @escaping @MainActor () -> Void) {
        do { try undoPlan(transition)() } catch { preconditionFailure("Cannot undo \(transition): \(error.message)") }
        finish(completion)
    }

    // MARK: Completions

    /// How many completions wait for ``completePendingTransitions()``.
    public var pendingTransitionCount: Int { pendingCompletions.count }

    /// Ends the transitions performed or undone so far while ``completesTransitionsImmediately`` was
    /// `false`: calls their completions in the order they were performed.
    ///
    /// A transition a completion performs waits for the next call.
    ///
    /// - Returns: How many completions ran.
    @discardableResult
    public func completePendingTransitions() -> Int {
        let completions = pendingCompletions
        pendingCompletions = []
        for completion in completions { completion() }
        return completions.count
    }

    private func finish(_ completion: @escaping @MainActor () -> Void) {
        if completesTransitionsImmediately {
            completion()
        } else {
            pendingCompletions.append(completion)
        }
    }
}
