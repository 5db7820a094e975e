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

// `let clock: Clock? = try? container.resolve()` infers `Service` as `Optional<Clock>`. Nothing is
// registered for that type (registering it stays possible, and is then used as it is): the
// wrapped type is resolved instead, so that the line means what it reads as.

extension ResolutionContext {
    /// Resolves `key`, for which nothing is registered: a value the resolution's scope was given
    /// is that value; a ``Lazy`` or ``ServiceProvider`` is made for the service it resolves; an
    /// optional service type resolves the type it wraps; anything else is the missing-registration
    /// error.
    @usableFromInline func resolveUnregistered<Service, each Argument>(
        _ key: LookupKey,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        if let value = try scopeValue(for: key, asked: ServiceKey(Service.self, name: key.name)) {
            return value as! Service
        }
        if let deferred = Service.self as? any DeferredResolution.Type, key == LookupKey(Service.self, name: key.name) {
            return try deferred.make(name: key.name, in: self, from: lookup) as! Service
        }
        guard let optional = Service.self as? any OptionalService.Type else {
            throw unresolvable(Service.self, arguments: repeat each arguments, key: key, from: lookup)
        }
        return try resolveWrapped(optional, key, from: lookup, arguments: repeat each arguments, configure: configure)
            as! Service
    }

    /// Resolves the type the optional type `Wrapper` wraps, with the name and argument types of
    /// `key` (the optional's), as that optional. `configure` is the caller's closure for the
    /// optional type, if any.
    func resolveWrapped<Wrapper: OptionalService, each Argument>(
        _: Wrapper.Type,
        _ key: LookupKey,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: Any?
    ) throws -> Wrapper {
        let key = Wrapper.wrappedKey(of: key).key
        let found = lookup.provider(for: key)
        let configure = Wrapper.wrappedConfigure(configure)
        do {
            return Wrapper(
                try resolve(key, found: found, from: lookup, arguments: repeat each arguments, configure: configure)
            )
        } catch let error as InjectionError where found == nil {
            throw error.askedAsOptional(Wrapper.self, wrapping: Wrapper.Wrapped.self)
        }
    }

    /// The async spelling of `resolveWrapped`, for an async resolution that meets an optional
    /// service type with nothing registered for it.
    func resolveWrappedAsync<Wrapper: OptionalService, each Argument>(
        _: Wrapper.Type,
        _ key: LookupKey,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: Any?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Wrapper {
        let key = Wrapper.wrappedKey(of: key).key
        let found = lookup.provider(for: key)
        let configure = Wrapper.wrappedConfigure(configure)
        do {
            return Wrapper(
                try await resolveAsync(
                    key,
                    found: found,
                    from: lookup,
                    arguments: repeat each arguments,
                    configure: configure
                )
            )
        } catch let error as InjectionError where found == nil {
            throw error.askedAsOptional(Wrapper.self, wrapping: Wrapper.Wrapped.self)
        }
    }
}

/// `Optional`, whose wrapped type a resolve of the optional type resolves, told apart from other
/// types (a cast of a value looks inside it) and read without knowing its type.
protocol OptionalService {
    /// The type the optional wraps, which a resolve of the optional type resolves.
    associatedtype Wrapped

    /// The optional holding nothing.
    static var none: Self { get }

    /// The optional holding `some`.
    init(_ some: Wrapped)

    /// What the optional wraps, if anything.
    var wrappedValue: Any? { get }

    /// The key of the wrapped type with the name and argument types of `key`, and the wrapped type.
    static func wrappedKey(of key: LookupKey) -> (key: LookupKey, type: Any.Type)

    /// The caller's `configure` for the optional type, if any, applied to the wrapped instance.
    static func wrappedConfigure(_ configure: Any?) -> ((inout Wrapped) throws -> Void)?
}

extension Optional: OptionalService {
    var wrappedValue: Any? { map { $0 } }

    static func wrappedKey(of key: LookupKey) -> (key: LookupKey, type: Any.Type) {
        let group = GroupKey(service: ObjectIdentifier(Wrapped.self), arguments: key.group.arguments)
        return (LookupKey(group: group, name: key.name), Wrapped.self)
    }

    static func wrappedConfigure(_ configure: Any?) -> ((inout Wrapped) throws -> Void)? {
        guard let configure = configure as? (inout Wrapped?) throws -> Void else { return nil }
        return { wrapped in
            var optional: Wrapped? = wrapped
            try configure(&optional)
            if let configured = optional { wrapped = configured }
        }
    }
}

extension InjectionError {
    /// This missing-registration error, for a wrapped type asked for as an optional, saying so.
    func askedAsOptional(_ optional: Any.Type, wrapping wrapped: Any.Type) -> InjectionError {
        guard code == .missingRegistration, resolutionPath.last?.serviceType == wrapped else { return self }
        let message =
            message + " It was asked for as \(typeName(optional)): an optional service type resolves the type"
            + " it wraps (did you mean \(typeName(wrapped))?)."
        return InjectionError(code, message, path: resolutionPath, nearMisses: nearMisses)
    }
}
