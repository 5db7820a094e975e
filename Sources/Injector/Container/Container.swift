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

/// A dependency-injection container: it holds registrations and resolves services from them.
///
/// Register a factory per service type (usually a protocol), optionally under a name, then resolve:
///
/// ```swift
/// let container = Container()
/// container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
/// container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
/// try container.finishRegistration()
///
/// let store = try container.resolve(NoteStore.self)
/// ```
///
/// A container is `Sendable`: resolve from any thread or task. Registration is meant for start-up;
/// ``finishRegistration()`` then freezes the registry and reports duplicates; lookups read a
/// snapshot of the registrations without a lock.
/// ``makeChild()`` makes a container that sees this one's registrations and may shadow them.
public final class Container: Sendable {
    /// The container whose registrations this one falls back to, if any.
    package let parent: Container?
    /// The routes of the first router made over this container (InjectorRouting's), held weakly:
    /// a router over a child container starts from them.
    package let routes = WeakSlot()
    /// What this container shares with its parent and children: overrides, shared objects.
    @usableFromInline let tree: ContainerTree

    /// The registrations as they are built, under the lock; lookups read `registry` instead.
    let builder = Locked.make(RegistryBuilder())
    /// The snapshot of the registrations that lookups read without a lock, published on the first
    /// lookup after a change (or at once, after `finishRegistration()`). Its allocation keeps
    /// `finished` beside it.
    let registry = PublishedReference<Registry>(wordsBeside: 1)
    /// Whether `finishRegistration()` was called.
    var finished: AtomicWord<Bool> { registry.wordBeside(0) }
    /// The records of the disposable singletons of this container's registrations, and of what was
    /// built for them: a store's records, its places unused (singletons live in their
    /// registrations' slots). (`nonisolated(unsafe)`: a `LockedBuffer`, reached under its lock.)
    nonisolated(unsafe) let disposals = InstanceStore.make()
    /// What receives problems noticed outside any call that could throw them.
    let diagnostics = Locked.make(DiagnosticsHandler?.none)

    deinit {
        // A child's singletons go with it: the tree forgets them.
        if parent != nil { tree.sharedObjects.forget(rememberedFor: ObjectIdentifier(self)) }
    }

    /// This container's identity if it is a child: what the tree remembers its shared instances
    /// for, to forget them when it goes.
    var childIdentity: ObjectIdentifier? { parent == nil ? nil : ObjectIdentifier(self) }

    /// Creates an empty container.
    public convenience init() {
        self.init(parent: nil)
    }

    private init(parent: Container?) {
        self.parent = parent
        tree = parent?.tree ?? ContainerTree()
    }

    /// Makes a container that sees this container's registrations and may shadow them with its own.
    ///
    /// The child shares this container's singletons and keeps the singletons of its own
    /// registrations to itself. This container never sees the child's registrations. A singleton is
    /// always built by the container that registered it, with that container's dependencies, so a
    /// child's shadow never leaks into a parent's singleton; transient and graph registrations of the
    /// parent resolved through the child do see the child's shadows.
    ///
    /// ```swift
    /// let test = container.makeChild()
    /// test.register(Clock.self) { _ in FixedClock(now: .distantPast) }
    /// let store = try test.resolve(NoteStore.self)   // built with the fixed clock
    /// ```
    public func makeChild() -> Container {
        Container(parent: self)
    }

    /// Makes a lifetime scope: a unit of work, such as a request, that owns its ``Scope/scoped``
    /// instances and disposes what it created when it closes.
    ///
    /// ```swift
    /// let session = container.makeScope(tag: .session)   // lives past this call
    /// let editor = try session.resolve(Editor.self)
    /// // … when the session ends:
    /// try await session.closeAsync()
    /// ```
    ///
    /// Its maker closes it, with ``LifetimeScope/close()`` or ``LifetimeScope/closeAsync()``, on
    /// every path: for work that fits in one call, ``withScope(tag:providing:operation:)`` and
    /// ``withScopeAsync(tag:providing:operation:isolation:)`` do that.
    ///
    /// - Parameter tag: What kind of scope this is; ``Scope/scoped(to:)`` registrations resolve only
    ///   in scopes with their tag. Untagged ``Scope/scoped`` registrations resolve in any scope.
    public func makeScope(tag: ScopeTag? = nil) -> LifetimeScope {
        LifetimeScope(container: self, tag: tag)
    }

    /// Whether ``finishRegistration()`` has been called on this container.
    public var isRegistrationFinished: Bool { finished.load(ordering: .acquiring) }
}
