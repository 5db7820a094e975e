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

private struct ConsoleLoggerRoute: RouteDefinition {
    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> ConsoleLogger {
        ConsoleLogger()
    }
}

private struct LogLocked: Error, CustomStringConvertible {
    var description: String { "the log file is locked" }
}

private struct ThrowingLoggerRoute: RouteDefinition {
    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> ConsoleLogger {
        throw LogLocked()
    }
}

/// What a feature module requires, served by the editor's route and the editor module's route.
private protocol DraftView: AnyObject { var title: String { get set } }
extension EditorScreen: DraftView {}
extension RoutableView where Protocol == any DraftView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
private protocol DraftModule { func makeDestinationWith(_ note: any Note, readOnly: Bool) throws -> (any Editor)? }
extension EditorModuleConfiguration: DraftModule {}
extension RoutableServiceModule where Protocol == any DraftModule {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

@Suite struct AdapterTests {
    @Test func aRequiredProtocolIsServedByTheProvidedOnesRoute() throws {
        let router = Router(container: Container())
        let log = EventLog()
        router.register(RoutableService<any Logger>(), scope: .singleton) { _ in ConsoleLogger() }
            .prepare { _, _ in log.record("provider prepared") }
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())

        let logging = try router.makeDestination(to: RoutableService<any NoteLogging>())
        let logger = try router.makeDestination(to: RoutableService<any Logger>())

        #expect(logging.log("saved") == "console: saved")
        #expect(logging === logger as AnyObject)  // one singleton behind both protocols
        #expect(log.entries == ["provider prepared", "provider prepared"])
    }

    @Test func adaptersChain() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())
        router.adapt(RoutableService<any AuditLogging>(), to: RoutableService<any NoteLogging>())

        let audit = try router.makeDestination(to: RoutableService<any AuditLogging>())

        #expect(audit.log("login") == "console: login")
        try router.validate()
    }

    @Test func anAdapterCycleIsAnErrorNamingTheLoopNeverAHang() throws {
        let router = Router(container: Container())
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())
        router.adapt(RoutableService<any Logger>(), to: RoutableService<any AuditLogging>())
        router.adapt(RoutableService<any AuditLogging>(), to: RoutableService<any Logger>())

        let error = try #require(
            routingError { _ = try router.makeDestination(to: RoutableService<any NoteLogging>()) }
        )

        #expect(error.code == .cycle)
        #expect(
            error.message
                == "Adapters lead back to themselves: Logger -> AuditLogging -> Logger (asked for "
                + "RoutableService<NoteLogging>: NoteLogging -> Logger -> AuditLogging -> Logger). Fix: adapt one of "
                + "them to a protocol that has a route of its own."
        )
    }

    @Test func validationReportsAChainThatEndsNowhereAndACycle() throws {
        let router = Router(container: Container())
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())
        router.adapt(RoutableService<any AuditLogging>(), to: RoutableService<any Unadaptable>())
        router.adapt(RoutableService<any Unadaptable>(), to: RoutableService<any AuditLogging>())

        let error = try #require(routingError { try router.validate() })

        #expect(error.code == .validationFailed)
        let messages = error.problems.map(\.message)
        #expect(
            messages.contains {
                $0.hasPrefix("Adapters lead back to themselves: AuditLogging -> Unadaptable -> AuditLogging")
            }
        )
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "RoutableService<NoteLogging> is adapted to RoutableService<Logger> (NoteLogging -> Logger), which "
                        + "has no route."
                )
            }
        )
        #expect(error.problems.count == 2, "\(error.message)")  // each once: not again in the container's words
        #expect(error.message.hasPrefix("Routing validation found 2 problems:\n1. "))

        // Adapters are registrations: the container's own validation finds the missing end and the loop.
        let container = try #require(injectionError { try router.container.validate() })
        #expect(container.problems.map(\.code) == [.missingRegistration, .circularDependency])
        #expect(container.message.contains("NoteLogging -> Logger (missing)"))
        #expect(container.message.contains("AuditLogging -> Unadaptable -> AuditLogging"))
    }

    @Test func adaptingAProtocolThatHasItsOwnRouteIsADuplicateNamingBothSites() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
        let line = #line + 1
        router.register(RoutableService<any NoteLogging>()) { _ in ConsoleLogger() }
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())

        let error = try #require(
            routingError { _ = try router.makeDestination(to: RoutableService<any NoteLogging>()) }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "RoutableService<NoteLogging> (the route registered at InjectorRoutingTests/AdapterTests.swift:"
                + "\(line)) cannot be made: its registration conflicts. NoteLogging is registered 2 times: at "
                + "InjectorRoutingTests/AdapterTests.swift:\(line) by router.register, then at "
                + "InjectorRoutingTests/AdapterTests.swift:\(line + 1) by router.adapt. Fix: a protocol is served by "
                + "one registration: its route, one adapter, or a register call. Remove the adapter, or the "
                + "registration it duplicates."
        )
        #expect(error.injectionError?.code == .duplicateRegistration)
    }

    @Test func aProvidedDestinationThatDoesNotConformToTheRequiredProtocolFails() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
        router.adapt(RoutableService<any Unadaptable>(), to: RoutableService<any Logger>())

        let error = try #require(
            routingError { _ = try router.makeDestination(to: RoutableService<any Unadaptable>()) }
        )

        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "RoutableService<Unadaptable> is adapted to RoutableService<Logger>, whose destination ConsoleLogger "
                + "does not conform to Unadaptable. Fix: add extension ConsoleLogger: Unadaptable {} where the adapter "
                + "is declared."
        )
    }

    /// The container speaks of adapters in the router's words: what threw is the adapter, and a loop
    /// of adapters alone gets routing's fix; a loop through a registration of the user's keeps the
    /// container's.
    @Test func theContainersValidationNamesAnAdapterAndItsLoopInRoutingsWords() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
        router.adapt(RoutableService<any Unadaptable>(), to: RoutableService<any Logger>())

        let error = try #require(injectionError { try router.container.validate() })

        #expect(error.problems.map(\.code) == [.factoryFailed])
        #expect(
            error.problems.first?.message
                == "The adapter of Unadaptable threw: RoutableService<Unadaptable> is adapted to RoutableService<Logger>, "
                + "whose destination ConsoleLogger does not conform to Unadaptable. Fix: add extension ConsoleLogger: "
                + "Unadaptable {} where the adapter is declared. The error is the underlyingError."
        )

        let mixed = Router(container: Container())
        mixed.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())
        mixed.container.register((any Logger).self) { r in try r.resolve((any NoteLogging).self) as! any Logger }

        let loop = try #require(injectionError { try mixed.container.validate() })

        #expect(loop.problems.map(\.code) == [.circularDependency])
        #expect(
            loop.problems.first?.message
                == "Circular dependency: NoteLogging -> Logger -> NoteLogging. Each of these asks for the next in its "
                + "factory, so none of them can be built first. Fix: break the cycle with property injection: let one "
                + "of them receive the other after construction, in an onResolved hook, and give the one resolved back "
                + "the .graph or .singleton scope so that the hook receives the same instance."
        )
    }

    /// An adapter, which cannot replace a registration, gives its fix to a duplicate in either order.
    @Test func aDuplicateWithAnAdapterGetsTheAdaptersFixInEitherOrder() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
        let line = #line + 1
        router.adapt(RoutableService<any NoteLogging>(), to: RoutableService<any Logger>())
        router.register(RoutableService<any NoteLogging>()) { _ in ConsoleLogger() }

        let error = try #require(injectionError { try router.container.finishRegistration() })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "NoteLogging is registered 2 times: at InjectorRoutingTests/AdapterTests.swift:\(line) by "
                + "router.adapt, then at InjectorRoutingTests/AdapterTests.swift:\(line + 1) by router.register. Fix: a "
                + "protocol is served by one registration: its route, one adapter, or a register call. Remove the "
                + "adapter, or the registration it duplicates."
        )
    }

    /// A route type whose destination fails for a reason of its own is named, with the fix to look
    /// at: the route (a routing error's message has its own fix).
    @Test func aRouteTypeThatThrowsIsNamedWithItsFix() throws {
        let router = Router(container: Container())
        router.register(RoutableService<any Logger>(), route: ThrowingLoggerRoute())

        let error = try #require(injectionError { try router.container.validate() })

        #expect(
            error.problems.map(\.message) == [
                "The route ThrowingLoggerRoute of Logger threw: the log file is locked. The error is the "
                    + "underlyingError; fix the route ThrowingLoggerRoute or what it depends on."
            ]
        )
    }

    /// Two routes for one protocol are a duplicate whose fix is one a route has.
    @Test func twoRoutesForOneProtocolAreADuplicateWithARoutesFix() throws {
        let router = Router(container: Container())
        let line = #line + 1
        router.register(RoutableService<any Logger>()) { _ in ConsoleLogger() }
        router.register(RoutableService<any Logger>(), route: ConsoleLoggerRoute())

        let error = try #require(injectionError { try router.container.finishRegistration() })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "Logger is registered 2 times: at InjectorRoutingTests/AdapterTests.swift:\(line) by router.register, "
                + "then at InjectorRoutingTests/AdapterTests.swift:\(line + 1) by router.register. Fix: remove all but "
                + "one; or pass replacesExisting: true to the one meant to replace the others (router.register takes it "
                + "too), as a test does when it swaps in a double."
        )
    }

    @MainActor
    @Test func aRequiredViewProtocolIsShownThroughTheProvidedOnesRoute() throws {
        let host = RecordingHost()
        let home = HomeScreen()
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any EditorView>()) { _ in EditorScreen(serial: 7) }
        router.adapt(RoutableView<any DraftView>(), to: RoutableView<any EditorView>())

        let route = try router.perform(to: RoutableView<any DraftView>(), path: .push(from: home)) { config in
            config.prepareDestination = { $0.title = "Draft" }
        }

        let screen = try #require(route.destination as? EditorScreen)
        #expect(screen.serial == 7)
        #expect(screen.title == "Draft")
        try router.validate()
    }

    @Test func aRequiredModuleProtocolIsConfiguredThroughTheProvidedOnesRoute() throws {
        let router = Router(container: Container())
        router.register(RoutableServiceModule<any EditorModule>()) { _ in EditorModuleConfiguration(serial: 1) }
        router.adapt(RoutableServiceModule<any DraftModule>(), to: RoutableServiceModule<any EditorModule>())

        let editor = try router.makeDestination(to: RoutableServiceModule<any DraftModule>()) {
            try $0.makeDestinationWith(TextNote(title: "Plans"), readOnly: true)
        }

        #expect(editor.note.title == "Plans")
        #expect(editor.readOnly)
    }
}
