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

/// The ``Scope`` of a registration of `Service`, as written at the registration: `scope: .singleton`.
///
/// It exists so that the compiler refuses to share a non-`Sendable` instance across threads:
/// ``singleton`` and ``weak``, whose one instance every thread receives, are members only where
/// `Service` is `Sendable`. Registering a non-`Sendable` class as a singleton is then a compile-time
/// error, `type 'Cache' does not conform to the 'Sendable' protocol`, where ThreadSanitizer used to
/// report a race at run time. A `@MainActor` class is `Sendable`, so main-actor apps keep their
/// singletons; a class that guards its own state can say so with `@unchecked Sendable`.
///
/// The scopes whose instances stay within one resolution or one lifetime scope (``transient``,
/// ``graph``, ``scoped``) take any service. A scope chosen at run time (a ``Scope`` value) is
/// accepted for `Sendable` services only, since it may be a shared one.
public struct ServiceScope<Service>: Sendable {
    /// The scope.
    public let scope: Scope

    private init(_ scope: Scope) {
        self.scope = scope
    }

    /// A new instance for every resolve: ``Scope/transient``.
    public static var transient: ServiceScope { ServiceScope(.transient) }

    /// One instance per top-level resolve: ``Scope/graph``.
    public static var graph: ServiceScope { ServiceScope(.graph) }

    /// One instance per lifetime scope, in any scope: ``Scope/scoped``.
    public static var scoped: ServiceScope { ServiceScope(.scoped) }

    /// One instance per lifetime scope tagged `tag`: ``Scope/scoped(to:)``.
    public static func scoped(to tag: ScopeTag) -> ServiceScope { ServiceScope(.scoped(to: tag)) }
}

extension ServiceScope where Service: Sendable {
    /// One instance per container, shared by every thread: ``Scope/singleton``. Only for a
    /// `Sendable` service.
    public static var singleton: ServiceScope { ServiceScope(.singleton) }

    /// One instance per container while something holds it, shared by every thread:
    /// ``Scope/weak``. Only for a `Sendable` service.
    public static var weak: ServiceScope { ServiceScope(.weak) }

    /// The scope `scope`, chosen at run time: accepted for a `Sendable` service only, since it may
    /// share the instance across threads.
    public init(_ scope: Scope) {
        self.scope = scope
    }
}
