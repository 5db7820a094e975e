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
    /// Its parameters resolved from the container, in order, with their resolve plan.
    @usableFromInline let declared: DeclaredDependencies
    /// Where it was written.
    let fileID: StaticString
    let line: UInt
    /// A function whose first parameters are not the registration's resolve-time arguments, which
    /// resolving it must not meet.
    let problem: Conflict?

    /// The parameters of a function of `Parameter…` that takes the resolve-time arguments of `key`
    /// first: those after them are its dependencies, named as `dependencies` says if it lists any. A
    /// function that does not begin with the arguments' types, or whose other parameters are not of
    /// the types `dependencies` lists, is recorded as a problem.
    @usableFromInline
    init<each Parameter, each Dependency>(
        of key: ServiceKey,
        at fileID: StaticString,
        _ line: UInt,
        function: (repeat each Parameter).Type,
        naming dependencies: repeat Resolved<each Dependency>
    ) {
        var parameters: [ServiceKey] = []
        repeat parameters.append(ServiceKey((each Parameter).self, name: nil))
        var named: [ServiceKey] = []
        repeat named.append(ServiceKey((each Dependency).self, name: (each dependencies).name))
        let types = parameters.map(\.serviceType)
        let arguments = key.argumentTypes
        let rest = parameters.dropFirst(arguments.count)
        self.key = key
        self.fileID = fileID
        self.line = line
        declared = DeclaredDependencies(named.isEmpty ? Array(rest) : named)
        let takesArgumentsFirst = types.count >= arguments.count && zip(types, arguments).allSatisfy { $0 == $1 }
        let namesEach = named.isEmpty || named.map(\.lookupKey.group) == rest.map(\.lookupKey.group)
        func list(_ types: some Sequence<Any.Type>) -> String { "(\(types.map(typeName).joined(separator: ", ")))" }
        problem =
            takesArgumentsFirst && namesEach
            ? nil
            : Conflict(
                kind: .argumentTypesMismatch(
                    function: list(types),
                    dependencies: named.isEmpty ? nil : list(named.map(\.serviceType))
                ),
                sites: [RegistrationSite(fileID: fileID, line: line)]
            )
    }

    /// The resolve-time arguments `values` borrows, of the types `Argument…`, in order, for
    /// `take(_:at:given:from:)`.
    @inlinable
    static func given<each Argument>(_ values: BorrowedValues, as _: (repeat each Argument).Type) -> [Any] {
        var given: [Any] = []
        for argument in repeat each values.read(as: (repeat each Argument).self) { given.append(argument) }
        return given
    }

    /// The parameter at `position`, of type `Parameter`: the resolve-time argument there, or, past
    /// the arguments, the dependency declared there, resolved; moves `position` on.
    @inlinable
    func take<Parameter>(
        _: Parameter.Type,
        at position: inout Int,
        given: [Any],
        from resolver: Resolver
    ) throws -> Parameter {
        defer { position += 1 }
        guard position >= given.count else { return given[position] as! Parameter }  // as `problem` checked
        var dependency = position - given.count
        return try resolve(Parameter.self, at: &dependency, from: resolver)
    }

    /// The async spelling of `take(_:at:given:from:)`.
    @inlinable
    func take<Parameter>(
        _: Parameter.Type,
        at position: inout Int,
        given: [Any],
        from resolver: Resolver,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Parameter {
        defer { position += 1 }
        guard position >= given.count else { return given[position] as! Parameter }
        var dependency = position - given.count
        return try await resolve(Parameter.self, at: &dependency, from: resolver)
    }

    /// Resolves the parameter at `position`, of type `Dependency`, and moves `position` on: `nil`,
    /// for an optional type, when nothing is registered for the type it wraps.
    @inlinable
    func resolve<Dependency>(_: Dependency.Type, at position: inout Int, from resolver: Resolver) throws -> Dependency {
        defer { position += 1 }
        do {
            return try resolver.resolve(declared, at: position)
        } catch {
            return try absentOptional(Dependency.self, after: error, at: position, from: resolver)
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
            return try await resolver.resolveAsync(Dependency.self, name: declared.keys[position].name)
        } catch {
            return try absentOptional(Dependency.self, after: error, at: position, from: resolver)
        }
    }

    /// `nil` as `Dependency`, if `error`, which resolving the parameter at `position` threw, says that
    /// it is an optional dependency that is not there: the parameter is of an optional type, and
    /// nothing is registered for the type it wraps. Otherwise throws `error`, saying which parameter
    /// it is. (Out of line, and without an optional of `Dependency`, whose metadata code not
    /// specialised for it would look up on every resolve.)
    @usableFromInline
    func absentOptional<Dependency>(
        _: Dependency.Type,
        after error: any Error,
        at position: Int,
        from resolver: Resolver
    ) throws -> Dependency {
        let wrapped = { resolver.lookup.withObject { $0.resolvedKey(for: self.declared.keys[position]).key } }
        guard let optional = Dependency.self as? any OptionalService.Type,
            let missing = error as? InjectionError, missing.code == .missingRegistration,
            missing.resolutionPath == resolver.context.path + [wrapped()]  // the wrapped service itself
        else { throw failure(error, at: position, from: resolver) }
        return optional.none as! Dependency
    }

    /// `error`, met resolving the parameter at `position`, saying which parameter it is.
    @usableFromInline
    func failure(_ error: any Error, at position: Int, from resolver: Resolver) -> any Error {
        guard let error = error as? InjectionError else { return error }
        // An optional parameter's error names the wrapped type it resolved.
        let parameter = declared.keys[position]
        let asked = resolver.lookup.object.resolvedKey(for: parameter).key
        return error.declared(parameter: position, of: key, at: site, asking: asked, declaredAs: parameter.serviceType)
    }

    /// Where the registration was written.
    var site: RegistrationSite { RegistrationSite(fileID: fileID, line: line) }
}

extension Container {
    /// Adds the provider of a declared registration, whose factory resolves `parameters`; with
    /// `resolveSpecialised` as `Provider` says.
    @usableFromInline
    func register<Service>(
        _ parameters: DeclaredParameters,
        scope: Scope,
        replacing replacesExisting: Bool,
        identifyingArguments identifyArguments: BorrowedValues.Identify? = nil,
        resolving resolveSpecialised: Provider<Service>.ResolveFound? = nil,
        _ body: Provider<Service>.Body
    ) -> Registration<Service> {
        register(
            parameters.key,
            scope: scope,
            replacing: replacesExisting,
            at: parameters.fileID,
            parameters.line,
            declaring: parameters.declared,
            problem: parameters.problem,
            identifyingArguments: identifyArguments,
            resolving: resolveSpecialised,
            body
        )
    }
}
