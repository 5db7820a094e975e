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

// The app's routes: modules found by the protocol their caller needs, made through the container.
import Injector
import InjectorRouting

/// Tells the time to the app's screens.
protocol TimeService: Sendable {
    var now: String { get }
}

struct ClockTimeService: TimeService {
    let clock: any Clock
    var now: String { clock.now }
}

/// The editing module's parameters, which do not belong to the editor itself.
protocol EditorModule {
    func makeDestinationWith(_ note: Note, readOnly: Bool) -> any Editor
}

struct EditorModuleConfiguration: EditorModule {
    let store: any NoteStore

    func makeDestinationWith(_ note: Note, readOnly: Bool) -> any Editor {
        let editor = NoteEditor(note: note, store: store)
        editor.title = readOnly ? "\(note.text) (read-only)" : note.text
        return editor
    }
}

/// What the sync module requires to log its work; the app serves it with its activity log.
protocol SyncLogging: AnyObject {
    func record(_ event: String)
}

/// The app's activity log, a module of its own.
protocol ActivityLog: AnyObject, Sendable {
    func record(_ event: String)
    var entries: [String] { get }
}

final class MemoryActivityLog: ActivityLog, @unchecked Sendable {
    private let lines = Guarded<[String]>([])
    func record(_ event: String) { lines.withLock { $0.append(event) } }
    var entries: [String] { lines.withLock { $0 } }
}

/// The app declares that its activity log serves what the sync module requires.
extension MemoryActivityLog: SyncLogging {}

/// Shows one note; opened by a URL.
protocol NoteViewer {
    var summary: String { get }
}

struct StoreNoteViewer: NoteViewer {
    let id: Int
    let highlight: String?
    var summary: String { "note #\(id)" + (highlight.map { ", highlighting \"\($0)\"" } ?? "") }
}

/// Edits a note opened by a URL; only for signed-in users.
protocol NoteEditing {
    var noteID: Int { get }
}

struct URLNoteEditor: NoteEditing {
    let noteID: Int
}

/// The sign-in screen an interceptor sends signed-out users to.
protocol SignInService {}

struct SignInPrompt: SignInService {}

extension RoutableService where Protocol == any TimeService {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableServiceModule where Protocol == any EditorModule {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any SyncLogging {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any ActivityLog {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any NoteViewer {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any NoteEditing {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any SignInService {
    init() { self.init(declaredProtocol: Protocol.self) }
}

/// Registers the app's routes. `isSignedIn` stands for the app's session.
func registerRoutes(on router: Router, isSignedIn: @escaping @Sendable () -> Bool) {
    router.register(RoutableService<any TimeService>(), scope: .singleton) { r in
        ClockTimeService(clock: try r.resolve((any Clock).self))
    }
    router.register(RoutableServiceModule<any EditorModule>()) { r in
        EditorModuleConfiguration(store: try r.resolve((any NoteStore).self))
    }
    router.register(RoutableService<any ActivityLog>(), scope: .singleton) { _ in MemoryActivityLog() }
    router.adapt(RoutableService<any SyncLogging>(), to: RoutableService<any ActivityLog>())
    router.register(RoutableService<any NoteViewer>()) { (_, parameters: RouteParameters) in
        StoreNoteViewer(
            id: try parameters.value("id", as: Int.self),
            highlight: try parameters.valueIfPresent("highlight", as: String.self)
        )
    }
    .url("notes://notes/:id")
    router.register(RoutableService<any NoteEditing>()) { (_, parameters: RouteParameters) in
        URLNoteEditor(noteID: try parameters.value("id", as: Int.self))
    }
    .url("notes://notes/:id/edit")
    router.register(RoutableService<any SignInService>()) { _ in SignInPrompt() }
        .prepare { _, _ in print("  (the sign-in prompt is made and prepared)") }

    router.addInterceptor(named: "sign-in") { request in
        guard request.isRouting(to: RoutableService<any NoteEditing>()), !isSignedIn() else { return .proceed }
        return .redirect(to: RoutableService<any SignInService>())
    }
}
