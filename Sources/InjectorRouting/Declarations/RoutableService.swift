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

/// A service protocol that may be routed to: the key a caller uses to find the module that
/// provides it.
///
/// Only declared protocols can be routed to. `init()` exists only for protocols that a module
/// declares routable, so routing to an undeclared protocol does not compile:
///
/// ```swift
/// protocol TimeService: Sendable { var now: Int { get } }
///
/// extension RoutableService where Protocol == TimeService {
///     init() { self.init(declaredProtocol: Protocol.self) }
/// }
///
/// let time = try router.makeDestination(to: RoutableService<TimeService>())   // compiles
/// let x = try router.makeDestination(to: RoutableService<Undeclared>())        // does not compile
/// ```
///
/// Routes are told apart by the protocol's type identity, never by its name: two protocols named
/// `Clock` in two modules are two routes.
public struct RoutableService<Protocol>: Sendable {
    /// Declares `Protocol` routable. Call it from the `init()` of a declaring extension, as above.
    ///
    /// - Parameter declaredProtocol: The protocol being declared, `Protocol.self`.
    public init(declaredProtocol: Protocol.Type) {}

    /// The route's key: the protocol's type identity.
    @usableFromInline var key: RouteKey { RouteKey(Protocol.self, kind: .service) }
}

/// A module configuration protocol that may be routed to: it carries the parameters that do not
/// belong to the destination (ZIKRouter's `makeDestinationWith`).
///
/// Declared the same way as RoutableService:
///
/// ```swift
/// protocol EditorModule {
///     func makeDestinationWith(_ note: Note, readOnly: Bool) throws -> any Editor
/// }
///
/// extension RoutableServiceModule where Protocol == EditorModule {
///     init() { self.init(declaredProtocol: Protocol.self) }
/// }
///
/// let editor = try router.makeDestination(to: RoutableServiceModule<EditorModule>()) {
///     try $0.makeDestinationWith(note, readOnly: true)
/// }
/// ```
public struct RoutableServiceModule<Protocol>: Sendable {
    /// Declares `Protocol` a routable module configuration protocol. Call it from the `init()`
    /// of a declaring extension, as above.
    ///
    /// - Parameter declaredProtocol: The protocol being declared, `Protocol.self`.
    public init(declaredProtocol: Protocol.Type) {}

    /// The route's key: the protocol's type identity.
    var key: RouteKey { RouteKey(Protocol.self, kind: .module) }
}
