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
import Injector
import Testing

// The snippets of the Injector catalog's TestingWithOverrides.md, verbatim, with the app they
// assume, and what the article says of overrides and validation: if the article's code stops
// compiling or doing what it says, this fails. (.ci/check-snippets finds each snippet's lines here.)

private protocol Clock: Sendable { var now: Date { get } }
private struct SystemClock: Clock {
    var now: Date { Date() }
}
private struct FixedClock: Clock { let now: Date }

private enum DiskError: Error, Equatable { case full }
private protocol Disk: Sendable { func write(_ text: String) throws }
private struct MemoryDisk: Disk {
    func write(_ text: String) throws {}
}
private struct FullDisk: Disk {
    func write(_ text: String) throws { throw DiskError.full }
}

private struct Note {
    let text: String
    let created: Date
}
private protocol NoteStore {
    func add(_ text: String) throws -> Note
}
private struct DiskNoteStore: NoteStore {
    let clock: any Clock
    let disk: any Disk
    func add(_ text: String) throws -> Note {
        try disk.write(text)
        return Note(text: text, created: clock.now)
    }
}

private protocol Editor { var note: Note { get } }
private struct NoteEditor: Editor {
    let note: Note
    let store: any NoteStore
}

/// A disposable singleton built from the clock: which clock shows whether it was built for a call.
private final class NoteCache: Disposable, Sendable {
    let clock: any Clock
    let log: EventLog
    init(clock: any Clock, log: EventLog = EventLog()) {
        self.clock = clock
        self.log = log
        log.record("built")
    }
    func dispose() throws { log.record("disposed") }
}

private protocol Plugin: Sendable { var name: String { get } }
private struct NamedPlugin: Plugin { let name: String }

/// A cycle, for validation.
private final class SyncService {
    init(session: Session) {}
}
private final class Session {
    init(sync: SyncService) {}
}

extension ScopeTag {
    fileprivate static let request: ScopeTag = "request"
}
private final class RequestContext: Sendable {}
private final class Formatter: Sendable {
    init(context: RequestContext) {}
}

private final class DatabasePool: Sendable {
    static func connect() async throws -> DatabasePool {
        await Task.yield()
        return DatabasePool()
    }
}
private final class Exporter {
    init(pool: DatabasePool) {}
}

private let epoch = Date(timeIntervalSince1970: 0)

/// The app's container, as its entry point makes it.
private enum AppContainer {
    static func make() -> Container {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(Disk.self, scope: .singleton) { _ in MemoryDisk() }
        container.register(NoteStore.self) { r in
            try DiskNoteStore(clock: r.resolve(Clock.self), disk: r.resolve(Disk.self))
        }
        container.register(Editor.self) { (r, note: Note) in
            try NoteEditor(note: note, store: r.resolve(NoteStore.self))
        }
        return container
    }
}

struct TestingWithOverridesSnippetTests {
    @Suite struct NoteStoreTests {
        static let app = AppContainer.make()  // one container for every test

        @Test func savingStampsTheNoteWithTheClock() throws {
            // The article's line as it writes it, which swift-format would break after the first brace.
            // swift-format-ignore
            try Self.app.withOverrides { $0.register(Clock.self) { _ in FixedClock(now: .distantPast) } } operation: {
                let store = try Self.app.resolve(NoteStore.self)
                #expect(try store.add("hello").created == .distantPast)
            }
        }

        @Test func savingFailsWhenTheDiskIsFull() async throws {
            // swift-format-ignore
            try await Self.app.withOverridesAsync { $0.register(Disk.self) { _ in FullDisk() } } operation: {
                let store = try await Self.app.resolveAsync(NoteStore.self)
                #expect(throws: DiskError.full) { try store.add("hello") }
            }
        }
    }

    @Test func theGraphIsComplete() throws {
        let report = try AppContainer.make().validate()
        #expect(report.unchecked.map(\.key.description) == ["Editor (argument: Note)"])
    }

    // MARK: What the overrides reach

    @Test func overridesAreSeenByTheTaskAndTheTasksItStartsNotByADetachedTaskNorAfterTheCall() async throws {
        let app = AppContainer.make()
        func now() throws -> Date { try app.resolve(Clock.self).now }

        try await app.withOverridesAsync {
            $0.register(Clock.self) { _ in FixedClock(now: .distantPast) }
        } operation: {
            #expect(try now() == .distantPast)
            async let child = now()
            #expect(try await child == .distantPast)
            let grouped = try await withThrowingTaskGroup(of: Date.self) { group in
                group.addTask { try now() }
                return try await group.next()
            }
            #expect(grouped == .distantPast)
            #expect(try await Task.detached { try now() }.value != .distantPast)
        }
        #expect(try now() != .distantPast)
    }

    @Test func testsOverrideTheSameServiceDifferentlyOnOneSharedContainerAtTheSameTime() async throws {
        let app = AppContainer.make()
        let seen = try await withThrowingTaskGroup(of: Bool.self) { group in
            for offset in 0..<8 {
                let now = Date(timeIntervalSince1970: Double(offset))
                group.addTask {
                    try await app.withOverridesAsync {
                        $0.register(Clock.self) { _ in FixedClock(now: now) }
                    } operation: {
                        await Task.yield()
                        return try app.resolve(NoteStore.self).add("hello").created == now
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(seen == Array(repeating: true, count: 8))
    }

    @Test func singletonsResolvedInsideAreBuiltAfreshForTheCallAndDisposedWhenItReturns() throws {
        let app = AppContainer.make()
        app.register(NoteCache.self, scope: .singleton) { r in try NoteCache(clock: r.resolve(Clock.self)) }
        let own = try app.resolve(NoteCache.self)

        let inside = try app.withOverrides {
            $0.register(Clock.self) { _ in FixedClock(now: epoch) }
        } operation: {
            try app.resolve(NoteCache.self)
        }
        #expect(inside !== own)
        #expect(inside.clock.now == epoch)  // built with the override, at every level of the graph
        #expect(inside.log.events == ["built", "disposed"])  // disposed when the call returned
        #expect(try app.resolve(NoteCache.self) === own)  // the container's own is left alone
        #expect(own.log.events == ["built"])
    }

    @Test func anOverrideBeatsAChildsOwnRegistrationAndResolveAllCollectsOverrideOnlyRegistrations() throws {
        let app = AppContainer.make()
        app.register(Plugin.self, name: "spelling") { _ in NamedPlugin(name: "spelling") }
        let child = app.makeChild()
        child.register(Clock.self) { _ in FixedClock(now: .distantFuture) }

        try app.withOverrides {
            $0.register(Clock.self) { _ in FixedClock(now: epoch) }
            $0.register(Plugin.self, name: "word count") { _ in NamedPlugin(name: "word count") }
        } operation: {
            let clock = try child.resolve(Clock.self)
            let plugins = try app.resolveAll(Plugin.self)
            #expect(clock.now == epoch)
            #expect(plugins.map(\.name).sorted() == ["spelling", "word count"])
        }
        #expect(try child.resolve(Clock.self).now == .distantFuture)
    }

    @Test func nestedCallsExtendTheOverridesAroundThemAndTheInnermostWins() throws {
        let app = AppContainer.make()
        try app.withOverrides {
            $0.register(Clock.self) { _ in FixedClock(now: epoch) }
        } operation: {
            try app.withOverrides {
                $0.register(Disk.self) { _ in FullDisk() }
            } operation: {
                #expect(try app.resolve(Clock.self).now == epoch)  // the outer call's override
                #expect(throws: DiskError.full) { try app.resolve(NoteStore.self).add("hello") }
                try app.withOverrides {
                    $0.register(Clock.self) { _ in FixedClock(now: .distantPast) }
                } operation: {
                    let clock = try app.resolve(Clock.self)
                    #expect(clock.now == .distantPast)
                }
            }
        }
    }

    // MARK: Checking the whole graph

    @Test func validationReportsEveryProblemAtOnce() throws {
        let app = AppContainer.make()
        app.register(NoteCache.self) { r in try NoteCache(clock: r.resolve(Clock.self, name: "utc")) }
        app.register(SyncService.self) { r in try SyncService(session: r.resolve(Session.self)) }
        app.register(Session.self) { r in try Session(sync: r.resolve(SyncService.self)) }
        app.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext() }
        app.register(Formatter.self, scope: .singleton) { r in try Formatter(context: r.resolve(RequestContext.self)) }
        app.register(DatabasePool.self, scope: .singleton) { _ in try await DatabasePool.connect() }
        app.register(Exporter.self) { r in try Exporter(pool: r.resolve(DatabasePool.self)) }
        let line = #line
        app.register(Plugin.self) { _ in NamedPlugin(name: "spelling") }
        app.register(Plugin.self) { _ in NamedPlugin(name: "word count") }

        let error = try #require(injectionError { try app.validate() })
        let site = "InjectorTests/TestingWithOverridesSnippetTests.swift"
        let problems = [
            "Plugin is registered 2 times: at \(site):\(line + 1), then at \(site):\(line + 2). Fix: remove all but "
                + "one; give them different names if each is needed (resolveAll collects them); or pass "
                + "replacesExisting: true to the one meant to replace the others, as a test does when it swaps in "
                + "a double.",
            "No registration for Clock (name: \"utc\"), needed by NoteCache -> Clock (name: \"utc\") (missing). "
                + "Registered nearby: Clock. Fix: ask for one of those (same name and argument types), or register "
                + "Clock (name: \"utc\").",
            "Circular dependency: SyncService -> Session -> SyncService. Each of these asks for the next in its "
                + "factory, so none of them can be built first. Fix: break the cycle with property injection: let "
                + "one of them receive the other after construction, in an onResolved hook, and give the one "
                + "resolved back the .graph or .singleton scope so that the hook receives the same instance.",
            "Captive dependency: Formatter (.singleton) depends on RequestContext (.scoped(to: .request)), which "
                + "would then outlive its lifetime scope. Path: Formatter -> RequestContext. Fix: give Formatter a "
                + "scope no longer than RequestContext's (.scoped(to: .request) or .transient), give RequestContext a longer one, or pass RequestContext to the methods of Formatter that use it rather than hold it.",
            "DatabasePool has an async factory, which a sync resolve cannot run. Path: Exporter -> DatabasePool. "
                + "Fix: resolve it with try await resolveAsync(DatabasePool.self), from the container or scope you "
                + "resolve from (r.resolveAsync in an async factory); a sync factory that needs it must become "
                + "async too.",
        ]
        #expect(error.code == .validationFailed)
        #expect(
            error.problems.map(\.code) == [
                .duplicateRegistration, .missingRegistration, .circularDependency, .captiveDependency,
                .asyncResolutionRequired,
            ]
        )
        #expect(error.problems.map(\.message) == problems)
        #expect(error.message == "Validation found 5 problems:\n" + problems.map { "- \($0)" }.joined(separator: "\n"))
    }

    @Test func validationDisposesWhatItBuiltAndLeavesTheContainersSingletonsAlone() throws {
        let app = AppContainer.make()
        let log = EventLog()
        app.register(NoteCache.self, scope: .singleton) { r in try NoteCache(clock: r.resolve(Clock.self), log: log) }
        let own = try app.resolve(NoteCache.self)
        let report = try app.validate()
        // Validation built one of its own, and disposed it; the container's is left alone.
        #expect(log.events == ["built", "built", "disposed"])
        #expect(try app.resolve(NoteCache.self) === own)
        #expect(
            report.description
                == "Validated 4 registrations.\nNot checked:\n- Editor (argument: Note): needs resolve-time arguments"
        )
        // The graph validation saw, as a text tree and as Graphviz DOT.
        #expect(
            app.dependencyGraph().textTree == """
                NoteStore (transient)
                ├─ Clock (singleton)
                └─ Disk (singleton)
                Editor (argument: Note) (transient)
                NoteCache (singleton)
                └─ Clock (singleton)

                """
        )
        #expect(app.dependencyGraph().dot.hasPrefix("digraph Injector {"))
        #expect(app.dependencyGraph().dot.contains(#""NoteCache" -> "Clock" [style=dashed];"#))
    }
}
