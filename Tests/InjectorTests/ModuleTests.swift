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

import Foundation
import Testing

@testable import Injector

// Modules: applied in the order given (variadic and array forms), and duplicates between them.

private protocol ModGreeting { var text: String { get } }
private struct ModTextGreeting: ModGreeting { let text: String }
private protocol ModPlugin { var id: String { get } }
private struct ModIDPlugin: ModPlugin { let id: String }
private protocol ModStore { var greeting: ModGreeting { get } }
private struct ModGreetingStore: ModStore { let greeting: ModGreeting }

/// Logs its name when applied and registers a plugin under that name.
private struct ModLoggingModule: Module {
    let name: String
    let log: EventLog
    func register(into container: Container) {
        log.record(name)
        container.register(ModPlugin.self, name: name) { [name] _ in ModIDPlugin(id: name) }
    }
}

/// Registers the unnamed greeting, optionally as a replacement.
private struct ModGreetingModule: Module {
    let text: String
    var replaces = false
    func register(into container: Container) {
        container.register(ModGreeting.self, replacesExisting: replaces) { [text] _ in ModTextGreeting(text: text) }
    }
}

/// Registers several plugins, in order.
private struct ModPluginsModule: Module {
    let ids: [String]
    func register(into container: Container) {
        for id in ids {
            container.register(ModPlugin.self, name: id) { _ in ModIDPlugin(id: id) }
        }
    }
}

/// Registers a store that needs a greeting from another module.
private struct ModStoreModule: Module {
    func register(into container: Container) {
        container.register(ModStore.self) { r in try ModGreetingStore(greeting: r.resolve(ModGreeting.self)) }
    }
}

/// Installs other modules from its own register(into:).
private struct ModParentModule: Module {
    let log: EventLog
    func register(into container: Container) {
        log.record("parent begins")
        container.install(ModLoggingModule(name: "nested 1", log: log), ModLoggingModule(name: "nested 2", log: log))
        log.record("parent ends")
    }
}

/// Two modules registering the same key, each at a known line.
private struct ModFirstClashingModule: Module {
    static let line = #line + 2
    func register(into container: Container) {
        container.register(ModGreeting.self) { _ in ModTextGreeting(text: "first") }
    }
}

private struct ModSecondClashingModule: Module {
    static let line = #line + 2
    func register(into container: Container) {
        container.register(ModGreeting.self) { _ in ModTextGreeting(text: "second") }
    }
}

private struct ModClashingPluginModule: Module {
    static let line = #line + 2
    func register(into container: Container) {
        container.register(ModPlugin.self, name: "spelling") { _ in ModIDPlugin(id: "spelling") }
    }
}

private let modFile = "InjectorTests/ModuleTests.swift"

private func modSite(_ line: Int) -> String { "\(modFile):\(line)" }

struct ModuleTests {
    // MARK: Order

    @Test func variadicInstallAppliesModulesInTheOrderGiven() throws {
        let log = EventLog()
        let container = Container()
        container.install(
            ModLoggingModule(name: "c", log: log),
            ModLoggingModule(name: "a", log: log),
            ModLoggingModule(name: "b", log: log)
        )

        #expect(log.events == ["c", "a", "b"])
        #expect(try container.resolveAll(ModPlugin.self).map(\.id) == ["c", "a", "b"])
    }

    @Test func arrayInstallAppliesModulesInTheOrderOfTheArray() throws {
        let log = EventLog()
        let container = Container()
        let modules: [any Module] = ["b", "c", "a"].map { ModLoggingModule(name: $0, log: log) }
        container.install(modules)

        #expect(log.events == ["b", "c", "a"])
        #expect(try container.resolveAll(ModPlugin.self).map(\.id) == ["b", "c", "a"])
    }

    @Test(arguments: [["x", "y"], ["y", "x"], ["one"], ["p", "q", "r", "s", "t"]])
    func variadicAndArrayFormsRegisterTheSame(order: [String]) throws {
        let variadicLog = EventLog()
        let variadic = Container()
        switch order.count {
        case 1:
            variadic.install(ModLoggingModule(name: order[0], log: variadicLog))
        case 2:
            variadic.install(
                ModLoggingModule(name: order[0], log: variadicLog),
                ModLoggingModule(name: order[1], log: variadicLog)
            )
        default:
            variadic.install(
                ModLoggingModule(name: order[0], log: variadicLog),
                ModLoggingModule(name: order[1], log: variadicLog),
                ModLoggingModule(name: order[2], log: variadicLog),
                ModLoggingModule(name: order[3], log: variadicLog),
                ModLoggingModule(name: order[4], log: variadicLog)
            )
        }
        let arrayLog = EventLog()
        let array = Container()
        array.install(order.map { ModLoggingModule(name: $0, log: arrayLog) })

        #expect(variadicLog.events == order)
        #expect(arrayLog.events == order)
        #expect(try variadic.resolveAll(ModPlugin.self).map(\.id) == order)
        #expect(try array.resolveAll(ModPlugin.self).map(\.id) == order)
    }

    @Test func installingNoModulesRegistersNothing() throws {
        let container = Container()
        container.install()
        container.install([])

        try container.finishRegistration()
        #expect(try container.resolveAll(ModPlugin.self).isEmpty)
    }

    @Test func successiveInstallCallsApplyInCallOrder() throws {
        let log = EventLog()
        let container = Container()
        container.install(ModLoggingModule(name: "first call", log: log))
        container.install([ModLoggingModule(name: "second call", log: log)])
        container.install(ModLoggingModule(name: "third call", log: log))

        #expect(log.events == ["first call", "second call", "third call"])
    }

    @Test func moduleInstallingModulesAppliesThemInPlace() throws {
        let log = EventLog()
        let container = Container()
        container.install(
            ModLoggingModule(name: "before", log: log),
            ModParentModule(log: log),
            ModLoggingModule(name: "after", log: log)
        )

        #expect(log.events == ["before", "parent begins", "nested 1", "nested 2", "parent ends", "after"])
        #expect(try container.resolveAll(ModPlugin.self).map(\.id) == ["before", "nested 1", "nested 2", "after"])
    }

    @Test func registrationsOfEachModuleKeepTheirOrderInResolveAll() throws {
        let container = Container()
        container.install(ModPluginsModule(ids: ["b1", "b2"]), ModPluginsModule(ids: ["a1", "a2", "a3"]))

        #expect(try container.resolveAll(ModPlugin.self).map(\.id) == ["b1", "b2", "a1", "a2", "a3"])
    }

    @Test func modulesMayDependOnEachOthersRegistrationsWhateverTheOrder() throws {
        let container = Container()
        container.install(ModStoreModule(), ModGreetingModule(text: "hello"))
        try container.finishRegistration()

        #expect(try container.resolve(ModStore.self).greeting.text == "hello")
    }

    @Test func moduleInstalledInAChildIsNotSeenByTheParent() throws {
        let parent = Container()
        parent.install(ModGreetingModule(text: "parent"))
        let child = parent.makeChild()
        child.install(ModGreetingModule(text: "child"), ModStoreModule())

        try child.finishRegistration()  // shadowing the parent is not a duplicate
        #expect(try child.resolve(ModStore.self).greeting.text == "child")
        #expect(try parent.resolve(ModGreeting.self).text == "parent")
        let error = try #require(injectionError { _ = try parent.resolve(ModStore.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("ModStore"))
    }

    // MARK: Modules registering the same key

    @Test func laterModuleRegisteringTheSameKeyIsADuplicateNamingBothSites() throws {
        let container = Container()
        container.install(ModFirstClashingModule(), ModSecondClashingModule())

        let error = try #require(injectionError { _ = try container.resolve(ModGreeting.self) })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("ModGreeting"))
        #expect(error.message.contains(modSite(ModFirstClashingModule.line)))
        #expect(error.message.contains(modSite(ModSecondClashingModule.line)))
        let first = try #require(error.message.range(of: modSite(ModFirstClashingModule.line)))
        let second = try #require(error.message.range(of: modSite(ModSecondClashingModule.line)))
        #expect(first.lowerBound < second.lowerBound)  // in the order the modules were applied
    }

    @Test func installOrderDecidesTheOrderOfTheDuplicateSites() throws {
        let container = Container()
        container.install([ModSecondClashingModule(), ModFirstClashingModule()])

        let error = try #require(injectionError { _ = try container.resolve(ModGreeting.self) })
        #expect(error.code == .duplicateRegistration)
        let first = try #require(error.message.range(of: modSite(ModFirstClashingModule.line)))
        let second = try #require(error.message.range(of: modSite(ModSecondClashingModule.line)))
        #expect(second.lowerBound < first.lowerBound)
    }

    @Test func finishRegistrationReportsTheDuplicateBetweenModules() throws {
        let container = Container()
        container.install(ModFirstClashingModule(), ModSecondClashingModule())

        let error = try #require(injectionError { try container.finishRegistration() })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains(modSite(ModFirstClashingModule.line)))
        #expect(error.message.contains(modSite(ModSecondClashingModule.line)))
    }

    @Test func finishRegistrationReportsEveryDuplicateBetweenModules() throws {
        let container = Container()
        container.install(
            ModFirstClashingModule(),
            ModClashingPluginModule(),
            ModSecondClashingModule(),
            ModClashingPluginModule()
        )

        let error = try #require(injectionError { try container.finishRegistration() })
        #expect(error.code == .duplicateRegistration)
        #expect(error.problems.count == 2)
        let greeting = try #require(error.problems.first { $0.message.contains("ModGreeting") })
        #expect(greeting.code == .duplicateRegistration)
        #expect(greeting.message.contains(modSite(ModSecondClashingModule.line)))
        let plugin = try #require(error.problems.first { $0.message.contains("ModPlugin (name: \"spelling\")") })
        #expect(plugin.code == .duplicateRegistration)
        #expect(plugin.message.contains(modSite(ModClashingPluginModule.line)))
        #expect(plugin.message.contains("2 times"))
    }

    @Test func sameModuleInstalledTwiceIsADuplicate() throws {
        let container = Container()
        container.install(ModClashingPluginModule(), ModClashingPluginModule())

        let error = try #require(injectionError { _ = try container.resolve(ModPlugin.self, name: "spelling") })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("2 times"))
        #expect(error.message.contains(modSite(ModClashingPluginModule.line)))
    }

    @Test func laterModuleWithReplacesExistingReplacesSilently() throws {
        let container = Container()
        container.install(ModGreetingModule(text: "production"), ModGreetingModule(text: "test double", replaces: true))

        try container.finishRegistration()
        #expect(try container.resolve(ModGreeting.self).text == "test double")
    }

    @Test func replacementFromALaterModuleKeepsTheOriginalsPositionInResolveAll() throws {
        let log = EventLog()
        let container = Container()
        container.install(
            ModLoggingModule(name: "spelling", log: log),
            ModLoggingModule(name: "grammar", log: log),
            ModReplacingSpellingModule()
        )

        try container.finishRegistration()
        #expect(try container.resolveAll(ModPlugin.self).map(\.id) == ["spelling (replaced)", "grammar"])
    }

    @Test func replacementOnlyWinsWhenItComesLater() throws {
        // The replacing module applied first, the plain one second: the plain one is a duplicate.
        let container = Container()
        container.install(ModGreetingModule(text: "double", replaces: true), ModGreetingModule(text: "production"))

        let error = try #require(injectionError { try container.finishRegistration() })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("ModGreeting"))
    }

    @Test func moduleInstalledAfterFinishRegistrationIsReportedAsLate() throws {
        let container = Container()
        container.install(ModGreetingModule(text: "early"))
        try container.finishRegistration()

        container.install(ModClashingPluginModule())

        let error = try #require(injectionError { _ = try container.resolve(ModPlugin.self, name: "spelling") })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("finishRegistration()"))
        #expect(error.message.contains(modSite(ModClashingPluginModule.line)))
        #expect(try container.resolve(ModGreeting.self).text == "early")
    }
}

private struct ModReplacingSpellingModule: Module {
    func register(into container: Container) {
        container.register(ModPlugin.self, name: "spelling", replacesExisting: true) { _ in
            ModIDPlugin(id: "spelling (replaced)")
        }
    }
}
