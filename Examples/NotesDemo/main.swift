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

// A tour of Injector on a small notes app. Run it with `swift run NotesDemo`.
import Foundation
import Injector
import InjectorRouting

func step(_ title: String) { print("\n== \(title)") }

step("1. Register the app's modules, then finish registration")
let container = Container()
container.install(StorageModule(), ExportModule(), EditingModule(), SyncModule(), RequestModule())
try container.finishRegistration()
print("Five modules installed; the registry is frozen: a registration from here on is an error.")

step("2. Resolve services by protocol")
let store = try container.resolve(NoteStore.self)
let sameStore = try container.resolve(NoteStore.self)
print("NoteStore is a singleton: both resolves return one instance -> \(store === sameStore)")

step("3. A named registration: two Exporters, told apart by name")
let note = Note(text: "Buy milk")
for name in ["markdown", "pdf"] {
    let exporter = try container.resolve(Exporter.self, name: name)
    print("\(name): \(exporter.export(note).split(separator: "\n").first ?? "")")
}
let exporters = try container.resolveAll(Exporter.self).map { "\(type(of: $0))" }
print("All exporters, in registration order: \(exporters.joined(separator: ", "))")

step("4. Dynamic injection: the note is an argument, the title a caller's configure")
let editor = try container.resolve(Editor.self, argument: note) { $0.title = "Groceries" }
editor.save()
print("Editor for \"\(editor.note.text)\" titled \"\(editor.title)\" saved; the store holds \(store.count) note(s).")

step("5. A property cycle, closed after construction")
let window = try container.resolve(Window.self)
print("Window and toolbar are one graph: toolbar.window is the window -> \(window.toolbar.window === window)")

step("6. A constructor cycle is reported with its path, not a stack overflow")
do {
    _ = try container.resolve(SyncService.self)
} catch let error as InjectionError {
    print("(expected: SyncService and Session are registered in a cycle on purpose)")
    print("\(error.code): \(error.message)")
}

step("7. A child container overrides a dependency, as a test would")
struct FrozenClock: Clock { let now = "2000-01-01 00:00" }
let test = container.makeChild()
test.register(Clock.self) { _ in FrozenClock() }
print(
    "The app's clock: \(try container.resolve(Clock.self).now); the test's clock: \(try test.resolve(Clock.self).now)"
)

step("8. A mistake gets an error that says how to fix it")
do {
    _ = try container.resolve(Exporter.self, name: "html")
} catch let error as InjectionError {
    print("(expected: there is no \"html\" exporter)")
    print("\(error.code): \(error.message)")
}

step("9. A request scope: one context per request, disposed in reverse order when it closes")
try await container.withScopeAsync(tag: .request) { request in
    let first = try request.resolve(NoteHandler.self)
    let second = try request.resolve(NoteHandler.self)
    print(first.handle("Call the plumber"))
    print("Two handlers, one request context -> \(first.context === second.context)")
    print("Closing the request:")
}  // withScopeAsync closes the scope on every path
do {
    _ = try container.resolve(NoteHandler.self)
} catch let error as InjectionError {
    print("(expected) Outside a request: \(error.code): \(error.message)")
}

step("10. An async factory, resolved with try await resolveAsync")
let index = try await container.resolveAsync(SearchIndex.self)
print(
    "The search index covers \(index.words) words; it was built once -> \(try await container.resolveAsync(SearchIndex.self) === index)"
)

step("11. Overrides for one test, seen by this task only")
try container.withOverrides {
    $0.register(Clock.self) { _ in FrozenClock() }
} operation: {
    print("Inside: the clock says \(try container.resolve(Clock.self).now)")
}
print("After: the clock says \(try container.resolve(Clock.self).now)")

step("12. Validate the whole graph at launch: every problem at once")
print("validate() checks declared services from their declarations; it builds the others in a sandbox,")
print("then disposes what it built:")
do {
    try container.validate()
} catch let error as InjectionError {
    print("(expected: the one problem is step 6's cycle)")
    print(error.message)
}

step("13. Declared dependencies are checked without building anything, even behind a request's values")
let requests = Container()
requests.register(RequestID.self, providedByScope: .request)  // a value each request scope is given
requests.register(AuditTrail.self, scope: .scoped(to: .request), AuditTrail.init)  // init(request:mailer:)
print("AuditTrail declares its parameters, so the graph knows them before anything is built:")
print(requests.dependencyGraph().textTree, terminator: "")
do {
    try requests.validate()
} catch let error as InjectionError {
    print("(expected: nothing registers the Mailer that AuditTrail's initialiser takes)")
    print(error.message)
}

step("14. The dependency graph, as a tree and as a Graphviz file")
print(container.dependencyGraph().textTree, terminator: "")
let dotFile = FileManager.default.temporaryDirectory.appendingPathComponent("notes-graph.dot")
try container.dependencyGraph().dot.write(to: dotFile, atomically: true, encoding: .utf8)
print("Wrote it to the temporary directory, \(dotFile.path)")
print("Render it with: dot -Tsvg \(dotFile.path) -o notes-graph.svg")

step("15. Routing: find a module by the protocol its caller needs")
// Routes live in a child container here only because the app's registry above is already frozen.
let app = container.makeChild()
let router = Router(container: app)
let signedIn = Guarded(false)
registerRoutes(on: router, isSignedIn: { signedIn.withLock { $0 } })
let time = try router.makeDestination(to: RoutableService<any TimeService>())
print("The caller knows only the TimeService protocol; the container made it: it is \(time.now)")

step("16. A module made with parameters that do not belong to the destination")
let readOnlyEditor = try router.makeDestination(to: RoutableServiceModule<any EditorModule>()) {
    $0.makeDestinationWith(Note(text: "Trip plans"), readOnly: true)
}
print("The editor module made an editor titled \"\(readOnlyEditor.title)\"")

step("17. A protocol one module requires, served by another module through an adapter")
let syncLog = try router.makeDestination(to: RoutableService<any SyncLogging>())
syncLog.record("synced 3 notes")
let activity = try router.makeDestination(to: RoutableService<any ActivityLog>())
print("The sync module logged through SyncLogging; the activity log reads: \(activity.entries)")

step("18. Open a URL: its placeholders and query items reach the route as typed values")
let viewer = try router.makeDestination(url: "notes://notes/2?highlight=milk", as: (any NoteViewer).self)
print("notes://notes/2?highlight=milk opened \(viewer.summary)")
do {
    _ = try router.makeDestination(url: "notes://notes/two", as: Any.self)
} catch let error as RoutingError {
    print("\(error.code): \(error.message)")
}

step("19. An interceptor sends a signed-out user to sign in first")
let opened = try router.perform(url: "notes://notes/2/edit")  // an untyped call takes what it is redirected to
print("Signed out, the URL gave its caller a \(opened.destination.map { "\(type(of: $0))" } ?? "nothing")")
do {
    _ = try router.makeDestination(url: "notes://notes/2/edit", as: (any NoteEditing).self)
} catch let error as RoutingError {
    print("(expected) \(error.code): \(error.message)")  // a call for an editor cannot hold a sign-in prompt
}
signedIn.withLock { $0 = true }
let editing = try router.makeDestination(url: "notes://notes/2/edit", as: (any NoteEditing).self)
print("Signed in, the same URL opens the editor for note #\(editing.noteID)")

step("20. Screens on a navigation host: a signed-out user is shown sign-in first")
// The headless host keeps a navigation hierarchy in memory, as UIKit would: testable on Linux.
let home = HomeScreen()
let screens = HeadlessNavigationHost(navigationStackWith: home)
let screenRouter = Router(container: app, host: screens)
let screenSession = Guarded(false)
registerScreens(on: screenRouter, isSignedIn: { screenSession.withLock { $0 } })
let editorRoute = try screenRouter.to(RoutableView<any EditorView>(), path: .push(from: home)) { config in
    config.prepareDestination = { $0.note = Note(text: "Groceries") }
}
do {
    try editorRoute.perform()
} catch let error as RoutingError {
    print("\(error.code): \(error.message)")
}
print(screens)

step("21. Signed in, the editor is pushed; a deep link opens a note over it")
if let signIn = screens.presentedScreen(of: home) { try screens.dismiss(signIn) }  // the user signed in
screenSession.withLock { $0 = true }
try editorRoute.perform()
let deepLink = try screenRouter.perform(url: "notes://screens/notes/7", path: .push(from: editorRoute.destination!))
print(screens)

step("22. Removing routes undoes what they did, whatever it was")
try deepLink.removeRoute()
try editorRoute.removeRoute()
print(screens)
print("The deep link's route is \(deepLink.state), the editor's \(editorRoute.state); home is alone again.")
