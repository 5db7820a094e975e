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

import Testing

@testable import Injector

// MARK: - Test doubles (private to this file)

private protocol AllPlugin: Sendable {
    var id: String { get }
}

private final class AllPluginImpl: AllPlugin {
    let id: String
    init(_ id: String) { self.id = id }
}

/// A plugin that depends on a shared (graph-scoped) dependency.
private final class AllSharingPlugin: AllPlugin {
    let id: String
    let shared: AllShared
    init(_ id: String, shared: AllShared) {
        self.id = id
        self.shared = shared
    }
}

private final class AllShared: Sendable {}

private protocol AllUnregistered {}

/// Collects the plugins in its factory through `r.resolveAll`.
private final class AllHost: Sendable {
    let plugins: [any AllPlugin]
    let shared: AllShared
    init(plugins: [any AllPlugin], shared: AllShared) {
        self.plugins = plugins
        self.shared = shared
    }
}

private struct AllFactoryError: Error, CustomStringConvertible {
    var description: String { "plugin exploded" }
}

private func allIDs(_ container: Container) throws -> [String] {
    try container.resolveAll((any AllPlugin).self).map(\.id)
}

// MARK: - Tests

struct ResolveAllTests {
    @Test func resolveAllReturnsNamedAndUnnamedRegistrationsInRegistrationOrder() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "spelling") { _ in AllPluginImpl("spelling") }
        container.register((any AllPlugin).self) { _ in AllPluginImpl("unnamed") }
        container.register((any AllPlugin).self, name: "word count") { _ in AllPluginImpl("word count") }
        container.register((any AllPlugin).self, name: "a") { _ in AllPluginImpl("a") }

        #expect(try allIDs(container) == ["spelling", "unnamed", "word count", "a"])
    }

    @Test func resolveAllReturnsTheSameOrderAfterFinishRegistration() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "z") { _ in AllPluginImpl("z") }
        container.register((any AllPlugin).self, name: "m") { _ in AllPluginImpl("m") }
        container.register((any AllPlugin).self) { _ in AllPluginImpl("unnamed") }
        try container.finishRegistration()

        #expect(try allIDs(container) == ["z", "m", "unnamed"])
        #expect(try allIDs(container) == ["z", "m", "unnamed"])
    }

    @Test func resolveAllExcludesRegistrationsThatTakeArguments() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "first") { _ in AllPluginImpl("first") }
        container.register((any AllPlugin).self) { (_, id: String) in AllPluginImpl(id) }
        container.register((any AllPlugin).self, name: "first") { (_, id: String, n: Int) in AllPluginImpl("\(id)\(n)")
        }
        container.register((any AllPlugin).self, name: "tuple") { (_, pair: (String, Int)) in AllPluginImpl(pair.0) }
        container.register((any AllPlugin).self, name: "second") { _ in AllPluginImpl("second") }

        #expect(try allIDs(container) == ["first", "second"])
        // The registrations with arguments are still there for resolve.
        #expect(try container.resolve((any AllPlugin).self, argument: "arg").id == "arg")
    }

    @Test func resolveAllReturnsAnEmptyArrayWhenNothingIsRegistered() throws {
        let container = Container()
        #expect(try container.resolveAll((any AllPlugin).self).isEmpty)
        #expect(try container.resolveAll((any AllUnregistered).self).isEmpty)
    }

    @Test func resolveAllReturnsAnEmptyArrayWhenOnlyOtherTypesOrRegistrationsWithArgumentsExist() throws {
        let container = Container()
        container.register(AllShared.self) { _ in AllShared() }
        container.register((any AllPlugin).self) { (_, id: String) in AllPluginImpl(id) }
        try container.finishRegistration()

        #expect(try container.resolveAll((any AllPlugin).self).isEmpty)
    }

    @Test func resolveAllOnlyListsRegistrationsOfTheAskedType() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "protocol") { _ in AllPluginImpl("protocol") }
        container.register(AllPluginImpl.self, name: "concrete") { _ in AllPluginImpl("concrete") }

        #expect(try allIDs(container) == ["protocol"])
        #expect(try container.resolveAll(AllPluginImpl.self).map(\.id) == ["concrete"])
    }

    @Test func resolveAllSurfacesADuplicateRegistration() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "ok") { _ in AllPluginImpl("ok") }
        let firstLine = #line + 1
        container.register((any AllPlugin).self, name: "twice") { _ in AllPluginImpl("1") }
        let secondLine = #line + 1
        container.register((any AllPlugin).self, name: "twice") { _ in AllPluginImpl("2") }

        let error = try #require(injectionError { _ = try container.resolveAll((any AllPlugin).self) })

        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("AllPlugin (name: \"twice\") is registered 2 times"))
        #expect(error.message.contains("InjectorTests/ResolveAllTests.swift:\(firstLine)"))
        #expect(error.message.contains("InjectorTests/ResolveAllTests.swift:\(secondLine)"))
        #expect(error.message.contains("replacesExisting: true"))
        #expect(error.resolutionPath.last == ServiceKey((any AllPlugin).self, name: "twice"))
    }

    @Test func resolveAllSurfacesADuplicateUnnamedRegistration() throws {
        let container = Container()
        let firstLine = #line + 1
        container.register((any AllPlugin).self) { _ in AllPluginImpl("1") }
        let secondLine = #line + 1
        container.register((any AllPlugin).self) { _ in AllPluginImpl("2") }

        let error = try #require(injectionError { _ = try container.resolveAll((any AllPlugin).self) })

        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("AllPlugin is registered 2 times"))
        #expect(
            error.message.contains(
                "InjectorTests/ResolveAllTests.swift:\(firstLine), then at InjectorTests/ResolveAllTests.swift:\(secondLine)"
            )
        )
    }

    @Test func replacementKeepsTheOriginalsPositionInResolveAll() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "a") { _ in AllPluginImpl("a") }
        container.register((any AllPlugin).self, name: "b") { _ in AllPluginImpl("b") }
        container.register((any AllPlugin).self) { _ in AllPluginImpl("unnamed") }
        container.register((any AllPlugin).self, name: "c") { _ in AllPluginImpl("c") }
        container.register((any AllPlugin).self, name: "b", replacesExisting: true) { _ in AllPluginImpl("b-replaced") }
        container.register((any AllPlugin).self, replacesExisting: true) { _ in AllPluginImpl("unnamed-replaced") }

        #expect(try allIDs(container) == ["a", "b-replaced", "unnamed-replaced", "c"])
        try container.finishRegistration()
        #expect(try allIDs(container) == ["a", "b-replaced", "unnamed-replaced", "c"])
    }

    @Test func replacesExistingOnANewKeyAppendsIt() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "a") { _ in AllPluginImpl("a") }
        container.register((any AllPlugin).self, name: "new", replacesExisting: true) { _ in AllPluginImpl("new") }

        #expect(try allIDs(container) == ["a", "new"])
    }

    @Test func resolveAllInsideAFactoryThroughTheResolver() throws {
        let container = Container()
        container.register(AllShared.self, scope: .graph) { _ in AllShared() }
        container.register((any AllPlugin).self, name: "one") { r in
            try AllSharingPlugin("one", shared: r.resolve(AllShared.self))
        }
        container.register((any AllPlugin).self) { _ in AllPluginImpl("unnamed") }
        container.register((any AllPlugin).self, name: "two") { r in
            try AllSharingPlugin("two", shared: r.resolve(AllShared.self))
        }
        container.register(AllHost.self) { r in
            try AllHost(plugins: r.resolveAll((any AllPlugin).self), shared: r.resolve(AllShared.self))
        }

        let host = try container.resolve(AllHost.self)

        #expect(host.plugins.map(\.id) == ["one", "unnamed", "two"])
        // Built in the host's graph: the graph-scoped dependency is shared.
        let sharing = host.plugins.compactMap { $0 as? AllSharingPlugin }
        #expect(sharing.count == 2)
        #expect(sharing.allSatisfy { $0.shared === host.shared })
    }

    @Test func resolveAllInsideAFactoryReturnsAnEmptyArrayWhenNoneIsRegistered() throws {
        let container = Container()
        container.register(AllShared.self) { _ in AllShared() }
        container.register(AllHost.self) { r in
            try AllHost(plugins: r.resolveAll((any AllPlugin).self), shared: r.resolve(AllShared.self))
        }

        #expect(try container.resolve(AllHost.self).plugins.isEmpty)
    }

    @Test func resolveAllInsideAFactorySurfacesADuplicateWithThePath() throws {
        let container = Container()
        container.register(AllShared.self) { _ in AllShared() }
        container.register((any AllPlugin).self, name: "twice") { _ in AllPluginImpl("1") }
        container.register((any AllPlugin).self, name: "twice") { _ in AllPluginImpl("2") }
        container.register(AllHost.self) { r in
            try AllHost(plugins: r.resolveAll((any AllPlugin).self), shared: r.resolve(AllShared.self))
        }

        let error = try #require(injectionError { _ = try container.resolve(AllHost.self) })

        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("AllPlugin (name: \"twice\") is registered 2 times"))
        #expect(
            error.resolutionPath == [
                ServiceKey(AllHost.self, name: nil), ServiceKey((any AllPlugin).self, name: "twice"),
            ]
        )
    }

    @Test func resolveAllBuildsAllRegistrationsInOneGraph() throws {
        let container = Container()
        let sharedCalls = CallCounter()
        container.register(AllShared.self, scope: .graph) { _ in
            sharedCalls.next()
            return AllShared()
        }
        container.register((any AllPlugin).self, name: "one") { r in
            try AllSharingPlugin("one", shared: r.resolve(AllShared.self))
        }
        container.register((any AllPlugin).self, name: "two") { r in
            try AllSharingPlugin("two", shared: r.resolve(AllShared.self))
        }

        let plugins = try container.resolveAll((any AllPlugin).self).compactMap { $0 as? AllSharingPlugin }

        #expect(plugins.count == 2)
        #expect(plugins[0].shared === plugins[1].shared)
        #expect(sharedCalls.count == 1)
    }

    @Test func resolveAllRespectsEachRegistrationsScope() throws {
        let container = Container()
        let calls = CallCounter()
        container.register((any AllPlugin).self, name: "singleton", scope: .singleton) { _ in
            AllPluginImpl("singleton-\(calls.next())")
        }
        container.register((any AllPlugin).self, name: "transient") { _ in AllPluginImpl("transient-\(calls.next())") }

        let first = try container.resolveAll((any AllPlugin).self)
        let second = try container.resolveAll((any AllPlugin).self)

        #expect(first.map(\.id) == ["singleton-1", "transient-2"])
        #expect(second.map(\.id) == ["singleton-1", "transient-3"])
        let firstSingleton = try #require(first.first as? AllPluginImpl)
        let secondSingleton = try #require(second.first as? AllPluginImpl)
        let firstTransient = try #require(first.last as? AllPluginImpl)
        let secondTransient = try #require(second.last as? AllPluginImpl)
        let resolved = try #require(try container.resolve((any AllPlugin).self, name: "singleton") as? AllPluginImpl)
        #expect(firstSingleton === secondSingleton)
        #expect(firstTransient !== secondTransient)
        #expect(resolved === firstSingleton)
        #expect(calls.count == 3)
    }

    @Test func resolveAllWrapsAFailingFactory() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "fine") { _ in AllPluginImpl("fine") }
        container.register((any AllPlugin).self, name: "broken") { _ in throw AllFactoryError() }

        let error = try #require(injectionError { _ = try container.resolveAll((any AllPlugin).self) })

        #expect(error.code == .factoryFailed)
        #expect(error.underlyingError is AllFactoryError)
        #expect(error.message.contains("AllPlugin (name: \"broken\")"))
        #expect(error.message.contains("plugin exploded"))
    }

    @Test func resolveAllThroughAResolverThatOutlivedItsResolutionThrows() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "one") { _ in AllPluginImpl("one") }
        let escaped = KeptResolver()
        container.register(AllShared.self) { r in
            escaped.keep(r)
            return AllShared()
        }
        _ = try container.resolve(AllShared.self)
        let resolver = try #require(escaped.resolver)

        let error = try #require(injectionError { _ = try resolver.resolveAll((any AllPlugin).self) })

        #expect(error.code == .resolverOutlivedResolution)
        #expect(error.message.contains("AllPlugin"))
        #expect(error.message.contains("after the resolution"))
    }

    @Test func resolveAllThroughAnOutlivedResolverThrowsEvenDuringALaterResolution() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "one") { _ in AllPluginImpl("one") }
        let escaped = KeptResolver()
        container.register(AllShared.self) { r in
            escaped.keep(r)
            return AllShared()
        }
        _ = try container.resolve(AllShared.self)
        #expect(escaped.resolver != nil)
        let errors = AllErrors()
        // A later resolution on the same thread, during which the stale resolver is used.
        container.register(AllHost.self) { r in
            do {
                _ = try escaped.resolver?.resolveAll((any AllPlugin).self)
            } catch let error as InjectionError {
                errors.append(error)
            }
            return try AllHost(plugins: r.resolveAll((any AllPlugin).self), shared: AllShared())
        }

        let host = try container.resolve(AllHost.self)

        #expect(host.plugins.map(\.id) == ["one"])
        #expect(errors.all.map(\.code) == [.resolverOutlivedResolution])
    }

    @Test func resolveAllThrowsRegistrationAfterFinishForALateRegistrationOfTheType() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "a") { _ in AllPluginImpl("a") }
        try container.finishRegistration()
        let lateLine = #line + 1
        container.register((any AllPlugin).self, name: "b") { _ in AllPluginImpl("b") }

        // Not silently skipped: the late registration is reported.
        let error = try #require(injectionError { _ = try container.resolveAll((any AllPlugin).self) })

        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("AllPlugin (name: \"b\") was registered after finishRegistration()"))
        #expect(error.message.contains("InjectorTests/ResolveAllTests.swift:\(lateLine)"))
        #expect(error.resolutionPath.last == ServiceKey((any AllPlugin).self, name: "b"))
        // The registration made in time still resolves on its own.
        #expect(try container.resolve((any AllPlugin).self, name: "a").id == "a")
    }

    @Test func resolveAllInsideAFactoryThrowsRegistrationAfterFinishForALateRegistration() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "a") { _ in AllPluginImpl("a") }
        container.register(AllHost.self) { r in
            try AllHost(plugins: r.resolveAll((any AllPlugin).self), shared: AllShared())
        }
        try container.finishRegistration()
        let lateLine = #line + 1
        container.register((any AllPlugin).self) { _ in AllPluginImpl("late") }

        let error = try #require(injectionError { _ = try container.resolve(AllHost.self) })

        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("AllPlugin was registered after finishRegistration()"))
        #expect(error.message.contains("InjectorTests/ResolveAllTests.swift:\(lateLine)"))
        #expect(
            error.resolutionPath == [ServiceKey(AllHost.self, name: nil), ServiceKey((any AllPlugin).self, name: nil)]
        )
    }

    @Test func resolveAllIsUnaffectedByALateRegistrationOfAnotherType() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "a") { _ in AllPluginImpl("a") }
        try container.finishRegistration()
        container.register(AllShared.self) { _ in AllShared() }  // late, but another type

        #expect(try allIDs(container) == ["a"])
    }

    // MARK: resolveAllAsync

    @Test func resolveAllOfAnAsyncRegistrationSaysToResolveThemAllAsynchronously() throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "pdf") { _ in AllPluginImpl("pdf") }
        container.register((any AllPlugin).self, name: "cloud") { _ async in AllPluginImpl("cloud") }

        let error = try #require(injectionError { _ = try container.resolveAll((any AllPlugin).self) })

        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message
                == "AllPlugin (name: \"cloud\") has an async factory, which a sync resolveAll cannot run."
                + " Fix: resolve them all with try await resolveAllAsync(AllPlugin.self), from the container or"
                + " scope you resolve from (r.resolveAllAsync in an async factory); a sync factory that needs them"
                + " must become async too."
        )
        #expect(error.resolutionPath == [ServiceKey((any AllPlugin).self, name: "cloud")])
    }

    @Test func resolveAllOfASyncRegistrationWithAnAsyncDependencySaysToResolveThatAsynchronously() throws {
        let container = Container()
        container.register(AllShared.self) { _ async in AllShared() }
        container.register((any AllPlugin).self) { r in try AllSharingPlugin("s", shared: r.resolve(AllShared.self)) }

        let error = try #require(injectionError { _ = try container.resolveAll((any AllPlugin).self) })

        #expect(error.code == .asyncResolutionRequired)
        #expect(
            error.message
                == "AllShared has an async factory, which a sync resolve cannot run. Path: AllPlugin -> AllShared."
                + " Fix: resolve it with try await resolveAsync(AllShared.self), from the container or scope you"
                + " resolve from (r.resolveAsync in an async factory); a sync factory that needs it must become"
                + " async too."
        )
    }

    @Test func resolveAllAsyncBuildsSyncAndAsyncRegistrationsInOrderInOneGraph() async throws {
        let container = Container()
        container.register(AllShared.self, scope: .graph) { _ in AllShared() }
        container.register((any AllPlugin).self, name: "pdf") { r in
            try AllSharingPlugin("pdf", shared: r.resolve(AllShared.self))
        }
        container.register((any AllPlugin).self, name: "cloud") { r async throws in
            try await AllSharingPlugin("cloud", shared: r.resolveAsync(AllShared.self))
        }
        container.register((any AllPlugin).self) { _ in AllPluginImpl("unnamed") }

        let plugins = try await container.resolveAllAsync((any AllPlugin).self)

        #expect(plugins.map(\.id) == ["pdf", "cloud", "unnamed"])
        let shared = plugins.compactMap { ($0 as? AllSharingPlugin)?.shared }
        #expect(shared.count == 2 && shared[0] === shared[1])
        #expect(try await container.resolveAllAsync((any AllUnregistered).self).isEmpty)
    }

    @Test func resolveAllAsyncThroughAnAsyncFactorysResolverJoinsItsResolution() async throws {
        let container = Container()
        container.register(AllShared.self, scope: .graph) { _ in AllShared() }
        container.register((any AllPlugin).self, name: "cloud") { r async throws in
            try await AllSharingPlugin("cloud", shared: r.resolveAsync(AllShared.self))
        }
        container.register(AllHost.self) { r async throws in
            try await AllHost(plugins: r.resolveAllAsync((any AllPlugin).self), shared: r.resolveAsync(AllShared.self))
        }

        let host = try await container.resolveAsync(AllHost.self)

        #expect(host.plugins.map(\.id) == ["cloud"])
        #expect((host.plugins.first as? AllSharingPlugin)?.shared === host.shared)
    }

    @Test func resolveAllAsyncThroughASyncFactorysResolverResolvesSyncRegistrationsOnly() async throws {
        let container = Container()
        container.register((any AllPlugin).self, name: "pdf") { _ in AllPluginImpl("pdf") }
        container.register((any AllPlugin).self, name: "cloud") { _ async in AllPluginImpl("cloud") }
        container.register(AllHost.self) { r in
            try AllHost(plugins: r.resolveAll((any AllPlugin).self), shared: AllShared())
        }

        let error = try #require(await injectionErrorAsync { _ = try await container.resolveAsync(AllHost.self) })

        #expect(error.code == .asyncResolutionRequired)
        #expect(error.message.hasPrefix("AllPlugin (name: \"cloud\") has an async factory, which a sync resolveAll"))
        #expect(error.message.contains("Path: AllHost -> AllPlugin (name: \"cloud\")."))
    }

    @Test func resolveAllAsyncFromAScopeKeepsScopedInstancesInTheScope() async throws {
        let container = Container()
        container.register(AllShared.self, scope: .scoped) { _ in AllShared() }
        container.register((any AllPlugin).self, name: "cloud") { r async throws in
            try await AllSharingPlugin("cloud", shared: r.resolveAsync(AllShared.self))
        }
        let scope = container.makeScope()

        let plugins = try await scope.resolveAllAsync((any AllPlugin).self)

        #expect((plugins.first as? AllSharingPlugin)?.shared === (try scope.resolve(AllShared.self)))
        try await scope.closeAsync()
        let error = try #require(
            await injectionErrorAsync { _ = try await scope.resolveAllAsync((any AllPlugin).self) }
        )
        #expect(error.code == .scopeClosed)
    }

    @MainActor
    @Test func resolveAllAsyncFromTheMainActorHandsItsCallerServicesThatAreNotSendable() async throws {
        let container = Container()
        container.register(AllScreen.self, name: "notes") { _ async in AllScreen(title: "Notes") }
        container.register(AllScreen.self, name: "settings") { _ in AllScreen(title: "Settings") }

        let screens = try await container.resolveAllAsync(AllScreen.self)

        screens[0].title += " (2)"  // used where it was resolved, on the main actor
        #expect(screens.map(\.title) == ["Notes (2)", "Settings"])
    }
}

/// A screen's model: not `Sendable`, as UIKit's are not.
private final class AllScreen {
    var title: String
    init(title: String) { self.title = title }
}

private final class AllErrors: @unchecked Sendable {
    private(set) var all: [InjectionError] = []
    func append(_ error: InjectionError) { all.append(error) }
}
