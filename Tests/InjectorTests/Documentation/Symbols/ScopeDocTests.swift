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

// The snippet of Scope.scoped(to:)'s doc comment (Scope.swift), with the types it assumes: one
// instance per scope of the tag; resolving it from a scope with another tag, an untagged scope or a
// container is an error that names the tag.

extension ScopeTag {
    fileprivate static let session: ScopeTag = "session"
}

private final class Session: Sendable {}

@Suite struct ScopeDocTests {
    @Test func oneInstancePerScopeOfTheTagAndAnErrorNamingItElsewhere() throws {
        let container = Container()

        container.register(Session.self, scope: .scoped(to: .session)) { _ in Session() }
        let session = container.makeScope(tag: .session)

        let first = try session.resolve(Session.self)
        #expect(try session.resolve(Session.self) === first)
        try session.close()
        try container.withScope(tag: .session) { other throws in
            #expect(try other.resolve(Session.self) !== first)
        }

        let otherTag = try #require(
            injectionError { try container.withScope(tag: "request") { try $0.resolve(Session.self) } }
        )
        let untagged = try #require(injectionError { try container.withScope { try $0.resolve(Session.self) } })
        let fromContainer = try #require(injectionError { try container.resolve(Session.self) })
        for error in [otherTag, untagged, fromContainer] {
            #expect(error.code == .scopeMismatch)
        }
        #expect(
            otherTag.message == "Session is .scoped(to: .session), but was resolved from the scope \"request\". Fix:"
                + " resolve it from a scope made with container.makeScope(tag: \"session\"), or register it as"
                + " .scoped to let any scope own it."
        )
        #expect(
            untagged.message == "Session is .scoped(to: .session), but was resolved from an untagged scope. Fix:"
                + " resolve it from a scope made with container.makeScope(tag: \"session\"), or register it as"
                + " .scoped to let any scope own it."
        )
        #expect(
            fromContainer.message == "Session is .scoped(to: .session), but was resolved from a container, outside"
                + " any lifetime scope, so nothing would own its instance. Fix: resolve from a lifetime scope:"
                + " let scope = container.makeScope(tag: \"session\"); try scope.resolve(…)."
        )
    }
}
