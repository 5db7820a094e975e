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

/// Values given to a lifetime scope when it is made: the request, the user, a trace id. They
/// resolve inside that scope only, for the scope and every factory resolving through it.
///
/// ```swift
/// try container.withScope(tag: .request) { values in
///     values.provide(RequestInfo.self, info)
///     values.provide(String.self, name: "trace id", traceID)
/// } operation: { request in
///     try request.resolve(NoteHandler.self).handle(body)   // its factory resolves RequestInfo
/// }
/// ```
///
/// The scope does not dispose them: they belong to whoever gave them. A singleton or weak service
/// may not depend on one (it would outlive the scope): that is a captive dependency. A value is not
/// found where the container registers its type and name any other way: that registration wins.
/// Declare the values scopes provide with ``Container/register(_:name:providedByScope:fileID:line:)``,
/// so that ``Container/validate()`` knows them and a scope that was not given one says so.
public struct ScopeValues: Sendable {
    /// The key of the first value given, kept apart with the value: a scope is typically given one
    /// (the request), which is then stored, found and dropped without hashing or allocating.
    @usableFromInline var firstKey: LookupKey?
    /// The first value, as `keptObject(for:)` keeps it: a class instance as itself, anything else
    /// in a box of its type, read back with a cast the key vouches for (see ``Borrowed``).
    @usableFromInline var first: (any AnyObject & Sendable)?
    /// The first value's identity if it is a class instance (or an existential of one), for
    /// `contains`.
    @usableFromInline var firstIdentity: ObjectIdentifier?
    /// The other values, as `keptObject(for:)` keeps them; `nil` until there are some, so that a
    /// scope given one value copies and drops no dictionary.
    var more: [LookupKey: any AnyObject & Sendable]?

    /// The value given for `key`, as `keptObject(for:)` keeps it, borrowed: the scope keeps its values
    /// as long as it lives, and a resolution runs while its scope does.
    func borrowedValue(for key: LookupKey) -> Borrowed<any AnyObject & Sendable>? {
        if firstKey == key, let first { return Borrowed(first) }
        return more == nil ? nil : borrowedMoreValue(for: key)
    }

    /// `borrowedValue(for:)` for a value after the first. (Out of line: a request's scope is
    /// usually given one value, and its hashed lookup would sit between the instructions it runs.)
    @inline(never)
    private func borrowedMoreValue(for key: LookupKey) -> Borrowed<any AnyObject & Sendable>? {
        more?[key].map(Borrowed.init)
    }

    /// The names the values of `group`'s service type were given under, in no order: what a scope
    /// that was not given a value under one name was given instead.
    func names(in group: GroupKey) -> [String?] {
        ([firstKey].compactMap { $0 } + (more.map { Array($0.keys) } ?? [])).filter { $0.group == group }.map(\.name)
    }

    /// Whether `instance`, whose identity is `object` if it is a class instance, is one of the
    /// values: a scope takes charge of none of them, even resolved under another key.
    /// (The usual question, a class instance asked of a scope given one value or none, answered
    /// inline; the rest by a function of its own.)
    @inline(__always)
    func contains(_ instance: Any, object: AnyObject?) -> Bool {
        if let object, more == nil { return firstIdentity == ObjectIdentifier(object) }
        return search(for: instance, object: object)
    }

    /// `contains(_:object:)`, for a value or a scope given more than one.
    @inline(never)
    private func search(for instance: Any, object: AnyObject?) -> Bool {
        guard let first else { return false }
        return isSameInstance(keptInstance(first), instance, object: object)
            || more?.values.contains { isSameInstance(keptInstance($0), instance, object: object) } == true
    }

    /// Gives the scope `value`, resolvable as `type` under `name`; a second value for the same type
    /// and name replaces the first.
    @inlinable
    public mutating func provide<Value: Sendable>(_ type: Value.Type, name: String? = nil, _ value: Value) {
        let key = LookupKey(type, name: name)
        if let firstKey, firstKey != key { return provideMore(keptObject(for: value), as: key) }
        firstKey = key
        first = keptObject(for: value)
        firstIdentity = objectIdentity(of: value).map(ObjectIdentifier.init)
    }

    /// Gives the scope `object`, a value kept as `keptObject(for:)` keeps it, under `key`, which
    /// is not the first value's. (Not generic, and out of line: a request's scope is usually given
    /// one value, and each type given has a specialisation of `provide`.)
    @usableFromInline @inline(never)
    mutating func provideMore(_ object: any AnyObject & Sendable, as key: LookupKey) {
        if more == nil { more = [:] }
        more![key] = object
    }
}

extension Container {
    /// Makes a lifetime scope given `values` (the request, the user, a trace id), which resolve
    /// inside it only: see ``ScopeValues``.
    ///
    /// ```swift
    /// let request = container.makeScope(tag: .request) { $0.provide(RequestInfo.self, info) }
    /// ```
    ///
    /// ``withScope(tag:providing:operation:)`` and ``withScopeAsync(tag:providing:operation:isolation:)`` take the same
    /// values, and close the scope on every path.
    ///
    /// - Parameters:
    ///   - tag: What kind of scope this is, as for ``makeScope(tag:)``.
    ///   - values: Gives the scope its values.
    public func makeScope(tag: ScopeTag? = nil, providing values: (inout ScopeValues) -> Void) -> LifetimeScope {
        var given = ScopeValues()
        values(&given)
        return LifetimeScope(container: self, tag: tag, values: consume given)  // moved, not copied
    }

    /// Declares a value that lifetime scopes are given when they are made (see ``ScopeValues``),
    /// rather than one the container builds: resolving it from a scope returns the scope's value.
    ///
    /// ```swift
    /// container.register(RequestInfo.self, providedByScope: .request)
    /// container.register(NoteHandler.self, scope: .scoped(to: .request)) { r in
    ///     try NoteHandler(request: r.resolve(RequestInfo.self))
    /// }
    /// ```
    ///
    /// Resolving it from a scope that was not given one, from a scope with another tag, or from a
    /// container throws an error that says where the value comes from. ``validate()`` lists it, and
    /// the registrations that need it, as provided by scopes: it has no value to build them with.
    ///
    /// - Parameters:
    ///   - service: The type of the value.
    ///   - name: The name it is given under, if any.
    ///   - tag: The tag of the scopes given the value; `nil` for any scope.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    /// - Returns: The registration.
    @discardableResult
    public func register<Service: Sendable>(
        _ service: Service.Type,
        name: String? = nil,
        providedByScope tag: ScopeTag?,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        let key = ServiceKey(service, name: name)
        let site = RegistrationSite(fileID: fileID, line: line)
        let scope = tag.map(Scope.scoped(to:)) ?? .scoped
        // Its factory runs only where the value cannot be served straight from the scope's values
        // (see `ResolutionContext.givenScopeValue(for:)`): to report what is wrong, or in validation.
        let provider = Provider<Service>(
            key: key,
            scope: scope,
            site: site,
            providingScopeValue: true,
            .sync { r, _ in
                // Validation's sandbox has the sample values it was given, if any (`validate(providing:)`).
                guard let lifetimeScope = r.context.environment.lifetimeScope,
                    !lifetimeScope.acceptsEveryTag || lifetimeScope.values.borrowedValue(for: key.lookupKey) != nil
                else { throw ScopeValueInSandbox() }
                guard let given = lifetimeScope.values.borrowedValue(for: key.lookupKey)?.object else {
                    throw InjectionError.scopeValueMissing(
                        key,
                        tag: lifetimeScope.tag,
                        site: site,
                        givenUnder: lifetimeScope.values.names(in: key.lookupKey.group),
                        path: r.context.path
                    )
                }
                return keptInstance(given, as: Service.self)
            }
        )
        add(provider, replacing: false)
        return Registration(container: self, key: key.lookupKey)
    }
}

/// What a value provided by scopes gives in validation's sandbox, which has none: the registrations
/// that need it are reported as not checked.
struct ScopeValueInSandbox: Error {}

extension ResolutionContext {
    /// The value the resolution's lifetime scope was given for `provider`, a registration of a
    /// value provided by scopes, served straight from the scope's values: resolving it does not
    /// build and store it again as a scoped instance. `nil` when the registration's factory must
    /// run instead: the scope was given no such value (the factory reports it), this is validation's
    /// sandbox, or the registration has preparation steps, which run once per scope.
    ///
    /// - Throws: What `checkScopedResolution(of:)` throws: a captive dependency, or a scope of another tag.
    @usableFromInline func givenScopeValue(for provider: AnyProvider) throws -> Borrowed<any AnyObject & Sendable>? {
        guard provider.preparation == nil, let lifetimeScope = environment.borrowedLifetimeScope else { return nil }
        // The usual case (a scope with the registration's tag, nothing outliving scopes under
        // construction) is decided here without a retain; any other goes to
        // `checkScopedResolution`, which throws its error.
        return try lifetimeScope.withObject { lifetimeScope in
            guard !lifetimeScope.acceptsEveryTag,
                let given = lifetimeScope.values.borrowedValue(for: provider.key.lookupKey)
            else {
                return nil
            }
            if !provider.scope.admits(lifetimeScope.tag) || innermostOutlivingScopes() != nil {
                _ = try checkScopedResolution(of: provider)
            }
            return given
        }
    }

    /// The value the resolution's lifetime scope was given for `key`, if any, for a key that is not
    /// registered.
    ///
    /// - Throws: ``InjectionError/Code/captiveDependency`` when a singleton or weak service is
    ///   being built around it.
    func scopeValue(for key: LookupKey, asked: ServiceKey) throws -> Any? {
        guard let lifetimeScope = environment.lifetimeScope,
            let given = lifetimeScope.values.borrowedValue(for: key)?.object
        else { return nil }
        if let error = captiveDependency(asked, scope: .scoped) { throw error }
        // In validation, an edge of the graph, which its check walks behind handles.
        if lifetimeScope.acceptsEveryTag { noteDependency(on: asked) }
        return keptInstance(given)
    }
}
