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

/// What the router keeps for one route: how to make its destination through the container, and the
/// provider's hooks. The destination's factory itself lives in the container, as the registration of
/// the routed protocol.
///
/// A value: adding a hook to a route amends its record in the table, not a record routing already read.
struct RouteRecord: Sendable {
    typealias Prepare = @Sendable (inout Any, RouteContext) throws -> Void
    typealias Inspect = @Sendable (Any, RouteContext) throws -> Void

    let key: RouteKey
    let scope: Scope
    /// The route type's name (`EditorRoute`); `nil` for a route a closure makes, which its site names.
    let typeName: String?
    /// Where the route was registered: formatted only when a message needs it, not per registration.
    let fileID: StaticString
    let line: UInt
    /// Whether the route's factory reads route parameters (a route definition, or a closure that takes
    /// them); only then does the router hand parameters over.
    let takesParameters: Bool
    /// What a view route adds: the paths it supports and its own transition; `nil` for services.
    let view: ViewTraits?
    /// Resolves the routed protocol from a container or a lifetime scope, as `Any`: for the calls that
    /// find a route by URL or identifier, which do not know its type.
    let resolveAny: @Sendable (ResolutionSource) throws -> Any
    var preparations: [Prepare] = []
    var verifications: [Inspect] = []
    var removals: [Inspect] = []
    /// Whether an override (`Container/withOverrides(_:operation:)`) made the destination of this
    /// routing call, not the view route's transient factory: its lifetime is the override's, which
    /// the record does not know. Always `false` for service routes, which have no leak check.
    var madeByOverride = false

    /// Names the route in messages: `EditorRoute`, or `the route registered at NotesDemo/main.swift:12`.
    var name: String {
        let route = key.kind == .module || key.kind == .viewModule ? "module route" : "route"
        return typeName ?? "the \(route) registered at \(fileID):\(line)"
    }

    /// Names the route in messages: `RoutableService<Editor> (EditorRoute)`.
    var label: String { "\(key.declaration) (\(name))" }

    /// Whether the route adds nothing to its container registration: no hooks, no parameters.
    var addsNothing: Bool { !takesParameters && preparations.isEmpty && verifications.isEmpty }

    /// Whether the container keeps the destination to share it (a singleton, weak or scoped
    /// registration): no caller may prepare it, and it outlives its route on purpose.
    var sharesDestination: Bool { scope != .transient && scope != .graph }

    /// Whether the destination is scoped: its lifetime scope keeps it until the scope closes.
    var isScoped: Bool { scope == .scoped || scope.tag != nil }

    /// Runs the caller's preparation, then the provider's preparations and checks, on the destination
    /// of `request`, which `router` routes.
    func prepare<Destination>(
        _ destination: inout Destination,
        by preparing: ((inout Destination) throws -> Void)?,
        for request: RouteRequest,
        router: Router
    ) throws {
        if let preparing {
            do { try preparing(&destination) } catch {
                throw RoutingError.callerPreparationFailed(error, request: request)
            }
        }
        guard !preparations.isEmpty || !verifications.isEmpty else { return }
        let context = RouteContext(router: router, parameters: request.parameters, action: request.action)
        var any: Any = destination
        for prepare in preparations {
            do { try prepare(&any, context) } catch {
                throw RoutingError.hookFailed(error, hook: "prepare", route: label, action: context.action)
            }
        }
        for verify in verifications {
            do { try verify(any, context) } catch {
                throw RoutingError.verificationFailed(error, route: label, action: context.action)
            }
        }
        // The hooks worked on a copy: a value destination takes their changes back.
        if let prepared = any as? Destination { destination = prepared }
    }
}

/// Where destinations are resolved: a container, or a lifetime scope (`Router/resolving(in:)`).
enum ResolutionSource: Sendable {
    case container(Container)
    case scope(LifetimeScope)

    func resolve<Service>(_ service: Service.Type) throws -> Service {
        switch self {
        case .container(let container): try container.resolve(service)
        case .scope(let scope): try scope.resolve(service)
        }
    }
}
