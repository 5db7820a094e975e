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

extension Container {
    /// Runs `operation` with registrations that override this container's, seen only by the current
    /// task and the tasks it starts, while it runs: parallel tests can override the same service
    /// differently. (A task started inside that outlives the call resolves without them afterwards.)
    ///
    /// ```swift
    /// @Test func stampsNotesWithTheClock() throws {
    ///     try container.withOverrides { $0.register(Clock.self) { _ in FixedClock(now: .distantPast) } } operation: {
    ///         let store = try container.resolve(NoteStore.self)
    ///         #expect(try store.add("hello").created == .distantPast)
    ///     }
    /// }
    /// ```
    ///
    /// The overrides apply to resolutions from this container, its children and its scopes, and
    /// take precedence over a child's own registration of the same key; `resolveAll` collects the
    /// registrations that exist only as overrides too. A singleton the container built before the
    /// call is its own inside too when its construction, by the edges it recorded, resolved nothing
    /// overridden: overriding the clock does not reopen the database pool. Any other singleton,
    /// every weak instance and every scoped one is built afresh for the call (the container's own,
    /// and what scopes already hold, are left alone), so that it sees the overrides, and none is
    /// resolved after the call. The disposable singletons and weak instances are disposed when
    /// `operation` returns; scoped ones stay their scope's, disposed when it closes. An instance
    /// given to the overrides (``register(_:name:instance:ownedBy:replacesExisting:fileID:line:)``)
    /// is disposed when `operation` returns too, after those, if it is owned by the container; if it
    /// is the caller's, nothing disposes it, even handed on under another key. Nested calls extend
    /// the overrides of the calls around them.
    ///
    /// - Parameters:
    ///   - overrides: Registers the overrides into the container it receives.
    ///   - operation: The code that resolves with the overrides in effect.
    /// - Returns: What `operation` returns.
    /// - Throws: ``InjectionError/Code/unmatchedOverride`` before `operation` runs, for a plain
    ///   override (no name, no arguments) that replaces nothing where the container registers its
    ///   type otherwise. What `operation` throws (the instances built for the call are disposed all
    ///   the same); otherwise ``InjectionError`` when disposing them fails (code
    ///   ``InjectionError/Code/disposalFailed``), or when one of them is only ``AsyncDisposable``
    ///   (code ``InjectionError/Code/asyncDisposalRequired``: the others are disposed, and
    ///   ``withOverridesAsync(_:operation:isolation:)`` disposes those too).
    public func withOverrides<Result>(
        _ overrides: (Container) -> Void,
        operation: () throws -> Result
    ) throws -> Result {
        let active = activate(overrides)
        defer { tree.activeOverrideCount.subtract(1, ordering: .relaxed) }
        let result = Swift.Result {
            try active.refuseUnmatched()
            return try ActiveOverrides.$bound.withValue(active, operation: operation)
        }
        active.end()
        let records = active.store.disposals.takeRecords()
        let asyncOnly = records.asyncOnlyKeys
        do {
            try DisposalBag.disposeDroppingAsyncOnly(records) { "the call to withOverrides" }
        } catch {
            // The operation's own error, if it threw one, is the one to report.
            if case .success = result { throw error }
        }
        let value = try result.get()
        if !asyncOnly.isEmpty {
            throw InjectionError.asyncDisposalRequired(
                asyncOnly,
                owner: "the call to withOverrides",
                asyncSpelling: "try await container.withOverridesAsync",
                consequence: "The others were disposed; these were dropped undisposed."
            )
        }
        return value
    }

    /// Runs the async `operation` with registrations that override this container's, seen only by
    /// the current task and the tasks it starts; see ``withOverrides(_:operation:)``.
    ///
    /// ```swift
    /// @Test func savesThroughTheFakeDatabase() async throws {
    ///     try await container.withOverridesAsync { $0.register(Database.self) { _ in FakeDatabase() } } operation: {
    ///         let store = try await container.resolveAsync(NoteStore.self)
    ///         try await store.save(Note(title: "hello"))
    ///     }
    /// }
    /// ```
    ///
    /// The instances built for the call are disposed when `operation` returns, asynchronously where
    /// they are ``AsyncDisposable``, in a task of their own, which a cancellation of this task does
    /// not reach.
    ///
    /// - Parameters:
    ///   - overrides: Registers the overrides into the container it receives.
    ///   - operation: The async code that resolves with the overrides in effect.
    ///   - isolation: Where `operation` runs: the caller's actor, by default, so that main-actor
    ///     code passes a closure that uses its own state.
    /// - Returns: What `operation` returns.
    /// - Throws: ``InjectionError/Code/unmatchedOverride`` before `operation` runs, as
    ///   ``withOverrides(_:operation:)`` does. What `operation` throws (the instances built for the
    ///   call are disposed all the same); otherwise ``InjectionError`` with code
    ///   ``InjectionError/Code/disposalFailed`` when disposing them fails.
    public func withOverridesAsync<Result>(
        _ overrides: (Container) -> Void,
        operation: () async throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Result {
        let active = activate(overrides)
        defer { tree.activeOverrideCount.subtract(1, ordering: .relaxed) }
        let result: Swift.Result<Result, any Error>
        do {
            try active.refuseUnmatched()
            result = .success(try await ActiveOverrides.$bound.withValue(active, operation: operation))
        } catch {
            result = .failure(error)
        }
        active.end()
        do {
            // In a task of its own, which no cancellation of this one reaches, as a scope's async
            // disposals: a disposal that checks for cancellation runs to the end.
            let records = active.store.disposals.takeRecords()
            try await Task { try await DisposalBag.disposeAsync(records) { "the call to withOverridesAsync" } }.value
        } catch {
            // The operation's own error, if it threw one, is the one to report.
            if case .success = result { throw error }
        }
        return try result.get()
    }

    private func activate(_ overrides: (Container) -> Void) -> ActiveOverrides {
        let registrations = Container()
        overrides(registrations)
        _ = registrations.freeze()
        tree.activeOverrideCount.add(1, ordering: .relaxed)
        let outer = ActiveOverrides.bound?.running
        let active = ActiveOverrides(target: self, registrations: registrations, outer: outer)
        // What was given to the overrides as the container's is the call's, disposed when it returns,
        // after what was built for it; unless this container, or a call around this one, has it: an
        // object by identity, a value by its type and bytes, as it is kept (not its box).
        for record in registrations.disposals.takeRecords() {
            if let kept = record.provider.publishedSingleton?.object {
                let given = keptInstance(kept)
                let object = objectInside(given)
                if tree.sharedObjects.contains(given, object: object) { continue }
                if outer?.wereGiven(given, object: object) == true { continue }
            }
            active.store.disposals.takeCharge(record.disposer, madeBy: record.provider)
        }
        return active
    }
}
