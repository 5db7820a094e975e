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

// The snippet of ValidationReport's doc comment (ValidationReport.swift): a registration that needs
// resolve-time arguments is left out of validation, and the report says so.

private struct Note { let text: String }
private protocol Editor {}
private struct NoteEditor: Editor { let note: Note }
private protocol Clock: Sendable {}
private struct SystemClock: Clock {}

@Suite struct ValidationReportDocTests {
    @Test func theReportListsWhatValidationLeftOut() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(Editor.self) { _, note in NoteEditor(note: note) }

        let report = try container.validate()
        #expect(report.unchecked.map(\.key.description) == ["Editor (argument: Note)"])

        #expect(report.unchecked.map(\.reason) == [.needsArguments])
        #expect(
            report.description == """
                Validated 1 registration.
                Not checked:
                - Editor (argument: Note): needs resolve-time arguments
                """
        )
    }
}
