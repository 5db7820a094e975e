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

/// How a container's registrations are built, under the container's lock, before they are frozen
/// into a ``Registry`` snapshot for lookups.
///
/// It keeps every provider ever added: that keeps them alive for the lookups that borrow them (see
/// `Borrowed`), replaced ones included, and it keeps the current ones in the registration order
/// that `resolveAll` and error reports follow.
struct RegistryBuilder {
    /// Shared with the snapshots made since the last change, which never write it: the next change
    /// copies it first.
    private var table = ProviderTable()
    /// The current provider of each key, in the order the keys were first stored (at the place
    /// the table keeps for the key): what a snapshot lists, kept as providers are stored.
    private var current: [AnyProvider] = []
    /// Every other provider added: those replaced, and the records that copies borrow.
    private var others: [AnyProvider] = []
    /// The keys registered after ``Container/finishRegistration()``, in order: they come last.
    private var lateKeys: [LookupKey] = []
    /// Whether ``Container/finishRegistration()`` was called: every change after it is a conflict.
    private(set) var isFinished = false
    /// Snapshots replaced by newer ones, kept alive for lookups that may still read them.
    private var retired: [Registry] = []
    /// Whether a declared registration was added, whose resolve plan each snapshot links.
    private(set) var hasDeclaredRegistrations = false

    func provider(for key: LookupKey) -> AnyProvider? {
        table.provider(for: key)?.object
    }

    /// Adds a registration. A second registration of a key replaces the first only when
    /// `replacing` is true; otherwise both sites are recorded as a conflict. After registration
    /// has finished, the registration is recorded as a late one.
    mutating func add(_ provider: AnyProvider, replacing: Bool) {
        if provider.declaredDependencies != nil { hasDeclaredRegistrations = true }
        guard !isFinished else {
            let existing = self.provider(for: provider.key.lookupKey)
            noteLate(provider, kind: .lateRegistration, sites: (existing?.sites ?? []) + [provider.site])
            return
        }
        // One probe stores the registration and finds what it replaces; a duplicate then puts the
        // first registration back, with the conflict recorded.
        let (replaced, order) = writableTable().store(provider)
        keep(provider, at: order)
        guard let existing = replaced?.object, !replacing else { return }
        store(
            existing.copy(
                conflict: Conflict(kind: .duplicate, sites: existing.sites + [provider.site]),
                preparation: existing.preparation
            )
        )
    }

    /// Replaces the provider for `key` with `transform`'s result; does nothing for an unknown key.
    /// After registration has finished, the amendment made at `site` is recorded as a late one.
    mutating func amend(_ key: LookupKey, at site: RegistrationSite, _ transform: (AnyProvider) -> AnyProvider) {
        guard let existing = provider(for: key) else { return }
        guard isFinished else {
            store(transform(existing))
            return
        }
        if let conflict = existing.conflict {
            // A key already in conflict (registered twice, or late) keeps that as its problem, with
            // the registrations' sites: a hook is not one more registration.
            noteLate(transform(existing), kind: conflict.kind, sites: conflict.sites)
        } else {
            noteLate(transform(existing), kind: .lateAmendment, sites: [existing.site, site])
        }
    }

    /// Marks registration finished: every change after this is recorded as a conflict.
    mutating func finish() {
        isFinished = true
    }

    /// A snapshot of the registrations as they are now.
    func snapshot() -> Registry {
        Registry(table: table, providers: currentProviders)
    }

    /// The table, copied first if a snapshot shares it.
    private mutating func writableTable() -> ProviderTable {
        if !isKnownUniquelyReferenced(&table) { table = table.copy() }
        return table
    }

    /// Keeps `registry` alive: a snapshot being replaced, which lookups may still read.
    mutating func retire(_ registry: Registry) {
        retired.append(registry)
    }

    private mutating func noteLate(_ provider: AnyProvider, kind: Conflict.Kind, sites: [RegistrationSite]) {
        let key = provider.key.lookupKey
        if !lateKeys.contains(key) { lateKeys.append(key) }
        // The copy borrows `provider` as its record: keep it too.
        others.append(provider)
        store(provider.copy(conflict: Conflict(kind: kind, sites: sites), preparation: provider.preparation))
    }

    private mutating func store(_ provider: AnyProvider) {
        keep(provider, at: writableTable().store(provider).order)
    }

    /// Makes `provider`, just stored, the current one of the key at `order`.
    private mutating func keep(_ provider: AnyProvider, at order: Int) {
        guard order < current.count else { return current.append(provider) }
        others.append(current[order])
        current[order] = provider
    }

    /// Every current provider, in the order its key was first registered (a replacement takes the
    /// place of what it replaced), the keys registered late last.
    private var currentProviders: [AnyProvider] {
        guard !lateKeys.isEmpty else { return current }
        let late = Set(lateKeys)
        return current.filter { !late.contains($0.key.lookupKey) } + lateKeys.compactMap(provider(for:))
    }
}
