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

// The snippets of the Injector catalog's articles for people coming from elsewhere
// (ComingFromSwinject.md, ComingFromSwiftDependencies.md, WhenNotToUseInjector.md), verbatim, with
// the types they assume, and what the articles say of Injector beside them: if an article's code
// stops compiling or doing what it says, this fails. (.ci/check-snippets finds each snippet's lines
// here.) What the articles say of Swinject and swift-dependencies cannot be checked here: they are
// not dependencies of this package.

private protocol Clock: Sendable { var now: Date { get } }
private final class SystemClock: Clock {  // a class, so that a test can tell instances apart
    var now: Date { Date() }
}
private struct FixedClock: Clock { let now: Date }

private struct Note {
    let text: String
    let created: Date
}

private protocol NoteStore: Sendable { var clock: any Clock { get } }
private struct FileNoteStore: NoteStore { let clock: any Clock }

private protocol Editor {
    var note: Note { get }
    var store: any NoteStore { get }
}
private struct NoteEditor: Editor {
    let note: Note
    let store: any NoteStore
}

/// The two halves of a cycle that the Swinject article closes after construction.
private final class Parent {
    static let made = Guarded(0)
    let child: Child
    init(child: Child) {
        self.child = child
        Parent.made.add(1)
    }
}
private final class Child {
    weak var parent: Parent?
}

/// A session's state, disposed when its lifetime scope closes.
private final class Cart: Disposable {
    private(set) var items: [String] = []
    private(set) var isDisposed = false
    func add(_ item: String) { items.append(item) }
    func dispose() { isDisposed = true }
}

extension ScopeTag {
    fileprivate static let session: ScopeTag = "session"
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

/// The swift-dependencies article's type: it says what it needs in its initialiser.
private struct Notebook {
    let clock: any Clock
    func add(_ text: String) -> Note { Note(text: text, created: clock.now) }
}

/// The services of the article on when not to use Injector.
private struct NoteServer {
    let store: any NoteStore
    let clock: any Clock
}
private protocol Exporter { func export(_ note: Note) throws }
private final class PDFExporter: Exporter {
    private(set) var exported: [String] = []
    func export(_ note: Note) { exported.append(note.text) }
}

@Suite struct ComingFromSnippetTests {
    // MARK: Coming from Swinject

    @Suite struct Swinject {
        @Test func theSwinjectRegistrationsReadTheSameWithAScopeNamedArgumentsAndThrowingResolves() throws {
            let note = Note(text: "milk", created: .distantPast)

            let container = Container()
            container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
            container.register(NoteStore.self, FileNoteStore.init)
            container.register(Editor.self) { (r, note: Note) in
                try NoteEditor(note: note, store: r.resolve(NoteStore.self))
            }
            try container.finishRegistration()

            let editor = try container.resolve(Editor.self, argument: note)

            #expect(editor.note.text == "milk")
            // `.singleton` is Swinject's `.container`: one clock for the container.
            let clock = try #require(editor.store.clock as? SystemClock)
            #expect(try container.resolve(Clock.self) as? SystemClock === clock)
            // A resolve that finds nothing throws, where Swinject returns nil.
            #expect(injectionError { try container.resolve(Editor.self) }?.code == .missingRegistration)
        }

        @Test func theDefaultScopeIsTransientSoAServiceTwoOthersNeedIsBuiltTwiceInOneResolve() throws {
            let container = Container()
            container.register(Counted.self) { _ in Counted() }
            container.register(Counted.self, name: "graph", scope: .graph) { _ in Counted() }
            container.register(Pair.self) { r in
                try Pair(first: r.resolve(Counted.self), second: r.resolve(Counted.self))
            }
            container.register(Pair.self, name: "graph") { r in
                try Pair(first: r.resolve(Counted.self, name: "graph"), second: r.resolve(Counted.self, name: "graph"))
            }

            let transient = try container.resolve(Pair.self)
            #expect(transient.first !== transient.second)
            let graph = try container.resolve(Pair.self, name: "graph")
            #expect(graph.first === graph.second)
        }

        @Test func aCycleClosedInOnResolvedGetsTheOneParentWhoseFactoryRanOnce() throws {
            let container = Container()
            let before = Parent.made.current

            container.register(Parent.self, scope: .graph) { r in try Parent(child: r.resolve(Child.self)) }
            container.register(Child.self, scope: .graph) { _ in Child() }
                .onResolved { r, child in child.parent = try r.resolve(Parent.self) }

            let parent = try container.resolve(Parent.self)
            #expect(parent.child.parent === parent)
            #expect(Parent.made.current - before == 1)
        }

        @Test func aSecondRegistrationOfAKeyIsADuplicateThatResolvingReportsWithBothLines() throws {
            let container = Container()
            var printed: [String] = []
            func print(_ value: Any) { printed.append("\(value)") }
            var message = ""

            let line = #line + 1
            container.register(Clock.self) { _ in SystemClock() }
            container.register(Clock.self) { _ in FixedClock(now: .distantPast) }  // Swinject: replaces the first

            do {
                _ = try container.resolve(Clock.self)
            } catch let error as InjectionError {
                print(error.code)  // duplicateRegistration; the message names both lines
                message = error.message
            }

            #expect(printed == ["duplicateRegistration"])
            let site = "InjectorTests/ComingFromSnippetTests.swift"
            #expect(message.contains("at \(site):\(line), then at \(site):\(line + 1)"))
            #expect(injectionError { try container.finishRegistration() }?.code == .duplicateRegistration)
        }

        @Test func replacesExistingReplacesWithoutADuplicate() throws {
            let container = Container()
            container.register(Clock.self) { _ in SystemClock() }
            container.register(Clock.self, replacesExisting: true) { _ in FixedClock(now: .distantPast) }
            try container.finishRegistration()
            #expect(try container.resolve(Clock.self).now == .distantPast)
        }

        @Test func aScopedRegistrationIsOneCartPerSessionDisposedWhenTheSessionCloses() throws {
            let container = Container()
            var kept: Cart?

            container.register(Cart.self, scope: .scoped(to: .session)) { _ in Cart() }
            try container.withScope(tag: .session) { session in
                let cart = try session.resolve(Cart.self)
                cart.add("milk")
                #expect(try session.resolve(Cart.self) === cart)  // one per session
                #expect(!cart.isDisposed)
                kept = cart
            }  // the session's Cart is disposed here

            let cart = try #require(kept)
            #expect(cart.items == ["milk"])
            #expect(cart.isDisposed)
            #expect(try container.withScope(tag: .session) { try $0.resolve(Cart.self) } !== cart)
        }

        @Test func aParentBuildsItsSingletonWithItsOwnRegistrationsWhicheverChildAsksFirst() throws {
            let container = Container()
            container.register(Clock.self) { _ in SystemClock() }
            container.register(NoteStore.self, name: "shared", scope: .singleton, FileNoteStore.init)
            container.register(NoteStore.self, FileNoteStore.init)
            let child = container.makeChild()
            child.register(Clock.self) { _ in FixedClock(now: .distantPast) }

            let shared = try child.resolve(NoteStore.self, name: "shared")  // first asked by the child
            #expect(shared.clock is SystemClock)  // built with the parent's clock
            #expect(try child.resolve(NoteStore.self).clock is FixedClock)  // a transient sees the shadow
        }
    }

    // MARK: Coming from swift-dependencies

    @Suite struct SwiftDependencies {
        let container = Self.makeContainer()

        private static func makeContainer() -> Container {
            let container = Container()
            container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
            container.register(Notebook.self, Notebook.init)
            return container
        }

        @Test func theNotebookIsGivenTheClockItsInitialiserAsksFor() throws {
            let container = Container()

            container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
            container.register(Notebook.self, Notebook.init)
            let notebook = try container.resolve(Notebook.self)

            let clock = try #require(notebook.clock as? SystemClock)
            #expect(try container.resolve(Clock.self) as? SystemClock === clock)
            #expect(notebook.add("milk").text == "milk")
        }

        @Test func addingStampsTheNoteWithTheClock() throws {
            try container.withOverrides {
                $0.register(Clock.self) { _ in FixedClock(now: .distantPast) }
            } operation: {
                let notebook = try container.resolve(Notebook.self)
                #expect(notebook.add("milk").created == .distantPast)
            }
        }

        @Test func anInstanceBuiltInsideWithOverridesKeepsItsOverridesAndLaterResolvesDoNotSeeThem() throws {
            let built = try container.withOverrides {
                $0.register(Clock.self) { _ in FixedClock(now: .distantPast) }
            } operation: {
                try container.resolve(Notebook.self)
            }
            #expect(built.add("milk").created == .distantPast)
            #expect(try container.resolve(Notebook.self).clock is SystemClock)
        }

        @Test func overridesAreSeenByTheCurrentTaskOnlyNotByATaskRunningBesideIt() async throws {
            let container = container
            try await container.withOverridesAsync {
                $0.register(Clock.self) { _ in FixedClock(now: .distantPast) }
            } operation: {
                let notebook = try container.resolve(Notebook.self)
                #expect(notebook.clock is FixedClock)
                let beside = Task.detached { try container.resolve(Notebook.self).clock is SystemClock }
                let besideSeesTheAppsClock = try await beside.value
                #expect(besideSeesTheAppsClock)
            }
        }
    }

    // MARK: When not to use Injector

    @Suite struct WhenNotToUseInjector {
        @Test func aFewServicesWiredByHandNeedNoContainer() {
            let clock = SystemClock()
            let store = FileNoteStore(clock: clock)
            let server = NoteServer(store: store, clock: clock)

            #expect(server.store.clock as? SystemClock === clock)
            #expect(server.clock as? SystemClock === clock)
        }

        @Test func resolvingOnceBeforeTheLoopRunsTheFactoryOnceForEveryNote() throws {
            let notes = ["milk", "eggs", "bread"].map { Note(text: $0, created: .distantPast) }
            let factoryRuns = CallCounter()
            let container = Container()
            container.register(Exporter.self, name: "pdf") { _ in
                factoryRuns.next()
                return PDFExporter()
            }

            let exporter = try container.resolve(Exporter.self, name: "pdf")  // once
            for note in notes {
                try exporter.export(note)  // not a resolve per note
            }

            #expect(factoryRuns.count == 1)
            #expect((exporter as? PDFExporter)?.exported == ["milk", "eggs", "bread"])
        }
    }
}
