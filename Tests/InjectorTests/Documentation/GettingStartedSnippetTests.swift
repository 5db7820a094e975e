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

// The snippets of the Injector catalog's GettingStarted.md, verbatim, with the types they assume,
// and what the article says of them: if the article's code stops compiling or doing what the
// article says, this fails. (.ci/check-snippets finds each snippet's lines here.)

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private struct FixedClock: Clock { let now: String }

private protocol NoteStore { var clock: any Clock { get } }
private struct FileNoteStore: NoteStore { let clock: any Clock }

private protocol Exporter { var format: String { get } }
private struct PDFExporter: Exporter { let format = "pdf" }

private struct Note { let text: String }
private protocol Editor {
    var note: Note { get }
    var store: any NoteStore { get }
}
private struct NoteEditor: Editor {
    let note: Note
    let store: any NoteStore
}

/// The two halves of a cycle closed after construction (the article's window and its toolbar).
private final class Window {
    let toolbar: Toolbar
    init(toolbar: Toolbar) { self.toolbar = toolbar }
}
private final class Toolbar: @unchecked Sendable {  // only touched by the one resolve that builds it
    weak var window: Window?
}

/// A cycle through factories, as the article names it.
private final class SyncService {
    init(session: Session) {}
}
private final class Session {
    init(sync: SyncService) {}
}

/// A loop reached from a service above it.
private final class Entry {
    init(alpha: Alpha) {}
}
private final class Alpha {
    init(beta: Beta) {}
}
private final class Beta {
    init(alpha: Alpha) {}
}

/// Tells instances apart: each one built takes the next serial number.
private final class Counted: Sendable {
    private static let made = Guarded(0)
    let serial = Counted.made.add(1)
}
private final class Pair {
    let first: Counted
    let second: Counted
    init(first: Counted, second: Counted) {
        self.first = first
        self.second = second
    }
}

/// A singleton built from the clock: which clock it was built with shows which container built it.
private final class Archive: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
}

/// The registrations of the article's first snippet, for the snippets that continue from it.
private func makeContainer() -> Container {
    let container = Container()
    container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
    container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
    container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
    return container
}

struct GettingStartedSnippetTests {
    // MARK: Register and resolve

    @Test func registeringAndResolvingBuildsEachServiceFromItsFactoryWithItsDependencies() throws {
        let note = Note(text: "Buy milk")

        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Editor.self) { (r, note: Note) in
            try NoteEditor(note: note, store: r.resolve(NoteStore.self))
        }
        try container.finishRegistration()

        let store = try container.resolve(NoteStore.self)
        let pdf = try container.resolve(Exporter.self, name: "pdf")
        let editor = try container.resolve(Editor.self, argument: note)

        #expect(store.clock.now == "09:00")
        #expect(pdf.format == "pdf")
        #expect(editor.note.text == "Buy milk")
        #expect(editor.store.clock.now == "09:00")
    }

    @Test func finishRegistrationReportsEveryDuplicateAtOnceAndALaterRegistrationIsAnError() throws {
        let container = Container()
        let line = #line
        container.register(Clock.self) { _ in SystemClock() }
        container.register(Clock.self) { _ in FixedClock(now: "2000-01-01") }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }

        let duplicates = try #require(injectionError { try container.finishRegistration() })
        #expect(duplicates.code == .duplicateRegistration)
        let site = "InjectorTests/GettingStartedSnippetTests.swift"
        let fix =
            "Fix: remove all but one; give them different names if each is needed (resolveAll collects them); "
            + "or pass replacesExisting: true to the one meant to replace the others, as a test does when it "
            + "swaps in a double."
        let problems = [
            "Clock is registered 2 times: at \(site):\(line + 1), then at \(site):\(line + 2). \(fix)",
            #"Exporter (name: "pdf") is registered 2 times: "#
                + "at \(site):\(line + 3), then at \(site):\(line + 4). \(fix)",
        ]
        #expect(duplicates.problems.map(\.message) == problems)
        #expect(duplicates.problems.map(\.code) == [.duplicateRegistration, .duplicateRegistration])
        #expect(duplicates.message == "2 registrations conflict:\n- \(problems[0])\n- \(problems[1])")

        let lateLine = #line + 1
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        let late = try #require(injectionError { try container.resolve(NoteStore.self) })
        #expect(late.code == .registrationAfterFinish)
        #expect(
            late.message
                == "NoteStore was registered after finishRegistration() (at \(site):\(lateLine)); the registry was "
                + "already frozen. Fix: make it before finishRegistration(), or in a child container "
                + "(container.makeChild())."
        )
    }

    // MARK: Choose a scope

    @Test func eachScopeSharesAnInstanceAsTheArticleSays() throws {
        let container = Container()
        container.register(Counted.self, name: "transient") { _ in Counted() }
        container.register(Counted.self, name: "graph", scope: .graph) { _ in Counted() }
        container.register(Counted.self, name: "singleton", scope: .singleton) { _ in Counted() }
        container.register(Counted.self, name: "weak", scope: .weak) { _ in Counted() }
        for name in ["transient", "graph", "singleton"] {
            container.register(Pair.self, name: name) { r in
                try Pair(first: r.resolve(Counted.self, name: name), second: r.resolve(Counted.self, name: name))
            }
        }

        // Transient: a new instance per resolve, even within one graph.
        let transient = try container.resolve(Pair.self, name: "transient")
        #expect(transient.first !== transient.second)
        // Graph: one instance within a top-level resolve, another in the next one.
        let graph = try container.resolve(Pair.self, name: "graph")
        #expect(graph.first === graph.second)
        #expect(try container.resolve(Pair.self, name: "graph").first !== graph.first)
        // Singleton: one per container.
        let singleton = try container.resolve(Pair.self, name: "singleton")
        #expect(singleton.first === singleton.second)
        #expect(try container.resolve(Counted.self, name: "singleton") === singleton.first)
        // Weak: one for as long as something holds it.
        var held: Counted? = try container.resolve(Counted.self, name: "weak")
        let heldSerial = try #require(held?.serial)
        #expect(try container.resolve(Counted.self, name: "weak") === held)
        held = nil
        #expect(try container.resolve(Counted.self, name: "weak").serial != heldSerial)
    }

    @Test func aSingletonIsBuiltExactlyOnceWhenManyTasksAskAtTheSameMoment() async throws {
        let container = Container()
        let built = Guarded(0)
        container.register(Archive.self, scope: .singleton) { _ in
            built.add(1)
            return Archive(clock: SystemClock())
        }
        let archives = try await withThrowingTaskGroup(of: Archive.self) { group in
            for _ in 0..<32 { group.addTask { try container.resolve(Archive.self) } }
            return try await group.reduce(into: [Archive]()) { $0.append($1) }
        }
        #expect(built.current == 1)
        #expect(archives.allSatisfy { $0 === archives[0] })
    }

    // MARK: Sync and async calls

    @Test func canResolveAsyncIsNotAwaitedAndAsksWhatResolveAsyncWouldFind() async throws {
        let container = Container()
        container.register(Archive.self, scope: .singleton) { _ in
            await Task.yield()
            return Archive(clock: SystemClock())
        }
        #expect(container.canResolveAsync(Archive.self))
        #expect(!container.canResolve(Archive.self))  // the sync resolve cannot build an async factory
        let error = try #require(injectionError { try container.resolve(Archive.self) })
        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message == "Archive has an async factory, which a sync resolve cannot run. Fix: resolve it with try"
                + " await resolveAsync(Archive.self), from the container or scope you resolve from (r.resolveAsync in"
                + " an async factory); a sync factory that needs it must become async too."
        )
        #expect(try await container.resolveAsync(Archive.self).clock.now == "09:00")
    }

    // MARK: Close a cycle after construction

    @Test func aCycleThroughFactoriesIsReportedWithItsPath() throws {
        let container = Container()
        container.register(SyncService.self) { r in try SyncService(session: r.resolve(Session.self)) }
        container.register(Session.self) { r in try Session(sync: r.resolve(SyncService.self)) }
        container.register(Entry.self) { r in try Entry(alpha: r.resolve(Alpha.self)) }
        container.register(Alpha.self) { r in try Alpha(beta: r.resolve(Beta.self)) }
        container.register(Beta.self) { r in try Beta(alpha: r.resolve(Alpha.self)) }

        let cycle = try #require(injectionError { try container.resolve(SyncService.self) })
        #expect(cycle.code == .circularDependency)
        #expect(
            cycle.message == "Circular dependency: SyncService -> Session -> SyncService. Each of these asks for the"
                + " next in its factory, so none of them can be built first. Fix: break the cycle with property"
                + " injection: let one of them receive the other after construction, in an onResolved hook, and give"
                + " the one resolved back the .graph or .singleton scope so that the hook receives the same instance."
        )
        let loop = try #require(injectionError { try container.resolve(Entry.self) })
        #expect(loop.code == .circularDependency)
        #expect(
            loop.message == "Circular dependency: Entry -> Alpha -> Beta -> Alpha. The loop is Alpha -> Beta -> Alpha:"
                + " each of these asks for the next in its factory, so none of them can be built first. Fix: break the"
                + " cycle with property injection: let one of them receive the other after construction, in an"
                + " onResolved hook, and give the one resolved back the .graph or .singleton scope so that the hook"
                + " receives the same instance."
        )
    }

    @Test func anOnResolvedHookClosesTheCycleWithTheSameGraphInstance() throws {
        let container = Container()

        container.register(Window.self, scope: .graph) { r in try Window(toolbar: r.resolve(Toolbar.self)) }
        container.register(Toolbar.self, scope: .graph) { _ in Toolbar() }
            .onResolved { r, toolbar in toolbar.window = try r.resolve(Window.self) }

        let window = try container.resolve(Window.self)
        #expect(window.toolbar.window === window)
        let another = try container.resolve(Window.self)  // another top-level resolve, another graph
        #expect(another !== window)
        #expect(another.toolbar.window === another)
    }

    // MARK: Swap a dependency in a test

    @Test func aChildContainerShadowsItsParentsRegistration() throws {
        let container = makeContainer()

        let test = container.makeChild()
        test.register(Clock.self) { _ in FixedClock(now: "2000-01-01") }
        let store = try test.resolve(NoteStore.self)  // built with the fixed clock

        #expect(store.clock.now == "2000-01-01")
        #expect(try container.resolve(NoteStore.self).clock.now == "09:00")  // the parent is untouched
    }

    @Test func theParentsSingletonsAreSharedWithTheChildAndBuiltWithTheParentsDependencies() throws {
        let container = makeContainer()
        container.register(Archive.self, scope: .singleton) { r in try Archive(clock: r.resolve(Clock.self)) }
        container.register(Pair.self, scope: .graph) { _ in Pair(first: Counted(), second: Counted()) }
        container.register(NoteStore.self, name: "graph", scope: .graph) { r in
            try FileNoteStore(clock: r.resolve(Clock.self))
        }
        let test = container.makeChild()
        test.register(Clock.self) { _ in FixedClock(now: "2000-01-01") }

        let archive = try test.resolve(Archive.self)  // first built through the child
        #expect(archive.clock.now == "09:00")  // with the parent's clock
        #expect(try container.resolve(Archive.self) === archive)  // and shared with the parent
        // Transient and graph registrations resolved through the child see its shadows.
        #expect(try test.resolve(NoteStore.self).clock.now == "2000-01-01")
        #expect(try test.resolve(NoteStore.self, name: "graph").clock.now == "2000-01-01")
    }

    // MARK: Read the errors

    @Test func aMissingNamedRegistrationIsCaughtByItsCodeAndItsMessageNamesWhatIsRegisteredNearby() throws {
        let container = makeContainer()
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }

        do {
            _ = try container.resolve(Exporter.self, name: "html")
        } catch let error as InjectionError where error.code == .missingRegistration {
            print(error.message)
            // No registration for Exporter (name: "html"). Registered nearby: Exporter (name: "pdf"). …
        }

        #expect(
            printed == [
                #"No registration for Exporter (name: "html"). Registered nearby: Exporter (name: "pdf"). "#
                    + #"Fix: ask for one of those (same name and argument types), or register Exporter (name: "html")."#
            ]
        )
    }
}
