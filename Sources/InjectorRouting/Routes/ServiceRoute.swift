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

/// A route to a service: performed once or again, and removed; what a caller keeps from
/// `Router/perform(to:configuring:)` or `Router/to(_:)` (ZIKRouter's router instance).
///
/// ```swift
/// let route = try router.to(RoutableService<Exporter>())
/// try route.perform()                        // unrouted -> routing -> routed
/// try route.perform()                        // routed again, with a fresh destination
/// try route.removeRoute()                    // routed -> removing -> removed
/// ```
///
/// A route keeps its destination weakly when it is an object, so that its registration's scope
/// alone decides how long it lives; a value destination is kept as a copy. Performing again makes a
/// fresh destination (a shared one for singleton, weak and scoped registrations), then runs the
/// removal hooks of the one it replaces, unless it is the same object, as `removeRoute` would.
/// Performing a route that is being performed is `RoutingError/Code/overRoute`, one that is being removed
/// `RoutingError/Code/actionFailed`. A failed perform leaves the route in the state it was in. A
/// state notifier or success handler that removes the route (or performs it again) ends that
/// perform's handlers: those still to come are not called.
public final class ServiceRoute<Destination> {
    /// Makes and prepares a destination with the caller's preparation, for one perform.
    typealias Make = @Sendable ((@Sendable (inout Destination) throws -> Void)?) throws -> (Destination, RouteRecord)

    let router: Router
    /// Names the route in messages: `RoutableService<Exporter>`.
    let label: String
    /// The parameters the route is performed with, which its hooks are told.
    let parameters: RouteParameters
    /// The caller's preparation and handlers, the same for every perform.
    let configuration: RouteConfiguration<Destination>
    private let make: Make
    private let box: Locked<Box>

    private struct Box {
        var state = RouteState.unrouted {
            didSet { if state != oldValue { stateChanges &+= 1 } }
        }
        /// How many times the state changed: a perform's success handlers run only while it has
        /// not changed since the perform made the route routed.
        var stateChanges = 0
        /// The handlers of the first perform, given with the configuration; used once.
        var firstPerformer: PerformerHandlers<Destination>?
        var destination = HeldDestination<Destination>()
        var record: RouteRecord?
        var isRemovable = false
    }

    init(
        router: Router,
        label: String,
        parameters: RouteParameters = RouteParameters(),
        configuring: (inout RouteConfiguration<Destination>) -> Void,
        make: @escaping Make
    ) {
        var configuration = RouteConfiguration<Destination>()
        configuring(&configuration)
        self.router = router
        self.label = label
        self.parameters = parameters
        self.configuration = configuration
        self.make = make
        box = .make(Box(firstPerformer: configuration.performer))
    }

    /// Where the route is in its lifecycle.
    public var state: RouteState { box.withLock { $0.state } }

    /// The destination of the last perform, while something else keeps it alive (an object) or
    /// until the route is removed (a value); `nil` before the first perform.
    public var destination: Destination? { box.withLock { $0.destination.value } }

    /// Whether `removeRoute(successHandler:errorHandler:)` can remove the route now: it is routed,
    /// and its destination was made by the route (not prepared with `Router/prepare(destination:for:configuring:)`).
    public var canRemove: Bool { box.withLock { $0.state == .routed && $0.isRemovable } }

    /// Performs the route again: makes and prepares a fresh destination with the route's
    /// configuration.
    ///
    /// - Parameters:
    ///   - successHandler: Called with the destination when this perform succeeds.
    ///   - errorHandler: Called when this perform fails.
    /// - Throws: `RoutingError`, after the handlers were told.
    public func perform(
        successHandler: (@Sendable (Destination) -> Void)? = nil,
        errorHandler: (@Sendable (RouteAction, RoutingError) -> Void)? = nil
    ) throws {
        _ = try run(performer: (successHandler, errorHandler))
    }

    /// Makes and prepares a destination and moves the route through its states, telling the handlers;
    /// returns the route, which the router's perform calls hand back.
    func run(performer given: PerformerHandlers<Destination>?) throws -> ServiceRoute {
        let action = RouteAction.performRoute
        // The configuration's performer handlers belong to the route's first perform only, taken under
        // the lock that starts it: a perform refused because that one is under way takes none.
        typealias Start = Result<RouteState, RoutingError>
        var replaced: (destination: HeldDestination<Destination>, record: RouteRecord?) = (.init(), nil)
        let (start, first) = box.withLock { box -> (Start, PerformerHandlers<Destination>?) in
            if box.state == .routing { return (.failure(.overRoute(label, action: action)), nil) }
            defer { box.firstPerformer = nil }
            switch box.state {
            case .routed where !box.isRemovable: return (.failure(.performPrepared(label)), box.firstPerformer)
            case .removing: return (.failure(.performWhileRemoving(label, action: action)), box.firstPerformer)
            default:
                let previous = box.state
                if previous == .routed { replaced = (box.destination, box.record) }
                box.state = .routing
                return (.success(previous), box.firstPerformer)
            }
        }
        let performer = (success: given?.success ?? first?.success, error: given?.error ?? first?.error)
        let previous: RouteState
        switch start {
        case .success(let state): previous = state
        case .failure(let error):
            configuration.failed(error, action: action, performer: performer)
            throw router.reported(error)
        }
        configuration.stateNotifier?(previous, .routing)
        do {
            let (destination, record) = try make(configuration.prepareDestination)
            let routed = box.withLock { box in
                box.state = .routed
                box.destination = HeldDestination(destination)
                box.record = record
                box.isRemovable = true
                return box.stateChanges
            }
            configuration.stateNotifier?(.routing, .routed)
            removeReplaced(replaced.destination, by: destination, record: replaced.record)
            // The state notifier or a success handler may have removed the route (and performed it
            // again): the handlers still to come are not handed a destination it let go of.
            configuration.succeeded(destination, action: action, performer: performer) {
                box.withLock { $0.stateChanges } == routed
            }
            return self
        } catch {
            let error = RoutingError.wrapping(error, action: action)
            box.withLock { $0.state = previous }
            configuration.stateNotifier?(.routing, previous)
            configuration.failed(error, action: action, performer: performer)
            throw router.reported(error)
        }
    }

    /// Runs the removal hooks of the destination a perform replaced, as the type's doc says; the
    /// perform succeeded, so a hook's error is told to the handlers rather than thrown.
    private func removeReplaced(
        _ replaced: HeldDestination<Destination>,
        by new: Destination,
        record: RouteRecord?
    ) {
        guard let destination = replaced.value, let record, !replaced.holdsObject(new) else { return }
        do {
            try runRemovals(on: destination, record: record)
        } catch {
            let failure = RoutingError.hookFailed(error, hook: "removal", route: label, action: .removeRoute)
            configuration.errorHandler?(.removeRoute, failure)
            _ = router.reported(failure)
        }
    }

    /// Runs the route's removal hooks on `destination`, which they undo.
    private func runRemovals(on destination: Destination, record: RouteRecord) throws {
        let context = RouteContext(router: router, parameters: parameters, action: .removeRoute)
        for removal in record.removals { try removal(destination, context) }
    }

    /// Marks the route performed on a destination made elsewhere: routed, not removable.
    func adopt(_ destination: Destination, record: RouteRecord) {
        box.withLock { box in
            box.state = .routed
            box.destination = HeldDestination(destination)
            box.record = record
            box.isRemovable = false
        }
        configuration.stateNotifier?(.unrouted, .routing)
        configuration.stateNotifier?(.routing, .routed)
    }

    /// Removes the route: runs the route's removal hooks on its destination and lets go of it.
    ///
    /// The route holds an object destination weakly: once nothing else keeps it, it is gone, and
    /// removing the route runs no hook (they undo what was done to a destination, and there is none
    /// left). Keep the destination for as long as its removal has something to undo.
    ///
    /// - Parameters:
    ///   - successHandler: Called when the route was removed.
    ///   - errorHandler: Called when it could not be; the route's own error handler and the router's
    ///     global one are told too.
    /// - Throws: `RoutingError` with code `RoutingError/Code/actionFailed` when the route is not
    ///   routed, or was prepared on a destination made elsewhere, or a removal hook threw.
    public func removeRoute(
        successHandler: (@Sendable () -> Void)? = nil,
        errorHandler: (@Sendable (RouteAction, RoutingError) -> Void)? = nil
    ) throws {
        let start = box.withLock { box -> Result<(Destination?, RouteRecord?), RoutingError> in
            guard box.state == .routed else { return .failure(.removeNotRouted(label, state: box.state)) }
            guard box.isRemovable else { return .failure(.removePrepared(label)) }
            box.state = .removing
            return .success((box.destination.value, box.record))
        }
        func fail(_ error: RoutingError) -> RoutingError {
            configuration.failed(error, action: .removeRoute, performer: (success: nil, error: errorHandler))
            return router.reported(error)
        }
        let (destination, record): (Destination?, RouteRecord?)
        switch start {
        case .success(let found): (destination, record) = found
        case .failure(let error): throw fail(error)
        }
        configuration.stateNotifier?(.routed, .removing)
        do {
            if let destination, let record { try runRemovals(on: destination, record: record) }
        } catch {
            box.withLock { $0.state = .routed }
            configuration.stateNotifier?(.removing, .routed)
            throw fail(RoutingError.hookFailed(error, hook: "removal", route: label, action: .removeRoute))
        }
        box.withLock { box in
            box.state = .removed
            box.destination = HeldDestination()
            box.record = nil
        }
        configuration.stateNotifier?(.removing, .removed)
        successHandler?()
    }
}

/// A route is shared across threads only when its destination may be: its mutable state is behind a
/// lock, and its handlers are `@Sendable`.
extension ServiceRoute: @unchecked Sendable where Destination: Sendable {}

/// A route's hold on its destination: weak for an object, so that the registration's scope decides
/// its lifetime; a copy for a value.
struct HeldDestination<Destination> {
    private weak var object: AnyObject?
    private var copy: Destination?

    init() {}

    init(_ destination: Destination) {
        if type(of: destination as Any) is AnyClass {
            object = destination as AnyObject
        } else {
            copy = destination
        }
    }

    /// (`flatMap`: cast whole, an `Optional` object to `Any` would be an `Any` holding the optional,
    /// never `nil`.)
    var value: Destination? { copy ?? object.flatMap { $0 as? Destination } }

    /// Whether `other` is the object held; never for a value.
    func holdsObject(_ other: Destination) -> Bool {
        object.map { $0 === other as AnyObject } ?? false
    }
}
