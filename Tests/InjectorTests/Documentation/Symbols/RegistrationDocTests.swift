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

// The snippets of Registration.onResolved(fileID:line:_:) and verify(fileID:line:_:)'s doc comments
// (Registration.swift), with the types they assume: a hook closes a cycle within one graph, as the
// instance is stored before the hook runs; a check or hook that throws fails the resolve with
// preparationFailed; a caller's configure runs before the check.

private final class Parent: Sendable {
    let child: Child
    init(child: Child) { self.child = child }
}
private final class Child: @unchecked Sendable {  // `parent` is set once, by the resolve that builds it
    weak var parent: Parent?
}

private struct Note { let title: String }
private protocol Editor { var note: Note? { get set } }
private struct NoteEditor: Editor { var note: Note? }
private struct SetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite struct RegistrationDocTests {
    @Test func aHookClosesACycleWithinOneGraph() throws {
        let container = Container()

        container.register(Parent.self, scope: .graph) { r in Parent(child: try r.resolve(Child.self)) }
        container.register(Child.self, scope: .graph) { _ in Child() }
            .onResolved { r, child in child.parent = try r.resolve(Parent.self) }

        let parent = try container.resolve(Parent.self)
        #expect(parent.child.parent === parent)
    }

    @Test func aHookThatThrowsFailsTheResolve() throws {
        let container = Container()
        container.register(Child.self) { _ in Child() }
            .onResolved { _, _ in throw SetupError("no parent") }
        let error = try #require(injectionError { try container.resolve(Child.self) })
        #expect(error.code == .preparationFailed)
        #expect(
            error.message
                == "Preparing Child failed: an onResolved hook threw: no parent. The error is the underlyingError."
        )
    }

    @Test func aCheckThatThrowsFailsTheResolveAndConfigureRunsBeforeIt() throws {
        let container = Container()

        container.register(Editor.self) { _ in NoteEditor() }
            .verify { editor in
                guard editor.note != nil else { throw SetupError("an Editor needs a note: pass configure") }
            }

        let error = try #require(injectionError { try container.resolve(Editor.self) })
        #expect(error.code == .preparationFailed)
        #expect(
            error.message
                == "Preparing Editor failed: a verify check threw: an Editor needs a note: pass configure. The error"
                + " is the underlyingError."
        )
        let editor = try container.resolve(Editor.self) { $0.note = Note(title: "hello") }
        #expect(editor.note?.title == "hello")
    }
}
