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

import Synchronization

/// The registrations of one container: a table from key to provider, and every provider ever
/// added, in order.
///
/// That list keeps the providers alive (the table holds them unretained, and a lookup may hand
/// one out unretained while registration goes on: replaced providers are kept, not released), and
/// it gives the registration order that `resolveAll` and error reports follow.
///
/// A container changes its registry only under its lock, before registration finishes; then it
/// publishes the same registry, frozen, for lock-free reads.
final class Registry: @unchecked Sendable {
    let table = ProviderTable()
    private var added: [AnyProvider] = []
    private let groupIndex = PublishedReference<GroupIndex>()

    func provider(for key: LookupKey) -> AnyProvider? {
        table.provider(for: key)?.takeUnretainedValue()
    }

    /// Adds a registration. A second registration of a key replaces the first only when
    /// `replacing` is true; otherwise both sites are recorded as a conflict.
    func add(_ provider: AnyProvider, replacing: Bool) {
        guard let existing = self.provider(for: provider.key.lookupKey) else {
            store(provider)
            return
        }
        store(
            replacing
                ? provider
                : existing.copy(
                    conflict: Conflict(kind: .duplicate, sites: existing.sites + [provider.site]),
                    preparation: existing.preparation
                )
        )
    }

    /// Replaces the provider for `key` with `transform`'s result; does nothing for an unknown key.
    func amend(_ key: LookupKey, _ transform: (AnyProvider) -> AnyProvider) {
        guard let existing = provider(for: key) else { return }
        store(transform(existing))
    }

    private func store(_ provider: AnyProvider) {
        added.append(provider)
        table.store(provider)
    }

    /// Every current provider, in the order its key was first registered; a replacement takes the
    /// place of what it replaced.
    var allProviders: [AnyProvider] {
        var seen: Set<LookupKey> = []
        seen.reserveCapacity(table.count)
        return added.compactMap { provider in
            let key = provider.key.lookupKey
            return seen.insert(key).inserted ? self.provider(for: key) : nil
        }
    }

    /// The current providers of `group` (unnamed and named), in registration order, from an index
    /// built on first use. Only for a frozen registry: the index is never rebuilt.
    func providers(in group: GroupKey) -> [AnyProvider] {
        let index = groupIndex.load() ?? groupIndex.publish(GroupIndex(allProviders))
        return index.providers[group] ?? []
    }

    /// The providers of each group, for `resolveAll` on a frozen registry.
    private final class GroupIndex: Sendable {
        let providers: [GroupKey: [AnyProvider]]

        init(_ providers: [AnyProvider]) {
            self.providers = Dictionary(grouping: providers) { $0.key.lookupKey.group }
        }
    }
}
