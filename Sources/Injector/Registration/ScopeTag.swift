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

/// Names a kind of lifetime scope, such as a request or a session, so that a ``Scope/scoped(to:)``
/// registration is only resolved in scopes of that kind.
///
/// Declare tags once, as static members, and use them on both sides:
///
/// ```swift
/// extension ScopeTag {
///     static let request: ScopeTag = "request"
/// }
/// container.register(RequestContext.self, scope: .scoped(to: .request)) { _ in RequestContext() }
/// try container.withScope(tag: .request) { request in _ = try request.resolve(RequestContext.self) }
/// ```
public struct ScopeTag: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The tag's name, shown in error messages.
    public let name: String

    /// Creates a tag with the given name; tags with equal names are equal.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a tag from a string literal: `let request: ScopeTag = "request"`.
    public init(stringLiteral name: String) {
        self.init(name)
    }

    /// The tag's name.
    public var description: String { name }
}
