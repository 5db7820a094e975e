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

/// A screen as UIKit's are, and as every type of an app target with default main-actor isolation is.
@MainActor private protocol ComposerView: AnyObject {
    var draft: String { get set }
}

@MainActor private final class ComposerScreen: ComposerView, CustomStringConvertible {
    var draft = ""
    init() {}
    nonisolated var description: String { "ComposerScreen" }
}

extension RoutableView where Protocol == any ComposerView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// A route type for the screen: main-actor, as every view route type is, so its steps touch the
/// screen's state directly.
private struct ComposerRoute: ViewRouteDefinition {
    let removed: ComposerLog
    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> ComposerScreen {
        ComposerScreen()
    }
    func prepare(_ destination: inout ComposerScreen, context: RouteContext) throws {
        destination.draft += " Yours, Grace"
    }
    func verify(_ destination: ComposerScreen, context: RouteContext) throws {
        guard destination.draft.hasPrefix("Dear") else { throw TestFailure("no greeting") }
    }
    func remove(_ destination: ComposerScreen, context: RouteContext) throws {
        removed.drafts.append(destination.draft)
    }
}

@MainActor private final class ComposerLog {
    var drafts: [String] = []
}

/// A service that needs the screen, made off the main actor.
private final class Drafts: Sendable {}

/// A view route makes its destination on the main actor: a main-actor screen registers with a
/// plain closure, and a resolve or a validation elsewhere is a clear error or an unchecked entry,
/// never a crash.
@Suite struct MainActorScreenTests {
    private static func register(in container: Container) {
        let router = Router(container: container)
        router.register(RoutableView<any ComposerView>()) { _ in ComposerScreen() }
        container.register(Drafts.self) { r in
            _ = try r.resolve((any ComposerView).self)
            return Drafts()
        }
    }

    @MainActor @Test func aMainActorScreenIsMadeByAPlainClosureAndShown() throws {
        let host = RecordingHost()
        let home = HomeScreen()
        let router = Router(container: Container(), host: host)
        router.register(RoutableView<any ComposerView>()) { _ in ComposerScreen() }

        let route = try router.perform(to: RoutableView<any ComposerView>(), path: .push(from: home)) {
            $0.prepareDestination = { $0.draft = "Dear Ada," }
        }

        #expect(host.log == ["perform push ComposerScreen from HomeScreen"])
        #expect(route.destination?.draft == "Dear Ada,")
    }

    @MainActor @Test func theRoutesHooksPrepareCheckAndRemoveTheScreenOnTheMainActor() throws {
        let host = RecordingHost()
        let home = HomeScreen()
        let router = Router(container: Container(), host: host)
        var removed: [String] = []  // main-actor state, which the hooks touch directly
        let registrationLine = #line + 1
        router.register(RoutableView<any ComposerView>()) { _ in ComposerScreen() }
            .prepare { composer, _ in composer.draft += " Yours, Grace" }
            .verify { composer, _ in
                guard composer.draft.hasPrefix("Dear") else { throw TestFailure("no greeting") }
            }
            .onRemove { composer, _ in removed.append(composer.draft) }

        let route = try router.perform(to: RoutableView<any ComposerView>(), path: .push(from: home)) {
            $0.prepareDestination = { $0.draft = "Dear Ada," }
        }
        try route.removeRoute()
        let refused = try #require(throws: RoutingError.self) {
            try router.perform(to: RoutableView<any ComposerView>(), path: .push(from: home))
        }

        #expect(removed == ["Dear Ada, Yours, Grace"])
        #expect(refused.code == .invalidConfiguration)
        #expect(
            refused.message == "The destination of RoutableView<ComposerView> (the route registered at"
                + " InjectorRoutingTests/MainActorScreenTests.swift:\(registrationLine)) is not ready: its verify check"
                + " threw: no greeting. Fix: give it what the check asks for, in the configuration's prepareDestination"
                + " or the route's prepare hook."
        )
    }

    @MainActor @Test func aRouteTypeMakesPreparesChecksAndRemovesTheScreenOnTheMainActor() throws {
        let host = RecordingHost()
        let home = HomeScreen()
        let router = Router(container: Container(), host: host)
        let log = ComposerLog()
        router.register(RoutableView<any ComposerView>(), route: ComposerRoute(removed: log))

        let route = try router.perform(to: RoutableView<any ComposerView>(), path: .push(from: home)) {
            $0.prepareDestination = { $0.draft = "Dear Ada," }
        }
        try route.removeRoute()
        let refused = try #require(throws: RoutingError.self) {
            try router.perform(to: RoutableView<any ComposerView>(), path: .push(from: home))
        }

        #expect(log.drafts == ["Dear Ada, Yours, Grace"])
        #expect(refused.code == .invalidConfiguration)
        #expect(
            refused.message == "The destination of RoutableView<ComposerView> (ComposerRoute) is not ready:"
                + " its verify check threw: no greeting. Fix: give it what the check asks for, in the configuration's"
                + " prepareDestination or the route's prepare hook."
        )
    }

    @Test func resolvingAMainActorScreenOffTheMainActorIsRefused() throws {
        let container = Container()
        Self.register(in: container)

        let direct = try #require(throws: InjectionError.self) { try container.resolve((any ComposerView).self) }
        let nested = try #require(throws: InjectionError.self) { try container.resolve(Drafts.self) }

        let fix =
            " Fix: resolve it from main-actor code (a @MainActor function or test, or await MainActor.run { … }),"
            + " as performing a view route does."
        #expect(direct.code == .mainActorRequired)
        #expect(direct.message == "ComposerView is made on the main actor, but was resolved off it." + fix)
        #expect(nested.code == .mainActorRequired)
        #expect(
            nested.message == "ComposerView is made on the main actor, but was resolved off it."
                + " Path: Drafts -> ComposerView." + fix
        )
        #expect(nested.resolutionPath.map(\.description) == ["Drafts", "ComposerView"])
    }

    @Test func validatingOffTheMainActorListsWhatNeedsItAsUnchecked() throws {
        let container = Container()
        Self.register(in: container)

        let report = try container.validate()

        #expect(report.checked.isEmpty)
        #expect(
            report.unchecked.map(\.description) == [
                "ComposerView: made on the main actor; validate from the main actor to check it",
                "Drafts: made on the main actor; validate from the main actor to check it",
            ]
        )
        #expect(report.unchecked.map(\.reason) == [.needsMainActor, .needsMainActor])
    }

    @MainActor @Test func validatingAsynchronouslyFromTheMainActorChecksMainActorScreens() async throws {
        let container = Container()
        Self.register(in: container)

        let report = try await container.validateAsync()

        #expect(report.checked.map(\.description) == ["ComposerView", "Drafts"])
        #expect(report.unchecked.isEmpty)
    }

    @Test func validatingAsynchronouslyOffTheMainActorListsWhatNeedsItAsUnchecked() async throws {
        let container = Container()
        Self.register(in: container)

        let report = try await container.validateAsync()

        #expect(report.checked.isEmpty)
        #expect(report.unchecked.map(\.reason) == [.needsMainActor, .needsMainActor])
    }

    @MainActor @Test func validatingOnTheMainActorChecksMainActorScreens() throws {
        let container = Container()
        Self.register(in: container)

        let report = try container.validate()

        #expect(report.checked.map(\.description) == ["ComposerView", "Drafts"])
        #expect(report.unchecked.isEmpty)
    }
}
