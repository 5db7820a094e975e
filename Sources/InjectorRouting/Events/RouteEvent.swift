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

/// A custom event sent to routes by its type: `router.send(NotesDidSync(changed: ids))`.
///
/// ```swift
/// struct NotesDidSync: RouteEvent { let changed: [Int] }
/// ```
///
/// Every route that handles the event's type receives it, once each (a route's later handler for one
/// event type replaces its earlier one), in the order the routes began to handle it. Routes handle events in `RouteDefinition/handleEvents(_:)` or with
/// `RouteRegistration/onEvent(_:perform:)`.
public protocol RouteEvent: Sendable {}

/// The event handlers of one route, collected by `RouteDefinition/handleEvents(_:)`.
public struct RouteEventHandlers: Sendable {
    /// The handlers by event type, in the order they were added; for one type, the router keeps
    /// the last (one handler per route and event type, see `RouteRegistration/onEvent(_:perform:)`).
    private(set) var handlers: [(event: ObjectIdentifier, handle: @Sendable (any RouteEvent) -> Void)] = []

    init() {}

    /// Handles events of type `Event` with `perform`, replacing the route's handler for that type
    /// if it has one: a route is told of each event once.
    ///
    /// - Parameters:
    ///   - event: The event type, such as `NotesDidSync.self`.
    ///   - perform: Called with each event of that type sent to the router.
    public mutating func on<Event: RouteEvent>(_ event: Event.Type, perform: @escaping @Sendable (Event) -> Void) {
        handlers.append((ObjectIdentifier(Event.self), { perform($0 as! Event) }))
    }
}
