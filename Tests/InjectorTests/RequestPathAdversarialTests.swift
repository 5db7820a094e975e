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

// Round 14's request-path changes, attacked where they changed what is kept: a registration's
// first four known dependencies in words of its own (past four, and filled across constructions
// and threads, the graph still lists each dependency once, in the order first met); a close that
// takes the records and the scoped instances under one lock, sync and async (the instances go
// after the disposals and before the closing actions; a close refused for an async-only instance
// takes nothing; closing twice disposes once).

private final class Part0: Sendable {}
private final class Part1: Sendable {}
private final class Part2: Sendable {}
private final class Part3: Sendable {}
private final class Part4: Sendable {}
private final class Part5: Sendable {}
private final class Part6: Sendable {}
private final class Assembly: Sendable {}

/// Registers `Part0`…`Part6` and an `Assembly` whose factory resolves the parts `parts` names for
/// the construction it is on (the nth construction resolves `parts(n)`).
private func registerAssembly(in container: Container, parts: @escaping @Sendable (Int) -> [Int]) {
    container.register(Part0.self) { _ in Part0() }
    container.register(Part1.self) { _ in Part1() }
    container.register(Part2.self) { _ in Part2() }
    container.register(Part3.self) { _ in Part3() }
    container.register(Part4.self) { _ in Part4() }
    container.register(Part5.self) { _ in Part5() }
    container.register(Part6.self) { _ in Part6() }
    let constructions = Counter()
    container.register(Assembly.self) { r in
        for part in parts(constructions.next()) {
            switch part {
            case 0: _ = try r.resolve(Part0.self)
            case 1: _ = try r.resolve(Part1.self)
            case 2: _ = try r.resolve(Part2.self)
            case 3: _ = try r.resolve(Part3.self)
            case 4: _ = try r.resolve(Part4.self)
            case 5: _ = try r.resolve(Part5.self)
            default: _ = try r.resolve(Part6.self)
            }
        }
        return Assembly()
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            defer { value += 1 }
            return value
        }
    }
}

private let partKeys: [ServiceKey] = [
    ServiceKey(Part0.self, name: nil), ServiceKey(Part1.self, name: nil), ServiceKey(Part2.self, name: nil),
    ServiceKey(Part3.self, name: nil), ServiceKey(Part4.self, name: nil), ServiceKey(Part5.self, name: nil),
    ServiceKey(Part6.self, name: nil),
]

private func assemblyDependencies(in container: Container) -> [ServiceKey] {
    container.dependencyGraph().nodes.first { $0.key == ServiceKey(Assembly.self, name: nil) }?.dependencies ?? []
}

/// A disposable scoped instance that logs its disposal and its deinit.
private final class Logged: Disposable, @unchecked Sendable {
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func dispose() { log.record("dispose \(name)") }
    deinit { log.record("deinit \(name)") }
}
private final class LoggedFirst: Sendable {
    let inner: Logged
    init(_ inner: Logged) { self.inner = inner }
}
private final class AsyncOnlyJournal: AsyncDisposable, Sendable {
    func disposeAsync() async throws {}
}

@Suite struct RequestPathAdversarialTests {
    @Test(arguments: [1, 4, 5, 7])
    func aFactoryOfManyDependenciesHasEachInTheGraphOnceInTheOrderMet(count: Int) throws {
        let container = Container()
        registerAssembly(in: container) { _ in Array((0..<count).reversed()) }

        for _ in 0..<3 { _ = try container.resolve(Assembly.self) }

        #expect(assemblyDependencies(in: container) == Array(partKeys[0..<count].reversed()))
    }

    @Test func dependenciesMetOverSeveralConstructionsFillTheWordsThenTheListOnce() throws {
        let container = Container()
        // Two at a time, overlapping: 0 1, 1 2, 2 3, … so each construction meets one known, one new.
        registerAssembly(in: container) { construction in [construction % 7, (construction + 1) % 7] }

        for _ in 0..<14 { _ = try container.resolve(Assembly.self) }

        #expect(assemblyDependencies(in: container) == partKeys)
    }

    @Test func threadsMeetingTheDependenciesFirstTogetherRecordEachOnce() async throws {
        for _ in 0..<20 {
            let container = Container()
            registerAssembly(in: container) { construction in
                // Each construction meets all seven, starting at a different one.
                (0..<7).map { (construction + $0) % 7 }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { _ = try container.resolve(Assembly.self) }
                }
                try await group.waitForAll()
            }
            let dependencies = assemblyDependencies(in: container)
            #expect(dependencies.count == 7)
            #expect(Set(dependencies) == Set(partKeys))
        }
    }

    @Test(arguments: [false, true])
    func aCloseDisposesThenDropsTheInstancesThenRunsTheActions(asynchronously: Bool) async throws {
        let log = EventLog()
        let container = Container()
        container.register(Logged.self, scope: .scoped) { _ in Logged("inner", log: log) }
        container.register(LoggedFirst.self, scope: .scoped) { r in try LoggedFirst(r.resolve(Logged.self)) }
        let scope = container.makeScope()
        _ = try scope.resolve(LoggedFirst.self)
        scope.afterClosing { log.record("action") }

        if asynchronously { try await scope.closeAsync() } else { try closeSync(scope) }
        if asynchronously { try await scope.closeAsync() } else { try closeSync(scope) }  // nothing again

        #expect(log.events == ["dispose inner", "deinit inner", "action"])
        #expect(scope.isClosed)
        let error = try #require(throws: InjectionError.self) { try scope.resolve(LoggedFirst.self) }
        #expect(error.code == .scopeClosed)
        #expect(
            error.message == "LoggedFirst was resolved from an untagged scope after it was closed; its instances"
                + " are disposed. Fix: resolve what the work needs before closing the scope, or make a new one"
                + " with container.makeScope()."
        )
    }

    @Test func aRefusedSyncCloseTakesNothingAndTheAsyncCloseDisposesAndDropsAll() async throws {
        let log = EventLog()
        let container = Container()
        container.register(Logged.self, scope: .scoped) { _ in Logged("inner", log: log) }
        container.register(AsyncOnlyJournal.self, scope: .scoped) { _ in AsyncOnlyJournal() }
        let scope = container.makeScope()
        let first = try scope.resolve(Logged.self)
        _ = try scope.resolve(AsyncOnlyJournal.self)

        let error = try #require(throws: InjectionError.self) { try closeSync(scope) }

        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message == "The untagged scope holds instances that only an async disposal can dispose"
                + " (AsyncDisposable): AsyncOnlyJournal. Nothing was disposed, and the scope stays open. Fix: use"
                + " try await scope.closeAsync(), or make them Disposable as well."
        )
        #expect(!scope.isClosed)
        #expect(try scope.resolve(Logged.self) === first)  // still kept: the refusal took nothing
        #expect(log.events.isEmpty)
        try await scope.closeAsync()
        #expect(log.events == ["dispose inner"])  // `first` still holds it: no deinit yet
    }

    @Test func manyScopesClosedFromManyThreadsEachDisposeTheirInstanceOnce() async throws {
        let log = EventLog()
        let container = Container()
        let counter = Counter()
        container.register(Logged.self, scope: .scoped) { _ in Logged("#\(counter.next())", log: log) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let scope = container.makeScope()
                    _ = try scope.resolve(Logged.self)
                    if index.isMultiple(of: 2) { try await scope.closeAsync() } else { try closeSync(scope) }
                }
            }
            try await group.waitForAll()
        }
        let disposals = log.events.filter { $0.hasPrefix("dispose") }
        #expect(disposals.count == 64)
        #expect(Set(disposals).count == 64)
    }
}

private func closeSync(_ scope: LifetimeScope) throws { try scope.close() }
