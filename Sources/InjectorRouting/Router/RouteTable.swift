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

/// Everything one router knows: its routes' records, adapters, identifiers, URL patterns,
/// interceptors and event handlers.
///
/// A value: registrations amend the router's own copy, which the first routing call after them
/// publishes, so routing reads one table and never holds a lock while routes run.
struct RouteTable: Sendable {
    var records: [RouteKey: RouteRecord] = [:]
    /// Each adapted protocol, and the protocol whose route serves it.
    var adapters: [RouteKey: RouteKey] = [:]
    var identifiers: [String: [RouteKey]] = [:]
    var urls = URLTrie<RouteKey>()
    /// The URL patterns in the trie, with their routes: to rebuild it when a route is replaced.
    var patterns: [(pattern: URLPattern, route: RouteKey)] = []
    /// The pairs in `patterns`, so that adding one once takes constant time: by components, so that
    /// two spellings of one pattern (`APP://notes/:id/`) are one.
    private var patternPairs: Set<PatternPair> = []
    /// The interceptors, in the order they were added, each with the name messages give it.
    var interceptors: [(name: String, decide: @Sendable (RouteRequest) throws -> InterceptorDecision)] = []
    /// Each event type's handlers, with the route each belongs to.
    var eventHandlers: [ObjectIdentifier: [(route: RouteKey, handle: @Sendable (any RouteEvent) -> Void)]] = [:]
    /// Mistakes found while registering (malformed URL patterns), reported by `Router/validate()`.
    var problems: [RoutingError] = []

    /// The record of the route that serves `key`, following adapters, and the path from `key` to it
    /// (empty when `key` has a route of its own); throws `invalidProtocol` or `cycle`.
    func record(for key: RouteKey, action: RouteAction) throws -> (record: RouteRecord, path: [RouteKey]) {
        if let record = records[key] { return (record, []) }  // the common case: no array to allocate
        var path = [key]
        var current = key
        while true {
            if let record = records[current] { return (record, path) }
            guard let target = adapters[current] else {
                // The likeliest mistake first: the protocol registered as another kind of route.
                let otherKinds = records.keys.filter { $0.bits == key.bits && $0 != key }
                throw RoutingError.noRoute(
                    for: path,
                    otherKinds: otherKinds.sorted { $0.declaration < $1.declaration },
                    nearby: nearby(key),
                    action: action
                )
            }
            if let start = path.firstIndex(of: target) {
                throw RoutingError.adapterCycle(Array(path[start...]) + [target], from: path, action: action)
            }
            path.append(target)
            current = target
        }
    }

    /// Adds `identifier` for `route`, once.
    mutating func add(identifier: String, for route: RouteKey) {
        if identifiers[identifier]?.contains(route) != true { identifiers[identifier, default: []].append(route) }
    }

    /// Adds `pattern` for `route`, once however it is spelt.
    mutating func add(_ pattern: URLPattern, for route: RouteKey) {
        guard patternPairs.insert(PatternPair(components: pattern.components, route: route)).inserted else { return }
        patterns.append((pattern, route))
        urls.insert(pattern, value: route)
    }

    /// Forgets what a route added beside its record (identifiers, URL patterns, event handlers), for a
    /// registration that replaces it.
    mutating func forget(_ route: RouteKey) {
        for (identifier, routes) in identifiers where routes.contains(route) {
            let remaining = routes.filter { $0 != route }
            identifiers[identifier] = remaining.isEmpty ? nil : remaining  // no longer registered
        }
        if patterns.contains(where: { $0.route == route }) {
            patterns.removeAll { $0.route == route }
            patternPairs = patternPairs.filter { $0.route != route }
            urls = URLTrie()
            for (pattern, key) in patterns { urls.insert(pattern, value: key) }
        }
        for (event, handlers) in eventHandlers { eventHandlers[event] = handlers.filter { $0.route != route } }
    }

    /// This table over `parent`'s, for a router over a child container: the parent's routes but those
    /// this table registers again (which go with their identifiers, patterns and events) or adapts
    /// (served through the adapter, as the child container resolves them), then this table's
    /// additions, as if it had started as a copy of the parent's.
    func layered(over parent: RouteTable) -> RouteTable {
        var merged = parent
        for key in records.keys where merged.records[key] != nil { merged.forget(key) }
        for key in adapters.keys where records[key] == nil { merged.records[key] = nil }
        merged.records.merge(records) { $1 }
        merged.adapters.merge(adapters) { $1 }
        for (identifier, routes) in identifiers {
            for route in routes { merged.add(identifier: identifier, for: route) }
        }
        for (pattern, route) in patterns { merged.add(pattern, for: route) }
        merged.interceptors += interceptors
        merged.eventHandlers.merge(eventHandlers) { $0 + $1 }
        merged.problems += problems
        return merged
    }

    private struct PatternPair: Hashable {
        let components: [URLPattern.Component]
        let route: RouteKey
    }

    /// Routes of the same kind, for an error's "registered nearby" list.
    private func nearby(_ key: RouteKey) -> [RouteKey] {
        records.keys.filter { $0.kind == key.kind && $0 != key }
            .sorted { $0.description < $1.description }
    }
}

/// The router's mutable part, shared by a router and the routers it makes for lifetime scopes.
final class RouterStorage: Sendable {
    private let state: Locked<State>
    /// The storage of the first router over the nearest parent container that has one: lookups fall
    /// through to its routes, current ones, after this router's own. Held strongly, so that they
    /// stay when that router goes.
    private let parent: RouterStorage?
    /// What view routing keeps: the transition in flight, observers, the leak handler.
    let views = ViewRoutingState()

    /// A router's storage over `container`, over that of the first router over its nearest parent
    /// container with one; the first router over `container` is left there.
    init(over container: Container) {
        parent =
            sequence(first: container, next: \.parent).dropFirst().lazy
            .compactMap { $0.routes.object as? RouterStorage }.first
        state = Locked.make(State())
        // Checked and published under one lock: two routers made at once must not both find the
        // slot empty, the second then replacing the first its children already fall through to.
        Self.publishing.withLock { _ in
            if container.routes.object == nil { container.routes.publish(self) }
        }
    }

    /// Held while a router looks for, and leaves, its container's first router. (Its state is unused:
    /// a `Locked<Void>`'s would share its address with the mutex, which ThreadSanitizer reports.)
    private static let publishing = Locked.make(false)

    private struct State {
        /// The table registrations amend in place, under the lock; routing never reads it.
        var building = RouteTable()
        /// The snapshot routing reads, made from `building` at the first read after a change, as a
        /// container publishes its registry: registering N routes copies the table once, not N times.
        var published: Snapshot?
        var globalErrorHandler: (@Sendable (RouteAction, RoutingError) -> Void)?
    }

    /// A copy of the table, never changed once published, and its plain routes: a class, so that
    /// reading it under the lock copies one reference.
    private final class Snapshot: Sendable {
        let table: RouteTable
        let plainRoutes: PlainRoutes
        /// The parent's snapshot the table was layered over; a newer one makes this one stale.
        let inherited: Snapshot?
        init(_ table: RouteTable, over inherited: Snapshot?) {
            self.table = inherited.map { table.layered(over: $0.table) } ?? table
            self.inherited = inherited
            plainRoutes = PlainRoutes(self.table)
        }
    }

    /// The current table: the snapshot's reference is read under the lock, the table without.
    var table: RouteTable { snapshot.table }

    /// The routes that add nothing to their registrations, for `Router/makeDestination(to:)`'s fast path.
    var plainRoutes: PlainRoutes { snapshot.plainRoutes }

    private var snapshot: Snapshot {
        let inherited = parent?.snapshot  // read first: no lock is taken under another
        return state.withLock { state in
            if let published = state.published, published.inherited === inherited { return published }
            let published = Snapshot(state.building, over: inherited)
            state.published = published
            return published
        }
    }

    /// Amends the table that the next snapshot is made from.
    func amend(_ change: (inout RouteTable) -> Void) {
        state.withLock { state in
            change(&state.building)
            state.published = nil
        }
    }

    var globalErrorHandler: (@Sendable (RouteAction, RoutingError) -> Void)? {
        get { state.withLock { $0.globalErrorHandler } }
        set { state.withLock { $0.globalErrorHandler = newValue } }
    }
}
