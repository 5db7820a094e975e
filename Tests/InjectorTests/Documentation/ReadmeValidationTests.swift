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

// The docs' "Validating the graph, and looking at it": `validate()` reports every problem at once,
// or what it could not check, and leaves the container's singletons alone; the dependency graph is
// the tree the README shows.

extension ScopeTag {
    fileprivate static let validatedRequest: ScopeTag = "request"
}

private protocol Clock: Sendable { var now: String { get } }
private final class SystemClock: Clock {
    let serial: Int
    init(serial: Int) { self.serial = serial }
    var now: String { "09:00" }
}
private protocol NoteStore: Sendable {}
private struct FileNoteStore: NoteStore { let clock: any Clock }
private struct Note { let text: String }
private struct Editor { let note: Note }
private struct Thumbnail {}
private final class RequestContext: Sendable {}
private final class Transaction: Sendable {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
}
private struct NoteHandler {
    let context: RequestContext
    let transaction: Transaction
    let store: any NoteStore
}

@Suite struct ReadmeValidationTests {
    @Test func validateReportsEveryProblemAtOnceWithThePathThatNeedsAMissingService() {
        let container = Container()
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        let first = #line + 1
        container.register(Thumbnail.self) { _ in Thumbnail() }
        let second = #line + 1
        container.register(Thumbnail.self) { _ in Thumbnail() }

        let error = injectionError { try container.validate() }

        #expect(error?.code == .validationFailed)
        #expect(error?.problems.map(\.code) == [.duplicateRegistration, .missingRegistration])
        #expect(
            error?.message == "Validation found 2 problems:\n"
                + "- Thumbnail is registered 2 times: at InjectorTests/ReadmeValidationTests.swift:\(first), then at"
                + " InjectorTests/ReadmeValidationTests.swift:\(second). Fix: remove all but one; give them different"
                + " names if each is needed (resolveAll collects them); or pass replacesExisting: true to the one meant"
                + " to replace the others, as a test does when it swaps in a double.\n"
                + "- No registration for Clock, needed by NoteStore -> Clock (missing). Nothing is registered for Clock"
                + " under any name or arguments. Fix: register it, e.g. container.register(Clock.self) { r in … }, in"
                + " this container or one of its parents."
        )
    }

    @Test func validateReturnsWhatItCouldNotCheckAndLeavesTheSingletonsAlone() throws {
        let container = Container()
        let made = CallCounter()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock(serial: made.next()) }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        container.register(Editor.self) { (_, note: Note) in Editor(note: note) }
        container.register(Thumbnail.self) { _ in
            await Task.yield()
            return Thumbnail()
        }
        let clock = try container.resolve(Clock.self)

        let report = try container.validate()

        #expect(report.checked.map(\.description) == ["Clock", "NoteStore"])
        #expect(
            report.unchecked.map(\.description) == [
                "Editor (argument: Note): needs resolve-time arguments",
                "Thumbnail: has an async factory; validateAsync() checks it",
            ]
        )
        #expect(made.count == 2)  // validation built its own
        #expect((try container.resolve(Clock.self) as? SystemClock) === clock as? SystemClock)
    }

    @Test func theDependencyGraphIsTheTreeTheReadmeShows() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock(serial: 1) }
        container.register(NoteStore.self, scope: .singleton) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        container.register(RequestContext.self, scope: .scoped(to: .validatedRequest)) { _ in RequestContext() }
        container.register(Transaction.self, scope: .scoped(to: .validatedRequest)) { r in
            try Transaction(context: r.resolve(RequestContext.self))
        }
        container.register(NoteHandler.self) { r in
            try NoteHandler(
                context: r.resolve(RequestContext.self),
                transaction: r.resolve(Transaction.self),
                store: r.resolve(NoteStore.self)
            )
        }

        try container.validate()

        #expect(
            container.dependencyGraph().textTree == """
                NoteHandler (transient)
                ├─ RequestContext (scoped(to: .request))
                ├─ Transaction (scoped(to: .request))
                │  └─ RequestContext (scoped(to: .request))
                └─ NoteStore (singleton)
                   └─ Clock (singleton)

                """
        )
    }
}
