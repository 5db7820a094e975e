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

    /// Whether a resolve from this container would find a usable registration:
    /// ``Resolving/canResolve(_:name:argumentTypes:)``.
    public func _canResolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        argumentTypes: repeat (each Argument).Type,
        async: Bool
    ) -> Bool {
        resolves(LookupKey(service, arguments: repeat each argumentTypes, name: name), as: service, async: async)
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
        return scope.acceptsEveryTag || provider.scope.admits(scope.tag)
    }
}

extension LifetimeScope {
    /// Whether a resolve in this scope would find a usable registration:
    /// ``Resolving/canResolve(_:name:argumentTypes:)``.
    public func _canResolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        argumentTypes: repeat (each Argument).Type,
        async: Bool
    ) -> Bool {
        let key = LookupKey(service, arguments: repeat each argumentTypes, name: name)
        return container.resolves(key, as: service, in: self, async: async)
    }
}
