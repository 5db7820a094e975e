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

// The snippet of Resolving's doc comment (Resolving.swift), with the types it assumes: a helper
// written once against `Resolving` serves the container, a factory's resolver and a lifetime
// scope, each resolving as its own kind does.

private struct Note: Sendable {
    let title: String
    static let welcome = Note(title: "Welcome")
}
private protocol Editor { var note: Note { get } }
private struct NoteEditor: Editor { let note: Note }
private struct Window { let editor: Editor }

private final class RequestLog: Sendable {}
private struct Handler { let log: RequestLog }

extension Resolving {
    fileprivate func editor(for note: Note) throws -> Editor {
        try resolve(Editor.self, argument: note)
    }
}

private func handler(from resolving: some Resolving) throws -> Handler {
    try Handler(log: resolving.resolve(RequestLog.self))
}

private func log(from resolving: some Resolving) async throws -> RequestLog {
    try await resolving.resolveAsync(RequestLog.self)
}

@Suite struct ResolvingDocTests {
    @Test func aHelperWrittenAgainstResolvingServesTheContainerAndAFactorysResolver() throws {
        let container = Container()
        container.register(Editor.self) { (_, note: Note) in NoteEditor(note: note) }
        let note = Note(title: "Groceries")
        let editor = try container.editor(for: note)
        container.register(Window.self) { r in try Window(editor: r.editor(for: .welcome)) }

        #expect(editor.note.title == "Groceries")
        #expect(try container.resolve(Window.self).editor.note.title == "Welcome")
    }

    @Test func aHelperWrittenAgainstResolvingResolvesInTheScopeItIsCalledOn() throws {
        let container = Container()
        container.register(RequestLog.self, scope: .scoped) { _ in RequestLog() }
        container.register(Handler.self) { r in try handler(from: r) }
        let scope = container.makeScope()

        let fromScope = try handler(from: scope)

        #expect(fromScope.log === (try scope.resolve(RequestLog.self)))
        #expect(try scope.resolve(Handler.self).log === fromScope.log)
        let outsideAnyScope = #expect(throws: InjectionError.self) { try handler(from: container) }
        #expect(outsideAnyScope?.code == .scopeMismatch)
        #expect(
            outsideAnyScope?.message
                == "RequestLog is .scoped, but was resolved from a container, outside any lifetime scope, so"
                + " nothing would own its instance. Fix: resolve from a lifetime scope: let scope ="
                + " container.makeScope(); try scope.resolve(…)."
        )
    }

    @Test func anAsyncHelperWrittenAgainstResolvingServesAllThree() async throws {
        let container = Container()
        container.register(RequestLog.self, scope: .singleton) { _ async in RequestLog() }
        container.register(Handler.self) { r async throws in try await Handler(log: log(from: r)) }
        let scope = container.makeScope()

        let fromContainer = try await log(from: container)

        #expect(try await log(from: scope) === fromContainer)
        #expect(try await container.resolveAsync(Handler.self).log === fromContainer)
    }
}
