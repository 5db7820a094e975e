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
import Testing

// The snippet of the Injector catalog's landing page (Injector.md), verbatim, with the types it
// assumes, and what the page says of it: if it stops compiling or doing what the page says, this
// fails. (.ci/check-snippets finds the snippet's lines here.)

private protocol Clock: Sendable { var now: String { get } }
private final class SystemClock: Clock {
    let now = "09:00"
}
private protocol NoteStore: Sendable { var clock: any Clock { get } }
private struct FileNoteStore: NoteStore { let clock: any Clock }

struct InjectorSnippetTests {
    @Test func aRegisteredFactoryBuildsTheStoreWithTheSingletonClock() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        try container.finishRegistration()

        let store = try container.resolve(NoteStore.self)

        #expect(store.clock.now == "09:00")
        #expect(try store.clock as? SystemClock === container.resolve(NoteStore.self).clock as? SystemClock)
    }

    @Test func servicesResolveFromAnyTaskAndShareTheOneSingleton() async throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        try container.finishRegistration()

        let clocks = try await withThrowingTaskGroup(of: (any Clock).self) { group in
            for _ in 0..<16 { group.addTask { try container.resolve(NoteStore.self).clock } }
            return try await group.reduce(into: [any Clock]()) { $0.append($1) }
        }
        let first = try #require(clocks.first as? SystemClock)
        #expect(clocks.count == 16)
        #expect(clocks.allSatisfy { $0 as? SystemClock === first })
    }

    @Test func aMisuseIsAnInjectionErrorNamingWhatWasAskedThePathWhatIsNearAndTheFix() throws {
        let container = Container()
        container.register(Clock.self, name: "utc", scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }

        let error = try #require(injectionError { try container.resolve(NoteStore.self) })
        #expect(error.code == .missingRegistration)
        #expect(error.resolutionPath.map(\.description) == ["NoteStore", "Clock"])
        #expect(error.nearMisses.map(\.description) == [#"Clock (name: "utc")"#])
        #expect(
            error.message
                == #"No registration for Clock, needed by NoteStore -> Clock (missing). Registered nearby: "#
                + #"Clock (name: "utc"). Fix: ask for one of those (same name and argument types), or register Clock."#
        )
    }
}
