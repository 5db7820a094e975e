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

// The dependencies a registration's factory and hooks resolved: the edges of the dependency graph.

/// The registrations a registration is known to depend on, by the identity of their records:
/// immutable, replaced by a larger one when a dependency is met for the first time.
final class KnownDependencies: Sendable {
    let records: [UInt]

    init(records: [UInt]) {
        self.records = records
    }
}

extension AnyProvider {
    /// One lock for every registration's dependencies: it is taken only when a registration meets a
    /// dependency for the first time, so a lock each would cost every registration for nothing.
    /// Taken with `lock()`, not `withLock`: a `Locked<Void>`'s empty state shares its address with
    /// the mutex, and ThreadSanitizer reads `withLock`'s access to it as a race with `lock()`.
    private static let dependencyLock = Locked.make(())

    /// The services the factory and hooks resolved, in the order they first resolved them, over
    /// every construction so far. (Ask the record.)
    var dependencies: [ServiceKey] {
        Self.dependencyLock.lock()
        defer { Self.dependencyLock.unlock() }
        return notedDependencies
    }

    /// Notes that this registration's factory or hooks resolved `dependency`: the edge is recorded
    /// the first time; afterwards, finding it known takes a few atomic loads of this provider's
    /// own words (the first four known), and no lock. (On the record.)
    ///
    /// Relaxed loads: a slot holds an identity or 0, and seeing the identity is all the check
    /// needs; nothing else is read through it.
    @inline(__always)
    func noteDependency(on dependency: AnyProvider) {
        let identity = UInt(bitPattern: dependency.recordIdentity)
        for index in 0..<Self.knownDependencyWords where knownDependency(index).load(ordering: .relaxed) == identity {
            return
        }
        noteDependency(on: dependency, identity: identity)
    }

    /// `noteDependency(on:)` past the first four dependencies known, or for one not known yet.
    @inline(never)
    private func noteDependency(on dependency: AnyProvider, identity: UInt) {
        if let known = knownDependencies.load(ordering: .acquiring),
            known.withObject({ $0.records.contains(identity) })
        {
            return
        }
        recordDependency(on: dependency, identity: identity)
    }

    /// Records a dependency not known yet, under the lock: in the first free slot of this provider,
    /// or, past the fourth, in a new generation of `knownDependencies`.
    @inline(never)
    private func recordDependency(on dependency: AnyProvider, identity: UInt) {
        Self.dependencyLock.lock()
        defer { Self.dependencyLock.unlock() }
        if !notedDependencies.contains(dependency.key) { notedDependencies.append(dependency.key) }
        for index in 0..<Self.knownDependencyWords where Self.claim(knownDependency(index), for: identity) { return }
        let records = knownDependencyGenerations.last?.records ?? []
        guard !records.contains(identity) else { return }
        // Earlier generations stay alive: a thread may be reading one it loaded.
        let known = KnownDependencies(records: records + [identity])
        knownDependencyGenerations.append(known)
        knownDependencies.store(Borrowed(known), ordering: .releasing)
    }

    /// Whether `slot` holds `identity`, or held none and now does. Slots are written only under
    /// the lock, in order, so the first free one ends the known.
    private static func claim(_ slot: AtomicWord<UInt>, for identity: UInt) -> Bool {
        let current = slot.load(ordering: .relaxed)
        if current == identity { return true }
        guard current == 0 else { return false }
        slot.store(identity, ordering: .relaxed)
        return true
    }

    /// Notes that this registration's factory or hooks asked for `key`, which may not be registered,
    /// so that the graph shows it. (On the record.)
    func noteDependency(on key: ServiceKey) {
        Self.dependencyLock.lock()
        defer { Self.dependencyLock.unlock() }
        if !notedDependencies.contains(key) { notedDependencies.append(key) }
    }
}
