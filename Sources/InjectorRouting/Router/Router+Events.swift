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

extension Router {
    /// Sends a custom event to every route that handles its type, once each, in the order the routes
    /// began to handle it.
    ///
    /// ```swift
    /// struct NotesDidSync: RouteEvent { let changed: [Int] }
    /// let told = router.send(NotesDidSync(changed: [4, 7]))
    /// ```
    ///
    /// - Parameter event: The event.
    /// - Returns: How many routes handled it.
    @discardableResult
    public func send<Event: RouteEvent>(_ event: Event) -> Int {
        let handlers = storage.table.eventHandlers[ObjectIdentifier(Event.self)] ?? []
        for handler in handlers { handler.handle(event) }
        return handlers.count
    }

    /// Adds a route's event handlers to the table: one per route and event type, a later one
    /// replacing an earlier one in its place, so that each route is told of an event once.
    func add(_ events: RouteEventHandlers, for route: RouteKey) {
        storage.amend { table in
            for (event, handle) in events.handlers {
                let handler = (route: route, handle: handle)
                if let index = table.eventHandlers[event]?.firstIndex(where: { $0.route == route }) {
                    table.eventHandlers[event]?[index] = handler
                } else {
                    table.eventHandlers[event, default: []].append(handler)
                }
            }
        }
    }
}
