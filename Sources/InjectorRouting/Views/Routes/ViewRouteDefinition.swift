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

/// A view route written as a type: a `RouteDefinition` whose destination is a screen or a view,
/// with the paths it supports and, if it has one, its own transition.
///
/// ```swift
/// struct TabSwitchRoute: ViewRouteDefinition {
///     var supportedPaths: ViewRoutePaths { [.custom, .makeDestination] }
///     func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> InboxScreen {
///         InboxScreen(store: try resolver.resolve((any NoteStore).self))
///     }
///     @MainActor func performCustomTransition(
///         _ destination: InboxScreen, from source: AnyObject, completion: @escaping @MainActor () -> Void
///     ) throws {
///         tabs.select(destination)
///         completion()
///     }
///     @MainActor func removeCustomTransition(
///         _ destination: InboxScreen, from source: AnyObject, completion: @escaping @MainActor () -> Void
///     ) throws {
///         tabs.deselect(destination)
///         completion()
///     }
/// }
/// ```
public protocol ViewRouteDefinition: RouteDefinition where Destination: AnyObject {
    /// The paths the route supports; `ViewRoutePaths/screenTransitions` unless it says otherwise.
    /// A route with its own transition lists `ViewRoutePaths/custom`.
    var supportedPaths: ViewRoutePaths { get }

    /// Shows `destination` from `source` the route's own way, for `ViewRoutePath/custom(from:)`;
    /// calls `completion` once the transition has ended. The route holds its destination weakly, as
    /// a host's transitions leave the screen held by the hierarchy: what this shows must keep it (the
    /// tabs above do), or removing the route fails, its destination gone.
    @MainActor func performCustomTransition(
        _ destination: Destination,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws

    /// Undoes `performCustomTransition(_:from:completion:)`; calls `completion` once done.
    @MainActor func removeCustomTransition(
        _ destination: Destination,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws
}

extension ViewRouteDefinition {
    /// Every screen transition and `makeDestination`.
    public var supportedPaths: ViewRoutePaths { .screenTransitions }

    /// Refuses: a route performs a custom transition only when it implements one.
    @MainActor public func performCustomTransition(
        _ destination: Destination,
        from source: AnyObject,
        completion: @escaping @MainActor () -> Void
    ) throws {
        throw CustomTransitionMissing(route: typeName(Self.self))
    }

    /// Refuses: a route removes a custom transition only when it implements one.
    @MainActor public func removeCustomTransition(
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
