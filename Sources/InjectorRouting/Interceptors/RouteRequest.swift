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
    public let action: RouteAction
    /// The URL the route was asked for by, if any.
    public let url: String?
    /// The identifier the route was asked for by, if any.
    public let identifier: String?
    /// The parameters the route will receive.
    public let parameters: RouteParameters

    let key: RouteKey
    /// The routes an interceptor redirected from on the way to this one, to tell a loop.
    let redirects: [RouteKey]

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
    /// if request.isRouting(to: RoutableService<EditorService>()) && !session.isSignedIn { … }
    /// ```
    public func isRouting<Protocol>(to service: RoutableService<Protocol>) -> Bool { key == service.key }

    /// Whether this request routes to `module`.
    public func isRouting<Protocol>(to module: RoutableServiceModule<Protocol>) -> Bool { key == module.key }

    /// Whether this request routes to `view`.
    public func isRouting<Protocol>(to view: RoutableView<Protocol>) -> Bool { key == view.key }

    /// Whether this request routes to the view module `module`.
    public func isRouting<Protocol>(to module: RoutableViewModule<Protocol>) -> Bool { key == module.key }

    /// The route and how it was asked for: `RoutableService<Editor> for "app://notes/4"`.
    public var description: String {
        if let url { return "\(key.declaration) for \"\(url)\"" }
        if let identifier { return "\(key.declaration) for identifier \"\(identifier)\"" }
        return key.declaration
    }
}
