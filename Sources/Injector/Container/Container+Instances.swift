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

/// Who disposes an instance the app made and registered: said at every such registration.
public struct InstanceOwnership: Hashable, Sendable, CustomStringConvertible {
    /// Whether the container disposes the instance at shutdown.
    let isOwnedByContainer: Bool

    /// The container owns the instance: shutting it down disposes the instance (if it is
    /// ``Disposable`` or ``AsyncDisposable``), once, whether it was ever resolved or not.
    public static let container = InstanceOwnership(isOwnedByContainer: true)

    /// Whoever made the instance owns it: the container never disposes it, nor does a scope.
    public static let caller = InstanceOwnership(isOwnedByContainer: false)

    /// `container` or `caller`.
    public var description: String { isOwnedByContainer ? "container" : "caller" }
}

extension Container {
    /// Registers an instance the app already has, as a ``Scope/singleton``: every resolve returns
    /// it, and no factory runs. Whether the container disposes it at shutdown is said explicitly.
    /// Every thread receives it, so it must be `Sendable`.
    ///
    /// ```swift
    /// let database = try Database(path: "notes.db")
    /// container.register(Database.self, instance: database, ownedBy: .container)   // shutdown disposes it
    /// container.register(Clock.self, instance: SystemClock.shared, ownedBy: .caller) // never disposed here
    /// ```
    ///
    /// A lifetime scope never disposes it, even when a factory passes it on under another key.
    /// Duplicates, names and hooks work as for ``register(_:name:scope:replacesExisting:fileID:line:factory:)``;
    /// `onResolved` hooks and `verify` checks do not run for it, since nothing builds it.
    ///
    /// - Parameters:
    ///   - service: The type callers ask for, usually a protocol.
    ///   - name: Tells this registration apart from others of the same type.
    ///   - instance: The instance every resolve returns.
    ///   - ownership: ``InstanceOwnership/container`` to have the container dispose it at shutdown,
    ///     ``InstanceOwnership/caller`` to dispose of it yourself.
    ///   - replacesExisting: Whether this registration replaces an earlier one of the same key.
    ///   - fileID: The file of the registration, named in error messages; leave the default.
    ///   - line: The line of the registration, named in error messages; leave the default.
    /// - Returns: The registration.
    @discardableResult
    public func register<Service: Sendable>(
        _ service: Service.Type,
        name: String? = nil,
        instance: Service,
        ownedBy ownership: InstanceOwnership,
        replacesExisting: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        let key = ServiceKey(service, name: name)
        let site = RegistrationSite(fileID: fileID, line: line)
        let provider = Provider<Service>(key: key, scope: .singleton, site: site, .sync { _, _ in instance })
        // Remembered as shared before anything can resolve it: no scope, override or validation
        // sandbox then takes charge of it.
        tree.sharedObjects.insert(instance, scope: .singleton, for: childIdentity)
        provider.singleton?.publish(keptObject(for: instance))
        if ownership.isOwnedByContainer, let disposal = DisposalBag.Disposal(of: instance) {
            let disposer = DisposalBag.Disposer(instance, disposal: disposal, object: objectInside(instance))
            disposals.takeCharge(disposer, madeBy: provider)
        }
        add(provider, replacing: replacesExisting)
        return Registration(container: self, key: key.lookupKey)
    }
}
