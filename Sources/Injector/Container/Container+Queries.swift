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

extension Container {
    /// Whether a registration of `service` under `name`, taking arguments of the given types, is
    /// visible from this container: its own, a parent's, or a test override's in this task. Nothing
    /// is built.
    ///
    /// ```swift
    /// if container.isRegistered(Exporter.self, name: "pdf") { offerPDFExport() }
    /// let takesANote = container.isRegistered(Editor.self, argumentTypes: Note.self)
    /// ```
    ///
    /// A registration counts even when resolving it would fail (a duplicate, for one); ask
    /// ``canResolve(_:name:argumentTypes:)`` whether a resolve would find it usable.
    public func isRegistered<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        argumentTypes: repeat (each Argument).Type
    ) -> Bool {
        provider(for: LookupKey(service, arguments: repeat each argumentTypes, name: name)) != nil
    }

    /// Whether ``resolve(_:name:arguments:configure:)`` from this container would find a usable
    /// registration of `service` under `name`, taking arguments of the given types. Nothing is built.
    ///
    /// `true` when the registration is visible from this container (see
    /// ``isRegistered(_:name:argumentTypes:)``), is not recorded as a problem (a duplicate, a late
    /// registration, a shared scope with arguments), has a sync factory (an async one needs
    /// ``resolveAsync(_:name:arguments:configure:isolation:)``: ask ``canResolveAsync(_:name:argumentTypes:)``),
    /// and is not ``Scope/scoped`` (a container has no scope to own it; ask the scope). An optional
    /// type with no registration of its own answers for the type it wraps, as a resolve does.
    ///
    /// Whether the factory and its dependencies then succeed is known only by building them:
    /// ``validate()`` does that for the whole graph.
    public func canResolve<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        argumentTypes: repeat (each Argument).Type
    ) -> Bool {
        resolves(LookupKey(service, arguments: repeat each argumentTypes, name: name), as: service, async: false)
    }

    /// Whether ``resolveAsync(_:name:arguments:configure:isolation:)`` from this container would find a
    /// usable registration, sync or async, of `service` under `name`, taking arguments of the given
    /// types; otherwise as ``canResolve(_:name:argumentTypes:)``. Nothing is built.
    public func canResolveAsync<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        argumentTypes: repeat (each Argument).Type
    ) -> Bool {
        resolves(LookupKey(service, arguments: repeat each argumentTypes, name: name), as: service, async: true)
    }

    /// Whether a resolve of `key` (asked for as `service`) from this container, in `scope` (never
    /// once it is closed), sync or `async`, would find a usable registration.
    func resolves(_ key: LookupKey, as service: Any.Type, in scope: LifetimeScope? = nil, async: Bool) -> Bool {
        if let scope, scope.isClosed { return false }
        guard let found = provider(for: key) else {
            guard let optional = service as? any OptionalService.Type else { return false }
            let wrapped = optional.wrappedKey(of: key)
            return resolves(wrapped.key, as: wrapped.type, in: scope, async: async)
        }
        let provider = found.object
        guard provider.conflict == nil, async || !provider.isAsync else { return false }
        guard provider.scope.kind == .scoped else { return true }
        guard let scope else { return false }
        return provider.scope.admits(scope.tag)
    }
}

extension LifetimeScope {
    /// Whether ``resolve(_:name:arguments:configure:)`` from this scope would find a usable
    /// registration of `service` under `name`, taking arguments of the given types, as
    /// ``Container/canResolve(_:name:argumentTypes:)`` tells for a container; a ``Scope/scoped``
    /// registration counts when this scope may own it (untagged, or tagged with this scope's tag).
    /// `false` once the scope is closed. Nothing is built.
    public func canResolve<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        argumentTypes: repeat (each Argument).Type
    ) -> Bool {
        let key = LookupKey(service, arguments: repeat each argumentTypes, name: name)
        return container.resolves(key, as: service, in: self, async: false)
    }

    /// Whether ``resolveAsync(_:name:arguments:configure:isolation:)`` from this scope would find a usable
    /// registration, sync or async; otherwise as ``canResolve(_:name:argumentTypes:)``.
    public func canResolveAsync<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        argumentTypes: repeat (each Argument).Type
    ) -> Bool {
        let key = LookupKey(service, arguments: repeat each argumentTypes, name: name)
        return container.resolves(key, as: service, in: self, async: true)
    }
}
