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

/// The records of the disposable instances an owner (a lifetime scope, a container's singletons, a
/// set of test overrides) took charge of, in the order they were completed, and how they are
/// disposed: in reverse, exactly once.
///
/// The records (`Entries`) are kept under their owner's lock, in an `InstanceStore`'s state (see
/// `InstanceStore+Disposal.swift`), so that a lifetime scope's instances and disposables share one
/// allocation and one lock; the disposals themselves run here, outside it.
@usableFromInline
enum DisposalBag {
    /// A disposable instance, kept as what disposes it (cast to its disposal protocols when it is
    /// recorded, where the caller's type is known, see ``Disposer``, so that disposing it casts
    /// nothing), with the registration that made it, whose key names it in messages.
    ///
    /// Two references: records are copied into and out of the bag's array, and a copy of one costs
    /// two retains, where a record holding existentials of `Disposable` costs value-witness calls.
    struct Entry: @unchecked Sendable {
        let disposer: Disposer
        let provider: AnyProvider

        var key: ServiceKey { provider.key }
        var isAsyncOnly: Bool { disposer.isAsyncOnly }
    }

    /// The records, in the order they were made. A scope's bag usually gets one (a request's unit
    /// of work), so the first is kept inline, and a bag that never gets a second allocates no
    /// array.
    struct Entries: RandomAccessCollection, Sendable {
        private var first: Entry?
        private var more: [Entry] = []
        private(set) var endIndex = 0
        /// Whether an instance only an async disposal can dispose is recorded: kept as records are
        /// appended, so that a sync close, which asks, reads a flag rather than calling a search.
        private(set) var holdsAsyncOnly = false

        var startIndex: Int { 0 }
        subscript(position: Int) -> Entry { position == 0 ? first! : more[position - 1] }

        mutating func append(_ entry: Entry) {
            if entry.isAsyncOnly { holdsAsyncOnly = true }
            if endIndex == 0 { first = entry } else { more.append(entry) }
            endIndex += 1
        }

        /// Moves the records out, leaving none: no retain and release of each.
        mutating func takeAll() -> Entries {
            var taken = Entries()
            swap(&self, &taken)
            return taken
        }

        /// Whether an instance an async disposal disposes asynchronously is recorded.
        var holdsAsyncDisposable: Bool {
            first?.disposer.disposesAsynchronously == true || more.contains { $0.disposer.disposesAsynchronously }
        }

        /// The services of the instances only an async disposal can dispose.
        var asyncOnlyKeys: [ServiceKey] {
            holdsAsyncOnly ? filter { $0.isAsyncOnly }.map(\.key) : []
        }

        /// The records `isKept` says to keep, in their order.
        func records(where isKept: (Entry) -> Bool) -> Entries {
            var kept = Entries()
            for entry in self where isKept(entry) { kept.append(entry) }
            return kept
        }
    }

    /// Disposes every instance `entries` records, last completed first, asynchronously where it can
    /// be. (Inlined into the store's `disposeAllAsync`, into validation and into a scope's
    /// `finishClosingAsync(_:)`: as an async function of its own, it costs a request's close an async
    /// frame.)
    @inline(__always) static func disposeAsync(_ entries: Entries, of owner: () -> String) async throws {
        // A request's scope usually owns one instance (its unit of work): no order to work out and
        // no record to match.
        if entries.isEmpty { return }  // as in `dispose(_:leaving:of:)`
        if entries.count == 1 {
            guard let failure = await disposeAsync(entries[0]) else { return }
            return try report([failure], outOf: 1, of: owner)
        }
        var failures: [InjectionError] = []
        var disposed = 0
        for index in disposalOrder(of: entries) {
            disposed += 1
            if let failure = await disposeAsync(entries[index]) { failures.append(failure) }
        }
        try report(failures, outOf: disposed, of: owner)
    }

    /// Disposes the instance `entry` records, asynchronously if it can be; its failure, if it threw.
    /// (Inlined: as an async function of its own, it costs a request's close an async frame.)
    @inline(__always) private static func disposeAsync(_ entry: Entry) async -> InjectionError? {
        do {
            if let disposable = entry.disposer.async {
                try await disposable.disposeAsync()
            } else {
                try entry.disposer.disposeSynchronously()
            }
            return nil
        } catch {
            return failure(of: entry, error)
        }
    }

    /// Disposes every instance `entries` records, synchronously, last completed first; `kept`, the
    /// records of the instances only an async disposal can dispose, are named if one fails.
    static func dispose(
        _ entries: Entries,
        leaving kept: Entries = Entries(),
        of owner: () -> String
    ) throws {
        // A scope that made nothing disposable (a request that built no unit of work) closes here,
        // without the order and report code of several records.
        if entries.isEmpty { return }
        if entries.count == 1 {  // as in `disposeAsync`
            guard let failure = dispose(entries[0]) else { return }
            return try report([failure], outOf: 1, leaving: kept, of: owner)
        }
        try disposeSeveral(entries, leaving: kept, of: owner)
    }

    /// Disposes, synchronously and last completed first, every instance `entries` records but those
    /// only an async disposal can dispose: what a sync end of an owner that cannot stay open does
    /// (`withScope`, `withOverrides`, validation), dropping those undisposed, named if a disposal
    /// fails. The caller reports them (`entries.asyncOnlyKeys`).
    static func disposeDroppingAsyncOnly(_ entries: Entries, of owner: () -> String) throws {
        guard _slowPath(entries.holdsAsyncOnly) else { return try dispose(entries, of: owner) }
        try dispose(entries.records { !$0.isAsyncOnly }, leaving: entries.records(where: \.isAsyncOnly), of: owner)
    }

    /// `dispose(_:leaving:of:)` for any number of entries but one.
    @inline(never)
    private static func disposeSeveral(_ entries: Entries, leaving kept: Entries, of owner: () -> String) throws {
        var failures: [InjectionError] = []
        var disposed = 0
        for index in disposalOrder(of: entries) {
            disposed += 1
            if let failure = dispose(entries[index]) { failures.append(failure) }
        }
        try report(failures, outOf: disposed, leaving: kept, of: owner)
    }

    /// The positions of the records to dispose, last completed first: a class instance recorded
    /// twice only at its last record.
    private static func disposalOrder(of entries: Entries) -> some Sequence<Int> {
        let lastRecords = lastRecords(in: entries)
        return stride(from: entries.count - 1, through: 0, by: -1).lazy.filter {
            isLastRecord(at: $0, in: entries, lastRecords)
        }
    }

    /// Disposes the instance `entry` records, synchronously; its failure, if it threw.
    @inline(__always) private static func dispose(_ entry: Entry) -> InjectionError? {
        do {
            try entry.disposer.disposeSynchronously()
            return nil
        } catch {
            return failure(of: entry, error)
        }
    }

    /// The failure of the disposal `entry` records, which threw `error`. (Out of line, as
    /// `report(_:outOf:leaving:of:)` is: a close that disposes without failing runs none of it.)
    @inline(never)
    private static func failure(of entry: Entry, _ error: any Error) -> InjectionError {
        .disposalFailed(entry.key, error: error)
    }

    /// Where each class instance is last recorded, for many entries; `nil` for few, which
    /// `isLastRecord` compares pairwise, without allocating.
    private static func lastRecords(in entries: Entries) -> [ObjectIdentifier: Int]? {
        guard entries.count > 16 else { return nil }
        var lastRecords: [ObjectIdentifier: Int] = [:]
        for (index, entry) in entries.enumerated() {
            if let object = entry.disposer.object { lastRecords[object] = index }
        }
        return lastRecords
    }

    /// Whether the entry at `index` is the last record of its instance: a class instance recorded
    /// twice (returned by two registrations) is disposed once, where its last record puts it.
    private static func isLastRecord(
        at index: Int,
        in entries: Entries,
        _ lastRecords: [ObjectIdentifier: Int]?
    ) -> Bool {
        guard let object = entries[index].disposer.object else { return true }
        if let lastRecords { return lastRecords[object] == index }
        for later in (index + 1)..<entries.count where entries[later].disposer.object == object { return false }
        return true
    }

    /// Throws the failures of `owner`'s disposals, `disposed` in all, if any; `kept` are records a
    /// sync disposal left undisposed. The owner's name, which messages alone use, is worked out only
    /// then: a scope's is an interpolated string, made on every close.
    @inline(never)
    private static func report(
        _ failures: [InjectionError],
        outOf disposed: Int,
        leaving kept: Entries = Entries(),
        of owner: () -> String
    ) throws {
        guard !failures.isEmpty else { return }
        throw InjectionError.disposalsFailed(
            failures,
            outOf: disposed,
            undisposed: kept.map(\.key),
            owner: owner()
        )
    }
}
