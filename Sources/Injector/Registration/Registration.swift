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

/// A registration made by ``Container/register(_:name:scope:replacesExisting:fileID:line:factory:)``,
/// to which preparation steps can be added.
///
/// Each instance the factory makes is prepared in this order: the caller's `configure` closure (if
/// the caller gave one), then the ``onResolved(fileID:line:_:)`` hooks, then the ``verify(fileID:line:_:)`` checks. Hooks
/// and checks run once the whole top-level resolve has been built, in the order the instances were
/// completed, so a hook can resolve services that depend back on its instance.
///
/// Add steps while registering, before ``Container/finishRegistration()``; adding one later is
/// recorded as a late registration.
public struct Registration<Service>: Sendable {
    let container: Container
    let key: LookupKey

    /// Adds a hook that prepares each new instance after it is built: property injection, and the
    /// way to close a cycle between services.
    ///
    /// The instance is already stored in its scope when the hook runs, so in a ``Scope/graph`` or
    /// ``Scope/singleton`` registration a service resolved here that depends back on it receives
    /// this very instance:
    ///
    /// ```swift
    /// container.register(Parent.self, scope: .graph) { r in Parent(child: try r.resolve(Child.self)) }
    /// container.register(Child.self, scope: .graph) { _ in Child() }
    ///     .onResolved { r, child in child.parent = try r.resolve(Parent.self) }
    /// ```
    ///
    /// An error the hook throws fails the resolve with ``InjectionError/Code/preparationFailed``.
    ///
    /// - Parameters:
    ///   - fileID: The file of the hook, named in error messages; leave the default.
    ///   - line: The line of the hook, named in error messages; leave the default.
    ///   - hook: Prepares the instance; receives a resolver for what it injects.
    /// - Returns: This registration, to add further steps to.
    @discardableResult
    public func onResolved(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ hook: @escaping @Sendable (Resolver, Service) throws -> Void
    ) -> Self {
        amendPreparation(at: RegistrationSite(fileID: fileID, line: line)) { $0.adding(hook: hook) }
    }

    /// Adds a check that each new instance is fully prepared, run after every hook.
    ///
    /// Throw from the check to fail the resolve with ``InjectionError/Code/preparationFailed``:
    ///
    /// ```swift
    /// container.register(Editor.self) { _ in NoteEditor() }
    ///     .verify { editor in
    ///         guard editor.note != nil else { throw SetupError("an Editor needs a note: pass configure") }
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file of the check, named in error messages; leave the default.
    ///   - line: The line of the check, named in error messages; leave the default.
    ///   - check: Throws if the instance is not ready for use.
    /// - Returns: This registration, to add further steps to.
    @discardableResult
    public func verify(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ check: @escaping @Sendable (Service) throws -> Void
    ) -> Self {
        amendPreparation(at: RegistrationSite(fileID: fileID, line: line)) { $0.adding(check: check) }
    }

    private func amendPreparation(
        at site: RegistrationSite,
        _ transform: @escaping @Sendable (Preparation<Service>) -> Preparation<Service>
    ) -> Self {
        container.amend(key, at: site) { provider in
            let current = provider.preparation.map { uncheckedCast($0, to: Preparation<Service>.self) }
            return provider.copy(conflict: provider.conflict, preparation: transform(current ?? Preparation()))
        }
        return self
    }
}
