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

import Injector

/// A view route written as a type: it makes its screen or view from the route's parameters and a
/// resolver, prepares it, checks it, removes it and handles events, as a `RouteDefinition` does, and
/// says the paths it supports and, if it has one, performs its own transition.
///
/// On the main actor, where view routes are performed: a route type that conforms is `@MainActor`,
/// and makes `@MainActor` screens (UIKit's view controllers) as they are.
///
/// ```swift
/// struct TabSwitchRoute: ViewRouteDefinition {
///     var supportedPaths: ViewRoutePaths { [.custom, .makeDestination] }
///     func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> InboxScreen {
///         InboxScreen(store: try resolver.resolve((any NoteStore).self))
///     }
///     func performCustomTransition(
///         _ destination: InboxScreen, from source: AnyObject, completion: @escaping @MainActor () -> Void
///     ) throws {
///         tabs.select(destination)
///         completion()
///     }
///     func removeCustomTransition(
///         _ destination: InboxScreen, from source: AnyObject, completion: @escaping @MainActor () -> Void
///     ) throws {
///         tabs.deselect(destination)
///         completion()
///     }
/// }
/// ```
///
/// Every requirement but `makeDestination` has a default.
@MainActor
public protocol ViewRouteDefinition: Sendable {
    /// The screen or view the route makes: a class that conforms to the protocol it is registered for.
    associatedtype Destination: AnyObject

    /// URL patterns that perform the route; as `RouteDefinition/urlPatterns`.
    var urlPatterns: [String] { get }

    /// Makes the destination; as `RouteDefinition/makeDestination(with:resolver:)`.
    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> Destination

    /// Prepares a destination on every perform, after the caller's own preparation.
    func prepare(_ destination: inout Destination, context: RouteContext) throws

    /// Checks that a destination is fully prepared; as `RouteDefinition/verify(_:context:)`.
    func verify(_ destination: Destination, context: RouteContext) throws

    /// Undoes what performing did, when the route is removed.
    func remove(_ destination: Destination, context: RouteContext) throws

    /// Adds handlers for the custom events this route handles; see `Router/send(_:)`.
    func handleEvents(_ events: inout RouteEventHandlers)

    /// The paths the route supports; `ViewRoutePaths/screenTransitions` unless it says otherwise.
    /// A route with its own transition lists `ViewRoutePaths/custom`.
    var supportedPaths: ViewRoutePaths { get }

    /// Shows `destination` from `source` the route's own way, for `ViewRoutePath/custom(from:)`;
    /// calls `completion` once the transition has ended. The route holds its destination weakly, as
    /// a host's transitions leave the screen held by the hierarchy: what this shows must keep it (the
    /// tabs above do), or removing the route fails, its destination gone. An error thrown before
    /// `completion` fails the perform; one thrown after it (the transition ended) goes to
    /// `Router/globalErrorHandler` only, and the route stays routed.
    func performCustomTransition(
        _ destination: Destination,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws

    /// Undoes `performCustomTransition(_:from:completion:)`; calls `completion` once done. An error
    /// thrown after `completion` goes to `Router/globalErrorHandler` only, and the route stays removed.
    func removeCustomTransition(
        _ destination: Destination,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws
}

extension ViewRouteDefinition {
    /// No URL patterns.
    public var urlPatterns: [String] { [] }
    /// Prepares nothing.
    public func prepare(_ destination: inout Destination, context: RouteContext) throws {}
    /// Checks nothing.
    public func verify(_ destination: Destination, context: RouteContext) throws {}
    /// Removes nothing.
    public func remove(_ destination: Destination, context: RouteContext) throws {}
    /// Handles no events.
    public func handleEvents(_ events: inout RouteEventHandlers) {}
    /// Every screen transition and `makeDestination`.
    public var supportedPaths: ViewRoutePaths { .screenTransitions }

    /// Refuses: a route performs a custom transition only when it implements one.
    public func performCustomTransition(
        _ destination: Destination,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        throw CustomTransitionMissing(route: typeName(Self.self))
    }

    /// Refuses: a route removes a custom transition only when it implements one.
    public func removeCustomTransition(
        _ destination: Destination,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        throw CustomTransitionMissing(route: typeName(Self.self))
    }
}

/// A route listed `ViewRoutePaths/custom` without implementing its transition.
struct CustomTransitionMissing: Error, CustomStringConvertible {
    let route: String
    var description: String {
        "\(route) lists .custom among its supported paths but does not implement performCustomTransition and "
            + "removeCustomTransition"
    }
}

/// What the router keeps of a view route beside its hooks: the paths it supports, and its own
/// transition, erased to objects.
struct ViewTraits: Sendable {
    typealias Transition = @MainActor @Sendable (AnyObject, AnyObject, @escaping @MainActor () -> Void) throws -> Void

    let supportedPaths: ViewRoutePaths
    let performCustom: Transition?
    let removeCustom: Transition?
}
