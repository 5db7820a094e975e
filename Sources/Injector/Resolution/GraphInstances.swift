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
/// A graph rarely holds more than a few of them, so they sit in an array searched linearly, which
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

    private var keys: [Key] = []
    private var instances: [Any] = []
    private var index: [Key: Int] = [:]

    /// The instance stored for `provider` and `lookup`, if any, as `Service`: the type that provider
    /// makes, so of what it stored. `mutating` only so that the search runs on the arrays in place
    /// rather than on a copy (and not through `withUnsafeMutableBufferPointer`, which checks the
    /// array's uniqueness first), and the instance is read where it lies.
    mutating func instance<Service>(of provider: AnyProvider, lookup: Container, as _: Service.Type) -> Service? {
        guard !keys.isEmpty else { return nil }
        let key = Key(provider: provider, lookup: lookup)
        let found = keys.count > Self.indexedCount ? index[key] : keys.firstIndex(of: key)
        guard let position = found else { return nil }
        return knownValue(&instances[position], as: Service.self)
    }

    /// Keeps `instance`, which the caller hands over, for `provider` and `lookup`.
    mutating func store(_ instance: consuming Any, of provider: AnyProvider, lookup: Container) {
        let key = Key(provider: provider, lookup: lookup)
        keys.append(key)
        instances.append(instance)
        if keys.count > Self.indexedCount {
            if index.isEmpty {
                for (position, key) in keys.enumerated() { index[key] = position }
            } else {
                index[key] = keys.count - 1
            }
        }
    }

    /// Whether the resolve stored no instance, as most do not.
    var isEmpty: Bool { keys.isEmpty }

    /// Forgets every instance and hands them to the caller, to release once its resolution has
    /// ended (see `ResolutionContext.end()`): an instance's deinit may resolve. The keys keep their
    /// storage for the next resolve; the instances' is taken back with `reuse(_:)`.
    mutating func takeAll() -> [Any] {
        keys.removeAll(keepingCapacity: true)
        index.removeAll()
        var taken: [Any] = []
        swap(&taken, &instances)
        return taken
    }

    /// Takes back for the next resolve the storage of the instances `takeAll()` handed out, released
    /// now, unless a resolve made storage of its own meanwhile (one that an instance's deinit ran).
    mutating func reuse(_ released: inout [Any]) {
        if instances.capacity == 0 { swap(&released, &instances) }
    }
}
