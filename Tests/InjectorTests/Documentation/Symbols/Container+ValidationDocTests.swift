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

// The snippet of Container.validate()'s doc comment (Container+Validation.swift), with the app
// container it assumes, and what the comment says it finds: a missing dependency with the path
// that needs it, in one error listing every problem.

private protocol Clock: Sendable {}
private struct SystemClock: Clock {}
private protocol NoteStore {}
private struct FileNoteStore: NoteStore { let clock: any Clock }
private protocol Editor {}
private struct NoteEditor: Editor { let store: any NoteStore }

private enum AppContainer {
    static func make(withClock: Bool = true) -> Container {
        let container = Container()
        container.register(Editor.self) { r in try NoteEditor(store: r.resolve(NoteStore.self)) }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        if withClock { container.register(Clock.self, scope: .singleton) { _ in SystemClock() } }
        return container
    }
}

@Suite struct ContainerValidationDocTests {
    @Test func theGraphIsComplete() throws {
        try AppContainer.make().validate()
    }

    @Test func aMissingDependencyIsReportedWithThePathThatNeedsIt() throws {
        let error = try #require(injectionError { try AppContainer.make(withClock: false).validate() })
        #expect(error.code == .validationFailed)
        let missing =
            "No registration for Clock, needed by Editor -> NoteStore -> Clock (missing). Nothing is registered for"
            + " Clock under any name or arguments. Fix: register it, e.g. container.register(Clock.self) { r in … },"
            + " in this container or one of its parents."
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(error.problems.map(\.message) == [missing])
        #expect(error.message == "Validation found 1 problem:\n- " + missing)
    }
}
