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

/// A problem recorded against a registration's key, which resolving it throws: a duplicate, a late
/// registration, or one that cannot work as written. A class, so that the providers of every other
/// key pay one reference for it.
@usableFromInline
final class Conflict: Sendable {
    enum Kind: Sendable {
        /// The key was registered more than once.
        case duplicate
        /// The key was registered after ``Container/finishRegistration()``.
        case lateRegistration
        /// A hook or check was added to the key's registration after ``Container/finishRegistration()``.
        case lateAmendment
        /// The registration's factory takes resolve-time arguments, and its scope shares instances.
        case sharedScopeWithArguments
        /// A declared registration's function, of the parameters `function`, does not take the
        /// registration's resolve-time arguments first, or then the `dependencies` its `using:`
        /// lists, if it lists any.
        case argumentTypesMismatch(function: String, dependencies: String?)
    }

    let kind: Kind
    /// Every site that registered (or amended) the key, in order.
    let sites: [RegistrationSite]

    init(kind: Kind, sites: [RegistrationSite]) {
        self.kind = kind
        self.sites = sites
    }

    /// The problem of a registration with resolve-time arguments and a scope other than
    /// ``Scope/transient``, if it is one: its shared instance would be built from the first resolve's
    /// arguments, and every later resolve would get it, whatever its arguments.
    /// (A function, not an initialiser: it borrows the key, scope and site, which an initialiser
    /// would take, copied, from every registration.)
    static func sharingArguments(of key: ServiceKey, scope: Scope, site: RegistrationSite) -> Conflict? {
        guard !key.argumentTypes.isEmpty, scope.kind != .transient else { return nil }
        return Conflict(kind: .sharedScopeWithArguments, sites: [site])
    }
}
