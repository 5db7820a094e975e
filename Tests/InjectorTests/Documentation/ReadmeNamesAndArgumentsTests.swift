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

// The docs' "Names and arguments": keys that differ in name or argument types coexist; a
// registration with arguments is transient (a shared one is refused before any factory runs); a
// factory may resolve its own registration with other arguments; an optional type resolves the type
// it wraps.

private protocol Exporter { var format: String { get } }
private struct PDFExporter: Exporter { let format = "pdf" }
private struct MarkdownExporter: Exporter { let format = "markdown" }
private struct Note { let text: String }
private struct Thumbnail {
    let note: Note
    let size: Int
}
private final class Connection: Sendable {
    let host: String
    init(host: String) { self.host = host }
}
private struct Tree {
    let depth: Int
    let child: Box?
    final class Box {
        let tree: Tree
        init(_ tree: Tree) { self.tree = tree }
    }
    var height: Int { 1 + (child?.tree.height ?? 0) }
}
private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }

@Suite struct ReadmeNamesAndArgumentsTests {
    @Test func keysThatDifferInNameOrArgumentTypesCoexist() throws {
        let container = Container()
        let note = Note(text: "Groceries")

        // README begins
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Exporter.self, name: "markdown") { _ in MarkdownExporter() }
        container.register(Thumbnail.self) { (_, note: Note, size: Int) in Thumbnail(note: note, size: size) }

        let thumbnail = try container.resolve(Thumbnail.self, arguments: note, 128)
        // README ends

        #expect(thumbnail.note.text == "Groceries")
        #expect(thumbnail.size == 128)
        #expect(try container.resolve(Exporter.self, name: "pdf").format == "pdf")
        #expect(try container.resolve(Exporter.self, name: "markdown").format == "markdown")
        try container.finishRegistration()
    }

    /// The docs' "Errors" example: a name nobody registered, with the names that are.
    @Test func aMissingNameIsReportedWithTheNamesRegisteredNearby() {
        let container = Container()
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(Exporter.self, name: "markdown") { _ in MarkdownExporter() }

        let error = injectionError { try container.resolve(Exporter.self, name: "html") }

        #expect(
            error.map { "\($0.code): \($0.message)" }
                == "missingRegistration: No registration for Exporter (name: \"html\"). Registered nearby:"
                + " Exporter (name: \"pdf\"); Exporter (name: \"markdown\"). Fix: ask for one of those (same name and"
                + " argument types), or register Exporter (name: \"html\")."
        )
        #expect(error?.nearMisses.map(\.description) == ["Exporter (name: \"pdf\")", "Exporter (name: \"markdown\")"])
    }

    /// A shared scope with arguments is recorded as a problem: resolving the key throws
    /// `sharedScopeWithArguments` before any factory runs, and `finishRegistration()` reports it
    /// with the registration's site.
    @Test func aSharedRegistrationWithArgumentsIsRefusedBeforeItsFactoryRuns() {
        let container = Container()
        let built = CallCounter()
        let line = #line + 1
        container.register(Connection.self, scope: .singleton) { (_, host: String) in
            built.next()
            return Connection(host: host)
        }

        let error = injectionError { try container.resolve(Connection.self, argument: "db-a") }

        #expect(error?.code == .sharedScopeWithArguments)
        #expect(
            error?.message == "Connection (argument: String) is registered as .singleton at"
                + " InjectorTests/ReadmeNamesAndArgumentsTests.swift:\(line), but its factory takes resolve-time"
                + " arguments: a shared instance is built once, from the first resolve's arguments, and every later"
                + " resolve would get it whatever its arguments. Fix: register it as .transient (a new instance for"
                + " each resolve), or register one named registration per value (name: \"db-a\"), or share a"
                + " service that hands out an instance per argument (a pool keyed by host)."
        )
        #expect(built.count == 0)
        let finished = injectionError { try container.finishRegistration() }
        #expect(finished?.code == .sharedScopeWithArguments)
        #expect(finished?.message == error?.message)
    }

    /// `Tree(depth:)` resolving `Tree(depth - 1)` is recursion, not a cycle.
    @Test func aFactoryMayResolveItsOwnRegistrationWithOtherArguments() throws {
        let container = Container()
        container.register(Tree.self) { (r, depth: Int) in
            Tree(depth: depth, child: depth == 0 ? nil : Tree.Box(try r.resolve(Tree.self, argument: depth - 1)))
        }

        #expect(try container.resolve(Tree.self, argument: 5).height == 6)
    }

    /// `let clock: Clock? = try? container.resolve()` asks for `Optional<Clock>`, which nothing
    /// registers: the wrapped type is resolved. Missing, the error names `Clock` as asked for as an
    /// optional, and `try?` turns it into `nil`.
    @Test func anOptionalServiceTypeResolvesTheTypeItWraps() throws {
        let container = Container()
        let missing: Clock? = try? container.resolve()
        #expect(missing == nil)
        let error = injectionError { () -> Clock? in try container.resolve() }
        #expect(error?.code == .missingRegistration)
        #expect(
            error?.message == "No registration for Clock. Nothing is registered for Clock under any name or"
                + " arguments. Fix: register it, e.g. container.register(Clock.self) { r in … }, in this container or"
                + " one of its parents. It was asked for as Optional<Clock>: an optional service type resolves the"
                + " type it wraps (did you mean Clock?)."
        )

        container.register(Clock.self) { _ in SystemClock() }
        let clock: Clock? = try? container.resolve()
        #expect(clock?.now == "09:00")
    }
}
