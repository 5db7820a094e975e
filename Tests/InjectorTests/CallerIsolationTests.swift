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

// The container's closure-taking async calls, made from main-actor code and from an actor, as an app
// writes them: each closure touches its caller's isolated state, so that this file compiles only if
// the closures run in the caller's isolation (before, each call was "sending value of non-Sendable
// type … risks causing data races").

/// A service that is not `Sendable`, configured by the caller.
private final class Draft {
    var title = ""
}

private final class DraftStore: Sendable {}

private func makeContainer() -> Container {
    let container = Container()
    container.register(Draft.self) { _ in Draft() }
    container.register(DraftStore.self, scope: .scoped) { _ in DraftStore() }
    return container
}

/// A screen's model, on the main actor as UIKit's are.
@MainActor
private final class EditorModel {
    let container: Container
    var loads = 0
    var title = "Groceries"

    init(container: Container) { self.container = container }

    func loadInAScope() async throws -> Bool {
        try await container.withScopeAsync { scope in
            MainActor.assertIsolated()
            self.loads += 1
            let first = try await scope.resolveAsync(DraftStore.self)
            let second = try await scope.resolveAsync(DraftStore.self)
            return first === second
        }
    }

    func loadWithAFakeStore() async throws -> Int {
        try await container.withOverridesAsync {
            $0.register(Draft.self) { _ in
                let draft = Draft()
                draft.title = "fake"
                return draft
            }
        } operation: {
            MainActor.assertIsolated()
            self.loads += 1
            let draft = try await self.container.resolveAsync(Draft.self)
            #expect(draft.title == "fake")
            return self.loads
        }
    }

    func makeDraft() async throws -> Draft {
        try await container.resolveAsync(Draft.self) { draft in
            MainActor.assertIsolated()
            draft.title = self.title
        }
    }

    func makeDraftInAScope() async throws -> Draft {
        let scope = container.makeScope()
        let draft = try await scope.resolveAsync(Draft.self) { draft in
            MainActor.assertIsolated()
            draft.title = self.title
        }
        try await scope.closeAsync()
        return draft
    }
}

/// The same calls from an actor of the caller's own.
private actor Importer {
    let container: Container
    var imported: [String] = []

    init(container: Container) { self.container = container }

    func importInAScope() async throws -> Int {
        try await container.withScopeAsync { scope in
            self.assertIsolated()
            self.imported.append("scope")
            _ = try await scope.resolveAsync(DraftStore.self)
            return self.imported.count
        }
    }

    func importWithOverrides() async throws -> Int {
        try await container.withOverridesAsync { _ in
        } operation: {
            self.assertIsolated()
            self.imported.append("overrides")
            return self.imported.count
        }
    }

    func importDraft() async throws -> String {
        let draft = try await container.resolveAsync(Draft.self) { draft in
            self.assertIsolated()
            draft.title = "import #\(self.imported.count)"
        }
        return draft.title
    }
}

@Suite struct CallerIsolationTests {
    @Test @MainActor func mainActorCodeRunsAScopedOperationOnTheMainActor() async throws {
        let model = EditorModel(container: makeContainer())
        #expect(try await model.loadInAScope())
        #expect(model.loads == 1)
    }

    @Test @MainActor func mainActorCodeRunsAnOperationWithOverridesOnTheMainActor() async throws {
        let model = EditorModel(container: makeContainer())
        #expect(try await model.loadWithAFakeStore() == 1)
    }

    @Test @MainActor func mainActorCodeConfiguresAResolvedInstanceOnTheMainActor() async throws {
        let model = EditorModel(container: makeContainer())
        #expect(try await model.makeDraft().title == "Groceries")
        #expect(try await model.makeDraftInAScope().title == "Groceries")
    }

    @Test func anActorRunsEachClosureInItsOwnIsolation() async throws {
        let importer = Importer(container: makeContainer())
        #expect(try await importer.importInAScope() == 1)
        #expect(try await importer.importWithOverrides() == 2)
        #expect(try await importer.importDraft() == "import #2")
    }

    @Test func aConfigureThatThrowsOnTheMainActorFailsTheResolve() async throws {
        struct Refused: Error {}
        let container = makeContainer()
        let error = await #expect(throws: InjectionError.self) {
            try await Self.configureOnTheMainActor(container) { _ in throw Refused() }
        }
        #expect(error?.code == .preparationFailed)
        #expect(
            error?.message
                == "Preparing Draft failed: the caller's configure closure threw: Refused(). The error is the underlyingError."
        )
    }

    @MainActor
    private static func configureOnTheMainActor(
        _ container: Container,
        _ configure: @escaping (inout Draft) throws -> Void
    ) async throws {
        _ = try await container.resolveAsync(Draft.self, configure: configure)
    }
}
