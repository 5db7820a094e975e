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

    /// The keys this container and its parents register for `key`'s service type, other than
    /// `key`, each once, the parents' first: what a message offers as registered nearby.
    func registeredKeys(near key: ServiceKey) -> [ServiceKey] {
        var seen: Set<ServiceKey> = [key]
        return lineage.flatMap { $0.providers.map(\.key) }
            .filter { $0.lookupKey.group.service == key.lookupKey.group.service && seen.insert($0).inserted }
    }

    /// The registration a resolve of `provider`'s key from this container builds: `provider`, or,
    /// for an `implements` registration, the one it hands on to; with the keys of those it passes
    /// on the way, after `provider`'s. It stops at a conflict, which a resolve reports, and so at
    /// a loop of late forwardings (a late registration is a conflict).
    func builtRegistration(of provider: AnyProvider) -> (provider: AnyProvider, passed: [ServiceKey]) {
        var (built, passed) = (provider, [ServiceKey]())
        while built.conflict == nil, let forwarded = built.site.origin?.forwarded,
            let original = self.provider(for: forwarded.lookupKey)?.object, !passed.contains(original.key)
        {
            passed.append(built.key)
            built = original
        }
        return (built, passed)
    }

    /// Whether a resolve of `key` (asked for as `service`) from this container, in `scope` (never
    /// once it is closed), sync or `async`, would find a usable registration, or a value `scope` was
    /// given. In validation's sandbox, a tagged scoped registration must have the tag the resolution
    /// has adopted (`adoptedTag`), if it has one.
    func resolves(
        _ key: LookupKey,
        as service: Any.Type,
        in scope: LifetimeScope? = nil,
        adoptedTag: ScopeTag? = nil,
        async: Bool
    ) -> Bool {
        if let scope, scope.isClosed { return false }
        guard let found = provider(for: key) else {
            if scope?.values.borrowedValue(for: key) != nil { return true }
            let wrapped: (key: LookupKey, type: Any.Type)
            var async = async
            if let optional = service as? any OptionalService.Type {
                wrapped = optional.wrappedKey(of: key)
            } else if let deferred = service as? any DeferredResolution.Type,
                key.group.arguments == ObjectIdentifier(Void.self)
            {
                let wrappedKey = deferred.wrappedKey(name: key.name)
                wrapped = (wrappedKey.lookupKey, wrappedKey.serviceType)
                async = async && !deferred.resolvesSynchronously  // a `Lazy` is read synchronously
            } else {
                return false
            }
            return resolves(wrapped.key, as: wrapped.type, in: scope, adoptedTag: adoptedTag, async: async)
        }
        let provider = found.object
        guard provider.conflict == nil else { return false }
        if let forwarded = provider.site.origin?.forwarded {  // `implements`: what it hands on
            guard forwarded.argumentTypes.isEmpty else { return false }  // which no resolve of it gives
            return resolves(
                forwarded.lookupKey,
                as: forwarded.serviceType,
                in: scope,
                adoptedTag: adoptedTag,
                async: async
            )
        }
        guard async || !provider.isAsync else { return false }
        guard provider.scope.kind == .scoped else { return true }
        guard let scope else { return false }
        guard scope.acceptsEveryTag else { return provider.scope.admits(scope.tag) }
        return provider.scope.tag.map { $0 == adoptedTag ?? $0 } ?? true
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
