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

// The docs' "Cycles, and closing them after construction" and "Dynamic injection": a constructor
// cycle reported with its path, two objects that point at each other through an onResolved hook, a
// verify check that fails the resolve, and the order factory → configure → hooks → checks.

private final class Window {
    let toolbar: Toolbar
    init(toolbar: Toolbar) { self.toolbar = toolbar }
}
private final class Toolbar {
    weak var window: Window?
}

private struct Note { let text: String }
private protocol Editor: AnyObject {
    var note: Note? { get set }
    var title: String { get set }
}
private final class NoteEditor: Editor {
    var note: Note?
    var title = ""
    /// What touched it, in order.
    var steps: [String] = []
    init(note: Note? = nil) { self.note = note }
}
private enum SetupError: Error { case noteMissing }
/// A shared service.
private final class Preferences: Sendable {}

private final class SyncService {
    init(session: Session) {}
}
private final class Session {
    init(sync: SyncService) {}
}
private final class Entry { init(alpha: Alpha) {} }
private final class Alpha { init(beta: Beta) {} }
private final class Beta { init(alpha: Alpha) {} }

@Suite struct ReadmeCycleTests {
    @Test func anOnResolvedHookGivesTheToolbarTheWindowBeingBuilt() throws {
        let container = Container()

        // README begins
        container.register(Window.self, scope: .graph) { r in try Window(toolbar: r.resolve(Toolbar.self)) }
        container.register(Toolbar.self, scope: .graph) { _ in Toolbar() }
            .onResolved { r, toolbar in toolbar.window = try r.resolve(Window.self) }
        // README ends

        let window = try container.resolve(Window.self)
        #expect(window.toolbar.window === window)
    }

    @Test func aVerifyCheckFailsTheResolveOfAnInstanceThatIsNotReady() throws {
        let container = Container()

        // README begins
        container.register(Editor.self) { _ in NoteEditor() }
            .verify { editor in guard editor.note != nil else { throw SetupError.noteMissing } }
        // README ends

        let error = injectionError { try container.resolve(Editor.self) }
        #expect(error?.code == .preparationFailed)
        #expect(error?.underlyingError as? SetupError == .noteMissing)
        #expect(
            error?.message == "Preparing Editor failed: a verify check threw: noteMissing. The error is the"
                + " underlyingError."
        )

        // Given a note before the check runs, the editor passes it.
        let editor = try container.resolve(Editor.self) { $0.note = Note(text: "Groceries") }
        #expect(editor.note?.text == "Groceries")
    }

    /// factory → `configure` → `onResolved` hooks → `verify` checks.
    @Test func configureShapesTheInstanceBeforeTheHooksAndChecksRun() throws {
        let container = Container()
        container.register(Editor.self) { (_, note: Note) in
            let editor = NoteEditor(note: note)
            editor.steps.append("factory")
            return editor
        }
        .onResolved { _, editor in (editor as? NoteEditor)?.steps.append("onResolved: \(editor.title)") }
        .verify { editor in (editor as? NoteEditor)?.steps.append("verify: \(editor.title)") }
        let note = Note(text: "milk")

        // README begins
        let editor = try container.resolve(Editor.self, argument: note) { $0.title = "Groceries" }
        // README ends

        #expect((editor as? NoteEditor)?.steps == ["factory", "onResolved: Groceries", "verify: Groceries"])
        #expect(editor.note?.text == "milk")
    }

    /// `configure` shapes an instance nobody else holds: on a shared one it is an error.
    @Test func configureOnASharedInstanceIsAnError() {
        let container = Container()
        container.register(Preferences.self, scope: .singleton) { _ in Preferences() }

        let error = injectionError { try container.resolve(Preferences.self) { _ in } }

        #expect(error?.code == .sharedInstanceConfigured)
        #expect(
            error?.message == "A configure closure was given for Preferences, whose .singleton instance is shared"
                + " with other callers, so one caller may not shape it. Fix: move that set-up into the factory or an"
                + " onResolved hook, or register Preferences as .transient if each caller needs its own."
        )
    }

    /// The docs' constructor cycle, with the start of the message it quotes.
    @Test func aConstructorCycleIsReportedWithTheCycleWrittenOut() {
        let container = Container()
        let built = CallCounter()
        container.register(SyncService.self) { r in
            built.next()
            return try SyncService(session: r.resolve(Session.self))
        }
        container.register(Session.self) { r in try Session(sync: r.resolve(SyncService.self)) }

        let error = injectionError { try container.resolve(SyncService.self) }

        #expect(error?.code == .circularDependency)
        #expect(
            error.map { "\($0.code): \($0.message)" }
                == "circularDependency: Circular dependency: SyncService -> Session -> SyncService. Each of these asks"
                + " for the next in its factory, so none of them can be built first. Fix: break the cycle with"
                + " property injection: let one of them receive the other after construction, in an onResolved"
                + " hook, and give the one resolved back the .graph or .singleton scope so that the hook receives"
                + " the same instance."
        )
        #expect(built.count == 1)  // no factory runs twice
    }

    /// A loop entered below the service asked for is written from that service, then the loop.
    @Test func aLoopEnteredBelowTheServiceAskedForIsWrittenFromThatService() {
        let container = Container()
        container.register(Entry.self) { r in try Entry(alpha: r.resolve(Alpha.self)) }
        container.register(Alpha.self) { r in try Alpha(beta: r.resolve(Beta.self)) }
        container.register(Beta.self) { r in try Beta(alpha: r.resolve(Alpha.self)) }

        let error = injectionError { try container.resolve(Entry.self) }
        #expect(
            error?.message == "Circular dependency: Entry -> Alpha -> Beta -> Alpha. The loop is Alpha -> Beta ->"
                + " Alpha: each of these asks for the next in its factory, so none of them can be built first. Fix:"
                + " break the cycle with property injection: let one of them receive the other after construction, in"
                + " an onResolved hook, and give the one resolved back the .graph or .singleton scope so that the hook"
                + " receives the same instance."
        )
    }
}
