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

/// A route just registered, to which identifiers, URL patterns, hooks and event handlers can be
/// added.
///
/// ```swift
/// router.register(RoutableService<NoteViewer>()) { (r, parameters: RouteParameters) in
///     try StoreNoteViewer(id: parameters.value("id", as: Int.self))
/// }
///     .identifier("note-viewer")
///     .url("app://notes/:id")
///     .prepare { viewer, context in viewer.highlight = context.parameters["q"] }
///     .onEvent(NotesDidSync.self) { event in print("synced", event.changed) }
/// ```
public struct RouteRegistration<Protocol>: Sendable {
    let router: Router
    let key: RouteKey

    /// Lets the route also be performed by `identifier`, with `Router/perform(identifier:parameters:configuring:)`.
    ///
    /// Two routes with one identifier make a lookup of it fail with
    /// `RoutingError/Code/invalidConfiguration`, naming both.
    @discardableResult
    public func identifier(_ identifier: String) -> Self {
        router.storage.amend { $0.add(identifier: identifier, for: key) }
        return self
    }

    /// Lets the route be performed by URLs that match `pattern`, such as `"app://notes/:id"`.
    ///
    /// A pattern is `scheme://host/path`, where the host and path segments may be `:name`
    /// placeholders and the last segment may be `*` (one or more segments). A malformed pattern is
    /// reported by `Router/validate()`. Of several patterns that match a URL, the one with more
    /// literal components wins, a literal beats a placeholder beats `*`; two equally specific
    /// matches fail the lookup, naming both.
    @discardableResult
    public func url(_ pattern: String) -> Self {
        router.storage.amend { table in
            do throws(URLRoutingFailure) {
                table.add(try URLPattern(pattern), for: key)
            } catch {
                table.problems.append(RoutingError.url(error, action: .lookUp))
            }
        }
        return self
    }

    /// Adds a preparation that runs on every new destination after the caller's own: the
    /// provider's preparation.
    @discardableResult
    public func prepare(_ hook: @escaping @Sendable (inout Protocol, RouteContext) throws -> Void) -> Self {
        amend { record in
            record.preparations.append { destination, context in
                guard var own = destination as? Protocol else { return }
                try hook(&own, context)
                destination = own
            }
        }
        return self
    }

    /// Adds a check that runs after every preparation; throw to fail the perform with
    /// `RoutingError/Code/invalidConfiguration` and your error's text in the message.
    @discardableResult
    public func verify(_ check: @escaping @Sendable (Protocol, RouteContext) throws -> Void) -> Self {
        amend { record in
            record.verifications.append { destination, context in
                guard let own = destination as? Protocol else { return }
                try check(own, context)
            }
        }
        return self
    }

    /// Adds a hook that runs when a performed route is removed, on its destination; not when the
    /// destination, an object the route holds weakly, is already gone.
    @discardableResult
    public func onRemove(_ hook: @escaping @Sendable (Protocol, RouteContext) throws -> Void) -> Self {
        amend { record in
            record.removals.append { destination, context in
                guard let own = destination as? Protocol else { return }
                try hook(own, context)
            }
        }
        return self
    }

    /// Handles custom events of type `Event` sent with `Router/send(_:)`.
    ///
    /// A route has one handler per event type, as a ZIKRouter route class has one method: a later
    /// `onEvent` for the same type (or its route type's `handleEvents`) replaces the earlier one,
    /// so that the route is told of each event once. Handle several things in one closure.
    @discardableResult
    public func onEvent<Event: RouteEvent>(_ event: Event.Type, perform: @escaping @Sendable (Event) -> Void) -> Self {
        var events = RouteEventHandlers()
        events.on(Event.self, perform: perform)
        router.add(events, for: key)
        return self
    }

    /// Amends the route's record in the table.
    func amend(_ change: (inout RouteRecord) -> Void) {
        router.storage.amend { table in
            if table.records[key] != nil { change(&table.records[key]!) }
        }
    }
}
