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

/// A routing call as interceptors see it: which route is asked for, how, and with which parameters.
public struct RouteRequest: Sendable, CustomStringConvertible {
    /// What is being done: making a destination or performing a route.
    public private(set) var action: RouteAction
    /// The URL the route was asked for by, if any.
    public let url: String?
    /// The identifier the route was asked for by, if any.
    public let identifier: String?
    /// The parameters the route will receive.
    public let parameters: RouteParameters

    let key: RouteKey
    /// The routes an interceptor redirected from on the way to this one, to tell a loop.
    let redirects: [RouteKey]
    /// The protocols the request goes through to reach its route: the adapters' chain after the
    /// protocol asked for; empty when that protocol has a route of its own.
    private(set) var servedThrough: [RouteKey] = []

    /// This request, for `action`: a later perform of the route it made.
    func with(_ action: RouteAction) -> RouteRequest {
        var request = self
        request.action = action
        return request
    }

    /// This request, going through the adapters `path` (the protocol asked for first).
    func served(through path: [RouteKey]) -> RouteRequest {
        var request = self
        request.servedThrough = Array(path.dropFirst())
        return request
    }

    init(
        key: RouteKey,
        action: RouteAction,
        url: String? = nil,
        identifier: String? = nil,
        parameters: RouteParameters = RouteParameters(),
        redirects: [RouteKey] = []
    ) {
        self.key = key
        self.redirects = redirects
        self.action = action
        self.url = url
        self.identifier = identifier
        self.parameters = parameters
    }

    /// The protocol routed to, such as `(any EditorService).self`.
    public var routedProtocol: Any.Type { key.type }

    /// Whether this request routes to `service`.
    ///
    /// ```swift
    /// if request.isRouting(to: RoutableService<EditorService>()) && !session.isSignedIn {
    ///     return .refuse("sign in first")
    /// }
    /// ```
    ///
    /// A request for a protocol adapted to `service` routes to it too, so that an interceptor that
    /// guards a route guards the protocols adapted to it.
    public func isRouting<Protocol>(to service: RoutableService<Protocol>) -> Bool { isRouting(to: service.key) }

    /// Whether this request routes to `module`.
    public func isRouting<Protocol>(to module: RoutableServiceModule<Protocol>) -> Bool { isRouting(to: module.key) }

    /// Whether this request routes to `view`.
    public func isRouting<Protocol>(to view: RoutableView<Protocol>) -> Bool { isRouting(to: view.key) }

    /// Whether this request routes to the view module `module`.
    public func isRouting<Protocol>(to module: RoutableViewModule<Protocol>) -> Bool { isRouting(to: module.key) }

    private func isRouting(to route: RouteKey) -> Bool { key == route || servedThrough.contains(route) }

    /// The route and how it was asked for: `RoutableService<Editor> for "app://notes/4"`.
    public var description: String {
        if let url { return "\(key.declaration) for \"\(url)\"" }
        if let identifier { return "\(key.declaration) for identifier \"\(identifier)\"" }
        return key.declaration
    }
}
