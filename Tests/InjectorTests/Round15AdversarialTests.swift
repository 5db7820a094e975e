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

// Round 15: adversarial tests of four engine changes. Every close (`close()`, `closeAsync()`,
// withScope's) takes its records and instances under one lock and releases them in one place;
// `withOverrides` and validation dispose through `DisposalBag.disposeDroppingAsyncOnly`. The type
// filter of `SharedObjects` sets one bit a word. `end()` keeps its rare work out of line. And a
// resolve reads its books only if it asked for them (`activeBookkeeping`), which holds only if
// every write to the books goes through `bookkeeping` and `end()` empties them. The last tests
// (`Deinits`) found where it did not: an instance released while a resolution wrote or emptied its
// books, whose deinit resolved through a captured container.

// MARK: - Test services (private to this file)

private struct R15Failure: Error, Equatable {}

/// Counted by its factory, to tell instances apart and count builds.
private final class R15Witness: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// Resolves the witness through a captured container when it goes away, recording what it got.
private final class R15Parting: @unchecked Sendable {  // only `let`s; `container` is weak
    weak var container: Container?
    let seen: Outcomes
    init(container: Container, seen: Outcomes) {
        self.container = container
        self.seen = seen
    }
    deinit {
        guard let container else { return }
        seen.record { try container.resolve(R15Witness.self).serial }
    }
}

private final class R15Root: Sendable {}

/// A disposable that logs its disposal and its deinit under its name.
private final class R15Logged: Disposable, @unchecked Sendable {  // only `let`s of Sendable types
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func dispose() { log.record("dispose \(name)") }
    deinit { log.record("deinit \(name)") }
}

private final class R15Journal: Disposable, Sendable {
    let ledger: R15Logged
    let log: EventLog
    init(ledger: R15Logged, log: EventLog) {
        self.ledger = ledger
        self.log = log
    }
    func dispose() { log.record("dispose journal") }
}

private final class R15Upload: AsyncDisposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func disposeAsync() async throws { log.record("disposeAsync upload") }
}

private struct R15SocketError: Error, CustomStringConvertible {
    var description: String { "the socket would not close" }
}

private final class R15Broken: Disposable, Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() throws {
        log.record("dispose broken")
        throw R15SocketError()
    }
}

/// What scoped registrations hand on: a singleton's object under another key.
private protocol R15Resource: AnyObject, Sendable {}

/// A family of distinct types, one per nesting level, for the type filter.
private protocol R15Marker {}
private enum R15Base: R15Marker {}
private enum R15Nest<Inner: R15Marker>: R15Marker {}

/// A disposable singleton of one type per marker.
private final class R15Single<Marker: R15Marker>: R15Resource, Disposable, @unchecked Sendable {
    let log: EventLog
    let name: String
    init(log: EventLog, name: String) {
        self.log = log
        self.name = name
    }
    func dispose() { log.record("dispose \(name)") }
}

/// A disposable scoped instance of one type per marker, the scope's own.
private final class R15Own<Marker: R15Marker>: Disposable, @unchecked Sendable {
    let log: EventLog
    let name: String
    init(log: EventLog, name: String) {
        self.log = log
        self.name = name
    }
    func dispose() { log.record("dispose \(name)") }
}

/// A disposable class both a weak registration and a transient one make.
private final class R15Shared: R15Resource, Disposable, @unchecked Sendable {
    let log: EventLog
    let serial: Int
    init(log: EventLog, serial: Int) {
        self.log = log
        self.serial = serial
    }
    func dispose() { log.record("dispose shared #\(serial)") }
}

/// A disposable value-type singleton.
private struct R15Token: Disposable, Sendable {
    let log: EventLog
    let number: Int
    func dispose() { log.record("dispose token \(number)") }
}

private final class R15Unit: Disposable, Sendable {
    let log: EventLog
    let serial: Int
    init(log: EventLog, serial: Int) {
        self.log = log
        self.serial = serial
    }
    func dispose() { log.record("dispose unit #\(serial)") }
}

private final class R15ViaResolver: Sendable {
    let unit: R15Unit
    init(unit: R15Unit) { self.unit = unit }
}

private final class R15ViaScope: Sendable {
    let unit: R15Unit
    init(unit: R15Unit) { self.unit = unit }
}

private final class R15Clock: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

private final class R15Stamp: Disposable, Sendable {
    let clock: R15Clock
    let log: EventLog
    init(clock: R15Clock, log: EventLog) {
        self.clock = clock
        self.log = log
    }
    func dispose() { log.record("dispose stamp \(clock.label)") }
}

private final class R15Pair: Sendable {
    let first: R15Clock
    let second: R15Clock
    init(first: R15Clock, second: R15Clock) {
        self.first = first
        self.second = second
    }
}

private final class R15Peer: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private final class R15Hooked: @unchecked Sendable {  // `peer` is set once, by its hook
    let serial: Int
    var peer: R15Peer?
    init(serial: Int) { self.serial = serial }
}

private final class R15CycleA: Sendable {}
private final class R15CycleB: Sendable {}

private final class R15Dependent: Sendable {
    let peer: R15Peer
    let serial: Int
    init(peer: R15Peer, serial: Int) {
        self.peer = peer
        self.serial = serial
    }
}

private final class R15AsyncHolder: Sendable {
    let peer: R15Peer
    let dependent: R15Dependent
    let witness: R15Witness
    init(peer: R15Peer, dependent: R15Dependent, witness: R15Witness) {
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
private func registerLevels<Marker: R15Marker>(
    from _: Marker.Type,
    count: Int,
    level: Int = 0,
    in container: Container,
    log: EventLog
) {
    guard level < count else { return }
    container.register(R15Single<Marker>.self, scope: .singleton) { _ in R15Single(log: log, name: "single \(level)") }
    container.register((any R15Resource).self, name: "\(level)", scope: .scoped) { r in
        try r.resolve(R15Single<Marker>.self)
    }
    container.register(R15Own<Marker>.self, scope: .scoped) { _ in R15Own(log: log, name: "own \(level)") }
    registerLevels(from: R15Nest<Marker>.self, count: count, level: level + 1, in: container, log: log)
}

/// Resolves, in `scope`, each level's handed-on singleton and own instance, in level order.
private func resolveLevels<Marker: R15Marker>(
    from _: Marker.Type,
    count: Int,
    level: Int = 0,
    in scope: LifetimeScope
) throws {
    guard level < count else { return }
    _ = try scope.resolve((any R15Resource).self, name: "\(level)")
    _ = try scope.resolve(R15Own<Marker>.self)
    try resolveLevels(from: R15Nest<Marker>.self, count: count, level: level + 1, in: scope)
}

private let undisposedUploadInWithScope =
    "The untagged scope holds instances that only an async disposal can dispose (AsyncDisposable):"
    + " R15Upload. withScope closed it all the same: the others were disposed; these were dropped"
    + " undisposed. Fix: use try await container.withScopeAsync, or make them Disposable as well."

// MARK: - Tests

@Suite struct Round15AdversarialTests {
    // MARK: Closing: withScope, withOverrides, validation

    /// withScope's close disposes the others last completed first, drops the async-only one
    /// undisposed, releases the instances before the closing actions run, and says so in full.
    @Test func withScopeDisposesInOrderDropsTheAsyncOnlyOneAndReleasesBeforeItsActions() throws {
        let log = EventLog()
        let container = Container()
        container.register(R15Logged.self, scope: .scoped) { _ in R15Logged("ledger", log: log) }
        container.register(R15Journal.self, scope: .scoped) { r in R15Journal(ledger: try r.resolve(), log: log) }
        container.register(R15Upload.self, scope: .scoped) { _ in R15Upload(log: log) }
        var kept: LifetimeScope?

        let error = try #require(
            injectionError {
                try container.withScope { scope in
                    kept = scope
                    _ = try scope.resolve(R15Upload.self)
                    _ = try scope.resolve(R15Journal.self)
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
        let again = try #require(injectionError { try scope.resolve(R15Journal.self) })
        #expect(again.code == .scopeClosed)
        #expect(
            again.message == "R15Journal was resolved from an untagged scope after it was closed; its instances"
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
        container.register(R15Broken.self, scope: .scoped) { _ in R15Broken(log: log) }
        container.register(R15Upload.self, scope: .scoped) { _ in R15Upload(log: log) }
        container.register(R15Logged.self, scope: .scoped) { _ in R15Logged("ledger", log: log) }

        let error = try #require(
            injectionError {
                try container.withScope { scope in
                    _ = try scope.resolve(R15Logged.self)
                    _ = try scope.resolve(R15Upload.self)
                    _ = try scope.resolve(R15Broken.self)
                }
            }
        )

        #expect(error.code == .disposalFailed)
        #expect(
            error.message
                == "Disposing what the untagged scope owned: 1 of 2 disposals that ran threw; R15Upload was not"
                + " disposed: only an async disposal can dispose it.\n"
                + "- Disposing R15Broken threw: the socket would not close. The error is the underlyingError."
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
        container.register(R15Logged.self, scope: .scoped) { _ in R15Logged("ledger", log: log) }

        try container.withScope { scope in
            _ = try scope.resolve(R15Logged.self)
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
                outcomes.record { try scope.resolve(R15Root.self) }
            }
        }
        let outcomes = Outcomes()
        let holder = ScopeHolder()
        let container = Container()
        container.register(R15Root.self) { _ in R15Root() }
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
            errors.first?.message == "R15Root was resolved from an untagged scope after it was closed; its"
                + " instances are disposed. Fix: resolve what the work needs before closing the scope, or make a"
                + " new one with container.makeScope()."
        )
    }

    /// closeAsync disposes asynchronously where it can, last completed first, then releases the
    /// instances, then runs the closing actions; a second close does nothing.
    @Test func closeAsyncDisposesThenReleasesThenRunsItsActions() async throws {
        let log = EventLog()
        let container = Container()
        container.register(R15Logged.self, scope: .scoped) { _ in R15Logged("ledger", log: log) }
        container.register(R15Upload.self, scope: .scoped) { _ in R15Upload(log: log) }
        let scope = container.makeScope()
        _ = try scope.resolve(R15Logged.self)
        _ = try scope.resolve(R15Upload.self)
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
        container.register(R15Logged.self, scope: .singleton) { _ in R15Logged("own", log: log) }
        container.register(R15Upload.self, scope: .singleton) { _ in R15Upload(log: log) }
        let overrides: (Container) -> Void = { overriding in
            overriding.register(R15Logged.self, scope: .singleton) { _ in R15Logged("override", log: log) }
            overriding.register(R15Journal.self, scope: .singleton) { r in
                R15Journal(ledger: try r.resolve(), log: log)
            }
        }

        let error = try #require(
            injectionError {
                try container.withOverrides(overrides) {
                    _ = try container.resolve(R15Upload.self)
                    #expect(try container.resolve(R15Journal.self).ledger.name == "override")
                }
            }
        )
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message
                == "The call to withOverrides holds instances that only an async disposal can dispose"
                + " (AsyncDisposable): R15Upload. The others were disposed; these were dropped undisposed. Fix: use"
                + " try await container.withOverridesAsync, or make them Disposable as well."
        )
        #expect(log.events == ["dispose journal", "dispose override", "deinit override"])

        #expect(throws: R15Failure()) {
            try container.withOverrides(overrides) {
                _ = try container.resolve(R15Journal.self)
                _ = try container.resolve(R15Upload.self)
                throw R15Failure()
            }
        }
        #expect(log.events.dropFirst(3) == ["dispose journal", "dispose override", "deinit override"])
        #expect(try container.resolve(R15Logged.self).name == "own")  // the container's own, untouched
        #expect(!log.events.contains("disposeAsync upload"))
    }

    /// Validation disposes what it built once each, last completed first, lists the async-only one
    /// as undisposed, and leaves the container's own singletons alone; a second run does the same.
    @Test func validationDisposesWhatItBuiltOnceAndListsTheAsyncOnlyOne() throws {
        let log = EventLog()
        let built = CallCounter()
        let container = Container()
        container.register(R15Logged.self, scope: .singleton) { _ in
            R15Logged("ledger #\(built.next())", log: log)
        }
        container.register(R15Journal.self, scope: .scoped) { r in R15Journal(ledger: try r.resolve(), log: log) }
        container.register(R15Upload.self, scope: .singleton) { _ in R15Upload(log: log) }
        let own = try container.resolve(R15Logged.self)

        for run in 1...2 {
            let report = try container.validate()
            #expect(report.undisposed == [ServiceKey(R15Upload.self, name: nil)])
            #expect(
                log.events.suffix(3) == ["dispose journal", "dispose ledger #\(run + 1)", "deinit ledger #\(run + 1)"]
            )
        }

        #expect(log.events.count == 6)
        #expect(try container.resolve(R15Logged.self) === own)
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
            container.register(R15Unit.self, scope: .scoped) { _ in
                Thread.sleep(forTimeInterval: 0.001)  // keeps the gate held while others ask
                return R15Unit(log: log, serial: built.next())
            }
            container.register(R15ViaResolver.self) { r in R15ViaResolver(unit: try r.resolve()) }
            container.register(R15ViaScope.self) { _ in R15ViaScope(unit: try holder.scope!.resolve()) }
            let scope = container.makeScope()
            holder.scope = scope

            let fromThreads = Outcomes()
            let units = UnitBox()
            async let first = try scope.resolve(R15Unit.self)
            async let second = try scope.resolve(R15ViaResolver.self).unit
            async let third = try await scope.resolveAsync(R15ViaScope.self).unit
            let detached = Task.detached { try scope.resolve(R15ViaResolver.self).unit }
            let finished = await onThreads(
                seconds: 10,
                [
                    { fromThreads.record { units.add(try scope.resolve(R15Unit.self)) } },
                    { fromThreads.record { units.add(try container.resolve(R15ViaScope.self).unit) } },
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
        registerLevels(from: R15Base.self, count: count, in: container, log: log)

        for round in 0..<2 {
            let scope = container.makeScope()
            try resolveLevels(from: R15Base.self, count: count, in: scope)
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
        container.register(R15Shared.self, scope: .weak) { _ in R15Shared(log: log, serial: built.next()) }
        container.register((any R15Resource).self, name: "weak", scope: .scoped) { r in try r.resolve(R15Shared.self) }
        container.register(R15Shared.self, name: "fresh") { _ in R15Shared(log: log, serial: built.next()) }

        var weak: R15Shared? = try container.resolve(R15Shared.self)
        let handedOn = try container.withScope { scope in try scope.resolve((any R15Resource).self, name: "weak") }
        #expect(handedOn === weak)
        #expect(log.events.isEmpty)
        weak = nil

        for _ in 0..<8 {
            try container.withScope { scope in _ = try scope.resolve(R15Shared.self, name: "fresh") }
        }
        #expect(log.events == (2...9).map { "dispose shared #\($0)" })
    }

    /// A disposable value-type singleton handed on is not the scope's: the container disposes it,
    /// once.
    @Test func aValueSingletonHandedOnIsNotTheScopes() throws {
        let log = EventLog()
        let container = Container()
        container.register(R15Token.self, scope: .singleton) { _ in R15Token(log: log, number: 7) }
        container.register(R15Token.self, name: "handed on", scope: .scoped) { r in try r.resolve(R15Token.self) }
        container.register(R15Token.self, name: "own", scope: .scoped) { _ in R15Token(log: log, number: 8) }

        let numbers = try container.withScope { scope in
            [
                try scope.resolve(R15Token.self, name: "handed on").number,
                try scope.resolve(R15Token.self, name: "own").number,
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
        registerLevels(from: R15Base.self, count: count, in: container, log: log)
        let failures = Outcomes()

        let finished = await onThreads(
            seconds: 30,
            (0..<4).map { _ in
                {
                    failures.record {
                        try container.withScope { scope in
                            try resolveLevels(from: R15Base.self, count: count, in: scope)
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
    /// and through a captured container publishes none of them and holds no gate: another thread
    /// builds each afresh, without waiting, and so does this one.
    @Test func aFactoryThrowingAfterItsSiblingsPublishesNoneAndHoldsNoGate() async throws {
        let built = CallCounter()
        let log = EventLog()
        let container = Container()
        container.register(R15Witness.self, scope: .singleton) { _ in R15Witness(serial: built.next()) }
        container.register(R15Peer.self, scope: .singleton) { _ in R15Peer(serial: built.next()) }
        container.register(R15Unit.self, scope: .scoped) { _ in R15Unit(log: log, serial: built.next()) }
        container.register(R15Root.self) { [unowned container] r in
            _ = try r.resolve(R15Witness.self)
            _ = try r.resolve(R15Unit.self)
            _ = try container.resolve(R15Peer.self)
            throw R15Failure()
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(R15Root.self) })

        #expect(error.code == .factoryFailed)
        #expect(
            error.message == "The factory of R15Root threw: R15Failure(). The error is the underlyingError; fix the"
                + " factory or what it depends on."
        )
        #expect(built.count == 3)
        let serials = Outcomes()
        let finished = await onThreads(
            seconds: 10,
            [
                {
                    serials.record { try container.resolve(R15Witness.self).serial }
                    serials.record { try container.resolve(R15Peer.self).serial }
                    serials.record { try scope.resolve(R15Unit.self).serial }
                }
            ]
        )
        #expect(finished)
        #expect(serials.values.count == 3)
        #expect(built.count == 6)
        #expect(try container.resolve(R15Witness.self).serial > 3)
        #expect(try scope.resolve(R15Unit.self).serial > 3)
        #expect(built.count == 6)
        try closeNow(scope)
        // Each instance it built disposed once, last completed first: the one the failed resolve
        // dropped too, which the scope took charge of when it was built.
        #expect(log.events == ["dispose unit #6", "dispose unit #2"])
    }

    /// A hook that resolves through a captured container, of a registration whose check then fails:
    /// neither the instance nor what the hook resolved is published, and no gate is held.
    @Test func aFailedCheckAfterAHookResolvingThroughTheContainerLeavesNothing() async throws {
        let built = CallCounter()
        let checks = CallCounter()
        let container = Container()
        container.register(R15Peer.self, scope: .singleton) { _ in R15Peer(serial: built.next()) }
        container.register(R15Hooked.self, scope: .singleton) { _ in R15Hooked(serial: built.next()) }
            .onResolved { [unowned container] _, hooked in hooked.peer = try container.resolve(R15Peer.self) }
            .verify { _ in if checks.next() == 1 { throw R15Failure() } }

        let error = try #require(injectionError { try container.resolve(R15Hooked.self) })

        #expect(error.code == .preparationFailed)
        #expect(
            error.message == "Preparing R15Hooked failed: a verify check threw: R15Failure(). The error is the"
                + " underlyingError."
        )
        let hooked = Outcomes()
        let finished = await onThreads(
            seconds: 10,
            [
                { hooked.record { try container.resolve(R15Hooked.self).peer?.serial ?? 0 } }
            ]
        )
        #expect(finished)
        #expect(hooked.values == ["Int"])
        #expect(built.count == 4)
        let published = try container.resolve(R15Hooked.self)
        #expect(published.serial == 3)
        #expect(published.peer === (try container.resolve(R15Peer.self)))
        #expect(published.peer?.serial == 4)
    }

    /// A cycle through captured containers between two singletons fails with the whole loop, leaves
    /// no gate held, and fails the same way from another thread, without waiting.
    @Test func aCycleThroughCapturedContainersLeavesNoGateHeld() async throws {
        let container = Container()
        container.register(R15CycleA.self, scope: .singleton) { [unowned container] _ in
            _ = try container.resolve(R15CycleB.self)
            return R15CycleA()
        }
        container.register(R15CycleB.self, scope: .singleton) { [unowned container] _ in
            _ = try container.resolve(R15CycleA.self)
            return R15CycleB()
        }
        let expected =
            "Circular dependency: R15CycleA -> R15CycleB -> R15CycleA. Each of these asks for the next in its"
            + " factory, so none of them can be built first. Fix: break the cycle with property injection: let"
            + " one of them receive the other after construction, in an onResolved hook, and give the one"
            + " resolved back the .graph or .singleton scope so that the hook receives the same instance."

        let error = try #require(injectionError { try container.resolve(R15CycleA.self) })
        #expect(error.code == .circularDependency)
        #expect(error.message == expected)

        let outcomes = Outcomes()
        let finished = await onThreads(seconds: 10, [{ outcomes.record { try container.resolve(R15CycleA.self) } }])
        #expect(finished)
        #expect(outcomes.errors.map(\.message) == [expected])
        #expect(injectionError { try container.resolve(R15CycleA.self) }?.message == expected)
    }

    /// An async singleton's factory that builds an async singleton, then, in a child task through a
    /// captured container, one that depends on it and a sync one that does not, then throws: the
    /// dependent one, taken over by the factory's resolution, is dropped with it and its gate
    /// released; the independent one was published by its own resolve. The next resolves, from many
    /// tasks, build each once and share them.
    @Test func anAsyncFactoryThatFailsDropsWhatItTookOverAndHoldsNoGate() async throws {
        let built = CallCounter()
        let attempts = CallCounter()
        let container = Container()
        container.register(R15Witness.self, scope: .singleton) { _ in R15Witness(serial: built.next()) }
        container.register(R15Peer.self, scope: .singleton) { _ async in R15Peer(serial: built.next()) }
        container.register(R15Dependent.self, scope: .singleton) { r async throws in
            R15Dependent(peer: try await r.resolveAsync(), serial: built.next())
        }
        container.register(R15AsyncHolder.self, scope: .singleton) { [unowned container] r async throws in
            let peer = try await r.resolveAsync(R15Peer.self)
            async let dependent = container.resolveAsync(R15Dependent.self)
            async let witness = container.resolveAsync(R15Witness.self)
            let holder = R15AsyncHolder(peer: peer, dependent: try await dependent, witness: try await witness)
            if attempts.next() == 1 { throw R15Failure() }
            return holder
        }

        let error = try #require(await injectionErrorAsync { try await container.resolveAsync(R15AsyncHolder.self) })
        #expect(error.code == .factoryFailed)
        #expect(
            error.message == "The factory of R15AsyncHolder threw: R15Failure(). The error is the underlyingError;"
                + " fix the factory or what it depends on."
        )
        #expect(built.count == 3)
        let witness = try container.resolve(R15Witness.self)

        // (Not R15Dependent alone as well: holding its gate, it would wait for the R15Peer a holder's
        // resolution builds, which waits for it, and one of them would be refused: `circularWait`.)
        let serials = await withWatchdog(seconds: 10) {
            await withTaskGroup(of: ResolveOutcome.self) { group in
                for _ in 0..<4 {
                    group.addTask { await outcome { try await container.resolveAsync(R15AsyncHolder.self).dependent } }
                }
                group.addTask { await outcome { try container.resolve(R15Witness.self) } }
                return await group.reduce(into: [ResolveOutcome]()) { $0.append($1) }
            }
        }
        #expect(serials?.count == 5)
        #expect(failures(serials ?? []).isEmpty)
        let holder = try await container.resolveAsync(R15AsyncHolder.self)
        #expect(holder.dependent === (try await container.resolveAsync(R15Dependent.self)))
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
        container.register(R15Clock.self, scope: .graph) { _ in R15Clock(label: "real") }
        container.register(R15Stamp.self, scope: .scoped) { r in R15Stamp(clock: try r.resolve(), log: log) }
        container.register(R15Pair.self) { r in R15Pair(first: try r.resolve(), second: try r.resolve()) }
        let scope = container.makeScope()

        let (inside, pair) = try container.withOverrides {
            $0.register(R15Clock.self, scope: .graph) { _ in R15Clock(label: "fixed") }
        } operation: {
            (try scope.resolve(R15Stamp.self), try scope.resolve(R15Pair.self))
        }
        let after = try scope.resolve(R15Stamp.self)

        #expect(inside.clock.label == "fixed")
        #expect(pair.first === pair.second)
        #expect(pair.first.label == "fixed")
        #expect(after.clock.label == "real")
        #expect(after !== inside)
        #expect(try scope.resolve(R15Stamp.self) === after)
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
        container.register(R15Clock.self, scope: .singleton) { _ in R15Clock(label: "real") }
        container.register(R15Stamp.self, scope: .scoped) { r in
            built.next()
            Thread.sleep(forTimeInterval: 0.001)  // keeps the gate held while others ask
            return R15Stamp(clock: try r.resolve(), log: log)
        }
        container.register(R15Logged.self, scope: .singleton) { _ in R15Logged("real", log: log) }
        let scope = container.makeScope()

        let stamps = try await container.withOverridesAsync {
            $0.register(R15Clock.self, scope: .singleton) { _ in R15Clock(label: "fixed") }
            $0.register(R15Logged.self, scope: .singleton) { _ in R15Logged("override", log: log) }
        } operation: {
            async let first = try scope.resolve(R15Stamp.self)
            async let second = try await scope.resolveAsync(R15Stamp.self)
            let third = try await Task { try scope.resolve(R15Stamp.self) }.value
            _ = try container.resolve(R15Logged.self)
            return try await [first, second, third]
        }

        #expect(stamps.allSatisfy { $0 === stamps[0] })
        #expect(stamps[0].clock.label == "fixed")
        #expect(built.count == 1)
        #expect(log.events == ["dispose override", "deinit override"])
        try await scope.closeAsync()
        #expect(log.events == ["dispose override", "deinit override", "dispose stamp fixed"])
        #expect(try container.resolve(R15Clock.self).label == "real")
    }

    /// Validation on the thread of a resolve that failed halfway reports each problem in full and
    /// leaves the container's singletons alone; the thread's next resolves start clean.
    @Test func validationAfterAFailedResolveStartsCleanAndLeavesTheContainerAlone() throws {
        let built = CallCounter()
        let container = Container()
        // R15Root first: validation resolves in the order of registration, so that its sandbox's
        // R15Witness is built by a resolve that fails, and must be dropped from the sandbox.
        container.register(R15Root.self) { r in
            _ = try r.resolve(R15Witness.self)
            throw R15Failure()
        }
        container.register(R15Witness.self, scope: .singleton) { _ in R15Witness(serial: built.next()) }
        #expect(injectionError { try container.resolve(R15Root.self) }?.code == .factoryFailed)
        #expect(built.count == 1)

        let error = try #require(injectionError { try container.validate() })

        #expect(error.code == .validationFailed)
        #expect(error.problems.map(\.code) == [.factoryFailed])
        #expect(
            error.problems.first?.message == "The factory of R15Root threw: R15Failure(). The error is the"
                + " underlyingError; fix the factory or what it depends on."
        )
        #expect(built.count == 3)  // validation's own, twice: for R15Root (dropped), then alone
        let witness = try container.resolve(R15Witness.self)
        #expect(witness.serial == 4)
        #expect(try container.resolve(R15Witness.self) === witness)
    }

    // MARK: Deinits that resolve while a resolution writes or empties its books

    /// A graph instance released when its resolve ends, whose deinit resolves a singleton through a
    /// captured container: that singleton is published, the one every later resolve gets.
    @Test func aGraphInstanceReleasedAtTheEndOfItsResolveResolvesASingletonThatStaysPublished() throws {
        let built = CallCounter()
        let seen = Outcomes()
        let container = Container()
        container.register(R15Witness.self, scope: .singleton) { _ in R15Witness(serial: built.next()) }
        container.register(R15Parting.self, scope: .graph) { [unowned container] _ in
            R15Parting(container: container, seen: seen)
        }
        container.register(R15Root.self) { r in
            _ = try r.resolve(R15Parting.self)
            return R15Root()
        }

        _ = try container.resolve(R15Root.self)

        #expect(seen.values == ["Int"])
        #expect(try container.resolve(R15Witness.self).serial == 1)
        #expect(built.count == 1)
    }

    /// A singleton dropped by a resolve whose check failed, whose deinit resolves another singleton
    /// through a captured container: that resolve holds no gate once it returns, and its singleton
    /// is the one published. (Before, the deinit ran as the books were emptied, nested in the failed
    /// resolve: its gate was dropped unreleased, and another thread waited for ever.)
    @Test func aSingletonDroppedByAFailedResolveResolvesInItsDeinitWithoutLeavingAGateHeld() async throws {
        let built = CallCounter()
        let seen = Outcomes()
        let container = Container()
        container.register(R15Witness.self, scope: .singleton) { _ in R15Witness(serial: built.next()) }
        container.register(R15Parting.self, scope: .singleton) { [unowned container] _ in
            R15Parting(container: container, seen: seen)
        }
        container.register(R15Root.self) { r in
            _ = try r.resolve(R15Parting.self)
            return R15Root()
        }
        .verify { _ in throw R15Failure() }

        let error = try #require(injectionError { try container.resolve(R15Root.self) })

        #expect(error.code == .preparationFailed)
        #expect(
            error.message == "Preparing R15Root failed: a verify check threw: R15Failure(). The error is the"
                + " underlyingError."
        )
        #expect(seen.values == ["Int"])
        let serials = Outcomes()
        let finished = await onThreads(seconds: 5, [{ serials.record { try container.resolve(R15Witness.self) } }])
        #expect(finished)
        #expect(serials.values == ["R15Witness"])
        #expect(try container.resolve(R15Witness.self).serial == 1)
        #expect(built.count == 1)
    }

    /// A construction that fails after a sibling singleton was built, inside a factory that catches
    /// the error and goes on: the dropped singleton's deinit resolves through a captured container
    /// once the books no longer list it, and what it resolved is published with the resolve. (Before,
    /// it ran as the entry was removed, and wrote to the array being changed: a crash.)
    @Test func aDroppedSiblingsDeinitResolvingThroughTheContainerLeavesTheBooksWhole() async throws {
        let built = CallCounter()
        let seen = Outcomes()
        let container = Container()
        container.register(R15Witness.self, scope: .singleton) { _ in R15Witness(serial: built.next()) }
        container.register(R15Parting.self, scope: .singleton) { [unowned container] _ in
            R15Parting(container: container, seen: seen)
        }
        container.register(R15Root.self) { r in
            _ = try r.resolve(R15Parting.self)
            throw R15Failure()
        }
        container.register(R15Root.self, name: "catching") { r in
            #expect(throws: InjectionError.self) { try r.resolve(R15Root.self) }
            return R15Root()
        }

        for _ in 0..<3 { _ = try container.resolve(R15Root.self, name: "catching") }

        #expect(seen.values == ["Int", "Int", "Int"])
        let finished = await onThreads(seconds: 5, [{ _ = try? container.resolve(R15Witness.self) }])
        #expect(finished)
        #expect(try container.resolve(R15Witness.self).serial == 1)
        #expect(built.count == 1)
    }

    /// A weak instance whose last reference goes as its resolve publishes it, whose deinit resolves a
    /// singleton through a captured container: that singleton is published too. (Before, the deinit
    /// ran as the published entries were removed: what it resolved was dropped, or the books torn.)
    @Test func aWeakInstanceReleasedAsItIsPublishedResolvesASingletonThatStaysPublished() throws {
        let built = CallCounter()
        let seen = Outcomes()
        let container = Container()
        container.register(R15Witness.self, scope: .singleton) { _ in R15Witness(serial: built.next()) }
        container.register(R15Parting.self, scope: .weak) { [unowned container] _ in
            R15Parting(container: container, seen: seen)
        }
        container.register(R15Root.self) { r in
            _ = try r.resolve(R15Parting.self)
            return R15Root()
        }

        for _ in 0..<3 { _ = try container.resolve(R15Root.self) }

        #expect(seen.values == ["Int", "Int", "Int"])
        #expect(try container.resolve(R15Witness.self).serial == 1)
        #expect(built.count == 1)
    }
}

/// Units collected from threads, under a lock.
private final class UnitBox: @unchecked Sendable {  // `units` is only touched under `lock`
    private let lock = NSLock()
    private var units: [R15Unit] = []

    @discardableResult
    func add(_ unit: R15Unit) -> R15Unit {
        lock.withLock { units.append(unit) }
        return unit
    }

    var all: [R15Unit] { lock.withLock { units } }
}
