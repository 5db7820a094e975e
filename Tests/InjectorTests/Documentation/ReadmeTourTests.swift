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

// The docs' tour, verbatim, with the types it assumes, and what its comments say: the graph is
// known from the declarations before anything is built, validation passes without building it, the
// request's context is made for the request and disposed when its scope closes, and the override
// is seen inside its operation only.

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private struct FixedClock: Clock { let now = "2000-01-01" }
private protocol NoteStore: Sendable { var clock: any Clock { get } }
private final class FileNoteStore: NoteStore {
    let clock: any Clock
    init(clock: Clock) { self.clock = clock }
}
private final class RequestContext: Disposable, Sendable {
    static let disposed = Guarded(0)
    func dispose() { _ = Self.disposed.add(1) }
}
private struct NoteHandler {
    let context: RequestContext
    let store: any NoteStore
    init(context: RequestContext, store: NoteStore) {
        self.context = context
        self.store = store
    }
    func handle(_ text: String) -> String { "\(text) at \(store.clock.now)" }
}

// The README declares the tag at file scope; `private` keeps it to this file (the checker does not
// count the modifier), which swift-format would otherwise move onto the member.
// swift-format-ignore: NoAccessLevelOnExtensionDeclaration
private extension ScopeTag { static let request: ScopeTag = "request" }

@Suite struct ReadmeTourTests {
    @Test func theTourValidatesServesARequestAndOverridesTheClock() async throws {
        // README begins
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self, scope: .singleton, FileNoteStore.init)  // init(clock: Clock)
        container.register(RequestContext.self, scope: .scoped(to: .request), RequestContext.init)
        container.register(NoteHandler.self, NoteHandler.init)  // init(context: RequestContext, store: NoteStore)
        try container.finishRegistration()

        try container.validate()  // the whole graph, before any request
        print(container.dependencyGraph())  // NoteHandler (transient), ├─ RequestContext …, └─ NoteStore …

        let reply = try await container.withScopeAsync(tag: .request) { request in
            try request.resolve(NoteHandler.self).handle("hello")  // this request's context
        }  // closed, and disposed, on every path

        // In a test: a double seen by this task alone, while other tests run in parallel.
        // swift-format-ignore
        try container.withOverrides { $0.register(Clock.self) { _ in FixedClock() } } operation: {
            let store = try container.resolve(NoteStore.self)  // rebuilt with the double, for this call
            #expect(store.clock is FixedClock)
        }
        // README ends

        #expect(reply == "hello at 09:00")
        #expect(RequestContext.disposed.current == 1)  // validation checked its declaration, built none
        #expect(try container.resolve(NoteStore.self).clock is SystemClock)
        #expect(
            container.dependencyGraph().textTree.hasPrefix(
                """
                NoteHandler (transient)
                ├─ RequestContext (scoped(to: .request))
                └─ NoteStore (singleton)
                   └─ Clock (singleton)
                """
            )
        )
        let report = try container.validate()
        let declared = report.checkedFromDeclarations.map(\.description).sorted()
        #expect(declared == ["NoteHandler", "NoteStore", "RequestContext"])
    }
}
