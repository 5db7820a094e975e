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

/// What a routing call was doing when it succeeded or failed: passed to error handlers and kept in
/// every RoutingError.
///
/// A struct rather than an enum, so that new actions can be added without breaking exhaustive
/// switches in users' code.
public struct RouteAction: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }

    /// Finding a route: by protocol, identifier or URL.
    public static var lookUp: RouteAction { RouteAction("lookUp") }
    /// Making a destination without keeping a route.
    public static var makeDestination: RouteAction { RouteAction("makeDestination") }
    /// Performing a route: making and preparing its destination.
    public static var performRoute: RouteAction { RouteAction("performRoute") }
    /// Preparing a destination made elsewhere.
    public static var prepareDestination: RouteAction { RouteAction("prepareDestination") }
    /// Removing a performed route.
    public static var removeRoute: RouteAction { RouteAction("removeRoute") }

    /// The action's name, such as `performRoute`.
    public var description: String { name }
}
