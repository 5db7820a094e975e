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

// One routing call, whatever asked for it (protocol, module, identifier or URL): interceptors, the
// route's record (through adapters), the destination from the container, then the caller's
// preparation, the route's preparations and its checks.

extension Router {
    /// Makes (with `make`, through the container) and prepares the destination `request` asks for,
    /// and returns it with the record of the route that made it; throws only `RoutingError`.
    /// `preparing` is the caller's preparation, run first; `showing`, for a view perform, shows a
    /// route an interceptor redirects to; `givesDestination`, whether `make` returns a screen the
    /// caller gave (`perform(onDestination:)`), its own whatever the registration's scope.
    func route<Destination>(
        _ request: RouteRequest,
        preparing: ((inout Destination) throws -> Void)?,
        showing: RedirectShowing? = nil,
        givesDestination: Bool = false,
        make: (RouteRecord) throws -> Destination
    ) throws -> (Destination, RouteRecord) {
        // Routes that make each other through hooks, interceptors or preparations (which the
        // container does not see) would recurse for ever: the routes being made on this thread or
        // task are on a stack, and one asked for again is a cycle.
        let active = RoutingStack.active
        if let start = active.firstIndex(where: { $0.route == request.key }) {
            throw RoutingError.routingCycle(active[start...].map(\.route) + [request.key], action: request.action)
        }
        let table = storage.table
        let (record, path) = try table.record(for: request.key, action: request.action)
        // Interceptors see the adapters a request goes through: guarding a route guards its aliases.
        let request = path.isEmpty ? request : request.served(through: path)
        // Ended when this returns: a task started meanwhile that outlives it ignores the stack and
        // the parameters it copied.
        let making = RouteMaking()
        defer { making.end() }
        return try RoutingStack.$entries.withValue(active + [(request.key, making)]) {
            // What the route an interceptor redirected the call to made, if one did.
            if let made = try intercept(request, in: table, showing: showing, preparing: preparing) { return made }
            // A screen the caller gave is its own: no other caller shares it.
            if preparing != nil, record.sharesDestination, !givesDestination {
                throw RoutingError.sharedPreparation(record, asked: request)
            }
            // Parameters reach the factory out of the container's sight: a shared destination would be
            // built from one call's and handed to every other call, whatever its own.
            let parameters = request.parameters
            if record.takesParameters, record.sharesDestination, !parameters.isEmpty {
                throw RoutingError.sharedParameters(record, given: parameters, action: request.action)
            }
            var destination: Destination
            do {
                destination =
                    try record.takesParameters
                    ? PendingParameters.$current.withValue((record.key, parameters, making)) { try make(record) }
                    : make(record)
            } catch {
                throw RoutingError.containerFailed(error, route: record, path: path, action: request.action)
            }
            try record.prepare(&destination, by: preparing, for: request, router: self)
            // A view route that makes each destination afresh runs its factory each time, unless overridden.
            var made = record
            made.madeByOverride =
                record.view != nil && !record.sharesDestination && !givesDestination
                && !making.didRunFactory(of: record.key)
            return (destination, made)
        }
    }

    /// Prepares a destination made elsewhere as the route for `key` would (the caller's preparation,
    /// the route's preparations and checks), never running its factory; a failure tells the
    /// configuration's handlers and the global one before it is thrown.
    func prepare<Destination>(
        existing destination: Destination,
        key: RouteKey,
        preparing: ((inout Destination) throws -> Void)?,
        failed: (RoutingError) -> Void
    ) throws -> (Destination, RouteRecord) {
        let action = RouteAction.prepareDestination
        do {
            var prepared = destination
            let record = try storage.table.record(for: key, action: action).record
            try record.prepare(&prepared, by: preparing, for: RouteRequest(key: key, action: action), router: self)
            return (prepared, record)
        } catch {
            let error = RoutingError.wrapping(error, action: action)
            failed(error)
            throw reported(error)
        }
    }

    /// Makes a destination keeping no route: `make` runs the pipeline with the caller's preparation,
    /// and the configuration's handlers and the global error handler are told how it went.
    func makeDestination<Destination>(
        configuring: (inout RouteConfiguration<Destination>) -> Void,
        _ make: ((@Sendable (inout Destination) throws -> Void)?) throws -> (Destination, RouteRecord)
    ) throws -> Destination {
        var configuration = RouteConfiguration<Destination>()
        configuring(&configuration)
        do {
            let destination = try make(configuration.prepareDestination).0
            configuration.succeeded(destination, action: .makeDestination, performer: configuration.performer)
            return destination
        } catch {
            let error = RoutingError.wrapping(error, action: .makeDestination)
            configuration.failed(error, action: .makeDestination, performer: configuration.performer)
            throw reported(error)
        }
    }

    /// The container to resolve `key` from directly, when its route adds nothing to its registration:
    /// no hooks, no parameters, no adapter in between, no interceptor; `nil` otherwise, and for a
    /// router resolving in a lifetime scope.
    @usableFromInline
    func containerForPlainRoute(_ key: RouteKey) -> Container? {
        guard case .container(let container) = source, storage.plainRoutes.contains(key) else { return nil }
        return container
    }

    /// The error of a plain route whose registration failed, reported as the pipeline would.
    @usableFromInline
    func plainRouteFailed(_ error: any Error, key: RouteKey) -> RoutingError {
        let record = storage.table.records[key]
        let failure =
            record.map { RoutingError.containerFailed(error, route: $0, path: [], action: .makeDestination) }
            ?? RoutingError.wrapping(error, action: .makeDestination)
        return reported(failure)
    }

    /// Looks up the route for `key` without performing it: what `to(_:)` checks.
    func lookUp(_ key: RouteKey) throws {
        _ = try lookUp { try storage.table.record(for: key, action: .lookUp) }
    }

    /// Runs a lookup (of a route by protocol, URL or identifier), telling the global error handler
    /// when it fails.
    func lookUp<Found>(_ find: () throws -> Found) throws -> Found {
        do { return try find() } catch { throw reported(RoutingError.wrapping(error, action: .lookUp)) }
    }
}
