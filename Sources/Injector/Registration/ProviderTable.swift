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

/// An open-addressing hash table from a key to its provider: a container's registrations, and,
/// once registration has finished, what every lookup on the resolve path reads.
///
/// It serves where `Dictionary` would run SipHash over the whole key on every lookup: a key's
/// service and argument types are two type identities, which a multiplicative hash spreads well
/// (a name, when there is one, is hashed in too). Entries borrow their providers, so a lookup
/// retains nothing.
///
/// Not synchronised: a ``RegistryBuilder`` writes its table under the container's lock, and each
/// ``Registry`` snapshot reads, without a lock, the table as it was made from, which is never
/// written again (the builder copies it before its next change).
final class ProviderTable: @unchecked Sendable {
    private struct Entry {
        var group: GroupKey
        var provider: Borrowed<AnyProvider>?
        /// The key's place among the keys in the order they were first stored.
        var order: Int
    }

    private var entries: UnsafeMutableBufferPointer<Entry>
    private var shift: Int
    private(set) var count = 0

    init() {
        let capacityBits = 3
        shift = UInt.bitWidth - capacityBits
        entries = Self.allocateEntries(count: 1 << capacityBits)
    }

    private init(entries: UnsafeMutableBufferPointer<Entry>, shift: Int, count: Int) {
        self.entries = entries
        self.shift = shift
        self.count = count
    }

    /// A table with the same entries, for a snapshot that is never written.
    func copy() -> ProviderTable {
        let copied = UnsafeMutableBufferPointer<Entry>.allocate(capacity: entries.count)
        _ = copied.initialize(fromContentsOf: entries)
        return ProviderTable(entries: copied, shift: shift, count: count)
    }

    deinit {
        entries.deallocate()  // entries are trivial: nothing to deinitialise
    }

    /// The provider registered for `key`.
    func provider(for key: LookupKey) -> Borrowed<AnyProvider>? {
        entries[Self.slot(of: key, in: entries, shift: shift) { $0 == key.name }].provider
    }

    /// The provider registered for `key`, which has no name. (Inlined into
    /// `Container.provider(for:)`: every resolve looks up, and a call of its own would cost each
    /// one; names take calls to hash and compare, which this probe does without.)
    @inline(__always)
    func unnamedProvider(for key: LookupKey) -> Borrowed<AnyProvider>? {
        entries[Self.slot(of: key, in: entries, shift: shift) { $0 == nil }].provider
    }

    /// Stores `provider` under its key: returns the provider it replaced (`nil` when the key is
    /// new) and the key's place among the keys in the order they were first stored. The caller
    /// keeps `provider` alive for the table's lifetime.
    func store(_ provider: AnyProvider) -> (replaced: Borrowed<AnyProvider>?, order: Int) {
        if (count + 1) * 4 > entries.count * 3 { grow() }  // at most three quarters full
        let key = provider.key.lookupKey
        let index = Self.slot(of: key, in: entries, shift: shift) { $0 == key.name }
        let replaced = entries[index].provider
        let order = replaced == nil ? count : entries[index].order
        entries[index] = Entry(group: key.group, provider: Borrowed(provider), order: order)
        if replaced == nil { count += 1 }
        return (replaced, order)
    }

    /// The index of the entry of `key`, whose name `hasName` recognises, or of the empty entry where
    /// it would go: linear probing from the key's hash.
    @inline(__always)
    private static func slot(
        of key: LookupKey,
        in entries: UnsafeMutableBufferPointer<Entry>,
        shift: Int,
        hasName: (String?) -> Bool
    ) -> Int {
        let mask = entries.count &- 1
        var index = Self.index(of: key, shift: shift)
        while let provider = entries[index].provider {
            if entries[index].group == key.group, provider.withObject({ hasName($0.key.name) }) { return index }
            index = (index &+ 1) & mask
        }
        return index
    }

    private func grow() {
        let larger = Self.allocateEntries(count: entries.count * 2)
        let largerShift = shift - 1
        let mask = larger.count &- 1
        for entry in entries {
            guard let provider = entry.provider else { continue }
            // The keys are distinct: each goes to the first empty entry from its hash, with no
            // key to compare on the way.
            var index = provider.withObject { Self.index(of: $0.key.lookupKey, shift: largerShift) }
            while larger[index].provider != nil { index = (index &+ 1) & mask }
            larger[index] = entry
        }
        entries.deallocate()
        entries = larger
        shift = largerShift
    }

    private static func allocateEntries(count: Int) -> UnsafeMutableBufferPointer<Entry> {
        let entries = UnsafeMutableBufferPointer<Entry>.allocate(capacity: count)
        // An entry is empty when it has no provider; its group is then never read.
        let unused = GroupKey(
            service: ObjectIdentifier(ProviderTable.self),
            arguments: ObjectIdentifier(ProviderTable.self)
        )
        entries.initialize(repeating: Entry(group: unused, provider: nil, order: 0))
        return entries
    }

    /// Fibonacci hashing of the two identities' sum (and the name's hash): the top bits of its
    /// product with the golden ratio index the table, and depend on every bit of the sum. (The
    /// multiplier is a 64-bit constant, truncated where `UInt` is 32 bits: watchOS's arm64_32.)
    @inline(__always)
    private static func index(of key: LookupKey, shift: Int) -> Int {
        var mixed = UInt(bitPattern: key.group.service) &+ UInt(bitPattern: key.group.arguments)
        if let name = key.name { mixed ^= UInt(bitPattern: name.hashValue) }
        mixed &*= UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        return Int(truncatingIfNeeded: mixed &>> UInt(truncatingIfNeeded: shift))
    }
}
