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

/// A snapshot of one container's registrations, immutable once made, so that any thread reads it
/// without a lock: a table from key to provider, and the current providers in registration order.
///
/// A container builds its registrations in a ``RegistryBuilder`` under its lock and publishes a
/// snapshot of them for lookups, as Hummingbird freezes its router builder into a trie. A change
/// (a registration before ``Container/finishRegistration()``, or a late one after it, recorded as a
/// conflict) publishes a new snapshot; the ones it replaces are kept, since a lookup on another
/// thread may still be reading one.
final class Registry: Sendable {
    /// Never written after `init`.
    private let table: ProviderTable
    /// The current providers, in the order their keys were first registered, keys registered
    /// late last.
    let providers: [AnyProvider]
    private let groupIndex = PublishedReference<GroupIndex>()

    init(table: ProviderTable, providers: [AnyProvider]) {
        self.table = table
        self.providers = providers
    }

    /// The provider registered for `key`.
    func provider(for key: LookupKey) -> Borrowed<AnyProvider>? {
        table.provider(for: key)
    }

    /// The provider registered for `key`, which has no name: `provider(for:)`'s probe, inlined
    /// into the container's usual lookup.
    @inline(__always)
    func unnamedProvider(for key: LookupKey) -> Borrowed<AnyProvider>? {
        table.unnamedProvider(for: key)
    }

    /// The registrations that are problems to report: duplicates, late ones, and those whose
    /// factory takes arguments under a shared scope.
    var conflicts: [AnyProvider] {
        providers.filter { $0.conflict != nil }
    }

    /// The current providers of `group` (unnamed and named), in registration order, from an index
    /// built on first use.
    func providers(in group: GroupKey) -> [AnyProvider] {
        let index = groupIndex.load() ?? groupIndex.publish(GroupIndex(providers))
        return index.providers[group] ?? []
    }

    /// The providers of each group, for `resolveAll`.
    private final class GroupIndex: Sendable {
        let providers: [GroupKey: [AnyProvider]]

        init(_ providers: [AnyProvider]) {
            self.providers = Dictionary(grouping: providers) { $0.key.lookupKey.group }
        }
    }
}
