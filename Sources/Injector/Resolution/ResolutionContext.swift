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

/// The state of one top-level resolve: the services under construction (for cycle detection and
/// error paths), the graph-scoped instances, and, made on first need, the shared instances built
/// but not yet published and the preparations deferred until the whole graph is built.
///
/// A context serves one call of `Container.resolve` at a time; the ``Resolver`` handed to factories
/// carries it. It is not `Sendable`: one resolution runs on one thread. Each thread keeps a free
/// context for its next resolve (see `ResolutionContext+Reuse.swift`); the `generation`, which
/// changes when a resolution ends, tells a resolver kept past its resolution that it is stale.
///
/// Its state comes in named parts, each reset in `end()`:
/// - ``Construction``: what the resolution is building: its stack, the graph-scoped instances;
/// - ``Environment``: where it runs: the lifetime scope, test overrides, validation's sandbox, and
///   who takes charge of what is disposable;
/// - ``Nesting``: how it sits among the resolutions of its thread;
/// - ``Family``: for an async resolution, what it inherits from the resolutions it runs within;
/// - ``Bookkeeping``: shared instances to publish and hooks to run, made on first need.
///
/// The generic steps of resolution (the lifetime switch in `ResolutionContext+Resolve.swift`, and
/// the file of each lifetime it leads to) are inlinable, so that they are specialised where
/// `resolve` is called; the bookkeeping here is not generic and stays behind the module boundary.
/// A resolve of transient services touches only the construction stack, so making and dropping a
/// context costs one small allocation.
///
/// Its properties opt out of dynamic exclusivity checks: a context is confined to the thread of its
/// resolution, and no access to one overlaps another, so the checks would cost the resolve path
/// without ever catching anything.
@usableFromInline
final class ResolutionContext {
    @exclusivity(unchecked) @usableFromInline var construction: Construction
    @exclusivity(unchecked) @usableFromInline var environment = Environment()
    @exclusivity(unchecked) var nesting = Nesting()
    private(set) var family = Family()
    @exclusivity(unchecked) private(set) var storedBookkeeping: Bookkeeping?
    /// Whether this resolution asked for its bookkeeping (`bookkeeping`), which `end()` then
    /// empties: most resolutions never do, and the thread's context keeps it from an earlier one.
    @exclusivity(unchecked) private(set) var usesBookkeeping = false
    /// Changes when a resolution ends; a resolver is valid while it matches the one it was made in.
    @exclusivity(unchecked) @usableFromInline private(set) var generation: UInt = 0
    /// Whether a resolution is using this context now.
    @exclusivity(unchecked) var isInUse = false
    /// Whether this resolution runs inside another (see `init(nestedIn:)`), whose service under
    /// construction may depend on what this one resolves.
    @usableFromInline let isNested: Bool
    /// Whether this is an async resolution: it holds no thread-bound gate, and builds the sync
    /// shared instances it needs in resolutions nested in it, which complete before it goes on.
    @usableFromInline let isAsync: Bool

    /// What a resolution is building. Reset when it ends.
    @usableFromInline struct Construction {
        fileprivate(set) var stack = ConstructionStack()
        fileprivate var stackGuard: StackGuard
        /// For an async resolution: the path under construction, the inherited part included, as
        /// a chain that async factories hand on without copying it.
        fileprivate(set) var pathChain: ProviderChain?
        fileprivate var graphInstances = GraphInstances()
        /// How many scoped instances this resolution has handed out, and the last one's provider:
        /// what tells a graph-scoped instance that holds a scoped one.
        @usableFromInline var scopedCount = 0
        var lastScoped: Borrowed<AnyProvider>?

        fileprivate init(stackGuard: StackGuard) {
            self.stackGuard = stackGuard
        }

        /// Forgets what the resolution built for its graph, once its graph instances are taken
        /// (`GraphInstances.takeAll()`).
        @inline(__always)
        fileprivate mutating func reset() {
            scopedCount = 0
            lastScoped = nil
        }
    }

    /// Where a resolution runs. Most resolutions set none of it; `isSet` says when one did, so that
    /// `end()` resets it only then.
    @usableFromInline struct Environment {
        /// The lifetime scope the resolution was started from, which owns its scoped instances.
        /// Borrowed, so that starting, ending and reading it writes no reference count: whoever
        /// started the resolution holds the scope until it ends (a resolve is the scope's method,
        /// or validation's, whose sandbox holds it).
        fileprivate(set) var borrowedLifetimeScope: Borrowed<LifetimeScope>?
        /// Where singleton and weak instances go instead of their registrations' slots: the store of
        /// the test overrides in effect, or validation's sandbox.
        @usableFromInline fileprivate(set) var sideStore: InstanceStore?
        /// The test overrides that apply to this resolution, whose stores keep what is built under
        /// them.
        fileprivate(set) var overrides: ActiveOverrides?
        /// Takes charge of the disposable instances built now: the lifetime scope's store, a
        /// container's while it builds a singleton, or none (what a container resolves is its
        /// caller's). Set for the time of a construction by `withDisposalOwner(_:_:)`. Borrowed, as
        /// the lifetime scope is: the scope, the container or the overrides that keep the store
        /// outlive the construction.
        @usableFromInline var disposalOwner: Borrowed<InstanceStore>?
        /// In validation's sandbox, which stands for a scope of any tag: the tag the first tagged
        /// scoped service of this resolution asked for, which every other one must share, as in a
        /// real scope.
        var adoptedTag: ScopeTag?
        fileprivate var isSet = false

        /// The lifetime scope the resolution was started from, if any.
        var lifetimeScope: LifetimeScope? { borrowedLifetimeScope?.object }

        fileprivate mutating func reset() {
            if isSet { self = Environment() }
        }
    }

    /// How a resolution sits among the resolutions of its thread.
    struct Nesting {
        /// The resolution this one runs inside, on the same thread, when a factory or hook resolves
        /// through a container rather than through its resolver; `nil` for a top-level resolution.
        fileprivate(set) var outer: ResolutionContext?
        /// The services under construction in the resolutions this one runs inside.
        fileprivate var outerDepth = 0
        /// On a thread's own context: the innermost resolution nested in it, running now.
        var innermostNested: ResolutionContext?
        /// Whether this context stands as its thread's resolution for now, though it is not the one
        /// the thread keeps (see `standingAsThreadResolution`).
        var isThreadRoot = false
        /// Whether this resolution is part of its outer one (a sync part of an async resolution),
        /// and so shares its graph-scoped instances, rather than a resolution of its own.
        var sharesOuterGraph = false
        /// Whether this resolution runs inside an async resolution or a sync part of one (through a
        /// captured container), whose task it then stops for when cancelled, as that one does.
        fileprivate(set) var withinAsyncPart = false
    }

    /// For an async resolution started while an async factory runs (through a captured container,
    /// possibly in a child task): the family of resolutions it runs within. Empty otherwise.
    struct Family {
        /// The resolutions it runs within, which hold gates it may take within them.
        fileprivate(set) var ancestors: [InstanceGates.Owner] = []
        /// What they were constructing, for cycles and paths.
        fileprivate(set) var path: ProviderChain?
        /// The gates of the shared instances the family is building (see `ConstructionGates`),
        /// made on first need.
        fileprivate(set) var gates: ConstructionGates?
        /// The shared instances they had built but not yet published.
        fileprivate(set) var unpublished: [SharedInstanceKey: AnyObject] = [:]
        /// The async factory run it was started within, which takes what it builds when it
        /// completes (see `RunningAsyncFactory`).
        fileprivate(set) var factory: RunningAsyncFactory?
    }

    init() {
        isAsync = false
        isNested = false
        construction = Construction(stackGuard: StackGuard())
    }

    /// A context for an async resolution started from `lifetimeScope`: never reused, since a task may move
    /// between threads.
    init(asyncIn lifetimeScope: LifetimeScope?, from container: Container) {
        isAsync = true
        isNested = false
        construction = Construction(stackGuard: StackGuard(isThreadBound: false))
        if container.tree.mayHaveOverrides { applyOverrides(from: container) }
        start(in: lifetimeScope)
        if let running = Self.runningAsyncFactory, running.isRunning {
            family = Family(
                ancestors: running.owners,
                path: running.path,
                gates: running.gates,
                unpublished: running.unpublished,
                factory: running
            )
            construction.pathChain = running.path
            // Singletons it builds go where the factory's resolution keeps them, as in a resolution
            // nested in a sync one: validation's sandbox must not build the container's own.
            if let sideStore = running.sideStore {
                environment.sideStore = sideStore
                environment.isSet = true
            }
        }
    }

    /// A context for a resolution started while `outer`'s runs on this thread: a factory or hook
    /// resolving through a container rather than through its resolver. It sees what `outer` is
    /// building, so that a cycle through both is reported as one and a singleton `outer` has built
    /// but not yet published is not built again; its stack guard checks from the first level, since
    /// what runs below it already uses the stack.
    init(nestedIn outer: ResolutionContext) {
        isNested = true
        isAsync = false
        construction = Construction(stackGuard: outer.construction.stackGuard.forNestedResolution())
        nesting.outer = outer
        nesting.outerDepth = outer.nesting.outerDepth + outer.construction.stack.count
        nesting.withinAsyncPart = outer.isAsync || outer.stopsWaitingWhenCancelled
        environment.sideStore = outer.environment.sideStore
        environment.overrides = outer.environment.overrides
        environment.isSet = true
    }

    /// Applies the test overrides in effect for this task that reach `container`: singleton and
    /// weak instances then go to their store, so that none built with an override outlives it.
    @usableFromInline func applyOverrides(from container: Container) {
        environment.overrides = ActiveOverrides.bound?.applying(to: container)
        environment.sideStore = environment.overrides?.store
        environment.isSet = true
    }

    /// Starts a top-level resolution from `lifetimeScope` (or from a container, when `nil`).
    @usableFromInline func start(in lifetimeScope: LifetimeScope?) {
        guard let lifetimeScope else { return }
        environment.borrowedLifetimeScope = Borrowed(lifetimeScope)
        environment.disposalOwner = Borrowed(lifetimeScope.store.disposals)
        environment.isSet = true
    }

    /// Starts a resolution of validation's: from `lifetimeScope`, with singleton and weak instances
    /// kept in `sideStore`.
    func start(in lifetimeScope: LifetimeScope, sideStore: InstanceStore) {
        start(in: lifetimeScope)
        environment.sideStore = sideStore
    }

    /// Starts this nested resolution as a part of `outer`, an async one: it runs in the same
    /// lifetime scope, hands what is disposable to the same owner, and shares its graph.
    func startAsPart(of outer: ResolutionContext) {
        start(in: outer.environment.lifetimeScope)
        environment.disposalOwner = outer.environment.disposalOwner
        nesting.sharesOuterGraph = true
    }

    /// Runs `body` with `owner` taking charge of what is disposable, then restores the owner.
    @inlinable
    func withDisposalOwner<Result>(_ owner: InstanceStore?, _ body: () throws -> Result) rethrows -> Result {
        let saved = environment.disposalOwner
        environment.disposalOwner = owner.map(Borrowed.init)
        defer { environment.disposalOwner = saved }
        return try body()
    }

    /// Runs the async `body` with `owner` taking charge of what is disposable, then restores the
    /// owner.
    func withDisposalOwnerAsync<Result>(
        _ owner: InstanceStore?,
        _ body: () async throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Result {
        let saved = environment.disposalOwner
        environment.disposalOwner = owner.map(Borrowed.init)
        defer { environment.disposalOwner = saved }
        return try await body()
    }

    /// This resolution's bookkeeping if it asked for it (`bookkeeping`); `nil` says its books are
    /// empty without reading them, which the usual resolve, asking nothing, learns from a flag of
    /// its own rather than from a thread's books kept from an earlier one (`end()` empties them).
    var activeBookkeeping: Bookkeeping? {
        @inline(__always) get { usesBookkeeping ? storedBookkeeping : nil }
    }

    var bookkeeping: Bookkeeping {
        usesBookkeeping = true
        if let storedBookkeeping { return storedBookkeeping }
        let bookkeeping = Bookkeeping()
        storedBookkeeping = bookkeeping
        return bookkeeping
    }

    /// The context the thread keeps: the outermost of a chain of nested resolutions, or the one
    /// standing as the thread's resolution.
    private var threadContext: ResolutionContext {
        var context = self
        while !context.nesting.isThreadRoot, let outer = context.nesting.outer { context = outer }
        return context
    }

    private var depthHere: Int { nesting.outerDepth + construction.stack.count }

    /// Pushes `provider` on the construction stack, with the arguments `values` borrows if its
    /// registration takes any (and their `identity`, if it was worked out), refusing a stack about
    /// to overflow. Cycles are refused before, by
    /// `enter` (in `ResolutionContext+Construction.swift`).
    @inline(__always)
    func push(
        _ provider: AnyProvider,
        arguments values: BorrowedValues? = nil,
        identity: [AnyHashable]?? = nil
    ) throws {
        if !construction.stackGuard.hasRoom(atDepth: depthHere) {
            // Led there by hooks, the path starts with theirs.
            let hooks = runningHookChain?.providers.map(\.key) ?? []
            throw InjectionError.resolutionTooDeep(path: hooks + path + [provider.key], isNested: nesting.outer != nil)
        }
        construction.stack.push(provider, arguments: values, identity: identity)
        if isAsync { construction.pathChain = ProviderChain(provider, extending: construction.pathChain) }
    }

    /// Pops the provider `enter` pushed, whose construction completed or failed.
    @usableFromInline func leave() {
        if isAsync { construction.pathChain = construction.pathChain?.parent }
        construction.stack.pop()
    }

    /// Whether an async resolution this one runs within was constructing `provider`.
    func inheritedConstruction(of provider: AnyProvider) -> Bool {
        guard isAsync || nesting.outer != nil else { return false }  // the usual answer, without a walk
        let outermost = outermost
        return outermost.isAsync && outermost.inherits(provider)
    }

    /// This async resolution, as it holds gates and waits at them (see `InstanceGates`).
    var gateOwner: InstanceGates.Owner { InstanceGates.Owner(ObjectIdentifier(self)) }

    /// The gates of the shared instances this async resolution's family is building.
    var constructionGates: ConstructionGates {
        if let gates = family.gates { return gates }
        let gates = ConstructionGates()
        family.gates = gates
        return gates
    }

    /// Whether this resolution, or one it runs inside, is constructing `provider`.
    @inline(__always)
    func isConstructing(_ provider: AnyProvider) -> Bool {
        if construction.stack.contains(provider) { return true }
        guard nesting.outer != nil else { return isAsync && inherits(provider) }
        return outerIsConstructing(provider)
    }

    /// Where on the path `provider` is under construction with the arguments `values` borrows, in
    /// this resolution or one it runs inside. `identity`, those arguments' identity, is worked out
    /// if a stack holds `provider`, for the caller to push with them.
    func depthOfConstruction(
        of provider: AnyProvider,
        with values: BorrowedValues,
        identity: inout [AnyHashable]??
    ) -> Int? {
        // The usual answer, when nothing is under construction: without a walk.
        guard nesting.outer != nil || construction.stack.count > 0 else { return nil }
        var context: ResolutionContext? = self
        while let current = context {
            if let depth = current.construction.stack.depth(of: provider, with: values, identity: &identity) {
                return current.nesting.outerDepth + depth
            }
            context = current.nesting.outer
        }
        return nil
    }

    /// Whether one of the resolutions this one runs inside is constructing `provider`.
    @inline(never)
    private func outerIsConstructing(_ provider: AnyProvider) -> Bool {
        var context = nesting.outer
        while let current = context {
            if current.construction.stack.contains(provider) || (current.isAsync && current.inherits(provider)) {
                return true
            }
            context = current.nesting.outer
        }
        return false
    }

    /// Whether `provider` is under construction in the resolutions an async one runs within.
    @inline(never)
    private func inherits(_ provider: AnyProvider) -> Bool {
        family.path?.contains(provider) == true
    }

    /// The graph-scoped instance of `provider` for lookups from `lookup`, if this resolve made one,
    /// as `Service`, the type `provider` makes. Inlinable, so that the instance is read as that type
    /// where the resolve is specialised; the search is not generic.
    @inlinable func graphInstance<Service>(
        of provider: AnyProvider,
        lookup: Container,
        as _: Service.Type
    ) -> Service? {
        var instance: Service?
        withGraphInstance(of: provider, lookup: lookup) { instance = knownValue(&$0, as: Service.self) }
        return instance
    }

    /// Runs `read` on the graph-scoped instance of `provider` for lookups from `lookup`, where it
    /// lies, if this resolve made one.
    @usableFromInline func withGraphInstance(of provider: AnyProvider, lookup: Container, _ read: (inout Any) -> Void) {
        if nesting.sharesOuterGraph, let outer = nesting.outer {
            return outer.withGraphInstance(of: provider, lookup: lookup, read)
        }
        if let entry = construction.graphInstances.entry(of: provider, lookup: lookup) { read(&entry.pointee.instance) }
    }

    /// Keeps a graph-scoped instance, which the caller hands over, for the rest of this resolve.
    @usableFromInline func storeGraphInstance(_ box: consuming Any, of provider: AnyProvider, lookup: Container) {
        if nesting.sharesOuterGraph, let outer = nesting.outer {
            return outer.storeGraphInstance(box, of: provider, lookup: lookup)
        }
        construction.graphInstances.store(box, of: provider, lookup: lookup)
    }

    /// Releases the gates a resolution holds. Kept out of `end()`: inlined there, the async gates'
    /// release made every resolve instantiate continuation metadata.
    @inline(never)
    private func release(_ bookkeeping: Bookkeeping) {
        for gate in bookkeeping.heldStoreGates.reversed() { gate.store.leave(gate.key) }
        for gate in bookkeeping.heldGates.reversed() { InstanceGates.leave(gate) }
        for gate in bookkeeping.heldAsyncGates.reversed() { InstanceGates.leave(gate, by: gateOwner) }
    }

    /// Ends the resolution, whether it succeeded or not: releases the gates and what the
    /// resolution kept (graph instances above all), makes any resolver that outlives it fail, and
    /// resets every part of its state, freeing the context for the thread's next resolve.
    @usableFromInline func end() {
        generation &+= 1
        // The usual resolve is neither nested, nor kept books, nor built a graph instance: its end
        // is the few instructions below, with the rest in functions of their own, not laid out
        // between them.
        if _slowPath(nesting.outer != nil) { endNesting() }
        if _slowPath(usesBookkeeping || !construction.graphInstances.isEmpty) { return endReleasing() }
        construction.reset()
        environment.reset()
        isInUse = false
    }

    /// `end()` for a nested resolution: a nested context is not reused, so it hands the thread's
    /// innermost resolution back.
    @inline(never)
    private func endNesting() {
        guard let outer = nesting.outer else { return }
        let threadContext = outer.threadContext
        threadContext.nesting.innermostNested = outer === threadContext ? nil : outer
        nesting.outer = nil
    }

    /// `end()` for a resolution that leaves instances behind: its graph instances and, if it kept
    /// books, what it built and did not publish, and the hooks it did not run (it failed). They are
    /// released once the context is reset and free: the last reference to one may go, and its
    /// deinit may resolve through a captured container. Released before, that resolve would nest in
    /// this one, half torn down, and hand what it built, and the gates it holds for it, to books
    /// being emptied: the instance never published (built again by the next resolve), the gates
    /// never released (the next thread to ask waits for ever).
    @inline(never)
    private func endReleasing() {
        let graphInstances = construction.graphInstances.takeAll()
        let leftovers = usesBookkeeping ? endBookkeeping() : nil
        construction.reset()
        environment.reset()
        isInUse = false
        graphInstances?.removeAll()  // their deinits run now, with the context free
        construction.graphInstances.reuse(graphInstances)
        withExtendedLifetime(leftovers) {}  // and theirs
    }

    /// `end()` for a resolution that kept books: discards what it left unpublished (it failed),
    /// releases its gates, and empties the books, kept for the thread's next resolve (see
    /// `ResolutionContext+Reuse.swift`). Returns what they held of the instances, for `end()` to
    /// release once the context is free.
    private func endBookkeeping() -> Bookkeeping.Leftovers? {
        usesBookkeeping = false
        guard let bookkeeping = storedBookkeeping else { return nil }
        discardUnpublished(bookkeeping.unpublished[...])
        release(bookkeeping)
        return bookkeeping.empty()
    }
}
