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

extension LifetimeScope {
    /// Closes the scope: disposes every disposable instance it created, last completed first, each
    /// exactly once, and drops its scoped instances. Closing a closed scope does nothing.
    ///
    /// Every disposal runs even when one throws; the failures are reported together.
    ///
    /// Prefer ``Container/withScope(tag:providing:operation:)``, which closes the scope on every
    /// exit path. The sync close is unavailable in async code, where a
    /// `defer { try? scope.close() }` would refuse an ``AsyncDisposable`` instance and swallow the
    /// error: there, use ``closeAsync()`` or ``Container/withScopeAsync(tag:providing:operation:isolation:)``.
    ///
    /// - Throws: ``InjectionError`` with code
    ///   - ``InjectionError/Code/asyncDisposalRequired`` when an instance is only
    ///     ``AsyncDisposable``: nothing is disposed and the scope stays open, for ``closeAsync()``;
    ///   - ``InjectionError/Code/scopeInUse`` when a resolution from the scope is still running:
    ///     the scope stays open;
    ///   - ``InjectionError/Code/disposalFailed`` listing each disposal that threw.
    @available(*, noasync, message: "use try await closeAsync(), or withScopeAsync, which closes on every path")
    public func close() throws {
        var records = DisposalBag.Entries()
        var dropped = InstanceStore.Dropped()
        // One lock refuses an async-only instance, marks the scope closed, and takes the records
        // and the instances (see `takeForClosing`).
        guard try store.takeForClosing(self, refusingAsyncOnly: true, records: &records, dropped: &dropped) else {
            return
        }
        defer { finishClosing(releasing: &records, &dropped) }
        let scope = Borrowed(self)  // captured without a retain around each disposal
        try DisposalBag.dispose(records) { scope.object.name }
    }

    /// The error of a sync close refused because the scope holds `asyncOnly`, instances only an
    /// async disposal can dispose. (A function of its own: the close's code stays the few
    /// instructions it runs.)
    @inline(never)
    func asyncOnlyRefusal(of asyncOnly: [ServiceKey]) -> InjectionError {
        InjectionError.asyncDisposalRequired(
            asyncOnly,
            owner: name,
            asyncSpelling: "try await scope.closeAsync()",
            consequence: "Nothing was disposed, and the scope stays open."
        )
    }

    /// Closes the scope as ``close()`` does, except that an instance only an async disposal can
    /// dispose does not keep it open: the others are disposed, those are dropped undisposed, and the
    /// close then throws ``InjectionError/Code/asyncDisposalRequired``. What the sync
    /// `Container.withScope` does, since its scope cannot stay open for an async close.
    func closeDroppingAsyncOnly() throws {
        var records = DisposalBag.Entries()
        var dropped = InstanceStore.Dropped()
        guard try store.takeForClosing(self, refusingAsyncOnly: false, records: &records, dropped: &dropped) else {
            return
        }
        defer { finishClosing(releasing: &records, &dropped) }
        let asyncOnly = records.asyncOnlyKeys
        var undisposed: InjectionError {
            InjectionError.asyncDisposalRequired(
                asyncOnly,
                owner: name,
                asyncSpelling: "try await container.withScopeAsync",
                consequence:
                    "withScope closed it all the same: the others were disposed; these were dropped undisposed."
            )
        }
        do {
            try DisposalBag.disposeDroppingAsyncOnly(records) { name }
        } catch {
            if !asyncOnly.isEmpty { container.report(undisposed) }  // the disposal failure is the one thrown
            throw error
        }
        guard asyncOnly.isEmpty else { throw undisposed }
    }

    /// Closes the scope, disposing every disposable instance it created, last completed first,
    /// asynchronously where an instance is ``AsyncDisposable``. Closing a closed scope does nothing.
    ///
    /// Prefer ``Container/withScopeAsync(tag:providing:operation:isolation:)``, which calls it on every exit path: a
    /// `defer` cannot `await`.
    ///
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/scopeInUse`` when a resolution
    ///   from the scope is still running, or ``InjectionError/Code/disposalFailed`` listing each
    ///   disposal that threw, after all of them ran.
    // Inlinable: as a call of its own, an async function, it costs each request's close an async
    // frame (see Benchmarks/README.md). What it inlines is one sync call, and an async one only when
    // an instance disposes asynchronously.
    @inlinable public func closeAsync() async throws {
        guard var taken = try closeUnlessDisposingAsynchronously() else { return }
        try await finishClosingAsync(&taken)
    }

    /// What a close took (`InstanceStore.takeForClosing`): the records it disposes, and the
    /// instances it drops. (`@unchecked Sendable`: the instances it drops are scoped ones, `Sendable`
    /// by their registration, and the close that took it may hand it to the task that finishes it,
    /// using it no more.)
    @usableFromInline struct TakenForClosing: @unchecked Sendable {
        var records = DisposalBag.Entries()
        var dropped = InstanceStore.Dropped()
    }

    /// The part of `closeAsync()` that needs no await: takes what the close disposes and drops and,
    /// unless an instance disposes asynchronously, disposes them and ends the close. Returns what
    /// it took otherwise, for `finishClosingAsync(_:)`; `nil` when the close is over, or the scope was
    /// closed already.
    @usableFromInline func closeUnlessDisposingAsynchronously() throws -> TakenForClosing? {
        var taken = TakenForClosing()
        guard
            try store.takeForClosing(self, refusingAsyncOnly: false, records: &taken.records, dropped: &taken.dropped)
        else { return nil }
        var isOver = true
        defer { if isOver { finishClosing(releasing: &taken.records, &taken.dropped) } }
        // A request's instances (its unit of work) usually all dispose synchronously: then without
        // an async call, which costs an async frame.
        guard taken.records.holdsAsyncDisposable else {
            try DisposalBag.dispose(taken.records) { name }
            return nil
        }
        isOver = false
        return taken
    }

    /// The rest of `closeAsync()` once `closeUnlessDisposingAsynchronously()` has returned what it
    /// took: disposes it, asynchronously where it can be, then ends the close.
    @usableFromInline func finishClosingAsync(_ taken: inout TakenForClosing) async throws {
        defer { finishClosing(releasing: &taken.records, &taken.dropped) }
        try await DisposalBag.disposeAsync(taken.records) { name }
    }

    /// Ends a close that disposed what it took (`InstanceStore.takeForClosing`): releases the
    /// records and the scoped instances, before the closing actions, which may look for them gone;
    /// marks the close finished; then runs the actions waiting for it. (Not inlinable: the releases
    /// are code of their own, which every close shares.)
    func finishClosing(
        releasing records: inout DisposalBag.Entries,
        _ dropped: inout InstanceStore.Dropped
    ) {
        (records, dropped) = (DisposalBag.Entries(), InstanceStore.Dropped())
        if state.bitwiseOr(2, ordering: .acquiringAndReleasing) & 4 != 0 { runClosingActions() }
    }

    /// Runs `action` once the scope has closed, after its disposals and once it has let go of its
    /// instances, on the thread that closed it; at once if it has closed already; never if it is
    /// never closed. Keep it short: it delays the close's return.
    ///
    /// For the routing layer, which checks that a scoped screen goes away with its scope; `package`
    /// until users need it (a disposable scoped registration already runs code at the close).
    package func afterClosing(_ action: @escaping @Sendable () -> Void) {
        store.withLock { $0.closingActions = ($0.closingActions ?? []) + [action] }
        // The close sets bit 1 once finished, this sets bit 2 once the action waits: whichever of
        // the two updates of the word comes second sees the other's bit, and runs the actions.
        if state.bitwiseOr(4, ordering: .acquiringAndReleasing) & 2 != 0 { runClosingActions() }
    }

    /// Runs the actions waiting, in the order they were added, each once: taken under the store's
    /// lock, run outside it. (Out of line: few scopes have actions.)
    @inline(never)
    private func runClosingActions() {
        let actions = store.withLock { state in
            defer { state.closingActions = nil }
            return state.closingActions ?? []
        }
        for action in actions { action() }
    }
}
