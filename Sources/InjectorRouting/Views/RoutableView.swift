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

/// A view protocol that may be routed to: the key a caller uses to show the screen that provides it.
///
/// Declared as services are (`RoutableService`), so routing to an undeclared view protocol does not
/// compile:
///
/// ```swift
/// protocol EditorView: AnyObject { var note: Note? { get set } }
///
/// extension RoutableView where Protocol == any EditorView {
///     init() { self.init(declaredProtocol: Protocol.self) }
/// }
///
/// try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
/// ```
public struct RoutableView<Protocol>: Sendable {
    /// Declares `Protocol` a routable view protocol. Call it from the `init()` of a declaring
    /// extension, as above.
    ///
    /// - Parameter declaredProtocol: The protocol being declared, `Protocol.self`.
    public init(declaredProtocol: Protocol.Type) {}

    /// The route's key: the protocol's type identity.
    var key: RouteKey { RouteKey(Protocol.self, kind: .view) }
}

/// A view module's configuration protocol that may be routed to: the parameters of a screen that do
/// not belong to it, passed with `makeDestinationWith`, as for `RoutableServiceModule`.
public struct RoutableViewModule<Protocol>: Sendable {
    /// Declares `Protocol` a routable view module configuration protocol. Call it from the `init()`
    /// of a declaring extension.
    ///
    /// - Parameter declaredProtocol: The protocol being declared, `Protocol.self`.
    public init(declaredProtocol: Protocol.Type) {}

    /// The route's key: the protocol's type identity.
    var key: RouteKey { RouteKey(Protocol.self, kind: .viewModule) }
}
