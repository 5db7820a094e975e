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

    /// What a resolution keeps beyond its construction stack.
    final class Bookkeeping {
        /// Shared instances built by this resolution, keyed by their slot, published when it completes.
        var unpublished: [ObjectIdentifier: AnyObject] = [:]
        var publications: [() -> Void] = []
        var pending: [PendingPreparation] = []
        /// The providers whose hooks led to the hook now running, for transient hook cycles.
        var hookChain: [AnyProvider] = []
        var heldConstructionLock: Locked<Void>?
    }

    /// Whether this resolution started while another was running on the same thread: a factory or
    /// hook resolving through a container rather than through its resolver.
    @exclusivity(unchecked) private var isNested = false

    @usableFromInline init() {}

    /// A context for a resolution started while `outer`'s runs on this thread. Its stack guard checks
    /// from the first level, since what runs below it already uses the stack: a cycle through such
    /// resolutions is not seen as a cycle, and must end in an error rather than a stack overflow.
    init(nestedIn outer: ResolutionContext) {
        isNested = true
        stackGuard = outer.stackGuard.forNestedResolution()
    }

    var bookkeeping: Bookkeeping {
        if let storedBookkeeping { return storedBookkeeping }
        let bookkeeping = Bookkeeping()
        storedBookkeeping = bookkeeping
        return bookkeeping
    }

    /// The keys under construction, outermost first: the resolution path.
    @usableFromInline var path: [ServiceKey] { stack.keys }

    /// Pushes `provider` on the construction stack, refusing a cycle or a stack about to overflow.
    @usableFromInline func enter(_ provider: AnyProvider) throws {
        if stack.contains(provider), let cycle = stack.cycle(closedBy: provider) {
            throw InjectionError.cycle(cycle.map(\.key) + [provider.key], path: path + [provider.key])
        }
        if !stackGuard.hasRoom(atDepth: stack.count) {
            throw InjectionError.resolutionTooDeep(path: path + [provider.key], isNested: isNested)
        }
        stack.push(provider)
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
        return bookkeeping.unpublished[ObjectIdentifier(slot)]
    }

    /// Records a shared instance this resolution built: visible to it at once, published to other
    /// resolutions by `complete()`, after its preparation.
    @usableFromInline func recordShared(_ box: AnyObject, in slot: AnyObject, publish: @escaping () -> Void) {
        bookkeeping.unpublished[ObjectIdentifier(slot)] = box
        bookkeeping.publications.append(publish)
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
        graphInstances.removeAll()
        if let bookkeeping = storedBookkeeping {
            bookkeeping.heldConstructionLock?.unlock()
            storedBookkeeping = nil
        }
        isInUse = false
    }
}
