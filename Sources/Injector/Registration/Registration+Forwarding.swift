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

extension Registration {
    /// Makes this registration's instance reachable as `other` too: one registration serving
    /// several protocols, with one instance in its scope (Swinject's `implements`).
    ///
    /// ```swift
    /// container.register(FileNoteStore.self, scope: .singleton) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
    ///     .implements(NoteReader.self)
    ///     .implements(NoteWriter.self)
    /// let reader = try container.resolve(NoteReader.self)   // the FileNoteStore singleton
    /// ```
    ///
    /// Resolving `other` resolves this registration and hands its instance on: the same singleton,
    /// the same scoped instance within a scope, a new transient one each time. The instance is
    /// disposed by whoever owns it under this registration, once. An `async` registration's
    /// instance is handed on asynchronously: resolve `other` with `resolveAsync`. The key `other`
    /// under `name` is a registration of its own: registering that key again is a duplicate.
    ///
    /// - Parameters:
    ///   - other: Another type callers ask for, which the instance must conform to.
    ///   - name: The name `other` is reachable under; `nil` by default, whatever this registration's
    ///     name.
    ///   - fileID: The file of the call, named in error messages; leave the default.
    ///   - line: The line of the call, named in error messages; leave the default.
    /// - Returns: This registration, to add further steps to.
    ///
    /// Resolving `other` throws ``InjectionError/Code/invalidForwarding`` when the instance does not
    /// conform to it, or when this registration takes resolve-time arguments (which a resolve of
    /// `other` has no types for); ``Container/validate()`` reports the first of these.
    @discardableResult
    public func implements<Other>(
        _ other: Other.Type,
        name: String? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Self {
        let forwardKey = ServiceKey(other, name: name)
        let originalName = key.name
        let takesArguments = key != LookupKey(Service.self, name: originalName)
        let registered = container.registeredProvider(for: key)?.object
        let original = registered?.key ?? ServiceKey(Service.self, name: originalName)
        @Sendable func forward(_ instance: Service, path: [ServiceKey]) throws -> Other {
            guard let forwarded = instance as? Other else {
                throw InjectionError.forwardedTypeMismatch(
                    forwardKey,
                    original: original,
                    madeType: type(of: instance as Any),
                    path: path
                )
            }
            return forwarded
        }
        let refusal = takesArguments ? InjectionError.forwardingWithArguments(forwardKey, original: original) : nil
        // One factory for each kind of resolve, so that a replacement, override or child's
        // registration of the other kind is handed on too; it counts as async as the original does.
        let provider = Provider<Other>(
            handingOn: forwardKey,
            site: RegistrationSite(fileID: fileID, line: line, origin: .forwarding(to: original)),
            factory: { r, _ in
                if let refusal { throw refusal }
                do {
                    return try forward(r.resolve(Service.self, name: originalName), path: r.context.path)
                } catch let error as InjectionError
                    where error.code == .asyncResolutionRequired && error.resolutionPath.last == original
                {
                    throw InjectionError.asyncResolutionRequired(forwardKey, path: r.context.path)  // as an async one's
                }
            },
            asyncFactory: { r, _ in
                if let refusal { throw refusal }
                return try forward(await r.resolveAsync(Service.self, name: originalName), path: r.context.path)
            },
            isAsync: registered?.isAsync == true
        )
        container.add(provider, replacing: false)
        return self
    }
}
