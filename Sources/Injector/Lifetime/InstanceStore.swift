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

/// Shared instances kept apart from a container's own: one lifetime scope's scoped instances, or the
/// singletons made under test overrides or by validation. Each is keyed by its registration.
///
/// Instances are published here once the resolution that built them completes, as singletons are.
/// Each one is built behind a gate of its own (see `InstanceGates` and `AsyncInstanceGates`), held
/// until the resolution that took it ends.
@usableFromInline
final class InstanceStore: Sendable {
    @usableFromInline let disposals: DisposalBag
    /// The singleton and weak instances built here, for a side store (overrides' or validation's),
    /// which scopes never take charge of; `nil` for a scope's store.
    @usableFromInline let sharedObjects: SharedObjects?
    /// `InstanceBox`es, keyed by registration.
    private let instances = Locked.make([ObjectIdentifier: AnyObject]())

    /// Creates an empty store whose disposable instances go to `disposals`: its own bag, or one it
    /// shares with another store, so that disposal keeps the order of completion across both.
    init(disposals: DisposalBag = DisposalBag(), isSideStore: Bool = false) {
        self.disposals = disposals
        sharedObjects = isSideStore ? SharedObjects() : nil
    }

    /// The published instance (an `InstanceBox`) of `record`'s registration, if any.
    @usableFromInline func instance(of record: AnyProvider) -> AnyObject? {
        instances.withLock { $0[ObjectIdentifier(record)] }
    }

    @usableFromInline func publish(_ box: AnyObject, of record: AnyProvider) {
        instances.withLock { $0[ObjectIdentifier(record)] = box }
    }

    /// Drops every instance, once they have been disposed.
    func removeAll() {
        instances.withLock { $0.removeAll() }
    }
}
