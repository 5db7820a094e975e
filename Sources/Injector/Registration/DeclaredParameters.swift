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

// What a declared registration's parameters are (`Resolved`, `DeclaredParameters`) and how they
// are resolved and registered; the public `register` overloads are in `Container+DeclaredRegistration`.

/// How a declared registration resolves one parameter of its function: the parameter's type, and
/// the name it is registered under, if any.
///
/// ```swift
/// using: Resolved(RequestInfo.self),
/// Resolved(Mailer.self, name: "smtp")
/// ```
public struct Resolved<Service>: Sendable {
    /// The name the dependency is registered under; `nil` for none.
    public let name: String?

    /// A dependency on `service`, registered under `name` (or under no name).
    ///
    /// - Parameters:
    ///   - service: The dependency's type; may be left out where the function's parameter says it.
    ///   - name: The name it is registered under, if any.
    public init(_ service: Service.Type = Service.self, name: String? = nil) {
        self.name = name
    }
}

/// What a declared registration's function needs: the keys of its parameters, resolved in order;
/// an error resolving one says which parameter of which registration asked for it.
@usableFromInline
struct DeclaredParameters: Sendable {
    /// The key of the registration.
    let key: ServiceKey
    /// The keys of its parameters, in order.
    @usableFromInline let declared: [ServiceKey]
    /// Where it was written.
    let fileID: StaticString
    let line: UInt

    @usableFromInline
    init<each Dependency>(
        of key: ServiceKey,
        at fileID: StaticString,
        _ line: UInt,
        _ dependencies: repeat Resolved<each Dependency>
    ) {
        self.key = key
        self.fileID = fileID
        self.line = line
        var declared: [ServiceKey] = []
        repeat declared.append(ServiceKey((each Dependency).self, name: (each dependencies).name))
        self.declared = declared
    }

    /// Resolves the parameter at `position`, of type `Dependency`, and moves `position` on.
    @inlinable
    func resolve<Dependency>(_: Dependency.Type, at position: inout Int, from resolver: Resolver) throws -> Dependency {
        defer { position += 1 }
        do {
            return try resolver.resolve(declared: declared[position])
        } catch {
            throw failure(error, at: position, from: resolver)
        }
    }

    /// The async spelling of `resolve(_:at:from:)`.
    @inlinable
    func resolve<Dependency>(
        _: Dependency.Type,
        at position: inout Int,
        from resolver: Resolver,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Dependency {
        defer { position += 1 }
        do {
            return try await resolver.resolveAsync(declared: declared[position])
        } catch {
            throw failure(error, at: position, from: resolver)
        }
    }

    /// `error`, met resolving the parameter at `position`, saying which parameter it is.
    @usableFromInline
    func failure(_ error: any Error, at position: Int, from resolver: Resolver) -> any Error {
        guard let error = error as? InjectionError else { return error }
        // An optional parameter's error names the wrapped type it resolved.
        let asked = resolver.lookup.object.resolvedKey(for: declared[position]).key
        return error.declared(parameter: position, of: key, at: site, asking: asked)
    }

    /// Where the registration was written.
    var site: RegistrationSite { RegistrationSite(fileID: fileID, line: line) }
}

extension Container {
    /// Adds the provider of a declared registration, whose factory resolves `parameters`.
    @usableFromInline
    func register<Service>(
        _ parameters: DeclaredParameters,
        scope: Scope,
        replacing replacesExisting: Bool,
        identifyingArguments identifyArguments: BorrowedValues.Identify? = nil,
        _ body: Provider<Service>.Body
    ) -> Registration<Service> {
        register(
            parameters.key,
            scope: scope,
            replacing: replacesExisting,
            at: parameters.fileID,
            parameters.line,
            declaring: parameters.declared,
            identifyingArguments: identifyArguments,
            body
        )
    }
}
