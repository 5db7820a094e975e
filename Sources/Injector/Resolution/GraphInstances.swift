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

/// The graph-scoped instances of one resolve, each keyed by its provider and the container lookups
/// started from (so that a child's shadows never leak into a parent's graph).
///
/// A graph rarely holds more than a few of them, so they sit in a buffer searched linearly, which
/// the thread's reused context keeps from one resolve to the next. Each is kept as `Any`, which holds
/// an object, or a value of up to three words, without an allocation, and is read back as the type
/// its provider makes without a dynamic cast (`knownValue(_:as:)`). Past `indexedCount` instances, a
/// dictionary index keeps lookups constant-time.
struct GraphInstances {
    private static let indexedCount = 16

    /// What an instance is kept under: its provider and the container lookups started from. Also
    /// what marks an instance as holding a scoped one (`Bookkeeping.scopeBoundGraphInstances`): not
    /// the identity of the object that keeps it, which is the instance itself for a class, and so
    /// shared by every registration that hands out the same object.
    struct Key: Hashable {
        let provider: ObjectIdentifier
        let lookup: ObjectIdentifier

        init(provider: AnyProvider, lookup: Container) {
            self.provider = ObjectIdentifier(provider)
            self.lookup = ObjectIdentifier(lookup)
        }
    }

    /// An instance and what it is kept under, side by side.
    struct Entry {
        let key: Key
        var instance: Any
    }

    /// The entries, in a buffer of their own rather than an array: it has one owner, so storing,
    /// reading and releasing them checks no uniqueness, and releasing destroys each where it lies.
    final class Storage: ManagedBuffer<(count: Int, room: Int), Entry> {
        /// A buffer with room for at least `room` entries, those of `old` moved in (`old` left empty).
        static func make(room: Int, movingFrom old: Storage?) -> Storage {
            let made = create(minimumCapacity: room) { (count: 0, room: $0.capacity) } as! Storage
            if let old {
                made.entry(at: 0).moveInitialize(from: old.entry(at: 0), count: old.count)
                made.count = old.count
                old.count = 0
            }
            return made
        }

        /// How many entries it holds: the first ones.
        var count: Int {
            get { withUnsafeMutablePointerToHeader { $0.pointee.count } }
            set { withUnsafeMutablePointerToHeader { $0.pointee.count = newValue } }
        }

        /// How many entries it has room for.
        var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.room } }

        /// Where the entry at `position` lies: the entries are allocated with the buffer, so the
        /// address holds while it lives (it never grows: a bigger one replaces it).
        func entry(at position: Int) -> UnsafeMutablePointer<Entry> {
            withUnsafeMutablePointerToElements { $0 + position }
        }

        /// Releases every entry: their deinits run now. The buffer is kept.
        func removeAll() {
            let count = self.count
            self.count = 0
            for position in 0..<count { _ = entry(at: position).move() }
        }

        deinit {
            removeAll()
        }
    }

    private var storage: Storage?
    private var index: [Key: Int] = [:]

    /// The entry stored for `provider` and `lookup`, if any, where it lies (until the next store).
    /// `mutating` only so that the search runs on the storage in place rather than on a copy; inlined
    /// in its one caller, as `store` is.
    @inline(__always)
    mutating func entry(of provider: AnyProvider, lookup: Container) -> UnsafeMutablePointer<Entry>? {
        guard let storage else { return nil }
        let count = storage.count
        guard count > 0 else { return nil }  // most resolves make no graph instance
        let key = Key(provider: provider, lookup: lookup)
        let found =
            count > Self.indexedCount ? index[key] : (0..<count).first { storage.entry(at: $0).pointee.key == key }
        guard let position = found else { return nil }
        return storage.entry(at: position)
    }

    /// Keeps `instance`, which the caller hands over, for `provider` and `lookup`.
    @inline(__always)
    mutating func store(_ instance: consuming Any, of provider: AnyProvider, lookup: Container) {
        let key = Key(provider: provider, lookup: lookup)
        let count = storage?.count ?? 0
        if count == storage?.room ?? 0 { storage = Storage.make(room: max(2 * count, 4), movingFrom: storage) }
        let storage = storage!  // made above if there was none
        storage.entry(at: count).initialize(to: Entry(key: key, instance: instance))
        storage.count = count + 1
        if count + 1 > Self.indexedCount {
            if index.isEmpty {
                for position in 0...count { index[storage.entry(at: position).pointee.key] = position }
            } else {
                index[key] = count
            }
        }
    }

    /// Whether the resolve stored no instance, as most do not.
    var isEmpty: Bool { (storage?.count ?? 0) == 0 }

    /// Forgets every instance and hands them to the caller, to release once its resolution has
    /// ended (see `ResolutionContext.end()`): an instance's deinit may resolve. Their storage is
    /// taken back with `reuse(_:)`.
    mutating func takeAll() -> Storage? {
        if !index.isEmpty { index.removeAll() }
        return storage.take()
    }

    /// Takes back for the next resolve the storage of the instances `takeAll()` handed out, released
    /// now, unless a resolve made storage of its own meanwhile (one that an instance's deinit ran).
    mutating func reuse(_ released: Storage?) {
        if storage == nil { storage = released }
    }
}
