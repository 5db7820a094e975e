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

// The snippets of Container.resolve(_:name:arguments:configure:), resolveAll(_:), resolveAllAsync(_:isolation:) and
// resolveAsync(_:name:arguments:configure:isolation:)'s doc comments (Container+Resolution.swift), with the
// types they assume, and what the comments say of them.

private protocol NoteStore: AnyObject, Sendable {}
private final class FileNoteStore: NoteStore {}
private protocol Exporter { var format: String { get } }
private struct PDFExporter: Exporter { let format = "pdf" }
private struct CloudExporter: Exporter {
    let format = "cloud"
    static func connect() async throws -> CloudExporter { CloudExporter() }
}
private struct Note: Sendable { let text: String }
private protocol Editor: Sendable {
    var title: String { get set }
    var note: Note? { get }
    var readOnly: Bool { get }
}
private struct NoteEditor: Editor {
    var title = "Untitled"
    var note: Note?
    var readOnly = false
}

private protocol Plugin { var name: String { get } }
private struct SpellingPlugin: Plugin { let name = "spelling" }
private struct WordCountPlugin: Plugin { let name = "word count" }
private struct OutlinePlugin: Plugin { let name = "outline" }

private final class DatabasePool: Sendable {
    static let connections = CallCounter()
    static func connect() async throws -> DatabasePool {
        await Task.yield()
        _ = connections.next()
        return DatabasePool()
    }
}

@Suite struct ContainerResolutionDocTests {
    @Test func resolvesByTypeNameArgumentsAndCallersConfigure() throws {
        let container = Container()
        container.register(NoteStore.self, scope: .singleton) { _ in FileNoteStore() }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Editor.self) { _ in NoteEditor() }
        container.register(Editor.self) { (_, note: Note, readOnly: Bool) in NoteEditor(note: note, readOnly: readOnly)
        }
        let note = Note(text: "hello")
        let readOnly = true

        let store = try container.resolve(NoteStore.self)
        let pdf = try container.resolve(Exporter.self, name: "pdf")
        let editor = try container.resolve(Editor.self, arguments: note, readOnly)  // dynamic injection
        let draft = try container.resolve(Editor.self) { $0.title = "Draft" }  // caller's configure

        #expect(store === (try container.resolve(NoteStore.self)))
        #expect(pdf.format == "pdf")
        #expect(editor.note?.text == "hello")
        #expect(editor.readOnly)
        #expect(draft.title == "Draft")
        #expect(try container.resolve(Editor.self).title == "Untitled")
    }

    @Test func configureOnASharedInstanceThrows() throws {
        let container = Container()
        container.register(Editor.self, scope: .singleton) { _ in NoteEditor() }
        let error = try #require(injectionError { try container.resolve(Editor.self) { $0.title = "Draft" } })
        #expect(error.code == .sharedInstanceConfigured)
        #expect(
            error.message == "A configure closure was given for Editor, whose .singleton instance is shared with other"
                + " callers, so one caller may not shape it. Fix: move that set-up into the factory or an onResolved"
                + " hook, or register Editor as .transient if each caller needs its own."
        )
    }

    @Test func resolveAllReturnsOnePerRegistrationInRegistrationOrder() throws {
        let container = Container()
        container.register(Plugin.self, name: "spelling") { _ in SpellingPlugin() }
        container.register(Plugin.self, name: "word count") { _ in WordCountPlugin() }
        let plugins = try container.resolveAll(Plugin.self)  // [SpellingPlugin, WordCountPlugin]

        #expect(plugins.map(\.name) == ["spelling", "word count"])
        #expect(plugins[0] is SpellingPlugin && plugins[1] is WordCountPlugin)
        #expect(try container.resolveAll(Exporter.self).isEmpty)
    }

    @Test func resolveAllAsyncRunsTheAsyncFactoriesAmongThem() async throws {
        let container = Container()
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Exporter.self, name: "cloud") { _ async throws in try await CloudExporter.connect() }
        let exporters = try await container.resolveAllAsync(Exporter.self)  // [PDFExporter, CloudExporter]

        #expect(exporters[0] is PDFExporter && exporters[1] is CloudExporter)
    }

    @Test func resolveAllFromAChildKeepsTheShadowedKeysPlaceThenAddsTheChilds() throws {
        let container = Container()
        container.register(Plugin.self, name: "spelling") { _ in SpellingPlugin() }
        container.register(Plugin.self, name: "word count") { _ in WordCountPlugin() }
        let child = container.makeChild()
        child.register(Plugin.self, name: "outline") { _ in OutlinePlugin() }
        child.register(Plugin.self, name: "spelling") { _ in OutlinePlugin() }
        #expect(try child.resolveAll(Plugin.self).map(\.name) == ["outline", "word count", "outline"])
    }

    @Test func resolveAsyncRunsAnAsyncSingletonsFactoryOnce() async throws {
        let container = Container()
        container.register(DatabasePool.self, scope: .singleton) { _ in try await DatabasePool.connect() }
        let pool = try await container.resolveAsync(DatabasePool.self)

        async let others = [
            container.resolveAsync(DatabasePool.self), container.resolveAsync(DatabasePool.self),
        ]
        #expect(try await others.allSatisfy { $0 === pool })
        #expect(DatabasePool.connections.count == 1)
        let error = try #require(injectionError { try container.resolve(DatabasePool.self) })
        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message == "DatabasePool has an async factory, which a sync resolve cannot run. Fix: resolve it with"
                + " try await resolveAsync(DatabasePool.self), from the container or scope you resolve from"
                + " (r.resolveAsync in an async factory); a sync factory that needs it must become async too."
        )
    }
}
