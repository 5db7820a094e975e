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
import NotesServerCore
import Testing

@Suite("The server's graph", .timeLimit(.minutes(1)))
struct ValidationTests {
    @Test("validate() checks the request path from its declarations, with no request and no stand-in values")
    func theRequestPathIsCheckedWithoutARequest() async throws {
        let server = try makeServer()

        let report = try server.container.validate()
        try await server.container.shutdownAsync()

        #expect(report.checkedFromDeclarations.map(\.description) == ["UnitOfWork", "NotesService"])
        #expect(report.unchecked.map(\.description) == ["RequestInfo: provided by lifetime scopes"])
    }

    @Test("a request path missing a registration fails validation, naming the parameter that needs it")
    func aMissingDependencyOfTheRequestPathIsFound() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: .request)
        container.register(NotesService.self, NotesService.init)

        let error = try #require(throws: InjectionError.self) { try container.validate() }

        #expect(
            error.problems.map(\.resolutionPath.last?.description) == ["NotesDatabase", "UnitOfWork", "NotesClock"]
        )
        #expect(error.problems.allSatisfy { $0.code == .missingRegistration })
        #expect(
            error.problems.first?.message
                == "No registration for NotesDatabase, the 1st parameter of NotesService (declared at"
                + " NotesServerTests/ValidationTests.swift:35), needed by NotesService -> NotesDatabase (missing)."
                + " Nothing is registered for NotesDatabase under any name or arguments. Fix: register it, e.g."
                + " container.register(NotesDatabase.self) { r in … }, in this container or one of its parents."
        )
    }
}
