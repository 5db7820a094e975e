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

// The snippet of Container.isRegistered(_:name:argumentTypes:)'s doc comment (Container+Queries.swift),
// with the types it assumes: it tells what is visible, its own, a parent's or an override's, builds
// nothing, and counts a registration that a resolve would refuse (a duplicate), unlike canResolve.

private protocol Exporter {}
private struct PDFExporter: Exporter {}
private struct Note { let title: String }
private protocol Editor {}
private struct NoteEditor: Editor { let note: Note }

@Suite struct ContainerQueriesDocTests {
    @Test func isRegisteredTellsByNameAndArgumentTypesAndBuildsNothing() {
        let container = Container()
        let built = CallCounter()
        container.register(Exporter.self, name: "pdf") { _ in
            _ = built.next()
            return PDFExporter()
        }
        container.register(Editor.self) { _, note in NoteEditor(note: note) }
        var offered: [String] = []
        func offerPDFExport() { offered.append("pdf") }

        if container.isRegistered(Exporter.self, name: "pdf") { offerPDFExport() }
        let takesANote = container.isRegistered(Editor.self, argumentTypes: Note.self)

        #expect(offered == ["pdf"])
        #expect(takesANote)
        #expect(!container.isRegistered(Exporter.self))  // not under that name
        #expect(!container.isRegistered(Editor.self))  // not without an argument
        #expect(!container.isRegistered(Editor.self, argumentTypes: String.self))
        #expect(container.makeChild().isRegistered(Exporter.self, name: "pdf"))  // a parent's
        #expect(built.count == 0)
    }

    @Test func aDuplicateCountsAsRegisteredButNotAsResolvable() throws {
        let container = Container()
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        #expect(container.isRegistered(Exporter.self, name: "pdf"))
        #expect(!container.canResolve(Exporter.self, name: "pdf"))
        #expect(throws: InjectionError.self) { try container.resolve(Exporter.self, name: "pdf") }
    }

    @Test func anOverrideInThisTaskIsRegistered() throws {
        let container = Container()
        #expect(!container.isRegistered(Exporter.self, name: "pdf"))
        try container.withOverrides {
            $0.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        } operation: {
            #expect(container.isRegistered(Exporter.self, name: "pdf"))
        }
    }
}
