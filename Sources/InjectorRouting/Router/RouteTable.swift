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
/// Immutable once published: a registration builds an amended copy and publishes it, so routing
/// reads one snapshot without holding a lock while routes run.
struct RouteTable: Sendable {
    /// A required protocol served by another route's protocol.
    struct Adapter: Sendable {
        let target: RouteKey
        let site: String
    }

    /// An event handler and the route it belongs to.
    struct EventHandler: Sendable {
        let route: RouteKey
        let handle: @Sendable (any RouteEvent) -> Void
    }

    var records: [RouteKey: RouteRecord] = [:]
    var adapters: [RouteKey: Adapter] = [:]
    var identifiers: [String: [RouteKey]] = [:]
    var urls = URLTrie<RouteKey>()
    var interceptors: [RouteInterceptor] = []
    var eventHandlers: [ObjectIdentifier: [EventHandler]] = [:]
    /// Mistakes found while registering (malformed URL patterns), reported by `Router/validate()`.
    var problems: [RoutingError] = []

    /// The record of the route that serves `key`, following adapters; the path from `key` to it.
    ///
    /// - Throws: `invalidProtocol` when nothing serves `key` (naming where the chain ended), `cycle`
    ///   when adapters lead back to a protocol already on the path.
    func record(for key: RouteKey, action: RouteAction) throws -> (record: RouteRecord, path: [RouteKey]) {
        var path = [key]
        var current = key
        while true {
            if let record = records[current] { return (record, path) }
            guard let adapter = adapters[current] else {
                throw RoutingError.noRoute(for: path, nearby: nearby(key), action: action)
            }
            if let start = path.firstIndex(of: adapter.target) {
                throw RoutingError.adapterCycle(Array(path[start...]) + [adapter.target], from: path, action: action)
            }
            path.append(adapter.target)
            current = adapter.target
        }
    }

    /// Routes of the same kind, for an error's "registered nearby" list.
    private func nearby(_ key: RouteKey) -> [RouteKey] {
        records.keys.filter { $0.kind == key.kind && $0 != key }
            .sorted { $0.description < $1.description }
    }
}

/// The router's mutable part, shared by a router and the routers it makes for lifetime scopes.
final class RouterStorage: Sendable {
    private let state = Locked<State>.make(State())

    private struct State {
        var table = Snapshot(RouteTable())
        var globalErrorHandler: (@Sendable (RouteAction, RoutingError) -> Void)?
    }

    /// A published table: its reference is read under the lock, the table itself without.
    final class Snapshot: Sendable {
        let table: RouteTable
        init(_ table: RouteTable) { self.table = table }
    }

    /// The current table.
    var table: RouteTable { state.withLock { $0.table }.table }

    /// Publishes an amended table.
    func amend(_ change: (inout RouteTable) -> Void) {
        state.withLock { state in
            var table = state.table.table
            change(&table)
            state.table = Snapshot(table)
        }
    }

    var globalErrorHandler: (@Sendable (RouteAction, RoutingError) -> Void)? {
        get { state.withLock { $0.globalErrorHandler } }
        set { state.withLock { $0.globalErrorHandler = newValue } }
    }
}
