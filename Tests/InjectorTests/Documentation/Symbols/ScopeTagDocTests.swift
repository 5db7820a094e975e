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

// The snippet of ScopeTag's doc comment (ScopeTag.swift): a tag declared once as a static member,
// used by the registration and by the scope; a scope of another kind cannot resolve it.

// The snippet declares the tag at file scope; `private` keeps it to this file (the checker does not
// count the modifier), which swift-format would otherwise move onto the member.
// swift-format-ignore: NoAccessLevelOnExtensionDeclaration
private extension ScopeTag {
    static let request: ScopeTag = "request"
}

private final class RequestContext: Sendable {}

@Suite struct ScopeTagDocTests {
    @Test func aTagDeclaredOnceIsUsedOnBothSides() throws {
        let container = Container()

        container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext() }
        try container.withScope(tag: .request) { request in _ = try request.resolve(RequestContext.self) }

        #expect(ScopeTag.request.name == "request")
        #expect(ScopeTag.request == "request")
        let error = try #require(
            injectionError { try container.withScope(tag: "session") { try $0.resolve(RequestContext.self) } }
        )
        #expect(error.code == .scopeMismatch)
        #expect(
            error.message == "RequestContext is .scoped(to: .request), but was resolved from the scope \"session\"."
                + " Fix: resolve it from a scope made with container.makeScope(tag: \"request\"), or register it as .scoped"
                + " to let any scope own it."
        )
    }
}
