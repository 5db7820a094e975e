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

/// Identifies a route: the routed protocol's type identity, and whether it is a service protocol or
/// a module configuration protocol.
@usableFromInline
struct RouteKey: Hashable, Sendable, CustomStringConvertible {
    /// Which declaration a route was registered with, by the declaration's name.
    @usableFromInline
    enum Kind: String, Sendable, Hashable {
        case service = "RoutableService"
        case module = "RoutableServiceModule"
        case view = "RoutableView"
        case viewModule = "RoutableViewModule"
    }

    let type: Any.Type
    let kind: Kind

    @usableFromInline
    init(_ type: Any.Type, kind: Kind) {
        self.type = type
        self.kind = kind
    }

    /// The protocol's name as the container's messages write it, such as `TimeService`.
    @usableFromInline var description: String { typeName(type) }

    /// The protocol's identity as bits, for `PlainRoutes`.
    var bits: UInt { UInt(bitPattern: Int(bitPattern: ObjectIdentifier(type))) }

    /// Whether the route makes a screen (a view or view module route), rather than a service.
    var showsScreen: Bool { kind == .view || kind == .viewModule }

    /// How a caller names the route: `RoutableService<TimeService>`.
    var declaration: String { "\(kind.rawValue)<\(description)>" }

    @usableFromInline static func == (lhs: RouteKey, rhs: RouteKey) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) && lhs.kind == rhs.kind
    }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
}
