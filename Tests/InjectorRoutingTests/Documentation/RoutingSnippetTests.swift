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
import InjectorRouting
import Testing

// The snippets of the InjectorRouting catalog's Routing.md, verbatim, with the types they assume,
// and what the article says of routes: if the article's code stops compiling or doing what it says,
// this fails. (.ci/check-snippets finds each snippet's lines here.)
//
// The routing tests' fixtures have a `TimeService`, a `Clock`, an `Exporter`, an `EditorModule` and
// more of their own, so the article's live in the namespace below, where its tests find them by
// their names; its declaring extension finds the article's `TimeService` through the typealias of
// this file that follows it.

/// The article's types, and its tests.
enum RoutingArticle {
    fileprivate protocol TimeService: Sendable { var now: String { get } }

    fileprivate protocol Clock: Sendable { var now: String { get } }
    fileprivate struct SystemClock: Clock { let now = "09:00" }
    fileprivate final class ClockTimeService: TimeService {
        let clock: any Clock
        init(clock: any Clock) { self.clock = clock }
        var now: String { clock.now }
    }

    fileprivate protocol Exporter: AnyObject, Sendable { var format: String { get set } }
    fileprivate final class PDFExporter: Exporter, @unchecked Sendable {  // prepared before it is shared
        var format = "text"
    }

    fileprivate protocol NoteStore: Sendable { var isOpen: Bool { get } }
    fileprivate struct FileNoteStore: NoteStore { let isOpen: Bool }
    fileprivate enum EditorError: Error, Equatable { case storeClosed }

    fileprivate protocol NoteEditing: AnyObject { var id: Int { get } }
    fileprivate final class NoteEditor: NoteEditing {
        let id: Int
        let store: any NoteStore
        init(id: Int, store: any NoteStore) {
            self.id = id
            self.store = store
        }
    }

    fileprivate struct EditorRoute: RouteDefinition {
        var urlPatterns: [String] { ["notes://notes/:id/edit"] }
        func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> NoteEditor {
            NoteEditor(id: try parameters.value("id", as: Int.self), store: try resolver.resolve((any NoteStore).self))
        }
        func verify(_ editor: NoteEditor, context: RouteContext) throws {
            guard editor.store.isOpen else { throw EditorError.storeClosed }
        }
    }

    fileprivate struct Note { let text: String }
    fileprivate protocol Editor {
        var note: Note { get }
        var readOnly: Bool { get }
    }
    fileprivate struct ReadingEditor: Editor {
        let note: Note
        let readOnly: Bool
    }
    fileprivate protocol EditorModule {
        func makeDestinationWith(_ note: Note, readOnly: Bool) -> any Editor
    }
    fileprivate final class EditorModuleConfiguration: EditorModule {
        let store: any NoteStore
        init(store: any NoteStore) { self.store = store }
        func makeDestinationWith(_ note: Note, readOnly: Bool) -> any Editor {
            ReadingEditor(note: note, readOnly: readOnly || !store.isOpen)
        }
    }

    fileprivate protocol NoteViewer { var id: Int { get } }
    fileprivate struct StoreNoteViewer: NoteViewer {
        let id: Int
        var highlight: String? = nil
    }

    fileprivate protocol SignIn {}
    fileprivate struct SignInScreen: SignIn {}
    fileprivate final class Session: Sendable {
        private let signedIn = Counter()
        var isSignedIn: Bool { signedIn.value > 0 }
        func signIn() { signedIn.next() }
    }

    fileprivate struct NotesDidSync: RouteEvent { let changed: [Int] }
}

extension RoutableService {
    /// The article's `TimeService` for the declaring extension below, in this file only.
    fileprivate typealias TimeService = RoutingArticle.TimeService
}

extension RoutableService where Protocol == any TimeService {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

// The article's other routable protocols, declared as it says.
extension RoutableService where Protocol == any RoutingArticle.Exporter {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any RoutingArticle.NoteEditing {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableServiceModule where Protocol == any RoutingArticle.EditorModule {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any RoutingArticle.NoteViewer {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any RoutingArticle.SignIn {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any SyncLogging {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any ActivityLog {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Archive {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Backup {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// The adapters' example: a log a module provides, and the protocol a consumer requires.
private protocol ActivityLog: AnyObject, Sendable { func record(_ line: String) -> String }
private protocol SyncLogging: AnyObject { func record(_ line: String) -> String }
private final class MemoryActivityLog: ActivityLog {
    func record(_ line: String) -> String { "activity: \(line)" }
}

extension MemoryActivityLog: SyncLogging {}

/// The article's interceptor, at file scope, where its guard line fits as the article writes it.
private func addSignInInterceptor(to router: Router, session: RoutingArticle.Session) {
    typealias NoteEditing = RoutingArticle.NoteEditing
    typealias SignIn = RoutingArticle.SignIn
    router.addInterceptor(named: "sign-in") { request in
        guard request.isRouting(to: RoutableService<any NoteEditing>()), !session.isSignedIn else { return .proceed }
        return .redirect(to: RoutableService<any SignIn>())
    }
}

/// Two protocols adapted to each other: a loop.
private protocol Archive: AnyObject {}
private protocol Backup: AnyObject {}

extension RoutingArticle {
    struct RoutingSnippetTests {
        // MARK: Declare, register, route

        @Test func aRouteRegisteredOnTheRouterMakesItsDestinationThroughItsContainer() throws {
            let container = Container()
            container.register((any Clock).self, scope: .singleton) { _ in SystemClock() }

            let router = Router(container: container)
            router.register(RoutableService<any TimeService>(), scope: .singleton) { r in
                ClockTimeService(clock: try r.resolve((any Clock).self))
            }

            let time = try router.makeDestination(to: RoutableService<any TimeService>())
            #expect(time.now == "09:00")
            #expect(try container.resolve((any TimeService).self) as AnyObject === time as AnyObject)
        }

        @Test func aPerformedRoutePreparesItsDestinationRunsItsHandlersAndPerformsAgainWithAFreshOne() throws {
            let container = Container()
            container.register((any Clock).self, scope: .singleton) { _ in SystemClock() }
            let router = Router(container: container)
            router.register(RoutableService<any TimeService>(), scope: .singleton) { r in
                ClockTimeService(clock: try r.resolve((any Clock).self))
            }
            router.register(RoutableService<any Exporter>()) { _ in PDFExporter() }
            let printed = EventLog()
            let print: @Sendable (String) -> Void = { printed.record($0) }
            let formats = EventLog()
            let keeper = Keeper<any Exporter>()

            let time = try router.makeDestination(to: RoutableService<any TimeService>())

            let route = try router.perform(to: RoutableService<any Exporter>()) { config in
                config.prepareDestination = { $0.format = "pdf" }  // the caller's preparation
                config.successHandler = { exporter in print("ready") }  // on every perform of the route
                config.performerSuccessHandler = { _ in print("first time") }  // on this perform only
                config.errorHandler = { action, error in print(error.message) }
                config.completionHandler = { _, result in
                    if let exporter = try? result.get() {
                        formats.record(exporter.format)
                        keeper.keep(exporter)
                    }
                }
            }
            #expect(route.state == .routed)
            try route.perform()  // again: a fresh destination
            try route.removeRoute()

            #expect(time.now == "09:00")
            #expect(printed.entries == ["ready", "first time", "ready"])
            #expect(formats.entries == ["pdf", "pdf"])  // the caller's preparation, on every perform
            #expect(keeper.kept.count == 2)
            #expect(keeper.kept.first !== keeper.kept.last)  // a fresh destination
            #expect(route.state == .removed)
        }

        // MARK: Route types

        @Test func aRouteTypeMakesTheDestinationFromTheParametersAndVerifiesIt() throws {
            let container = Container()
            container.register((any NoteStore).self) { _ in FileNoteStore(isOpen: true) }
            let router = Router(container: container)

            router.register(RoutableService<any NoteEditing>(), route: EditorRoute())

            let editor = try router.makeDestination(url: "notes://notes/5/edit", as: (any NoteEditing).self)
            #expect(editor.id == 5)

            container.register((any NoteStore).self, replacesExisting: true) { _ in FileNoteStore(isOpen: false) }
            let refused = try #require(
                routingError { _ = try router.makeDestination(url: "notes://notes/5/edit", as: (any NoteEditing).self) }
            )
            #expect(refused.code == .invalidConfiguration)
            #expect(refused.underlyingError as? EditorError == .storeClosed)
            #expect(
                refused.message
                    == "The destination of RoutableService<NoteEditing> (EditorRoute) is not ready: its verify check "
                    + "threw: storeClosed. Fix: give it what the check asks for, in the configuration's "
                    + "prepareDestination or the route's prepare hook."
            )
        }

        @Test func preparationRunsTheContainerThenTheCallerThenTheRoutesHooksThenItsChecks() throws {
            let router = Router(container: Container())
            let log = EventLog()
            router.register(RoutableService<any Exporter>()) { _ in
                log.record("container")
                return PDFExporter()
            }
            .prepare { exporter, _ in log.record("route prepares \(exporter.format)") }
            .verify { exporter, _ in log.record("route verifies \(exporter.format)") }

            _ = try router.makeDestination(to: RoutableService<any Exporter>()) { config in
                config.prepareDestination = {
                    log.record("caller prepares")
                    $0.format = "pdf"
                }
            }
            #expect(log.entries == ["container", "caller prepares", "route prepares pdf", "route verifies pdf"])
        }

        @Test func aCallerMayNotPrepareASharedDestination() throws {
            let router = Router(container: Container())
            let line = #line + 1
            router.register(RoutableService<any Exporter>(), scope: .singleton) { _ in PDFExporter() }
            let error = try #require(
                routingError {
                    _ = try router.makeDestination(to: RoutableService<any Exporter>()) { config in
                        config.prepareDestination = { $0.format = "pdf" }
                    }
                }
            )
            #expect(error.code == .invalidConfiguration)
            #expect(
                error.message
                    == "RoutableService<Exporter> was given a prepareDestination, but RoutableService<Exporter> (the "
                    + "route registered at InjectorRoutingTests/RoutingSnippetTests.swift:\(line)) is a singleton "
                    + "registration: its destination is shared with other callers, and one caller's preparation "
                    + "would change it for all. Fix: prepare it in the route's own prepare hook, or register the "
                    + "route .transient."
            )
        }

        @Test func handlersRunInTheArticlesOrderOnSuccessAndOnFailure() throws {
            let router = Router(container: Container())
            let fails = Counter()
            router.register(RoutableService<any Exporter>()) { _ in
                guard fails.next() == 1 else { throw EditorError.storeClosed }
                return PDFExporter()
            }
            let log = EventLog()
            router.globalErrorHandler = { action, error in log.record("global \(action) \(error.code)") }
            let route = try router.perform(to: RoutableService<any Exporter>()) { config in
                config.stateNotifier = { old, new in log.record("\(old) -> \(new)") }
                config.successHandler = { _ in log.record("success") }
                config.errorHandler = { _, _ in log.record("error") }
                config.completionHandler = { _, _ in log.record("completion") }
                config.performerSuccessHandler = { _ in log.record("performer success") }
                config.performerErrorHandler = { _, _ in log.record("performer error") }
            }
            #expect(throws: RoutingError.self) {
                try route.perform(errorHandler: { _, _ in log.record("performer error") })
            }
            _ = routingError { _ = try router.to(RoutableService<any NoteViewer>()) }  // a lookup that finds no route

            #expect(
                log.entries == [
                    "unrouted -> routing", "routing -> routed", "success", "completion", "performer success",
                    "routed -> routing", "routing -> routed", "error", "completion", "performer error",
                    "global performRoute destinationUnavailable", "global lookUp invalidProtocol",
                ]
            )
            #expect(route.state == .routed)
        }

        @Test func aRouteHoldsAnObjectDestinationWeakly() throws {
            let router = Router(container: Container())
            router.register(RoutableService<any Exporter>()) { _ in PDFExporter() }
            let route = try router.perform(to: RoutableService<any Exporter>())
            #expect(route.destination == nil)  // transient: nobody else holds it
        }

        // MARK: Modules, adapters, URLs, interceptors, events

        @Test func aModuleConfigurationIsMadeFreshForEveryPerformAndMakesTheDestination() throws {
            let container = Container()
            let configurations = Counter()  // each configuration is made with a store of its own
            container.register((any NoteStore).self) { _ in
                configurations.next()
                return FileNoteStore(isOpen: true)
            }
            let router = Router(container: container)
            let note = Note(text: "Groceries")

            router.register(RoutableServiceModule<any EditorModule>()) { r in
                EditorModuleConfiguration(store: try r.resolve((any NoteStore).self))
            }
            let editor = try router.makeDestination(to: RoutableServiceModule<any EditorModule>()) {
                $0.makeDestinationWith(note, readOnly: true)
            }

            #expect(editor.note.text == "Groceries")
            #expect(editor.readOnly)
            #expect(configurations.value == 1)
            try router.perform(to: RoutableServiceModule<any EditorModule>()) {
                $0.makeDestinationWith(note, readOnly: false)
            }
            #expect(configurations.value == 2)
        }

        @Test func anAdapterServesTheRequiredProtocolWithTheProvidedRoute() throws {
            let container = Container()
            let router = Router(container: container)
            router.register(RoutableService<any ActivityLog>()) { _ in MemoryActivityLog() }

            router.adapt(RoutableService<any SyncLogging>(), to: RoutableService<any ActivityLog>())

            let logging = try router.makeDestination(to: RoutableService<any SyncLogging>())
            #expect(logging.record("synced") == "activity: synced")
        }

        @Test func anAdapterChainThatEndsNowhereIsReportedAndALoopIsAnErrorNamingIt() throws {
            let router = Router(container: Container())
            router.adapt(RoutableService<any SyncLogging>(), to: RoutableService<any ActivityLog>())
            let nowhere = try #require(injectionError { _ = try router.container.validate() })
            #expect(
                nowhere.message
                    == "Validation found 1 problem:\n- No registration for ActivityLog, needed by SyncLogging -> "
                    + "ActivityLog (missing). Nothing is registered for ActivityLog under any name or arguments. Fix: "
                    + "register it, e.g. container.register(ActivityLog.self) { r in … }, in this container or one of "
                    + "its parents."
            )

            let loop = Router(container: Container())
            loop.adapt(RoutableService<any Archive>(), to: RoutableService<any Backup>())
            loop.adapt(RoutableService<any Backup>(), to: RoutableService<any Archive>())
            let validated = try #require(injectionError { _ = try loop.container.validate() })
            #expect(validated.problems.map(\.code) == [.circularDependency])
            #expect(
                validated.message
                    == "Validation found 1 problem:\n- Circular dependency: Archive -> Backup -> Archive. Each of "
                    + "these is adapted to the next, so none of them leads to a route. Fix: adapt one of them to a "
                    + "protocol that has a route of its own."
            )
            let error = try #require(routingError { _ = try loop.makeDestination(to: RoutableService<any Archive>()) })
            #expect(error.code == .cycle)
            #expect(
                error.message
                    == "Adapters lead back to themselves: Archive -> Backup -> Archive (asked for "
                    + "RoutableService<Archive>). Fix: adapt one of them to a protocol that has a route of its own."
            )
        }

        @Test func aURLsPlaceholdersAndQueryItemsReachTheRouteAsTypedValues() throws {
            let router = Router(container: Container())

            router.register(RoutableService<any NoteViewer>()) { (_, parameters: RouteParameters) in
                StoreNoteViewer(id: try parameters.value("id", as: Int.self))
            }
            .url("notes://notes/:id")
            let viewer = try router.makeDestination(url: "notes://notes/2?highlight=milk", as: (any NoteViewer).self)

            #expect(viewer.id == 2)
            let byIdentifier = Router(container: Container())
            byIdentifier.register(RoutableService<any NoteViewer>()) { (_, parameters: RouteParameters) in
                StoreNoteViewer(
                    id: try parameters.value("id", as: Int.self),
                    highlight: try parameters.valueIfPresent("highlight", as: String.self)
                )
            }
            .url("notes://notes/:id")
            .identifier("viewer")
            let decoded = try byIdentifier.makeDestination(url: "notes://notes/3?highlight=oat%20milk", as: Any.self)
            #expect((decoded as? StoreNoteViewer)?.highlight == "oat milk")  // merged in, percent-decoded
            let identified = try byIdentifier.makeDestination(
                identifier: "viewer",
                parameters: ["id": "4"],
                as: (any NoteViewer).self
            )
            #expect(identified.id == 4)
        }

        @Test func theMoreSpecificPatternWinsAndTwoEquallySpecificOnesAreAnErrorNamingBoth() throws {
            let router = Router(container: Container())
            router.register(RoutableService<any NoteViewer>()) { (_, parameters: RouteParameters) in
                StoreNoteViewer(id: try parameters.valueIfPresent("id", as: Int.self) ?? 0, highlight: "placeholder")
            }
            .url("notes://notes/:id")
            .url("notes://notes/*")
            router.register(RoutableService<any NoteEditing>(), route: EditorRoute())
            router.register(RoutableService<any SignIn>()) { _ in SignInScreen() }
                .url("notes://notes/new")

            // A literal wins.
            #expect(try router.makeDestination(url: "notes://notes/new", as: Any.self) is SignInScreen)
            #expect((try router.makeDestination(url: "notes://notes/8", as: Any.self) as? StoreNoteViewer)?.id == 8)
            // A placeholder matches one segment, so `*` takes the longer path.
            #expect(
                (try router.makeDestination(url: "notes://notes/8/history", as: Any.self) as? StoreNoteViewer)?.id == 0
            )

            router.register(RoutableService<any Exporter>()) { _ in PDFExporter() }
                .url("notes://notes/:note/edit")
            let tie = try #require(
                routingError { _ = try router.makeDestination(url: "notes://notes/5/edit", as: Any.self) }
            )
            #expect(
                tie.message
                    == #"The URL "notes://notes/5/edit" matches 2 equally specific patterns: "notes://notes/:id/edit" "#
                    + #"and "notes://notes/:note/edit". Fix: make one of them more specific (a literal segment beats "#
                    + #"a placeholder, and a placeholder beats "*"), or remove all but one."#
            )
        }

        @Test func anInterceptorRedirectsToSignInUntilTheSessionIsSignedIn() throws {
            let container = Container()
            container.register((any NoteStore).self) { _ in FileNoteStore(isOpen: true) }
            let router = Router(container: container)
            router.register(RoutableService<any NoteEditing>(), route: EditorRoute())
            let signIns = Counter()
            router.register(RoutableService<any SignIn>()) { _ in
                signIns.next()
                return SignInScreen()
            }
            let session = Session()

            addSignInInterceptor(to: router, session: session)

            let redirected = try #require(
                routingError { _ = try router.makeDestination(url: "notes://notes/2/edit", as: (any NoteEditing).self) }
            )
            #expect(redirected.code == .redirected)
            #expect(
                redirected.message
                    == #"The interceptor "sign-in" redirected RoutableService<NoteEditing> for "notes://notes/2/edit" "#
                    + "to RoutableService<SignIn>, whose destination this call cannot return (it returns NoteEditing), "
                    + "so nothing was made. Fix: perform RoutableService<SignIn> where this error is caught, or make the "
                    + "call by URL or identifier without a type, which returns the destination of the route redirected to."
            )
            #expect(signIns.value == 0)
            #expect(try router.makeDestination(url: "notes://notes/2/edit", as: Any.self) is SignInScreen)
            #expect(signIns.value == 1)
            session.signIn()
            #expect(try router.makeDestination(url: "notes://notes/2/edit", as: (any NoteEditing).self).id == 2)
        }

        @Test func interceptorsRunInTheOrderAddedAndMayRefuse() throws {
            let router = Router(container: Container())
            router.register(RoutableService<any Exporter>()) { _ in PDFExporter() }
            let log = EventLog()
            router.addInterceptor(named: "first") { _ in
                log.record("first")
                return .proceed
            }
            router.addInterceptor(named: "second") { _ in
                log.record("second")
                return .refuse("exports are off")
            }
            let error = try #require(routingError { try router.perform(to: RoutableService<any Exporter>()) })
            #expect(error.code == .refused)
            #expect(error.message == #"The interceptor "second" refused RoutableService<Exporter>: exports are off"#)
            #expect(log.entries == ["first", "second"])
        }

        @Test func aCustomEventReachesEveryRouteThatHandlesItOnceEach() throws {
            let router = Router(container: Container())
            let log = EventLog()
            router.register(RoutableService<any Exporter>()) { _ in PDFExporter() }
                .onEvent(NotesDidSync.self) { log.record("exporter: \($0.changed)") }
            router.register(RoutableService<any SignIn>()) { _ in SignInScreen() }
                .onEvent(NotesDidSync.self) { log.record("sign-in: \($0.changed)") }
            let ids = [4, 7]

            let told = router.send(NotesDidSync(changed: ids))

            #expect(told == 2)
            #expect(log.entries == ["exporter: [4, 7]", "sign-in: [4, 7]"])
        }

        // MARK: Limits, as they are

        @Test func aRouterOverAChildContainerStartsWithItsParentsRoutesAndMayReplaceThem() throws {
            let parent = Container()
            parent.register((any Clock).self) { _ in SystemClock() }
            let router = Router(container: parent)
            router.register(RoutableService<any TimeService>()) { r in
                ClockTimeService(clock: try r.resolve((any Clock).self))
            }

            let childRouter = Router(container: parent.makeChild())
            #expect(try childRouter.makeDestination(to: RoutableService<any TimeService>()).now == "09:00")
            struct Noon: Clock { let now = "12:00" }
            childRouter.register(RoutableService<any TimeService>()) { _ in ClockTimeService(clock: Noon()) }
            #expect(try childRouter.makeDestination(to: RoutableService<any TimeService>()).now == "12:00")
            #expect(try router.makeDestination(to: RoutableService<any TimeService>()).now == "09:00")
        }

        @Test func validationReportsTwoRoutesWhosePatternsMatchTheSameURLsEqually() throws {
            let container = Container()
            container.register((any NoteStore).self) { _ in FileNoteStore(isOpen: true) }
            let router = Router(container: container)
            router.register(RoutableService<any NoteEditing>(), route: EditorRoute())
            router.register(RoutableService<any Exporter>()) { _ in PDFExporter() }
                .url("notes://notes/:note/edit")
            let error = try #require(routingError { _ = try router.validate() })
            #expect(error.code == .validationFailed)
            #expect(
                error.message
                    == "Routing validation found 1 problem:\n1. The URL patterns \"notes://notes/:id/edit\" "
                    + "(RoutableService<NoteEditing>) and \"notes://notes/:note/edit\" (RoutableService<Exporter>) "
                    + "match the same URLs equally, so every such URL would fail as ambiguous. Fix: make one of them "
                    + "more specific, or give them different literal segments."
            )
        }
    }
}
