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

// The snippets of Resolver.resolve(_:name:arguments:configure:), Resolver.resolveAll(_:) and
// Resolver.container's doc comments (Resolver.swift), with the types they assume: a factory
// resolves its dependencies, named or not, through the resolver it is given; resolveAll lists one
// per registration in order; child tasks resolve through the resolver's container.

private protocol NoteStore: AnyObject, Sendable {}
private final class FileNoteStore: NoteStore {}
private protocol Exporter { var format: String { get } }
private struct PDFExporter: Exporter { let format = "pdf" }
private struct TextExporter: Exporter { let format = "txt" }
private protocol Editor {
    var store: any NoteStore { get }
    var exporter: any Exporter { get }
}
private struct NoteEditor: Editor {
    let store: any NoteStore
    let exporter: any Exporter
}

private protocol Plugin { var name: String { get } }
private struct SpellingPlugin: Plugin { let name = "spelling" }
private struct WordCountPlugin: Plugin { let name = "word count" }
private struct Toolbar { let plugins: [any Plugin] }

private final class Stats: Sendable {}
private final class Dashboard: Sendable {
    let notes: any NoteStore
    let stats: Stats
    init(notes: any NoteStore, stats: Stats) {
        self.notes = notes
        self.stats = stats
    }
}

@Suite struct ResolverDocTests {
    @Test func aFactoryResolvesItsDependenciesThroughItsResolver() throws {
        let container = Container()
        container.register(NoteStore.self, scope: .singleton) { _ in FileNoteStore() }
        container.register(Exporter.self) { _ in TextExporter() }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Editor.self) { r in
            try NoteEditor(store: r.resolve(NoteStore.self), exporter: r.resolve(Exporter.self, name: "pdf"))
        }

        let editor = try container.resolve(Editor.self)
        #expect(editor.store === (try container.resolve(NoteStore.self)))
        #expect(editor.exporter.format == "pdf")
    }

    @Test func resolveAllReturnsOnePerRegistrationInRegistrationOrder() throws {
        let container = Container()
        container.register(Plugin.self, name: "spelling") { _ in SpellingPlugin() }
        container.register(Plugin.self, name: "word count") { _ in WordCountPlugin() }
        let plugins = try container.resolveAll(Plugin.self)  // [SpellingPlugin, WordCountPlugin]
        #expect(plugins.map(\.name) == ["spelling", "word count"])

        // The same through a factory's resolver, as Resolver.resolveAll(_:)'s comment shows it.
        container.register(Toolbar.self) { r in Toolbar(plugins: try r.resolveAll(Plugin.self)) }
        #expect(try container.resolve(Toolbar.self).plugins.map(\.name) == ["spelling", "word count"])
    }

    @Test func childTasksResolveThroughTheResolversContainer() async throws {
        let container = Container()
        container.register(NoteStore.self, scope: .singleton) { _ in FileNoteStore() }
        container.register(Stats.self) { _ in Stats() }
        container.register(Dashboard.self) { r in
            let container = try r.container
            async let notes = container.resolveAsync(NoteStore.self)
            async let stats = container.resolveAsync(Stats.self)
            return try await Dashboard(notes: notes, stats: stats)
        }

        let dashboard = try await container.resolveAsync(Dashboard.self)
        #expect(dashboard.notes === (try container.resolve(NoteStore.self)))
    }
}
