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

extension LifetimeScope: Resolving {
    /// A resolution in this scope: ``Resolving/resolve(_:name:arguments:configure:)``.
    @inlinable
    public func _resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
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

    /// An async resolution in this scope: ``Resolving/resolveAsync(_:name:arguments:configure:isolation:)``.
    public func _resolveAsync<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)?
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

    /// One resolution of every registration of `service` in this scope: ``Resolving/resolveAll(_:)``.
    public func _resolveAll<Service>(_ service: Service.Type) throws -> [Service] {
        try beginResolution(asking: ServiceKey(service, name: nil))
        defer { endResolution() }
        return try ResolutionContext.resolveAll(service, from: container, in: self)
    }

    /// One async resolution of every registration of `service` in this scope:
    /// ``Resolving/resolveAllAsync(_:isolation:)``.
    public func _resolveAllAsync<Service>(
        _ service: Service.Type,
        isolation: isolated (any Actor)?
    ) async throws -> [Service] {
        try beginResolution(asking: ServiceKey(service, name: nil))
        defer { endResolution() }
        return try await ResolutionContext.resolveAllAsync(service, from: container, in: self)
    }
}
