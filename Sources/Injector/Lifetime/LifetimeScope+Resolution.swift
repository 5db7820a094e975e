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

extension LifetimeScope {
    /// Resolves an instance of `service` in this scope: a ``Scope/scoped`` registration gives this
    /// scope's instance, other scopes behave as ``Container/resolve(_:name:arguments:configure:)``
    /// says.
    ///
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/scopeClosed`` once the scope is
    ///   closed, and the errors a container's resolve throws.
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)? = nil
    ) throws -> Service {
        try beginResolution(asking: ServiceKey(service, arguments: repeat (each Argument).self, name: name))
        defer { endResolution() }
        return try ResolutionContext.resolve(
            LookupKey(service, arguments: repeat (each Argument).self, name: name),
            from: container,
            in: self,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// Resolves an instance of `service` whose factory takes one resolve-time argument, in this scope.
    @inlinable
    public func resolve<Service, Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument,
        configure: ((inout Service) throws -> Void)? = nil
    ) throws -> Service {
        try resolve(service, name: name, arguments: argument, configure: configure)
    }

    /// Resolves an instance of `service` in this scope, running async factories: the async spelling
    /// of ``resolve(_:name:arguments:configure:)``. It runs in the caller's isolation, as
    /// ``Container/resolveAsync(_:name:arguments:configure:isolation:)`` does.
    public func resolveAsync<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        try beginResolution(asking: ServiceKey(service, arguments: repeat (each Argument).self, name: name))
        defer { endResolution() }
        return try await ResolutionContext.resolveAsync(
            LookupKey(service, arguments: repeat (each Argument).self, name: name),
            from: container,
            in: self,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// Resolves an instance of `service` whose async factory takes one resolve-time argument, in
    /// this scope.
    public func resolveAsync<Service, Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument,
        configure: ((inout Service) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        try await resolveAsync(service, name: name, arguments: argument, configure: configure)
    }

    /// Resolves one instance per registration of `service` taking no arguments, in this scope, as
    /// ``Container/resolveAll(_:)`` does.
    public func resolveAll<Service>(_ service: Service.Type = Service.self) throws -> [Service] {
        try beginResolution(asking: ServiceKey(service, name: nil))
        defer { endResolution() }
        return try ResolutionContext.resolveAll(service, from: container, in: self)
    }
}
