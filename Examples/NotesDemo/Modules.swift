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

/// Storage: one clock for the whole app, and a note store that uses it.
struct StorageModule: Module {
    func register(into container: Container) {
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self, scope: .singleton) { r in
            try MemoryNoteStore(clock: r.resolve(Clock.self))
        }
    }
}

/// Exporting: two exporters of one protocol, told apart by name.
struct ExportModule: Module {
    func register(into container: Container) {
        container.register(Exporter.self, name: "markdown") { _ in MarkdownExporter() }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
    }
}

/// Editing: an editor per note (the note is given at resolve time), and a window whose toolbar
/// points back to it.
struct EditingModule: Module {
    func register(into container: Container) {
        container.register(Editor.self) { (r, note: Note) in
            try NoteEditor(note: note, store: r.resolve(NoteStore.self))
        }
        container.register(Window.self, scope: .graph) { r in
            try Window(toolbar: r.resolve(Toolbar.self))
        }
        container.register(Toolbar.self, scope: .graph) { _ in Toolbar() }
            .onResolved { r, toolbar in toolbar.window = try r.resolve(Window.self) }
    }
}

/// Syncing: registered with a constructor cycle, which the container reports with its path.
struct SyncModule: Module {
    func register(into container: Container) {
        container.register(SyncService.self) { r in try CloudSync(session: r.resolve(Session.self)) }
        container.register(Session.self) { r in try UserSession(sync: r.resolve(SyncService.self)) }
    }
}

/// Serving requests: a context and a transaction per request scope, a handler per call, and a
/// search index built by an async factory.
struct RequestModule: Module {
    private static let requestNumbers = Guarded(0)

    func register(into container: Container) {
        container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in
            let number = Self.requestNumbers.withLock { count in
                count += 1
                return count
            }
            return RequestContext(id: number)
        }
        // Declared: the container resolves each initialiser's parameters by type, and validation
        // checks them without building anything.
        container.register(Transaction.self, scope: .scoped(to: .request), Transaction.init)
        container.register(NoteHandler.self, NoteHandler.init)
        container.register(SearchIndex.self, scope: .singleton) { r in
            await SearchIndex.build(over: try r.resolve(NoteStore.self).count)
        }
    }
}
