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

@Suite struct ModuleRouteTests {
    private func makeRouter(configurations: Counter = Counter()) -> Router {
        let router = Router(container: Container())
        router.register(RoutableServiceModule<any EditorModule>()) { _ in
            EditorModuleConfiguration(serial: configurations.next())
        }
        return router
    }

    @Test func theCallerPassesTheModulesParametersTypeChecked() throws {
        let router = makeRouter()

        let editor = try router.makeDestination(to: RoutableServiceModule<any EditorModule>()) {
            try $0.makeDestinationWith(TextNote(title: "Groceries"), readOnly: true)
        }

        #expect(editor.note.title == "Groceries")
        #expect(editor.readOnly)
    }

    @Test func everyPerformMakesAFreshModuleConfiguration() throws {
        let configurations = Counter()
        let router = makeRouter(configurations: configurations)
        let route = try router.perform(to: RoutableServiceModule<any EditorModule>()) {
            try $0.makeDestinationWith(TextNote(title: "Plans"), readOnly: false)
        }

        try route.perform()
        try route.perform()

        #expect(configurations.value == 3)
        #expect(route.state == .routed)
    }

    @Test func aModuleThatMakesNothingIsDestinationUnavailableNamingTheModule() throws {
        let router = makeRouter()
        let log = EventLog()
        router.globalErrorHandler = { _, error in log.record("\(error.code)") }

        let error = try #require(
            routingError {
                _ = try router.makeDestination(to: RoutableServiceModule<any EditorModule>()) {
                    try $0.makeDestinationWith(TextNote(title: ""), readOnly: false)
                }
            }
        )

        #expect(error.code == .destinationUnavailable)
        #expect(
            error.message
                == "The module RoutableServiceModule<EditorModule> made nothing: its makeDestinationWith returned nil. "
                + "Fix: pass it everything the module needs, or check the module's configuration for why it declined."
        )
        #expect(log.entries == ["destinationUnavailable"])
    }

    @Test func aModuleThatThrowsIsDestinationUnavailableWithItsError() throws {
        let router = makeRouter()

        let error = try #require(
            routingError {
                _ = try router.makeDestination(to: RoutableServiceModule<any EditorModule>()) { _ -> (any Editor)? in
                    throw TestFailure("the note is locked")
                }
            }
        )

        #expect(error.code == .destinationUnavailable)
        #expect(
            error.message
                == "The module RoutableServiceModule<EditorModule> could not make its destination: the note is locked"
        )
    }

    @Test func theCallerPreparesTheModulesDestination() throws {
        let router = Router(container: Container())
        router.register(RoutableServiceModule<any GreetingModule>()) { _ in GreetingModuleConfiguration() }

        let greeting = try router.makeDestination(to: RoutableServiceModule<any GreetingModule>()) {
            $0.makeDestinationWith(name: "Ada")
        } configuring: { config in
            config.prepareDestination = { $0.text += "!" }
        }

        #expect(greeting.text == "Hello, Ada!")
    }

    @Test func aModuleWithoutARouteIsInvalidProtocol() throws {
        let router = Router(container: Container())

        let error = try #require(
            routingError {
                _ = try router.to(RoutableServiceModule<any EditorModule>()) {
                    try $0.makeDestinationWith(TextNote(title: "x"), readOnly: false)
                }
            }
        )

        #expect(error.code == .invalidProtocol)
        #expect(
            error.message
                == "No route is registered for RoutableServiceModule<EditorModule>. Fix: register one with "
                + "router.register(RoutableServiceModule<EditorModule>()) { r in … }, or adapt the protocol to one that "
                + "has a route with router.adapt(RoutableServiceModule<EditorModule>(), to: …)."
        )
    }
}

private protocol GreetingModule {
    func makeDestinationWith(name: String) -> any Greeting
}
private struct GreetingModuleConfiguration: GreetingModule {
    func makeDestinationWith(name: String) -> any Greeting { PlainGreeting(text: "Hello, \(name)") }
}
extension RoutableServiceModule where Protocol == any GreetingModule {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}
