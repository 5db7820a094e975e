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

import Injector
import Testing

// The order and count of disposals, for every way a scope, a container or a set of overrides is
// closed, at the sizes where a disposal bag changes how it keeps its records: the first inline,
// the next ones in an array, and past 16 a dictionary to find an object's last record. (From a
// helper session's attack on the inline first record, which found no defect.)

@Suite struct DisposalOrderTests {
    /// Each way of closing disposes every record once, last completed first, whatever mix of sync,
    /// async and both-way disposables, classes and values it holds (only async closes get the
    /// async-only ones); closing again does nothing.
    @Test(arguments: ClosingMode.allCases, [0, 1, 2, 3, 15, 16, 17, 18, 40])
    fileprivate func everyWayOfClosingDisposesEachRecordOnceLastCompletedFirst(
        mode: ClosingMode,
        count: Int
    ) async throws {
        let log = EventLog()
        let container = Container()
        let available = mode.isAsync ? ProbeKind.allCases : ProbeKind.syncCapable
        let kinds = (0..<count).map { available[$0 % available.count] }
        let scope: Scope = mode.closesTheContainer ? .singleton : .transient
        for (index, kind) in kinds.enumerated() { kind.register("p\(index)", in: container, log: log, scope: scope) }
        func resolveAll(_ source: some ProbeSource) throws {
            for (index, kind) in kinds.enumerated() { try kind.resolve("p\(index)", from: source) }
        }

        switch mode {
        case .close, .closeAsync, .withScope, .withScopeAsync:
            try await resolveInScope(of: container, closedBy: mode) { try resolveAll($0) }
        case .shutdown:
            try resolveAll(container)
            try shutDownSynchronously(container)
            try shutDownSynchronously(container)
        case .shutdownAsync:
            try resolveAll(container)
            try await container.shutdownAsync()
            try await container.shutdownAsync()
        case .withOverrides:
            try withOverridesSynchronously(container) { try resolveAll(container) }
        case .withOverridesAsync:
            let noOverrides: (Container) -> Void = { _ in }
            try await container.withOverridesAsync(noOverrides) { try resolveAll(container) }
        }

        let expected = kinds.enumerated().reversed().compactMap { $1.mark("p\($0)", async: mode.isAsync) }
        #expect(log.events == expected)
    }

    /// One object returned by two registrations is recorded twice, at `firstAt` and `secondAt`
    /// among `count` records (0 is the inline record; past 16 the bag finds last records through a
    /// dictionary): it is disposed once, where its last record puts it, by each way of closing a
    /// scope.
    @Test(arguments: [
        (2, 0, 1), (2, 1, 0), (3, 0, 1), (3, 0, 2), (3, 1, 2), (16, 0, 1), (16, 0, 15), (16, 15, 0), (17, 0, 1),
        (17, 0, 16), (17, 15, 16), (17, 16, 0), (18, 0, 16), (18, 0, 17), (40, 0, 20), (40, 0, 39), (40, 39, 0),
    ])
    func anObjectRecordedTwiceIsDisposedOnceWhereItsLastRecordPutsIt(
        count: Int,
        firstAt: Int,
        secondAt: Int
    ) async throws {
        for kind in [ProbeKind.sync, .both, .async] {
            for mode in [ClosingMode.close, .closeAsync, .withScope, .withScopeAsync]
            where mode.isAsync || kind != .async {
                let log = EventLog()
                let container = Container()
                let shared: AnyObject & Sendable =
                    switch kind {
                    case .sync: SyncProbe("shared", log)
                    case .async: AsyncProbe("shared", log)
                    default: BothProbe("shared", log)
                    }
                container.register(AnyObject.self, name: "first") { _ in shared }
                container.register(AnyObject.self, name: "second") { _ in shared }
                let records = (0..<count).map { $0 == firstAt || $0 == secondAt ? "shared" : "p\($0)" }
                for id in records where id != "shared" { ProbeKind.sync.register(id, in: container, log: log) }
                func resolveAll(_ scope: LifetimeScope) throws {
                    for (index, id) in records.enumerated() {
                        if id == "shared" {
                            _ = try scope.resolve(AnyObject.self, name: index == firstAt ? "first" : "second")
                        } else {
                            _ = try scope.resolve(SyncProbe.self, name: id)
                        }
                    }
                }

                try await resolveInScope(of: container, closedBy: mode, resolveAll)

                let last = max(firstAt, secondAt)
                let sharedMark = kind.mark("shared", async: mode.isAsync)!
                let expected = records.enumerated().reversed().compactMap { index, id in
                    id == "shared" ? (index == last ? sharedMark : nil) : "s:\(id)"
                }
                #expect(log.events == expected, "\(kind), \(mode)")
            }
        }
    }
}

/// How the owner of a disposal bag is closed.
private enum ClosingMode: CaseIterable {
    case close, closeAsync, withScope, withScopeAsync, shutdown, shutdownAsync, withOverrides, withOverridesAsync

    var isAsync: Bool { [.closeAsync, .withScopeAsync, .shutdownAsync, .withOverridesAsync].contains(self) }
    /// Whether the records are the container's singletons (or the overrides' store's) rather than
    /// a scope's transients.
    var closesTheContainer: Bool { [.shutdown, .shutdownAsync, .withOverrides, .withOverridesAsync].contains(self) }
}

/// Runs `body` in a scope of `container`, closed as `mode` says (one of the ways to close a scope),
/// and closes it again where the scope outlives the call.
private func resolveInScope(
    of container: Container,
    closedBy mode: ClosingMode,
    _ body: (LifetimeScope) throws -> Void
) async throws {
    switch mode {
    case .close:
        let scope = container.makeScope()
        try body(scope)
        try closeSynchronously(scope)
        try closeSynchronously(scope)
    case .closeAsync:
        let scope = container.makeScope()
        try body(scope)
        try await scope.closeAsync()
        try await scope.closeAsync()
    case .withScope:
        try withScopeSynchronously(container, body)
    case .withScopeAsync:
        try await container.withScopeAsync(operation: body)
    case .shutdown, .shutdownAsync, .withOverrides, .withOverridesAsync:
        preconditionFailure("\(mode) closes no scope")
    }
}

// The sync spellings, called from the async tests through sync functions (they are unavailable
// in async code).
private func closeSynchronously(_ scope: LifetimeScope) throws { try scope.close() }
private func shutDownSynchronously(_ container: Container) throws { try container.shutdown() }
private func withScopeSynchronously(_ container: Container, _ body: (LifetimeScope) throws -> Void) throws {
    try container.withScope(operation: body)
}
private func withOverridesSynchronously(_ container: Container, _ body: () throws -> Void) throws {
    try container.withOverrides({ _ in }, operation: body)
}

/// A disposable of each kind, class or value; disposing it logs `s:` (sync) or `a:` (async) and its id.
private enum ProbeKind: CaseIterable {
    case sync, async, both, syncValue, asyncValue, bothValue

    /// The kinds a sync close disposes.
    static let syncCapable: [ProbeKind] = [.sync, .both, .syncValue, .bothValue]

    /// What disposing it logs, in an async close or a sync one; `nil` when a sync close cannot.
    func mark(_ id: String, async: Bool) -> String? {
        switch self {
        case .sync, .syncValue: "s:\(id)"
        case .async, .asyncValue: async ? "a:\(id)" : nil
        case .both, .bothValue: async ? "a:\(id)" : "s:\(id)"
        }
    }

    /// Registers a probe of this kind under the name `id`.
    func register(_ id: String, in container: Container, log: EventLog, scope: Scope = .transient) {
        switch self {
        case .sync: container.register(SyncProbe.self, name: id, scope: scope) { _ in SyncProbe(id, log) }
        case .async: container.register(AsyncProbe.self, name: id, scope: scope) { _ in AsyncProbe(id, log) }
        case .both: container.register(BothProbe.self, name: id, scope: scope) { _ in BothProbe(id, log) }
        case .syncValue:
            container.register(SyncValueProbe.self, name: id, scope: scope) { _ in SyncValueProbe(id: id, log: log) }
        case .asyncValue:
            container.register(AsyncValueProbe.self, name: id, scope: scope) { _ in AsyncValueProbe(id: id, log: log) }
        case .bothValue:
            container.register(BothValueProbe.self, name: id, scope: scope) { _ in BothValueProbe(id: id, log: log) }
        }
    }

    /// Resolves the probe of this kind named `id` from `source`.
    func resolve(_ id: String, from source: some ProbeSource) throws {
        switch self {
        case .sync: _ = try source.probe(SyncProbe.self, name: id)
        case .async: _ = try source.probe(AsyncProbe.self, name: id)
        case .both: _ = try source.probe(BothProbe.self, name: id)
        case .syncValue: _ = try source.probe(SyncValueProbe.self, name: id)
        case .asyncValue: _ = try source.probe(AsyncValueProbe.self, name: id)
        case .bothValue: _ = try source.probe(BothValueProbe.self, name: id)
        }
    }
}

/// A scope or a container, to resolve probes from.
private protocol ProbeSource {
    func probe<Service>(_ service: Service.Type, name: String) throws -> Service
}
extension LifetimeScope: ProbeSource {
    fileprivate func probe<Service>(_ service: Service.Type, name: String) throws -> Service {
        try resolve(service, name: name)
    }
}
extension Container: ProbeSource {
    fileprivate func probe<Service>(_ service: Service.Type, name: String) throws -> Service {
        try resolve(service, name: name)
    }
}

private final class SyncProbe: Disposable, Sendable {
    let id: String
    let log: EventLog
    init(_ id: String, _ log: EventLog) { (self.id, self.log) = (id, log) }
    func dispose() { log.record("s:\(id)") }
}

private final class AsyncProbe: AsyncDisposable, Sendable {
    let id: String
    let log: EventLog
    init(_ id: String, _ log: EventLog) { (self.id, self.log) = (id, log) }
    func disposeAsync() async {
        await Task.yield()
        log.record("a:\(id)")
    }
}

private final class BothProbe: Disposable, AsyncDisposable, Sendable {
    let id: String
    let log: EventLog
    init(_ id: String, _ log: EventLog) { (self.id, self.log) = (id, log) }
    func dispose() { log.record("s:\(id)") }
    func disposeAsync() async { log.record("a:\(id)") }
}

private struct SyncValueProbe: Disposable, Sendable {
    let id: String
    let log: EventLog
    func dispose() { log.record("s:\(id)") }
}

private struct AsyncValueProbe: AsyncDisposable, Sendable {
    let id: String
    let log: EventLog
    func disposeAsync() async { log.record("a:\(id)") }
}

private struct BothValueProbe: Disposable, AsyncDisposable, Sendable {
    let id: String
    let log: EventLog
    func dispose() { log.record("s:\(id)") }
    func disposeAsync() async { log.record("a:\(id)") }
}
