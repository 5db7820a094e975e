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

/// Where and how a view route shows its destination: the transition, and the screen it starts from.
///
/// ```swift
/// try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
/// try router.perform(to: RoutableView<any SignInView>(), path: .presentModally(from: editor))
/// ```
///
/// The path holds its source weakly: a source that is gone by the time the route performs fails it
/// with `RoutingError/Code/invalidSource`.
public struct ViewRoutePath: CustomStringConvertible {
    enum Kind {
        case transition(ViewTransitionStyle)
        case custom
        case makeDestination
    }

    let kind: Kind
    private let weakSource: WeakSource?

    init(_ kind: Kind, source: AnyObject?) {
        self.kind = kind
        weakSource = source.map(WeakSource.init)
    }

    private init(_ kind: Kind, weakSource: WeakSource?) {
        self.kind = kind
        self.weakSource = weakSource
    }

    /// The same source, shown with `style` instead.
    func with(style: ViewTransitionStyle) -> ViewRoutePath { ViewRoutePath(.transition(style), weakSource: weakSource) }

    /// The source, while it is alive; `nil` for `makeDestination` or once it is gone.
    var source: AnyObject? { weakSource?.object }

    /// The source's name when the path was made, for messages about a source that is gone.
    var sourceName: String { weakSource?.name ?? "no source" }

    /// Pushes the destination onto `source`'s navigation stack.
    public static func push(from source: AnyObject) -> ViewRoutePath {
        ViewRoutePath(.transition(.push), source: source)
    }

    /// Presents the destination modally over `source`.
    public static func presentModally(from source: AnyObject) -> ViewRoutePath {
        ViewRoutePath(.transition(.presentModally), source: source)
    }

    /// Presents the destination as a popover anchored at `source`.
    public static func presentAsPopover(from source: AnyObject) -> ViewRoutePath {
        ViewRoutePath(.transition(.presentAsPopover), source: source)
    }

    /// Presents the destination as a sheet over `source`.
    public static func presentAsSheet(from source: AnyObject) -> ViewRoutePath {
        ViewRoutePath(.transition(.presentAsSheet), source: source)
    }

    /// Performs the segue `identifier` that `source` declares, with the destination.
    public static func performSegue(from source: AnyObject, identifier: String) -> ViewRoutePath {
        ViewRoutePath(.transition(.performSegue(identifier: identifier)), source: source)
    }

    /// Pushes inside a navigation stack, presents modally outside one.
    public static func show(from source: AnyObject) -> ViewRoutePath {
        ViewRoutePath(.transition(.show), source: source)
    }

    /// Replaces the detail of the split screen `source` is in.
    public static func showDetail(from source: AnyObject) -> ViewRoutePath {
        ViewRoutePath(.transition(.showDetail), source: source)
    }

    /// Adds the destination as a child screen of `parent`.
    public static func addAsChild(of parent: AnyObject) -> ViewRoutePath {
        ViewRoutePath(.transition(.addAsChild), source: parent)
    }

    /// Adds the destination view as a subview of `superview`.
    public static func addAsSubview(of superview: AnyObject) -> ViewRoutePath {
        ViewRoutePath(.transition(.addAsSubview), source: superview)
    }

    /// Performs the route's own transition (`ViewRouteDefinition/performCustomTransition(_:from:completion:)`)
    /// from `source`, and removes it with the route's own removal.
    public static func custom(from source: AnyObject) -> ViewRoutePath { ViewRoutePath(.custom, source: source) }

    /// Makes and prepares the destination without showing it: the route is routed, not shown, and
    /// performs again directly.
    public static var makeDestination: ViewRoutePath { ViewRoutePath(.makeDestination, source: nil) }

    /// The kind of path, as a set member for `ViewRoutePaths`.
    var member: ViewRoutePaths {
        switch kind {
        case .makeDestination: .makeDestination
        case .custom: .custom
        case .transition(let style): ViewRoutePaths(style)
        }
    }

    /// The path as code writes it: `push(from: HomeScreen)`.
    public var description: String {
        switch kind {
        case .makeDestination: "makeDestination"
        case .custom: "custom(from: \(sourceName))"
        case .transition(.performSegue(let identifier)):
            "performSegue(from: \(sourceName), identifier: \"\(identifier)\")"
        case .transition(let style): "\(style)(from: \(sourceName))"
        }
    }

    /// A weak reference to the source, with its name for messages once it is gone.
    private final class WeakSource {
        weak var object: AnyObject?
        let name: String
        init(_ object: AnyObject) {
            self.object = object
            name = screenName(object)
        }
    }
}

/// The paths a view route supports.
///
/// ```swift
/// router.register(RoutableView<any EditorView>(), supportedPaths: [.push, .presentModally]) { _ in EditorScreen() }
/// ```
public struct ViewRoutePaths: OptionSet, Sendable, Hashable {
    /// The set's bits.
    public let rawValue: UInt32

    /// A set from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `ViewRoutePath/push(from:)`.
    public static let push = ViewRoutePaths(rawValue: 1 << 0)
    /// `ViewRoutePath/presentModally(from:)`.
    public static let presentModally = ViewRoutePaths(rawValue: 1 << 1)
    /// `ViewRoutePath/presentAsPopover(from:)`.
    public static let presentAsPopover = ViewRoutePaths(rawValue: 1 << 2)
    /// `ViewRoutePath/presentAsSheet(from:)`.
    public static let presentAsSheet = ViewRoutePaths(rawValue: 1 << 3)
    /// `ViewRoutePath/performSegue(from:identifier:)`.
    public static let performSegue = ViewRoutePaths(rawValue: 1 << 4)
    /// `ViewRoutePath/show(from:)`.
    public static let show = ViewRoutePaths(rawValue: 1 << 5)
    /// `ViewRoutePath/showDetail(from:)`.
    public static let showDetail = ViewRoutePaths(rawValue: 1 << 6)
    /// `ViewRoutePath/addAsChild(of:)`.
    public static let addAsChild = ViewRoutePaths(rawValue: 1 << 7)
    /// `ViewRoutePath/addAsSubview(of:)`.
    public static let addAsSubview = ViewRoutePaths(rawValue: 1 << 8)
    /// `ViewRoutePath/custom(from:)`: only for route types that implement their own transition.
    public static let custom = ViewRoutePaths(rawValue: 1 << 9)
    /// `ViewRoutePath/makeDestination`.
    public static let makeDestination = ViewRoutePaths(rawValue: 1 << 10)

    /// Every screen transition and `makeDestination`: what a route supports unless it says otherwise.
    public static let screenTransitions: ViewRoutePaths = [
        .push, .presentModally, .presentAsPopover, .presentAsSheet, .performSegue, .show, .showDetail, .addAsChild,
        .makeDestination,
    ]

    /// The paths in the set, as `ViewRoutePath`'s factories name them, in declaration order: for
    /// messages.
    var names: [String] {
        let named: [(ViewRoutePaths, String)] = [
            (.push, "push"), (.presentModally, "presentModally"), (.presentAsPopover, "presentAsPopover"),
            (.presentAsSheet, "presentAsSheet"), (.performSegue, "performSegue"), (.show, "show"),
            (.showDetail, "showDetail"), (.addAsChild, "addAsChild"), (.addAsSubview, "addAsSubview"),
            (.custom, "custom"), (.makeDestination, "makeDestination"),
        ]
        return named.filter { contains($0.0) }.map(\.1)
    }

    /// The path a transition style belongs to.
    init(_ style: ViewTransitionStyle) {
        switch style {
        case .push: self = .push
        case .presentModally: self = .presentModally
        case .presentAsPopover: self = .presentAsPopover
        case .presentAsSheet: self = .presentAsSheet
        case .performSegue: self = .performSegue
        case .show: self = .show
        case .showDetail: self = .showDetail
        case .addAsChild: self = .addAsChild
        case .addAsSubview: self = .addAsSubview
        }
    }
}
