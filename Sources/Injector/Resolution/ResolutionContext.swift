/// The state of one top-level resolve: the services under construction (for cycle detection and
/// error paths), the graph-scoped instances, and, made on first need, the shared instances built
/// but not yet published and the preparations deferred until the whole graph is built.
///
/// A context serves one call of `Container.resolve` at a time; the ``Resolver`` handed to factories
/// carries it. It is not `Sendable`: one resolution runs on one thread. Each thread keeps a free
/// context for its next resolve (see `ResolutionContext+Reuse.swift`); the `generation`, which
/// changes when a resolution ends, tells a resolver kept past its resolution that it is stale.
///
/// The generic steps of resolution (in `ResolutionContext+Instances.swift`) are inlinable, so that
/// they are specialised where `resolve` is called; the bookkeeping here is not generic and stays
/// behind the module boundary. A resolve of transient services touches only the construction stack,
/// so making and dropping a context costs one small allocation.
///
/// Its properties opt out of dynamic exclusivity checks: a context is confined to the thread of its
/// resolution, and no access to one overlaps another, so the checks would cost the resolve path
/// without ever catching anything.
@usableFromInline
final class ResolutionContext {
    @exclusivity(unchecked) private var stack = ConstructionStack()
    @exclusivity(unchecked) private var graphInstances = GraphInstances()
    @exclusivity(unchecked) private var stackGuard = StackGuard()
    /// Changes when a resolution ends; a resolver is valid while it matches the one it was made in.
    @exclusivity(unchecked) @usableFromInline private(set) var generation: UInt = 0
    /// Whether a resolution is using this context now.
    @exclusivity(unchecked) var isInUse = false
    @exclusivity(unchecked) private var storedBookkeeping: Bookkeeping?
    /// The resolution this one runs inside, on the same thread, when a factory or hook resolves
    /// through a container rather than through its resolver; `nil` for a top-level resolution.
    @exclusivity(unchecked) private(set) var outer: ResolutionContext?
    /// The services under construction in the resolutions this one runs inside.
    @exclusivity(unchecked) private var outerDepth = 0
    /// On a thread's own context: the innermost resolution nested in it, running now.
    @exclusivity(unchecked) var innermostNested: ResolutionContext?

    /// What a resolution keeps beyond its construction stack.
    final class Bookkeeping {
        /// Shared instances built by this resolution, keyed by their slot, published when it completes.
        var unpublished: [ObjectIdentifier: AnyObject] = [:]
        /// The slots of `unpublished`, in the order they were built.
        var unpublishedOrder: [ObjectIdentifier] = []
        var publications: [() -> Void] = []
        var pending: [PendingPreparation] = []
        /// The providers whose hooks led to the hook now running, for transient hook cycles.
        var hookChain: [AnyProvider] = []
        var heldConstructionLock: Locked<Void>?
    }

    @usableFromInline init() {}

    /// A context for a resolution started while `outer`'s runs on this thread: a factory or hook
    /// resolving through a container rather than through its resolver. It sees what `outer` is
    /// building, so that a cycle through both is reported as one and a singleton `outer` has built
    /// but not yet published is not built again; its stack guard checks from the first level, since
    /// what runs below it already uses the stack.
    init(nestedIn outer: ResolutionContext) {
        self.outer = outer
        outerDepth = outer.outerDepth + outer.stack.count
        stackGuard = outer.stackGuard.forNestedResolution()
    }

    var bookkeeping: Bookkeeping {
        if let storedBookkeeping { return storedBookkeeping }
        let bookkeeping = Bookkeeping()
        storedBookkeeping = bookkeeping
        return bookkeeping
    }

    /// The keys under construction, outermost first, including those of the resolutions this one
    /// runs inside: the resolution path.
    @usableFromInline var path: [ServiceKey] { underConstruction.map(\.key) }

    /// The providers under construction, outermost first, including the outer resolutions'.
    private var underConstruction: [AnyProvider] { (outer?.underConstruction ?? []) + stack.providers }

    /// The context the thread keeps: the outermost of a chain of nested resolutions.
    private var threadContext: ResolutionContext { outer?.threadContext ?? self }

    /// Pushes `provider` on the construction stack, refusing a cycle or a stack about to overflow.
    @usableFromInline func enter(_ provider: AnyProvider) throws {
        if isConstructing(provider) {
            let chain = underConstruction
            let cycle = chain[chain.firstIndex { $0 === provider }!...].map(\.key) + [provider.key]
            throw InjectionError.cycle(cycle, path: path + [provider.key])
        }
        if !stackGuard.hasRoom(atDepth: outerDepth + stack.count) {
            throw InjectionError.resolutionTooDeep(path: path + [provider.key], isNested: outer != nil)
        }
        stack.push(provider)
    }

    /// Whether this resolution, or one it runs inside, is constructing `provider`.
    private func isConstructing(_ provider: AnyProvider) -> Bool {
        stack.contains(provider) || outer?.isConstructing(provider) == true
    }

    /// Pops the provider `enter` pushed.
    @usableFromInline func leave() {
        stack.pop()
    }

    /// The graph-scoped instance of `provider` for lookups from `lookup`, if this resolve made one.
    @usableFromInline func graphInstance(of provider: AnyProvider, lookup: Container) -> AnyObject? {
        graphInstances.instance(of: provider, lookup: lookup)
    }

    /// Keeps a graph-scoped instance for the rest of this resolve.
    @usableFromInline func storeGraphInstance(_ box: AnyObject, of provider: AnyProvider, lookup: Container) {
        graphInstances.store(box, of: provider, lookup: lookup)
    }

    /// Takes the construction lock of `owner`'s tree (held until the resolution ends), then returns
    /// the shared instance in `slot` if this resolution already built it.
    @usableFromInline func beginSharedConstruction(in slot: AnyObject, owner: Container) -> AnyObject? {
        let bookkeeping = bookkeeping
        if bookkeeping.heldConstructionLock == nil {
            owner.constructionLock.lock()
            bookkeeping.heldConstructionLock = owner.constructionLock
        }
        return unpublishedInstance(in: slot)
    }

    /// The shared instance in `slot` that this resolution, or one it runs inside, built and has not
    /// published yet.
    private func unpublishedInstance(in slot: AnyObject) -> AnyObject? {
        storedBookkeeping?.unpublished[ObjectIdentifier(slot)] ?? outer?.unpublishedInstance(in: slot)
    }

    /// Records a shared instance this resolution built: visible to it at once, published to other
    /// resolutions by `complete()`, after its preparation.
    @usableFromInline func recordShared(_ box: AnyObject, in slot: AnyObject, publish: @escaping () -> Void) {
        let bookkeeping = bookkeeping
        bookkeeping.unpublished[ObjectIdentifier(slot)] = box
        bookkeeping.unpublishedOrder.append(ObjectIdentifier(slot))
        bookkeeping.publications.append(publish)
    }

    /// How much preparation and publication is queued: taken before a factory runs, so that what
    /// its construction queued can be dropped if it fails.
    @usableFromInline struct QueueMark {
        let pending: Int
        let publications: Int
        let unpublished: Int
    }

    @usableFromInline var queueMark: QueueMark {
        guard let bookkeeping = storedBookkeeping else { return QueueMark(pending: 0, publications: 0, unpublished: 0) }
        return QueueMark(
            pending: bookkeeping.pending.count, publications: bookkeeping.publications.count,
            unpublished: bookkeeping.unpublishedOrder.count)
    }

    /// Drops the preparations and shared instances queued since `mark`, by a construction that
    /// failed: a factory that catches the error and goes on must not see hooks run on, or
    /// singletons published from, a graph it discarded.
    @usableFromInline func discardQueued(since mark: QueueMark) {
        guard let bookkeeping = storedBookkeeping else { return }
        bookkeeping.pending.removeSubrange(mark.pending...)
        bookkeeping.publications.removeSubrange(mark.publications...)
        for slot in bookkeeping.unpublishedOrder[mark.unpublished...] { bookkeeping.unpublished[slot] = nil }
        bookkeeping.unpublishedOrder.removeSubrange(mark.unpublished...)
    }

    /// Runs the deferred preparations in completion order (including those of instances the hooks
    /// build), then publishes the shared instances this resolution built.
    @usableFromInline func complete() throws {
        guard let bookkeeping = storedBookkeeping else { return }
        if !bookkeeping.pending.isEmpty { try runPendingPreparations(of: bookkeeping) }
        for publish in bookkeeping.publications { publish() }
        bookkeeping.publications.removeAll()
    }

    /// Ends the resolution, whether it succeeded or not: releases the construction lock and what
    /// the resolution kept (graph instances above all), makes any resolver that outlives it fail,
    /// and frees the context for the thread's next resolve.
    @usableFromInline func end() {
        generation &+= 1
        if let outer {
            // A nested context is not reused: hand the thread's innermost resolution back.
            let threadContext = outer.threadContext
            threadContext.innermostNested = outer === threadContext ? nil : outer
            self.outer = nil
        }
        graphInstances.removeAll()
        if let bookkeeping = storedBookkeeping {
            bookkeeping.heldConstructionLock?.unlock()
            storedBookkeeping = nil
        }
        isInUse = false
    }
}
