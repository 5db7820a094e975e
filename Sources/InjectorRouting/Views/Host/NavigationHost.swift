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

/// What a platform implements so that view routes can show and remove screens: UIKit, AppKit, a
/// terminal UI, or the headless host the package ships (`HeadlessNavigationHost`).
///
/// The router asks the host first whether a transition can be performed, so that a refused
/// transition leaves the hierarchy as it was and no observer is told; then it asks the host to
/// perform it, and the route stays `RouteState/routing` until the host calls `completion` (at once
/// for the headless host, after the animation for an animated one). Removal works the same way,
/// with the transition that was really performed, or, once its source is gone (deallocated), with
/// an `OrphanedTransition`, which a host undoes from where the destination is (UIKit: pop to the
/// view controller below it, `dismiss`, `removeFromParent()`, `removeFromSuperview()`). A host
/// that does not implement that undo refuses it, and the route says so. The router takes the first
/// call of a completion only: a host that calls one again changes nothing. A host that lets go of a
/// completion without calling it leaves the route routing (or removing), and the router refuses
/// other view transitions until that route is freed.
///
/// A UIKit host, for example, implements `perform` with `pushViewController(_:animated:)`,
/// `present(_:animated:completion:)`, `showDetailViewController(_:sender:)`, `addChild(_:)` and
/// `addSubview(_:)`, and calls `completion` from UIKit's completion handlers.
@MainActor
public protocol NavigationHost: AnyObject, Sendable {
    /// Why `transition` cannot be performed now, or `nil` when it can.
    func refusal(toPerform transition: ViewTransition) -> ViewTransitionRefusal?

    /// Performs a transition that `refusal(toPerform:)` allowed, and calls `completion` once, when it
    /// has ended, with the transition really performed (a `show` is a push inside a navigation stack
    /// and a modal presentation outside one; a segue is the style it declares).
    func perform(_ transition: ViewTransition, completion: @escaping @MainActor (ViewTransition) -> Void)

    /// Why the performed `transition` cannot be undone now (the screen was already popped, say), or
    /// `nil` when it can.
    func refusal(toUndo transition: ViewTransition) -> ViewTransitionRefusal?

    /// Undoes a performed transition that `refusal(toUndo:)` allowed: pops back to its source,
    /// dismisses, removes from the parent or from the superview; calls `completion` once, when done.
    func undo(_ transition: ViewTransition, completion: @escaping @MainActor () -> Void)

    /// Why a performed transition whose source is gone (deallocated) cannot be undone now, or `nil`
    /// when it can: its destination is no longer where the transition put it, say.
    ///
    /// The default refuses with `ViewTransitionRefusal/Reason/sourceGone`: a host that implements
    /// only the undo from a source cannot remove such a destination, and its route says so.
    func refusal(toUndo transition: OrphanedTransition) -> ViewTransitionRefusal?

    /// Undoes a performed transition whose source is gone, which `refusal(toUndo:)` allowed, without
    /// its source: pops the destination (with what was pushed above it) off its navigation stack,
    /// dismisses it, removes it from its parent or from its superview; calls `completion` once, when
    /// done.
    func undo(_ transition: OrphanedTransition, completion: @escaping @MainActor () -> Void)
}

extension NavigationHost {
    /// Refuses with `ViewTransitionRefusal/Reason/sourceGone`: this host undoes a transition from its
    /// source only.
    public func refusal(toUndo transition: OrphanedTransition) -> ViewTransitionRefusal? {
        ViewTransitionRefusal(
            .sourceGone,
            "\(transition.sourceName) is gone (deallocated), and this host undoes a transition from its source only, "
                + "so it cannot undo \(transition). Fix: keep \(transition.sourceName) alive while "
                + "\(screenName(transition.destination)) is shown, or implement refusal(toUndo:) and undo(_:) for an "
                + "OrphanedTransition in the host."
        )
    }

    /// Stops the program: the default `refusal(toUndo:)` refuses every transition whose source is
    /// gone, so there is nothing it allowed to undo.
    public func undo(_ transition: OrphanedTransition, completion: @escaping @MainActor () -> Void) {
        preconditionFailure("Cannot undo \(transition): this host undoes a transition from its source only.")
    }
}

/// One transition for a host: which style, from which source, showing which destination.
public struct ViewTransition: CustomStringConvertible {
    /// How the destination is shown.
    public let style: ViewTransitionStyle
    /// The screen (or, for `ViewTransitionStyle/addAsSubview`, the view) the transition starts from.
    public let source: AnyObject
    /// The screen or view being shown.
    public let destination: AnyObject
    /// The route that performs it, for `HeadlessNavigationHost/savedNavigation()`; `nil` without one.
    var savedRoute: SavedRoute?

    /// A transition of `style` from `source` to `destination`.
    public init(style: ViewTransitionStyle, source: AnyObject, destination: AnyObject) {
        self.style = style
        self.source = source
        self.destination = destination
    }

    /// The same transition, with another style: what a host reports when it performed a `show` as a
    /// push, for example.
    public func performed(as style: ViewTransitionStyle) -> ViewTransition {
        ViewTransition(style: style, source: source, destination: destination)
    }

    /// `push EditorScreen from HomeScreen`.
    public var description: String {
        "\(style) \(screenName(destination)) from \(screenName(source))"
    }
}

/// A performed transition whose source is gone (deallocated) while its destination may still be
/// shown: a screen pushed from a child screen that was removed since, say. What a host needs to
/// undo it without the source.
///
/// Undoing it takes the destination away from where it is: pops it (with what was pushed above it)
/// off its navigation stack, dismisses it, removes it from its parent or from its superview, or
/// restores the split screen's previous detail.
public struct OrphanedTransition: CustomStringConvertible {
    /// How the destination was shown: the style the host reported when it performed the transition.
    public let style: ViewTransitionStyle
    /// The name the source had when the transition was performed, for messages.
    public let sourceName: String
    /// The screen or view the transition showed.
    public let destination: AnyObject

    /// A transition of `style` that showed `destination` from a source, named `sourceName`, that is
    /// gone.
    public init(style: ViewTransitionStyle, sourceName: String, destination: AnyObject) {
        self.style = style
        self.sourceName = sourceName
        self.destination = destination
    }

    /// `push EditorScreen from ToolbarScreen`.
    public var description: String {
        "\(style) \(screenName(destination)) from \(sourceName)"
    }
}

/// How a transition shows its destination, as UIKit names the ways.
///
/// An enum, not an extensible struct: a host must handle every style, and a new style is a change
/// every host has to make.
public enum ViewTransitionStyle: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Pushes onto the source's navigation stack.
    case push
    /// Presents modally over the source.
    case presentModally
    /// Presents as a popover anchored at the source.
    case presentAsPopover
    /// Presents as a sheet over the source.
    case presentAsSheet
    /// Performs the segue the source declares under `identifier`.
    case performSegue(identifier: String)
    /// Pushes when the source is in a navigation stack, presents modally otherwise.
    case show
    /// Replaces the detail of the split screen the source is in.
    case showDetail
    /// Adds the destination as a child screen of the source.
    case addAsChild
    /// Adds the destination view as a subview of the source view.
    case addAsSubview

    /// The style as code writes it: `push`, `performSegue("showEditor")`.
    public var description: String {
        switch self {
        case .push: "push"
        case .presentModally: "presentModally"
        case .presentAsPopover: "presentAsPopover"
        case .presentAsSheet: "presentAsSheet"
        case .performSegue(let identifier): "performSegue(\"\(identifier)\")"
        case .show: "show"
        case .showDetail: "showDetail"
        case .addAsChild: "addAsChild"
        case .addAsSubview: "addAsSubview"
        }
    }
}

/// Why a host cannot perform or undo a transition: a reason the router turns into a
/// `RoutingError` code, and a sentence that names the screens.
public struct ViewTransitionRefusal: Error, Sendable, CustomStringConvertible {
    /// The kind of refusal.
    ///
    /// A struct rather than an enum, so that hosts can grow new reasons without breaking users.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The source is not in the hierarchy (it was removed, or never shown).
        public static let sourceNotInHierarchy = Reason("sourceNotInHierarchy")
        /// A push from a source that is in no navigation stack.
        public static let noNavigationStack = Reason("noNavigationStack")
        /// A presentation from a source that already presents a screen.
        public static let alreadyPresenting = Reason("alreadyPresenting")
        /// `showDetail` from a source that is in no split screen.
        public static let noSplitScreen = Reason("noSplitScreen")
        /// The destination is already in the hierarchy (pushed twice, or shown elsewhere).
        public static let destinationAlreadyShown = Reason("destinationAlreadyShown")
        /// The source declares no segue with the identifier.
        public static let undeclaredSegue = Reason("undeclaredSegue")
        /// The destination is no longer where the transition put it (popped with a screen below it,
        /// dismissed), so the transition cannot be undone.
        public static let notShown = Reason("notShown")
        /// The host does not perform this style.
        public static let unsupportedStyle = Reason("unsupportedStyle")
        /// The transition's source is gone (deallocated), and the host cannot undo the transition
        /// without it.
        public static let sourceGone = Reason("sourceGone")

        /// The reason's name, such as `alreadyPresenting`.
        public var description: String { name }
    }

    /// The kind of refusal.
    public let reason: Reason
    /// A sentence naming the screens, such as `HomeScreen already presents SettingsScreen`.
    public let message: String

    /// A refusal for `reason`, explained by `message`.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The `message`.
    public var description: String { message }
}

/// A screen's name in messages and hierarchy descriptions: its `description` when it has one of
/// its own, otherwise its type's name.
func screenName(_ screen: AnyObject) -> String {
    if let described = screen as? any CustomStringConvertible { return described.description }
    return String(describing: type(of: screen))
}
