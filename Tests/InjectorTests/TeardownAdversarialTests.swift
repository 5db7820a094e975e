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

import Foundation
import Testing

@testable import Injector

// Attacks on how closes and resolutions let go of what they hold (round 15 of the server example's
// measurements changed each of these on the request path). Every close (`close()`, `closeAsync()`,
// withScope's) takes its records and instances under one lock and releases them in one place;
// `withOverrides` and validation dispose through `DisposalBag.disposeDroppingAsyncOnly`. The type
// filter of `SharedObjects` sets one bit a word. `end()` keeps its rare work out of line. And a
// resolve reads its books only if it asked for them (`activeBookkeeping`), which holds only if
// every write to the books goes through `bookkeeping` and `end()` empties them. The last tests
// (`Deinits`) found where it did not: an instance released while a resolution wrote or emptied its
// books, whose deinit resolved through a captured container.

// MARK: - Test services (private to this file)

private struct TeardownFailure: Error, Equatable {}

/// Counted by its factory, to tell instances apart and count builds.
private final class TeardownWitness: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// Resolves the witness through a captured container when it goes away, recording what it got.
private final class TeardownParting: @unchecked Sendable {  // only `let`s; `container` is weak
    weak var container: Container?
    let seen: Outcomes
    init(container: Container, seen: Outcomes) {
        self.container = container
        self.seen = seen
    }
    deinit {
        guard let container else { return }
        seen.record { try container.resolve(TeardownWitness.self).serial }
    }
}

private final class TeardownRoot: Sendable {}

/// A transient with a check (`verify`), which runs when the resolution completes: a shared instance
/// holding one is not complete, nor published, until then.
private final class TeardownChecked: Sendable {}

/// A disposable that logs its disposal and its deinit under its name.
private final class TeardownLogged: Disposable, @unchecked Sendable {  // only `let`s of Sendable types
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func dispose() { log.record("dispose \(name)") }
    deinit { log.record("deinit \(name)") }
}

private final class TeardownJournal: Disposable, Sendable {
    let ledger: TeardownLogged
    let log: EventLog
    init(ledger: TeardownLogged, log: EventLog) {
        self.ledger = ledger
        self.log = log
    }
    func dispose() { log.record("dispose journal") }
}

private final class TeardownUpload: AsyncDisposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func disposeAsync() async throws { log.record("disposeAsync upload") }
}

private struct TeardownSocketError: Error, CustomStringConvertible {
    var description: String { "the socket would not close" }
}

private final class TeardownBroken: Disposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() throws {
        log.record("dispose broken")
        throw TeardownSocketError()
    }
}

/// What scoped registrations hand on: a singleton's object under another key.
private protocol TeardownResource: AnyObject, Sendable {}

/// A family of distinct types, one per nesting level, for the type filter.
private protocol TeardownMarker: SendableMetatype {}
private enum TeardownBase: TeardownMarker {}
private enum TeardownNest<Inner: TeardownMarker>: TeardownMarker {}

/// A disposable singleton of one type per marker.
private final class TeardownSingle<Marker: TeardownMarker>: TeardownResource, Disposable, @unchecked Sendable {
    let log: EventLog
    let name: String
    init(log: EventLog, name: String) {
        self.log = log
        self.name = name
    }
    func dispose() { log.record("dispose \(name)") }
}

/// A disposable scoped instance of one type per marker, the scope's own.
private final class TeardownOwn<Marker: TeardownMarker>: Disposable, @unchecked Sendable {
    let log: EventLog
    let name: String
    init(log: EventLog, name: String) {
        self.log = log
        self.name = name
    }
    func dispose() { log.record("dispose \(name)") }
}

/// A disposable class both a weak registration and a transient one make.
private final class TeardownShared: TeardownResource, Disposable, @unchecked Sendable {
    let log: EventLog
    let serial: Int
    init(log: EventLog, serial: Int) {
        self.log = log
        self.serial = serial
    }
    func dispose() { log.record("dispose shared #\(serial)") }
}

/// A disposable value-type singleton.
private struct TeardownToken: Disposable, Sendable {
    let log: EventLog
    let number: Int
    func dispose() { log.record("dispose token \(number)") }
}

private final class TeardownUnit: Disposable, Sendable {
    let log: EventLog
    let serial: Int
    init(log: EventLog, serial: Int) {
        self.log = log
        self.serial = serial
    }
    func dispose() { log.record("dispose unit #\(serial)") }
}

private final class TeardownViaResolver: Sendable {
    let unit: TeardownUnit
    init(unit: TeardownUnit) { self.unit = unit }
}

private final class TeardownViaScope: Sendable {
    let unit: TeardownUnit
    init(unit: TeardownUnit) { self.unit = unit }
}

private final class TeardownClock: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

private final class TeardownStamp: Disposable, Sendable {
    let clock: TeardownClock
    let log: EventLog
    init(clock: TeardownClock, log: EventLog) {
        self.clock = clock
        self.log = log
    }
    func dispose() { log.record("dispose stamp \(clock.label)") }
}

private final class TeardownPair: Sendable {
    let first: TeardownClock
    let second: TeardownClock
    init(first: TeardownClock, second: TeardownClock) {
        self.first = first
        self.second = second
    }
}

private final class TeardownPeer: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private final class TeardownHooked: @unchecked Sendable {  // `peer` is set once, by its hook
    let serial: Int
    var peer: TeardownPeer?
    init(serial: Int) { self.serial = serial }
}

private final class TeardownCycleA: Sendable {}
private final class TeardownCycleB: Sendable {}

private final class TeardownDependent: Sendable {
    let peer: TeardownPeer
    let serial: Int
    init(peer: TeardownPeer, serial: Int) {
        self.peer = peer
        self.serial = serial
    }
}

private final class TeardownAsyncHolder: Sendable {
    let peer: TeardownPeer
    let dependent: TeardownDependent
    let witness: TeardownWitness
    init(peer: TeardownPeer, dependent: TeardownDependent, witness: TeardownWitness) {
        self.peer = peer
        self.dependent = dependent
        self.witness = witness
    }
}

/// A scope made after the registrations that resolve from it.
private final class ScopeHolder: @unchecked Sendable {  // `scope` is set before any resolve reads it
    var scope: LifetimeScope?
}

/// Closes `scope` synchronously: `close()` is unavailable in async code.
private func closeNow(_ scope: LifetimeScope) throws {
    try scope.close()
}

/// Registers, for each of `count` nesting levels of markers from `Marker`, a disposable singleton,
/// a scoped registration handing it on under the name of its level, and a scoped instance of the
/// scope's own.
private func registerLevels<Marker: TeardownMarker>(
    from _: Marker.Type,
    count: Int,
    level: Int = 0,
    in container: Container,
    log: EventLog
) {
    guard level < count else { return }
    container.register(TeardownSingle<Marker>.self, scope: .singleton) { _ in
        TeardownSingle(log: log, name: "single \(level)")
    }
    container.register((any TeardownResource).self, name: "\(level)", scope: .scoped) { r in
        try r.resolve(TeardownSingle<Marker>.self)
    }
    container.register(TeardownOwn<Marker>.self, scope: .scoped) { _ in TeardownOwn(log: log, name: "own \(level)") }
    registerLevels(from: TeardownNest<Marker>.self, count: count, level: level + 1, in: container, log: log)
}

/// Resolves, in `scope`, each level's handed-on singleton and own instance, in level order.
private func resolveLevels<Marker: TeardownMarker>(
    from _: Marker.Type,
    count: Int,
    level: Int = 0,
    in scope: LifetimeScope
) throws {
    guard level < count else { return }
    _ = try scope.resolve((any TeardownResource).self, name: "\(level)")
    _ = try scope.resolve(TeardownOwn<Marker>.self)
    try resolveLevels(from: TeardownNest<Marker>.self, count: count, level: level + 1, in: scope)
}

private let undisposedUploadInWithScope =
    "The untagged scope holds instances that only an async disposal can dispose (AsyncDisposable):"
    + " TeardownUpload. withScope closed it all the same: the others were disposed; these were dropped"
    + " undisposed. Fix: use try await container.withScopeAsync, or make them Disposable as well."

// MARK: - Tests

@Suite struct TeardownAdversarialTests {
    // MARK: Closing: withScope, withOverrides, validation

    /// withScope's close disposes the others last completed first, drops the async-only one
    /// undisposed, releases the instances before the closing actions run, and says so in full.
    @Test func withScopeDisposesInOrderDropsTheAsyncOnlyOneAndReleasesBeforeItsActions() throws {
        let log = EventLog()
        let container = Container()
        container.register(TeardownLogged.self, scope: .scoped) { _ in TeardownLogged("ledger", log: log) }
        container.register(TeardownJournal.self, scope: .scoped) { r in
            TeardownJournal(ledger: try r.resolve(), log: log)
        }
        container.register(TeardownUpload.self, scope: .scoped) { _ in TeardownUpload(log: log) }
        var kept: LifetimeScope?

        let error = try #require(
            injectionError {
                try container.withScope { scope in
                    kept = scope
                    _ = try scope.resolve(TeardownUpload.self)
                    _ = try scope.resolve(TeardownJournal.self)
                    scope.afterClosing { log.record("action") }
                }
            }
        )

        #expect(error.code == .asyncDisposalRequired)
        #expect(error.message == undisposedUploadInWithScope)
        #expect(log.events == ["dispose journal", "dispose ledger", "deinit ledger", "action"])
        let scope = try #require(kept)
        #expect(scope.isClosed)
        try closeNow(scope)  // closed already: nothing again, not even the refusal
        #expect(log.events.count == 4)
        let again = try #require(injectionError { try scope.resolve(TeardownJournal.self) })
        #expect(again.code == .scopeClosed)
        #expect(
            again.message == "TeardownJournal was resolved from an untagged scope after it was closed; its instances"
                + " are disposed. Fix: resolve what the work needs before closing the scope, or make a new one"
                + " with container.makeScope()."
        )
    }

    /// A disposal that throws is what withScope throws; the async-only instance it dropped is named
    /// in that message and reported, in full, to the diagnostics handler.
    @Test func withScopeWhoseDisposalThrowsThrowsThatAndReportsTheDroppedOne() throws {
        let log = EventLog()
        let problems = ReceivedProblems()
        let container = Container()
        container.setDiagnosticsHandler { problems.receive($0) }
        container.register(TeardownBroken.self, scope: .scoped) { _ in TeardownBroken(log: log) }
        container.register(TeardownUpload.self, scope: .scoped) { _ in TeardownUpload(log: log) }
        container.register(TeardownLogged.self, scope: .scoped) { _ in TeardownLogged("ledger", log: log) }

        let error = try #require(
            injectionError {
                try container.withScope { scope in
                    _ = try scope.resolve(TeardownLogged.self)
                    _ = try scope.resolve(TeardownUpload.self)
                    _ = try scope.resolve(TeardownBroken.self)
                }
            }
        )

        #expect(error.code == .disposalFailed)
        #expect(
            error.message
                == "Disposing what the untagged scope owned: 1 of 2 disposals that ran threw; TeardownUpload was not"
                + " disposed: only an async disposal can dispose it.\n"
                + "- Disposing TeardownBroken threw: the socket would not close. The error is the underlyingError."
        )
        #expect(log.events == ["dispose broken", "dispose ledger", "deinit ledger"])
        #expect(problems.received.map(\.code) == [.asyncDisposalRequired])
        #expect(problems.received.map(\.message) == [undisposedUploadInWithScope])
    }

    /// An operation that closes its own scope leaves withScope nothing to do: each instance is
    /// disposed once.
    @Test func aScopeItsOperationClosedIsNotClosedAgainByWithScope() throws {
        let log = EventLog()
        let container = Container()
        container.register(TeardownLogged.self, scope: .scoped) { _ in TeardownLogged("ledger", log: log) }

        try container.withScope { scope in
            _ = try scope.resolve(TeardownLogged.self)
            try closeNow(scope)
            #expect(log.events == ["dispose ledger", "deinit ledger"])
        }

        #expect(log.events == ["dispose ledger", "deinit ledger"])
    }

    /// A scoped instance whose deinit resolves from its scope, closed by withScope, is refused,
    /// not deadlocked: the close releases the instances once unlocked.
    @Test func aDeinitResolvingFromTheScopeWithScopeClosedIsRefused() async throws {
        final class Resolving: @unchecked Sendable {  // only `let`s; `scope` is unowned
            unowned let scope: LifetimeScope
            let outcomes: Outcomes
            init(scope: LifetimeScope, outcomes: Outcomes) {
                self.scope = scope
                self.outcomes = outcomes
            }
            deinit {
                let scope = scope
                outcomes.record { try scope.resolve(TeardownRoot.self) }
            }
        }
        let outcomes = Outcomes()
        let holder = ScopeHolder()
        let container = Container()
        container.register(TeardownRoot.self) { _ in TeardownRoot() }
        container.register(Resolving.self, scope: .scoped) { _ in Resolving(scope: holder.scope!, outcomes: outcomes) }

        let finished = await onThreads(
            seconds: 10,
            [
                {
                    _ = try? container.withScope { scope in
                        holder.scope = scope
                        _ = try scope.resolve(Resolving.self)
                    }
                }
            ]
        )

        #expect(finished)
        let errors = outcomes.errors
        #expect(errors.map(\.code) == [.scopeClosed])
        #expect(
            errors.first?.message == "TeardownRoot was resolved from an untagged scope after it was closed; its"
                + " instances are disposed. Fix: resolve what the work needs before closing the scope, or make a"
                + " new one with container.makeScope()."
        )
    }

    /// closeAsync disposes asynchronously where it can, last completed first, then releases the
    /// instances, then runs the closing actions; a second close does nothing.
    @Test func closeAsyncDisposesThenReleasesThenRunsItsActions() async throws {
        let log = EventLog()
        let container = Container()
        container.register(TeardownLogged.self, scope: .scoped) { _ in TeardownLogged("ledger", log: log) }
        container.register(TeardownUpload.self, scope: .scoped) { _ in TeardownUpload(log: log) }
        let scope = container.makeScope()
        _ = try scope.resolve(TeardownLogged.self)
        _ = try scope.resolve(TeardownUpload.self)
        scope.afterClosing { log.record("action") }

        try await scope.closeAsync()
        try await scope.closeAsync()

        #expect(log.events == ["disposeAsync upload", "dispose ledger", "deinit ledger", "action"])
        #expect(scope.isClosed)
    }

    /// withOverrides disposes the disposable singletons built under it once, last completed first,
    /// drops the async-only one with the full message; when the operation throws, its error wins
    /// and the disposals run all the same.
    @Test func withOverridesDisposesOnceAndTheOperationsErrorWins() throws {
        let log = EventLog()
        let container = Container()
        container.register(TeardownLogged.self, scope: .singleton) { _ in TeardownLogged("own", log: log) }
        container.register(TeardownUpload.self, scope: .singleton) { _ in TeardownUpload(log: log) }
        let overrides: (Container) -> Void = { overriding in
            overriding.register(TeardownLogged.self, scope: .singleton) { _ in TeardownLogged("override", log: log) }
            overriding.register(TeardownJournal.self, scope: .singleton) { r in
                TeardownJournal(ledger: try r.resolve(), log: log)
            }
        }

        let error = try #require(
            injectionError {
                try container.withOverrides(overrides) {
                    _ = try container.resolve(TeardownUpload.self)
                    #expect(try container.resolve(TeardownJournal.self).ledger.name == "override")
                }
            }
        )
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The call to withOverrides holds instances that only an async disposal can dispose"
                + " (AsyncDisposable): TeardownUpload. The others were disposed; these were dropped undisposed. Fix: use"
                + " try await container.withOverridesAsync, or make them Disposable as well."
        )
        #expect(log.events == ["dispose journal", "dispose override", "deinit override"])

        #expect(throws: TeardownFailure()) {
            try container.withOverrides(overrides) {
                _ = try container.resolve(TeardownJournal.self)
                _ = try container.resolve(TeardownUpload.self)
                throw TeardownFailure()
            }
        }
        #expect(log.events.dropFirst(3) == ["dispose journal", "dispose override", "deinit override"])
        #expect(try container.resolve(TeardownLogged.self).name == "own")  // the container's own, untouched
        #expect(!log.events.contains("disposeAsync upload"))
    }

    /// Validation disposes what it built once each, last completed first, lists the async-only one
    /// as undisposed, and leaves the container's own singletons alone; a second run does the same.
    @Test func validationDisposesWhatItBuiltOnceAndListsTheAsyncOnlyOne() throws {
        let log = EventLog()
        let built = CallCounter()
        let container = Container()
        container.register(TeardownLogged.self, scope: .singleton) { _ in
            TeardownLogged("ledger #\(built.next())", log: log)
        }
        container.register(TeardownJournal.self, scope: .scoped) { r in
            TeardownJournal(ledger: try r.resolve(), log: log)
        }
        container.register(TeardownUpload.self, scope: .singleton) { _ in TeardownUpload(log: log) }
        let own = try container.resolve(TeardownLogged.self)

        for run in 1...2 {
            let report = try container.validate()
            #expect(report.undisposed == [ServiceKey(TeardownUpload.self, name: nil)])
            #expect(
                log.events.suffix(3) == ["dispose journal", "dispose ledger #\(run + 1)", "deinit ledger #\(run + 1)"]
            )
        }

        #expect(log.events.count == 6)
        #expect(try container.resolve(TeardownLogged.self) === own)
        #expect(built.count == 3)
    }

    /// Threads, tasks, a resolver and a captured scope all asking one scope for a cold scoped
    /// instance get one instance, built once and disposed once when the scope closes.
    @Test func everyWayOfAskingForAColdScopedInstanceGetsTheOneInstance() async throws {
        for _ in 0..<20 {
            let log = EventLog()
            let built = CallCounter()
            let holder = ScopeHolder()
            let container = Container()
            container.register(TeardownUnit.self, scope: .scoped) { _ in
                Thread.sleep(forTimeInterval: 0.001)  // keeps the gate held while others ask
                return TeardownUnit(log: log, serial: built.next())
            }
            container.register(TeardownViaResolver.self) { r in TeardownViaResolver(unit: try r.resolve()) }
            container.register(TeardownViaScope.self) { _ in TeardownViaScope(unit: try holder.scope!.resolve()) }
            let scope = container.makeScope()
            holder.scope = scope

            let fromThreads = Outcomes()
            let units = UnitBox()
            async let first = try scope.resolve(TeardownUnit.self)
            async let second = try scope.resolve(TeardownViaResolver.self).unit
            async let third = try await scope.resolveAsync(TeardownViaScope.self).unit
            let detached = Task.detached { try scope.resolve(TeardownViaResolver.self).unit }
            let finished = await onThreads(
                seconds: 10,
                [
                    { fromThreads.record { units.add(try scope.resolve(TeardownUnit.self)) } },
                    { fromThreads.record { units.add(try container.resolve(TeardownViaScope.self).unit) } },
                ]
            )
            let all = try await [first, second, third, detached.value] + units.all

            #expect(finished)
            #expect(fromThreads.errors.isEmpty)
            #expect(all.count == 6)
            #expect(all.allSatisfy { $0 === all[0] })
            #expect(built.count == 1)
            try await scope.closeAsync()
            #expect(log.events == ["dispose unit #1"])
        }
    }

    // MARK: The type filter of SharedObjects

    /// With far more singleton types than the filter has bits a word, a scope still takes charge of
    /// none of the singletons its registrations hand on, and of every instance of its own, each
    /// disposed once, last completed first; the container disposes each singleton once.
    @Test func aScopeDisposesItsOwnOfManyTypesAndNoneOfTheSingletonsHandedOn() throws {
        let count = 96
        let log = EventLog()
        let container = Container()
        registerLevels(from: TeardownBase.self, count: count, in: container, log: log)

        for round in 0..<2 {
            let scope = container.makeScope()
            try resolveLevels(from: TeardownBase.self, count: count, in: scope)
            try closeNow(scope)
            #expect(log.events.count == count * (round + 1))
            #expect(log.events.suffix(count) == (0..<count).reversed().map { "dispose own \($0)" })
        }

        try container.shutdown()
        #expect(log.events.count == count * 3)
        #expect(Set(log.events.suffix(count)) == Set((0..<count).map { "dispose single \($0)" }))
    }

    /// A live weak instance handed on is not the scope's; once it is gone, a new object of its type
    /// (perhaps at its address) is, when the scope made it.
    @Test func aWeakInstanceHandedOnIsNotTheScopesButANewObjectOfItsTypeIs() throws {
        let log = EventLog()
        let built = CallCounter()
        let container = Container()
        container.register(TeardownShared.self, scope: .weak) { _ in TeardownShared(log: log, serial: built.next()) }
        container.register((any TeardownResource).self, name: "weak", scope: .scoped) { r in
            try r.resolve(TeardownShared.self)
        }
        container.register(TeardownShared.self, name: "fresh") { _ in TeardownShared(log: log, serial: built.next()) }

        var weak: TeardownShared? = try container.resolve(TeardownShared.self)
        let handedOn = try container.withScope { scope in try scope.resolve((any TeardownResource).self, name: "weak") }
        #expect(handedOn === weak)
        #expect(log.events.isEmpty)
        weak = nil

        for _ in 0..<8 {
            try container.withScope { scope in _ = try scope.resolve(TeardownShared.self, name: "fresh") }
        }
        #expect(log.events == (2...9).map { "dispose shared #\($0)" })
    }

    /// A disposable value-type singleton handed on is not the scope's: the container disposes it,
    /// once.
    @Test func aValueSingletonHandedOnIsNotTheScopes() throws {
        let log = EventLog()
        let container = Container()
        container.register(TeardownToken.self, scope: .singleton) { _ in TeardownToken(log: log, number: 7) }
        container.register(TeardownToken.self, name: "handed on", scope: .scoped) { r in
            try r.resolve(TeardownToken.self)
        }
        container.register(TeardownToken.self, name: "own", scope: .scoped) { _ in TeardownToken(log: log, number: 8) }

        let numbers = try container.withScope { scope in
            [
                try scope.resolve(TeardownToken.self, name: "handed on").number,
                try scope.resolve(TeardownToken.self, name: "own").number,
            ]
        }
        #expect(numbers == [7, 8])
        #expect(log.events == ["dispose token 8"])
        try container.shutdown()
        #expect(log.events == ["dispose token 8", "dispose token 7"])
    }

    /// Singletons of many types published from many threads at once, while scopes on those threads
    /// hand them on: no scope takes charge of one (the filter is written as it is read).
    @Test func singletonsPublishedFromManyThreadsAreNoScopesToDispose() async throws {
        let count = 48
        let log = EventLog()
        let container = Container()
        registerLevels(from: TeardownBase.self, count: count, in: container, log: log)
        let failures = Outcomes()

        let finished = await onThreads(
            seconds: 30,
            (0..<4).map { _ in
                {
                    failures.record {
                        try container.withScope { scope in
                            try resolveLevels(from: TeardownBase.self, count: count, in: scope)
                        }
                    }
                }
            }
        )

        #expect(finished)
        #expect(failures.errors.isEmpty)
        #expect(log.events.count == count * 4)
        #expect(log.counts == Dictionary(uniqueKeysWithValues: (0..<count).map { ("dispose own \($0)", 4) }))
    }

    // MARK: The books: failures halfway, hooks, nesting, overrides, cycles

    /// A factory that throws after its siblings were built through its resolver, through the scope
    /// and through a captured container holds no gate: another thread builds each one the failure
    /// dropped afresh, without waiting. Those whose construction was complete when their factory
    /// returned (the singleton and the scoped instance built through the resolver) stay published,
    /// and every later resolve gets them; the one built by a resolution nested in the failing one
    /// (through the captured container) was handed to it, and is dropped with it. When the
    /// singleton built first holds a transient whose check runs only when the resolve completes
    /// (`firstAwaitsTheEnd`), it is not complete, and what is built after it in that resolve waits
    /// for the end too: the failure drops all three.
    @Test(arguments: [false, true])
    func aFactoryThrowingAfterItsSiblingsKeepsTheCompleteOnesAndHoldsNoGate(firstAwaitsTheEnd: Bool) async throws {
        let built = CallCounter()
        let log = EventLog()
        let container = Container()
        container.register(TeardownChecked.self) { _ in TeardownChecked() }
            .verify { _ in }
        container.register(TeardownWitness.self, scope: .singleton) { r in
            if firstAwaitsTheEnd { _ = try r.resolve(TeardownChecked.self) }
            return TeardownWitness(serial: built.next())
        }
        container.register(TeardownPeer.self, scope: .singleton) { _ in TeardownPeer(serial: built.next()) }
        container.register(TeardownUnit.self, scope: .scoped) { _ in TeardownUnit(log: log, serial: built.next()) }
        container.register(TeardownRoot.self) { [unowned container] r in
            _ = try r.resolve(TeardownWitness.self)
            _ = try r.resolve(TeardownUnit.self)
            _ = try container.resolve(TeardownPeer.self)
            throw TeardownFailure()
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(TeardownRoot.self) })

        #expect(error.code == .factoryFailed)
        #expect(
            error.message
                == "The factory of TeardownRoot threw: TeardownFailure(). The error is the underlyingError; fix the"
                + " factory or what it depends on."
        )
        #expect(built.count == 3)
        let serials = Outcomes()
        let finished = await onThreads(
            seconds: 10,
            [
                {
                    serials.record { try container.resolve(TeardownWitness.self).serial }
                    serials.record { try container.resolve(TeardownPeer.self).serial }
                    serials.record { try scope.resolve(TeardownUnit.self).serial }
                }
            ]
        )
        #expect(finished)
        #expect(serials.values.count == 3)
        // Built afresh, in the thread's order (witness, peer, unit): all three, or the peer alone.
        let (witness, peer, unit) = firstAwaitsTheEnd ? (4, 5, 6) : (1, 4, 2)
        #expect(built.count == 3 + (firstAwaitsTheEnd ? 3 : 1))
        #expect(try container.resolve(TeardownWitness.self).serial == witness)
        #expect(try container.resolve(TeardownPeer.self).serial == peer)
        #expect(try scope.resolve(TeardownUnit.self).serial == unit)
        #expect(built.count == 3 + (firstAwaitsTheEnd ? 3 : 1))
        try closeNow(scope)
        // Each instance it built disposed once, last completed first: one the failed resolve
        // dropped too, which the scope took charge of when it was built.
        #expect(log.events == (firstAwaitsTheEnd ? ["dispose unit #6", "dispose unit #2"] : ["dispose unit #2"]))
    }

    /// A hook that resolves through a captured container, of a registration whose check then fails:
    /// neither the instance nor what the hook resolved is published, and no gate is held.
    @Test func aFailedCheckAfterAHookResolvingThroughTheContainerLeavesNothing() async throws {
        let built = CallCounter()
        let checks = CallCounter()
        let container = Container()
        container.register(TeardownPeer.self, scope: .singleton) { _ in TeardownPeer(serial: built.next()) }
        container.register(TeardownHooked.self, scope: .singleton) { _ in TeardownHooked(serial: built.next()) }
            .onResolved { [unowned container] _, hooked in hooked.peer = try container.resolve(TeardownPeer.self) }
            .verify { _ in if checks.next() == 1 { throw TeardownFailure() } }

        let error = try #require(injectionError { try container.resolve(TeardownHooked.self) })

        #expect(error.code == .preparationFailed)
        #expect(
            error.message
                == "Preparing TeardownHooked failed: a verify check threw: TeardownFailure(). The error is the"
                + " underlyingError."
        )
        let hooked = Outcomes()
        let finished = await onThreads(
            seconds: 10,
            [
                { hooked.record { try container.resolve(TeardownHooked.self).peer?.serial ?? 0 } }
            ]
        )
        #expect(finished)
        #expect(hooked.values == ["Int"])
        #expect(built.count == 4)
        let published = try container.resolve(TeardownHooked.self)
        #expect(published.serial == 3)
        #expect(published.peer === (try container.resolve(TeardownPeer.self)))
        #expect(published.peer?.serial == 4)
    }

    /// A cycle through captured containers between two singletons fails with the whole loop, leaves
    /// no gate held, and fails the same way from another thread, without waiting.
    @Test func aCycleThroughCapturedContainersLeavesNoGateHeld() async throws {
        let container = Container()
        container.register(TeardownCycleA.self, scope: .singleton) { [unowned container] _ in
            _ = try container.resolve(TeardownCycleB.self)
            return TeardownCycleA()
        }
        container.register(TeardownCycleB.self, scope: .singleton) { [unowned container] _ in
            _ = try container.resolve(TeardownCycleA.self)
            return TeardownCycleB()
        }
        let expected =
            "Circular dependency: TeardownCycleA -> TeardownCycleB -> TeardownCycleA. Each of these asks for the next in its"
            + " factory, so none of them can be built first. Fix: break the cycle with property injection: let"
            + " one of them receive the other after construction, in an onResolved hook, and give the one"
            + " resolved back the .graph or .singleton scope so that the hook receives the same instance."

        let error = try #require(injectionError { try container.resolve(TeardownCycleA.self) })
        #expect(error.code == .circularDependency)
        #expect(error.message == expected)

        let outcomes = Outcomes()
        let finished = await onThreads(
            seconds: 10,
            [{ outcomes.record { try container.resolve(TeardownCycleA.self) } }]
        )
        #expect(finished)
        #expect(outcomes.errors.map(\.message) == [expected])
        #expect(injectionError { try container.resolve(TeardownCycleA.self) }?.message == expected)
    }

    /// An async singleton's factory that builds an async singleton (not complete until the
    /// resolution completes: it holds a transient whose check runs then), then, in a child task
    /// through a captured container, one that depends on it and a sync one that does not, then
    /// throws: the first one is dropped with it, and so is the dependent one, taken over by the
    /// factory's resolution, and their gates released; the independent one was published by its own
    /// resolve. The next resolves, from many tasks, build each once and share them.
    @Test func anAsyncFactoryThatFailsDropsWhatItTookOverAndHoldsNoGate() async throws {
        let built = CallCounter()
        let attempts = CallCounter()
        let container = Container()
        container.register(TeardownChecked.self) { _ async in TeardownChecked() }
            .verify { _ in }
        container.register(TeardownWitness.self, scope: .singleton) { _ in TeardownWitness(serial: built.next()) }
        container.register(TeardownPeer.self, scope: .singleton) { r async throws in
            _ = try await r.resolveAsync(TeardownChecked.self)
            return TeardownPeer(serial: built.next())
        }
        container.register(TeardownDependent.self, scope: .singleton) { r async throws in
            TeardownDependent(peer: try await r.resolveAsync(), serial: built.next())
        }
        container.register(TeardownAsyncHolder.self, scope: .singleton) { [unowned container] r async throws in
            let peer = try await r.resolveAsync(TeardownPeer.self)
            async let dependent = container.resolveAsync(TeardownDependent.self)
            async let witness = container.resolveAsync(TeardownWitness.self)
            let holder = TeardownAsyncHolder(peer: peer, dependent: try await dependent, witness: try await witness)
            if attempts.next() == 1 { throw TeardownFailure() }
            return holder
        }

        let error = try #require(
            await injectionErrorAsync { try await container.resolveAsync(TeardownAsyncHolder.self) }
        )
        #expect(error.code == .factoryFailed)
        #expect(
            error.message
                == "The factory of TeardownAsyncHolder threw: TeardownFailure(). The error is the underlyingError;"
                + " fix the factory or what it depends on."
        )
        #expect(built.count == 3)
        let witness = try container.resolve(TeardownWitness.self)

        // (Not TeardownDependent alone as well: holding its gate, it would wait for the TeardownPeer a holder's
        // resolution builds, which waits for it, and one of them would be refused: `circularWait`.)
        let serials = await withWatchdog(seconds: 10) {
            await withTaskGroup(of: ResolveOutcome.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        await outcome { try await container.resolveAsync(TeardownAsyncHolder.self).dependent }
                    }
                }
                group.addTask { await outcome { try container.resolve(TeardownWitness.self) } }
                return await group.reduce(into: [ResolveOutcome]()) { $0.append($1) }
            }
        }
        #expect(serials?.count == 5)
        #expect(failures(serials ?? []).isEmpty)
        let holder = try await container.resolveAsync(TeardownAsyncHolder.self)
        #expect(holder.dependent === (try await container.resolveAsync(TeardownDependent.self)))
        #expect(holder.dependent.peer === holder.peer)
        #expect(holder.witness === witness)
        #expect(holder.peer.serial == 4)
        #expect(holder.dependent.serial == 5)
        #expect(built.count == 5)
        #expect(attempts.count == 2)
    }

    /// Under overrides, a scope's scoped instance is built with the override and stays the scope's,
    /// apart from the one built after the call; a graph instance is one in its graph, through the
    /// resolver; each scoped instance is disposed once when the scope closes, last completed first.
    @Test func scopedAndGraphInstancesUnderOverridesStayTheirScopesAndTheirGraphs() throws {
        let log = EventLog()
        let container = Container()
        container.register(TeardownClock.self, scope: .graph) { _ in TeardownClock(label: "real") }
        container.register(TeardownStamp.self, scope: .scoped) { r in TeardownStamp(clock: try r.resolve(), log: log) }
        container.register(TeardownPair.self) { r in TeardownPair(first: try r.resolve(), second: try r.resolve()) }
        let scope = container.makeScope()

        let (inside, pair) = try container.withOverrides {
            $0.register(TeardownClock.self, scope: .graph) { _ in TeardownClock(label: "fixed") }
        } operation: {
            (try scope.resolve(TeardownStamp.self), try scope.resolve(TeardownPair.self))
        }
        let after = try scope.resolve(TeardownStamp.self)

        #expect(inside.clock.label == "fixed")
        #expect(pair.first === pair.second)
        #expect(pair.first.label == "fixed")
        #expect(after.clock.label == "real")
        #expect(after !== inside)
        #expect(try scope.resolve(TeardownStamp.self) === after)
        #expect(log.events.isEmpty)
        try closeNow(scope)
        #expect(log.events == ["dispose stamp real", "dispose stamp fixed"])
    }

    /// Under withOverridesAsync, tasks asking one scope for a cold scoped instance share one, built
    /// with the override; the override's disposable singleton is disposed once when the call
    /// returns, the scoped instance once when the scope closes.
    @Test func tasksUnderOverridesShareOneScopedInstanceBuiltWithTheOverride() async throws {
        let log = EventLog()
        let built = CallCounter()
        let container = Container()
        container.register(TeardownClock.self, scope: .singleton) { _ in TeardownClock(label: "real") }
        container.register(TeardownStamp.self, scope: .scoped) { r in
            built.next()
            Thread.sleep(forTimeInterval: 0.001)  // keeps the gate held while others ask
            return TeardownStamp(clock: try r.resolve(), log: log)
        }
        container.register(TeardownLogged.self, scope: .singleton) { _ in TeardownLogged("real", log: log) }
        let scope = container.makeScope()

        let stamps = try await container.withOverridesAsync {
            $0.register(TeardownClock.self, scope: .singleton) { _ in TeardownClock(label: "fixed") }
            $0.register(TeardownLogged.self, scope: .singleton) { _ in TeardownLogged("override", log: log) }
        } operation: {
            async let first = try scope.resolve(TeardownStamp.self)
            async let second = try await scope.resolveAsync(TeardownStamp.self)
            let third = try await Task { try scope.resolve(TeardownStamp.self) }.value
            _ = try container.resolve(TeardownLogged.self)
            return try await [first, second, third]
        }

        #expect(stamps.allSatisfy { $0 === stamps[0] })
        #expect(stamps[0].clock.label == "fixed")
        #expect(built.count == 1)
        #expect(log.events == ["dispose override", "deinit override"])
        try await scope.closeAsync()
        #expect(log.events == ["dispose override", "deinit override", "dispose stamp fixed"])
        #expect(try container.resolve(TeardownClock.self).label == "real")
    }

    /// Validation on the thread of a resolve that failed halfway reports each problem in full and
    /// leaves the container's singletons alone; the thread's next resolves start clean. The failed
    /// resolve's singleton stays published if its construction was complete when its factory
    /// returned; if it was not (`witnessAwaitsTheEnd`: it holds a transient whose check runs when
    /// the resolve completes), the failure dropped it, and the next resolve builds it.
    @Test(arguments: [false, true])
    func validationAfterAFailedResolveStartsCleanAndLeavesTheContainerAlone(witnessAwaitsTheEnd: Bool) throws {
        let built = CallCounter()
        let container = Container()
        // TeardownRoot first: validation resolves in the order of registration, so that its sandbox's
        // TeardownWitness is built by a resolve that fails, and must be dropped from the sandbox.
        container.register(TeardownRoot.self) { r in
            _ = try r.resolve(TeardownWitness.self)
            throw TeardownFailure()
        }
        container.register(TeardownChecked.self) { _ in TeardownChecked() }
            .verify { _ in }
        container.register(TeardownWitness.self, scope: .singleton) { r in
            if witnessAwaitsTheEnd { _ = try r.resolve(TeardownChecked.self) }
            return TeardownWitness(serial: built.next())
        }
        #expect(injectionError { try container.resolve(TeardownRoot.self) }?.code == .factoryFailed)
        #expect(built.count == 1)

        let error = try #require(injectionError { try container.validate() })

        #expect(error.code == .validationFailed)
        #expect(error.problems.map(\.code) == [.factoryFailed])
        #expect(
            error.problems.first?.message == "The factory of TeardownRoot threw: TeardownFailure(). The error is the"
                + " underlyingError; fix the factory or what it depends on."
        )
        #expect(built.count == 3)  // validation's own, twice: for TeardownRoot (dropped), then alone
        // The one the failed resolve published, untouched by validation's; or, dropped, built now.
        let witness = try container.resolve(TeardownWitness.self)
        #expect(witness.serial == (witnessAwaitsTheEnd ? 4 : 1))
        #expect(try container.resolve(TeardownWitness.self) === witness)
    }

    // MARK: Deinits that resolve while a resolution writes or empties its books

    /// A graph instance released when its resolve ends, whose deinit resolves a singleton through a
    /// captured container: that singleton is published, the one every later resolve gets.
    @Test func aGraphInstanceReleasedAtTheEndOfItsResolveResolvesASingletonThatStaysPublished() throws {
        let parting = PartingFixture(parting: .graph)
        let (container, seen) = (parting.container, parting.seen)
        container.register(TeardownRoot.self) { r in
            _ = try r.resolve(TeardownParting.self)
            return TeardownRoot()
        }

        _ = try container.resolve(TeardownRoot.self)

        #expect(seen.values == ["Int"])
        try parting.expectOneWitnessPublished()
    }

    /// A singleton dropped by a resolve whose check failed (the check of a transient the singleton
    /// holds, run when the resolve completes: the singleton's own construction fails), whose deinit
    /// resolves another singleton through a captured container: that resolve holds no gate once it
    /// returns, and its singleton is the one published. (Before, the deinit ran as the books were
    /// emptied, nested in the failed resolve: its gate was dropped unreleased, and another thread
    /// waited for ever.)
    @Test func aSingletonDroppedByAFailedResolveResolvesInItsDeinitWithoutLeavingAGateHeld() async throws {
        let parting = PartingFixture(parting: .singleton) { throw TeardownFailure() }
        let (container, seen) = (parting.container, parting.seen)
        container.register(TeardownRoot.self) { r in
            _ = try r.resolve(TeardownParting.self)
            return TeardownRoot()
        }

        let error = try #require(injectionError { try container.resolve(TeardownRoot.self) })

        #expect(error.code == .preparationFailed)
        #expect(
            error.message == "Preparing TeardownChecked failed: a verify check threw: TeardownFailure(). The error is"
                + " the underlyingError."
        )
        #expect(seen.values == ["Int"])
        let serials = Outcomes()
        let finished = await onThreads(seconds: 5, [{ serials.record { try container.resolve(TeardownWitness.self) } }])
        #expect(finished)
        #expect(serials.values == ["TeardownWitness"])
        try parting.expectOneWitnessPublished()
    }

    /// A construction that fails after a sibling singleton was built (not complete until the resolve
    /// completes: it holds a transient whose check runs then), inside a factory that catches the
    /// error and goes on: the dropped singleton's deinit resolves through a captured container once
    /// the books no longer list it, and what it resolved is published with the resolve. (Before, it
    /// ran as the entry was removed, and wrote to the array being changed: a crash.)
    @Test func aDroppedSiblingsDeinitResolvingThroughTheContainerLeavesTheBooksWhole() async throws {
        let parting = PartingFixture(parting: .singleton) {}
        let (container, seen) = (parting.container, parting.seen)
        container.register(TeardownRoot.self) { r in
            _ = try r.resolve(TeardownParting.self)
            throw TeardownFailure()
        }
        let caught = Outcomes()
        container.register(TeardownRoot.self, name: "catching") { r in
            caught.record { try r.resolve(TeardownRoot.self) }
            return TeardownRoot()
        }

        for _ in 0..<3 { _ = try container.resolve(TeardownRoot.self, name: "catching") }

        #expect(caught.errors.map(\.code) == [.factoryFailed, .factoryFailed, .factoryFailed])
        #expect(Set(caught.errors.map(\.message)).count == 1)
        #expect(
            caught.errors.first?.message
                == "The factory of TeardownRoot threw: TeardownFailure(). Path: TeardownRoot (name: \"catching\") ->"
                + " TeardownRoot. The error is the underlyingError; fix the factory or what it depends on."
        )
        #expect(seen.values == ["Int", "Int", "Int"])
        let finished = await onThreads(seconds: 5, [{ _ = try? container.resolve(TeardownWitness.self) }])
        #expect(finished)
        try parting.expectOneWitnessPublished()
    }

    /// A weak instance whose last reference goes as its resolve publishes it, whose deinit resolves a
    /// singleton through a captured container: that singleton is published too. (Before, the deinit
    /// ran as the published entries were removed: what it resolved was dropped, or the books torn.)
    @Test func aWeakInstanceReleasedAsItIsPublishedResolvesASingletonThatStaysPublished() throws {
        let parting = PartingFixture(parting: .weak)
        let (container, seen) = (parting.container, parting.seen)
        container.register(TeardownRoot.self) { r in
            _ = try r.resolve(TeardownParting.self)
            return TeardownRoot()
        }

        for _ in 0..<3 { _ = try container.resolve(TeardownRoot.self) }

        #expect(seen.values == ["Int", "Int", "Int"])
        try parting.expectOneWitnessPublished()
    }
}

/// A container whose `TeardownParting`, of the lifetime given, resolves the singleton
/// `TeardownWitness` through the container in its deinit: what the tests of deinits that resolve
/// while a resolution writes or empties its books share.
private struct PartingFixture {
    let container = Container()
    let built = CallCounter()
    let seen = Outcomes()

    /// With `check`, `TeardownParting` holds a `TeardownChecked` whose check runs `check` when the
    /// resolve completes: until then its construction is not complete, so it is not published
    /// before, and it fails if `check` throws.
    init(parting lifetime: ServiceScope<TeardownParting>, checkedBy check: (@Sendable () throws -> Void)? = nil) {
        container.register(TeardownWitness.self, scope: .singleton) { [built] _ in
            TeardownWitness(serial: built.next())
        }
        if let check {
            container.register(TeardownChecked.self) { _ in TeardownChecked() }
                .verify { _ in try check() }
        }
        container.register(TeardownParting.self, scope: lifetime) { [unowned container, seen] r in
            if check != nil { _ = try r.resolve(TeardownChecked.self) }
            return TeardownParting(container: container, seen: seen)
        }
    }

    /// Expects the witness built once, and that one published: every later resolve gets it.
    func expectOneWitnessPublished(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try container.resolve(TeardownWitness.self).serial == 1, sourceLocation: sourceLocation)
        #expect(built.count == 1, sourceLocation: sourceLocation)
    }
}

/// Units collected from threads, under a lock.
private final class UnitBox: @unchecked Sendable {  // `units` is only touched under `lock`
    private let lock = NSLock()
    private var units: [TeardownUnit] = []

    @discardableResult
    func add(_ unit: TeardownUnit) -> TeardownUnit {
        lock.withLock { units.append(unit) }
        return unit
    }

    var all: [TeardownUnit] { lock.withLock { units } }
}
