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

extension Container: Resolving {
    /// A resolution of its own from this container: ``Resolving/resolve(_:name:arguments:configure:)``.
    @inlinable
    public func _resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        try ResolutionContext.resolve(
            LookupKey(service, arguments: repeat (each Argument).self, name: name),
            from: self,
            in: nil,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// An async resolution of its own from this container:
    /// ``Resolving/resolveAsync(_:name:arguments:configure:isolation:)``.
    public func _resolveAsync<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)?
    ) async throws -> Service {
        try await ResolutionContext.resolveAsync(
            LookupKey(service, arguments: repeat (each Argument).self, name: name),
            from: self,
            in: nil,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// One resolution of every registration of `service` from this container:
    /// ``Resolving/resolveAll(_:)``.
    public func _resolveAll<Service>(_ service: Service.Type) throws -> [Service] {
        try ResolutionContext.resolveAll(service, from: self, in: nil)
    }

    /// One async resolution of every registration of `service` from this container:
    /// ``Resolving/resolveAllAsync(_:isolation:)``.
    public func _resolveAllAsync<Service>(
        _ service: Service.Type,
        isolation: isolated (any Actor)?
    ) async throws -> [Service] {
        try await ResolutionContext.resolveAllAsync(service, from: self, in: nil)
    }
}
