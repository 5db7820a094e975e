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

/// How long an instance made by a registration lives, and who shares it.
///
/// The default is ``transient``: a registration that says nothing shares nothing, so what its
/// factory builds is what the caller gets. Sharing is opted into at the registration site, where a
/// reader can see it.
///
/// | scope | one instance per |
/// |---|---|
/// | ``transient`` | resolve, even within one graph |
/// | ``graph`` | top-level resolve call, shared by every nested resolve of that call |
/// | ``singleton`` | container that registered it, made on first use, exactly once |
/// | ``weak`` | container, for as long as something else holds the instance |
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case transient
        case graph
        case singleton
        case weak
        case scoped
    }

    @usableFromInline let kind: Kind
    /// The tag of the lifetime scopes that may own a ``scoped`` instance; `nil` for any scope.
    public let tag: ScopeTag?

    private init(kind: Kind, tag: ScopeTag? = nil) {
        self.kind = kind
        self.tag = tag
    }

    /// A new instance for every resolve, even within one resolution graph.
    public static let transient = Scope(kind: .transient)

    /// One instance per top-level resolve: every nested resolve of that call shares it, and nothing
    /// keeps it after the call returns. This is what makes property cycles resolve to one instance.
    public static let graph = Scope(kind: .graph)

    /// One instance per container that registered it, made on first use, exactly once even when many
    /// threads ask at the same moment. Child containers share it. Shared instances cross threads:
    /// at a registration, `scope: .singleton` compiles for a `Sendable` service only (see
    /// ``ServiceScope``).
    ///
    /// - The instance is published once the resolve that built it has completed, after its
    ///   `onResolved` hooks: no other thread sees it half-prepared. If that resolve fails, the
    ///   instance is dropped, and the next resolve builds it again (a disposable one is still
    ///   disposed when the container shuts down).
    /// - Each shared instance is built behind a gate of its own, held until the resolve that builds
    ///   it completes: only a resolve that asks for that same instance waits, and a wait that could
    ///   never end throws ``InjectionError/Code/circularWait``. (An async factory may await child
    ///   tasks that resolve from the container: see ``Container/resolveAsync(_:name:arguments:configure:isolation:)``.)
    /// - A registration whose factory takes resolve-time arguments cannot be a singleton (nor
    ///   weak, scoped or graph): one shared instance would be built from the first resolve's
    ///   arguments and handed to every later resolve, whatever its arguments. Such a registration is
    ///   recorded as a problem: resolving it throws ``InjectionError/Code/sharedScopeWithArguments``,
    ///   and ``Container/finishRegistration()`` and ``Container/validate()`` report it.
    public static let singleton = Scope(kind: .singleton)

    /// One instance per container for as long as something else holds it; once every holder has let
    /// go, the next resolve makes a new one. The factory must return a class instance. Built and
    /// published as ``singleton`` instances are. Nothing disposes a weak instance, nor what was
    /// built for it: its holders own it.
    public static let weak = Scope(kind: .weak)

    /// One instance per lifetime scope (``Container/makeScope(tag:)``), in any scope: per request on
    /// a server. The scope disposes the instance when it closes. Resolving it from a container, with
    /// no scope to own it, is an error; so is a ``singleton`` or ``weak`` service depending on it
    /// (a captive dependency).
    ///
    /// Built once per scope however many threads ask, as a ``singleton`` is; a sync resolve
    /// publishes it as soon as it is built, unless its construction built a shared instance or
    /// queued `onResolved` or `verify` steps (then it is published with them, once the resolve
    /// completes). So a resolve that fails after building it leaves it in the scope, which the next
    /// resolve finds and the scope disposes once.
    public static let scoped = Scope(kind: .scoped)

    /// One instance per lifetime scope tagged `tag`: per request, per session. Resolving it from a
    /// scope with another tag, an untagged scope or a container is an error that names the tag.
    ///
    /// ```swift
    /// container.register(Session.self, scope: .scoped(to: .session)) { _ in Session() }
    /// let session = container.makeScope(tag: .session)
    /// ```
    public static func scoped(to tag: ScopeTag) -> Scope { Scope(kind: .scoped, tag: tag) }

    /// Whether a lifetime scope tagged `scopeTag` may own an instance of this scope: this scope
    /// names no tag, or names that one. (A method, so that neither tag is copied to compare them.)
    func admits(_ scopeTag: ScopeTag?) -> Bool {
        tag == nil || tag == scopeTag
    }

    /// Whether an instance of this scope outlives lifetime scopes: ``singleton`` and ``weak``.
    var outlivesLifetimeScopes: Bool { kind == .singleton || kind == .weak }

    /// The scope as written at a registration: `transient`, `graph`, `singleton`, `weak`, `scoped`
    /// or `scoped(to: .request)`.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .graph: "graph"
        case .singleton: "singleton"
        case .weak: "weak"
        case .scoped: tag.map { "scoped(to: .\($0))" } ?? "scoped"
        }
    }
}
