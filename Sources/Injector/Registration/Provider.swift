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

/// What the registry holds for one key: the factory, its scope, where it was registered, and any
/// problem recorded against the key (a duplicate or a late registration).
///
/// Providers are immutable, so resolution reads them without a lock. Amending a registration (adding
/// a hook, recording a duplicate) replaces the provider in the registry with a copy that shares the
/// original's instance storage.
@usableFromInline
class AnyProvider: @unchecked Sendable {
    @usableFromInline let key: ServiceKey
    @usableFromInline let scope: Scope
    /// A duplicate or late registration of this key: resolving it throws.
    @usableFromInline let conflict: Conflict?
    /// A `Preparation<Service>` with the registration's hooks and checks, or `nil` when there are none.
    @usableFromInline let preparation: AnyObject?
    /// The provider this one is a copy of (amending a registration copies its provider), or `nil`
    /// for an original.
    private let original: Borrowed<AnyProvider>?
    /// The identity of `original`, kept: the store key of every scoped resolve.
    private let originalIdentity: ObjectIdentifier?
    /// The dependencies recorded on an original provider (see `AnyProvider+Dependencies.swift`).
    final var notedDependencies: [ServiceKey] = []
    /// The first four dependencies known (`index` 0 to 3), by the identity of their records (0 for
    /// none yet), in the provider's own atomic words (in `disposalPlan`'s allocation): a factory
    /// usually resolves a handful, and a check of these reads that allocation and no other object
    /// (a request's dependents are cold, and each object is a cache line to fetch).
    final func knownDependency(_ index: Int) -> AtomicWord<UInt> { disposalPlan.wordBeside(index) }
    /// How many dependencies `knownDependency(_:)` keeps.
    static var knownDependencyWords: Int { 4 }
    /// The dependencies known so far past the first four, for a check without a lock; the latest
    /// of `knownDependencyGenerations`, which keeps them all alive.
    final var knownDependencies: AtomicWord<Borrowed<KnownDependencies>?> {
        disposalPlan.wordBeside(Self.knownDependencyWords)
    }
    final var knownDependencyGenerations: [KnownDependencies] = []
    /// Whether the factory is `async`: only the async spelling of resolve can run it.
    @usableFromInline let isAsync: Bool
    /// Whether the factory takes resolve-time arguments: it may then resolve its own key again
    /// with other arguments, which is recursion, not a cycle.
    @usableFromInline let takesArguments: Bool
    /// Whether the factory hands on an instance that something else owns (another registration's, for
    /// `implements`; a value given to a scope): whoever resolves it under this key takes charge of
    /// nothing.
    @usableFromInline let handsOnInstances: Bool
    /// Whether this registration declares a value that lifetime scopes are given
    /// (`register(_:name:providedByScope:)`): a resolve served straight from the scope's values.
    @usableFromInline let providesScopeValue: Bool
    /// The instance of a sync singleton registration, once published; `nil` for any other. Here
    /// rather than on `Provider`, so that a resolve reads it before it knows the service's type.
    @usableFromInline let singleton: SingletonSlot?
    /// Whether instances of this registration outlive lifetime scopes (singleton and weak): what a
    /// scoped instance must not be held by. Kept, not worked out from `scope` on each check.
    let outlivesLifetimeScopes: Bool
    /// How the instances this registration makes are disposed, worked out at its first instance for
    /// that instance's dynamic type: a registration almost always makes instances of one type.
    /// Instances of another type are worked out each time. Its allocation keeps the provider's other
    /// atomic words beside it (`knownDependency(_:)`, `knownDependencies`): one for them all.
    @usableFromInline let disposalPlan = PublishedReference<DisposalPlan>(
        wordsBeside: AnyProvider.knownDependencyWords + 1
    )
    /// What a declared registration's function resolves, in parameter order, with its resolve
    /// plan (see `Container+DeclaredRegistration.swift`); `nil` for a closure registration, whose
    /// dependencies are known only by running it.
    let declaredDependencies: DeclaredDependencies?
    /// Tells the factory's arguments apart (see `argumentIdentity(of:)`); `nil` if it takes none.
    let identifyArguments: BorrowedValues.Identify?
    /// Where the registration was written, read by messages alone: last, after what resolves read.
    let site: RegistrationSite

    /// A registration as it was made: its problem, if it has one, is a shared scope with
    /// resolve-time arguments.
    init(
        key: ServiceKey,
        scope: Scope,
        site: RegistrationSite,
        isAsync: Bool,
        handsOnInstances: Bool = false,
        providesScopeValue: Bool = false,
        declaredDependencies: DeclaredDependencies? = nil,
        problem: Conflict? = nil,
        identifyingArguments identifyArguments: BorrowedValues.Identify? = nil
    ) {
        // What is worked out from the key, scope and site comes first, and they are stored last:
        // each is then moved into place, not copied.
        conflict = problem ?? Conflict.sharingArguments(of: key, scope: scope, site: site)
        takesArguments = !key.argumentTypes.isEmpty
        singleton = scope.kind == .singleton && !isAsync ? SingletonSlot() : nil
        outlivesLifetimeScopes = scope.outlivesLifetimeScopes
        preparation = nil
        original = nil
        originalIdentity = nil
        self.isAsync = isAsync
        self.handsOnInstances = handsOnInstances
        self.providesScopeValue = providesScopeValue
        self.declaredDependencies = declaredDependencies
        self.identifyArguments = identifyArguments
        self.key = key
        self.scope = scope
        self.site = site
    }

    /// A copy of `original` with `conflict` and `preparation`, which shares its instance storage and
    /// borrows the first provider as its record (for a copy of a copy).
    init(copying original: AnyProvider, conflict: Conflict?, preparation: AnyObject?) {
        key = original.key
        scope = original.scope
        site = original.site
        self.conflict = conflict
        self.preparation = preparation
        self.original = original.borrowedRecord
        originalIdentity = self.original?.identity
        isAsync = original.isAsync
        singleton = original.singleton
        handsOnInstances = original.handsOnInstances
        providesScopeValue = original.providesScopeValue
        takesArguments = original.takesArguments
        outlivesLifetimeScopes = original.outlivesLifetimeScopes
        declaredDependencies = original.declaredDependencies
        identifyArguments = original.identifyArguments
    }

    /// What disposes `instance`, made by this registration, with its identity if it is a class
    /// instance; `nil` if it is not disposable.
    @inlinable final func disposer<Instance>(
        for instance: Instance
    ) -> (disposer: DisposalBag.Disposer, object: AnyObject?)? {
        // The plan is borrowed, not retained: a transient resolved in a scope asks this of each instance.
        if let plan = disposalPlan.borrowed(), plan.withObject({ $0.matches(instance) }) {
            return plan.withObject { $0.disposer(for: instance) }
        }
        // In generic code, `type(of:)` gives an existential's type for an instance of one, and the
        // dynamic type for any other: the two differ only for an existential.
        let type = ObjectIdentifier(Swift.type(of: instance as Any))
        let isForExistential = type != ObjectIdentifier(Swift.type(of: instance))
        return disposer(forUnplanned: instance, type: type, isForExistential: isForExistential)
    }

    /// What disposes `instance`, whose dynamic type's identity is `type`, when no plan kept says:
    /// the registration's first instance, whose plan it keeps; or an instance of another type than
    /// the plan's, or of a type whose disposal depends on the value (`DisposalPlan.castsLookInside`),
    /// whose casts are asked of this instance alone.
    @usableFromInline final func disposer(
        forUnplanned instance: Any,
        type: ObjectIdentifier,
        isForExistential: Bool
    ) -> (disposer: DisposalBag.Disposer, object: AnyObject?)? {
        if disposalPlan.borrowed() == nil, !DisposalPlan.castsLookInside(Swift.type(of: instance)) {
            let plan = disposalPlan.publish(DisposalPlan(for: instance, type: type, isForExistential: isForExistential))
            if plan.type == type { return plan.disposer(for: instance) }  // unless another thread's came first
        }
        guard let disposal = DisposalBag.Disposal(of: instance) else { return nil }
        let object = objectInside(instance)
        return (DisposalBag.Disposer(instance, disposal: disposal, object: object), object)
    }

    /// The published instance of a sync singleton registration, as `keptObject(for:)` keeps it,
    /// borrowed from its slot; `nil` until it is published, for any other registration, and for
    /// one with a conflict, whose resolve is an error.
    @inlinable final var publishedSingleton: Borrowed<any AnyObject & Sendable>? {
        conflict == nil ? singleton?.borrowedObject : nil
    }

    /// The registration's record: its original provider, which every copy shares. Its identity
    /// keys instances in stores; it keeps the dependencies its factory resolved.
    final var borrowedRecord: Borrowed<AnyProvider> { original ?? Borrowed(self) }

    /// The registration's record (see `borrowedRecord`).
    final var record: AnyProvider { borrowedRecord.object }

    /// The identity of the registration's record, which keys its instances in stores: read without
    /// touching the record.
    @usableFromInline final var recordIdentity: ObjectIdentifier { originalIdentity ?? ObjectIdentifier(self) }

    /// A copy with `conflict` and `preparation`; subclasses keep their factory and instance storage.
    func copy(conflict: Conflict?, preparation: AnyObject?) -> AnyProvider {
        fatalError("AnyProvider is abstract")
    }

    /// Every site that registered this key: one, or more when a conflict was recorded.
    final var sites: [RegistrationSite] { conflict?.sites ?? [site] }

    /// The resolve-time arguments `values` borrows, as values to compare, or `nil` if one of them
    /// is not `Hashable` (or the registration takes none).
    final func argumentIdentity(of values: BorrowedValues) -> [AnyHashable]? {
        identifyArguments?(values) ?? nil
    }

    /// Resolves this registration, which takes no arguments, in `context` from `lookup`: what
    /// validation does with each registration, without knowing its type.
    func resolveWithoutArguments(in context: ResolutionContext, from lookup: Container) throws {
        fatalError("AnyProvider is abstract")
    }

    /// Resolves this registration, found from `lookup` under a key of `Service` with no arguments,
    /// in `context`: a declared registration's parameter. Code not specialised for `Service` calls
    /// this to find `Provider<Service>` in `self`, where naming that type would look its metadata up
    /// on every resolve. `lookup` is borrowed from the resolver, whose resolution's caller holds it.
    @usableFromInline
    func resolveFound<Service>(
        as _: Service.Type,
        in context: ResolutionContext,
        from lookup: Borrowed<Container>
    ) throws -> Service {
        fatalError("AnyProvider is abstract")
    }

    /// Resolves this registration, which takes no arguments, in the async `context` from `lookup`.
    func resolveWithoutArgumentsAsync(
        in context: ResolutionContext,
        from lookup: Container,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        fatalError("AnyProvider is abstract")
    }
}

/// The provider for a service, whose factory takes its resolve-time arguments by address.
///
/// Its key (service type and argument types) is what the registry is indexed by, so a lookup with a
/// key built from `Service` and `Argument…` always finds a `Provider<Service>` whose factory reads
/// the arguments as `(Argument…)`. The factory is made where the registration is written, where the
/// argument types are known (`Container+Registration.swift`). Not generic over the arguments: a
/// generic type with a parameter pack needs the Swift 5.9 runtime (macOS 14, iOS 17), and a tuple of
/// them would cost code not specialised for them a tuple type made at run time.
@usableFromInline
final class Provider<Service>: AnyProvider, @unchecked Sendable {
    @usableFromInline typealias Factory = @Sendable (Resolver, BorrowedValues) throws -> Service
    @usableFromInline typealias AsyncFactory = @Sendable (Resolver, BorrowedValues) async throws -> Service

    /// The factory; for an async registration, one that throws `asyncResolutionRequired`, so that
    /// the sync path never has to ask which kind it holds.
    @usableFromInline let factory: Factory
    let asyncFactory: AsyncFactory?
    /// The instance of a sync weak registration, while something holds it; `nil` otherwise.
    @usableFromInline let weakSlot: WeakSlot?
    /// The instance of an async singleton registration, kept apart so that the sync path never
    /// returns it; `nil` otherwise.
    let asyncSingleton: SingletonSlot?
    /// The instance of an async weak registration; `nil` otherwise.
    let asyncWeakSlot: WeakSlot?
    /// How `resolveFound` resolves this registration: made where the registration was written, so
    /// specialised for `Service` there (see `specialisedResolve`). `nil` for one the engine makes
    /// and for an async one (whose sync resolve only reports that it is async), which `resolveFound`
    /// resolves in its own unspecialised code; and for a declared one that takes arguments, which
    /// never reaches it: a parameter's key takes none.
    let resolveSpecialised: ResolveFound?

    /// A resolve of a provider found under a key without arguments, in a context, from a borrowed
    /// container.
    @usableFromInline typealias ResolveFound =
        @Sendable (Provider, ResolutionContext, Borrowed<Container>) throws -> Service

    /// `resolveSpecialised` for a registration, made by the overload the caller wrote: inlined there,
    /// where `Service` is known, it is a function specialised for it, which a declared registration's
    /// parameter, resolved in code that packs leave unspecialised, calls rather than run the whole
    /// resolve unspecialised.
    @inlinable static var specialisedResolve: ResolveFound {
        { provider, context, lookup in
            try lookup.withObject { try context.resolve(provider, from: $0, configure: nil) }
        }
    }

    /// A registration's factory as it was given: sync, or `async`.
    @usableFromInline enum Body {
        case sync(Factory)
        case async(AsyncFactory)
    }

    /// The provider of `body`; `providesScopeValue` and `declaredDependencies` as `AnyProvider`
    /// says (a scope's value is handed on: the registration providing it also `handsOnInstances`).
    /// An `async` factory's shared instance has slots of its own, which the sync path never reads.
    init(
        key: ServiceKey,
        scope: Scope,
        site: RegistrationSite,
        providingScopeValue providesScopeValue: Bool = false,
        declaring declaredDependencies: DeclaredDependencies? = nil,
        problem: Conflict? = nil,
        identifyingArguments identifyArguments: BorrowedValues.Identify? = nil,
        resolving resolveSpecialised: ResolveFound? = nil,
        _ body: Body
    ) {
        self.resolveSpecialised = resolveSpecialised
        switch body {
        case .sync(let factory):
            self.factory = factory
            asyncFactory = nil
        case .async(let asyncFactory):
            factory = { resolver, _ in
                let context = resolver.context
                let path = context.underConstruction  // this registration's last
                throw context.asyncResolutionRequired(key, path: path.map(\.key), requester: path.dropLast().last)
            }
            self.asyncFactory = asyncFactory
        }
        let isAsync = asyncFactory != nil
        weakSlot = scope.kind == .weak && !isAsync ? WeakSlot() : nil
        asyncSingleton = scope.kind == .singleton && isAsync ? SingletonSlot() : nil
        asyncWeakSlot = scope.kind == .weak && isAsync ? WeakSlot() : nil
        super.init(
            key: key,
            scope: scope,
            site: site,
            isAsync: isAsync,
            handsOnInstances: providesScopeValue,
            providesScopeValue: providesScopeValue,
            declaredDependencies: declaredDependencies,
            problem: problem,
            identifyingArguments: identifyArguments
        )
    }

    /// A transient provider that hands on another registration's instance (`implements`): with a
    /// factory for each kind of resolve, so that a replacement of the other kind is handed on too,
    /// counting as `async` as `isAsync` says. (An initialiser of its own, not a third kind of
    /// `Body`: a third case made every registration's switch over it cost more.)
    init(
        handingOn key: ServiceKey,
        site: RegistrationSite,
        factory: @escaping Factory,
        asyncFactory: @escaping AsyncFactory,
        isAsync: Bool
    ) {
        self.factory = factory
        self.asyncFactory = asyncFactory
        resolveSpecialised = nil
        weakSlot = nil
        asyncSingleton = nil
        asyncWeakSlot = nil
        super.init(key: key, scope: .transient, site: site, isAsync: isAsync, handsOnInstances: true)
    }

    private init(copying original: Provider, conflict: Conflict?, preparation: AnyObject?) {
        factory = original.factory
        asyncFactory = original.asyncFactory
        weakSlot = original.weakSlot
        asyncSingleton = original.asyncSingleton
        asyncWeakSlot = original.asyncWeakSlot
        resolveSpecialised = original.resolveSpecialised
        super.init(copying: original, conflict: conflict, preparation: preparation)
    }

    override func copy(conflict: Conflict?, preparation: AnyObject?) -> AnyProvider {
        Provider(copying: self, conflict: conflict, preparation: preparation)
    }

    override func resolveWithoutArguments(in context: ResolutionContext, from lookup: Container) throws {
        let key = key.lookupKey
        _ = try context.resolve(key, from: lookup, configure: nil) as Service
    }

    override func resolveFound<Requested>(
        as _: Requested.Type,
        in context: ResolutionContext,
        from lookup: Borrowed<Container>
    ) throws -> Requested {
        guard conflict == nil else { throw context.conflicted(self) }
        // Found under a key without arguments, so no argument is passed.
        // Not `resolveSpecialised?(…) ?? …`: an optional `Service`, here, is a type made at run time.
        guard let resolveSpecialised else {
            return sameType(
                try lookup.withObject { try context.resolve(self, from: $0, configure: nil) },
                as: Requested.self
            )
        }
        return sameType(try resolveSpecialised(self, context, lookup), as: Requested.self)
    }

    override func resolveWithoutArgumentsAsync(
        in context: ResolutionContext,
        from lookup: Container,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        let key = key.lookupKey
        _ = try await context.resolveAsync(key, from: lookup, configure: nil) as Service
    }

    /// Calls `body` with `provider` as a provider of this type, which its key says it is.
    @inlinable
    static func borrowing<Result>(
        _ provider: Borrowed<AnyProvider>,
        _ body: (Provider) throws -> Result
    ) rethrows -> Result {
        try provider.cast(to: Provider.self).withObject(body)
    }

    /// The published singleton or weak instance, if there is one.
    @inlinable var sharedInstance: Service? {
        if let singleton { return singleton.instance(as: Service.self) }
        return weakSlot?.object.map { $0 as! Service }
    }

    /// The published async singleton or weak instance, if there is one.
    var asyncSharedInstance: Service? {
        if let asyncSingleton { return asyncSingleton.instance(as: Service.self) }
        return asyncWeakSlot?.object.map { $0 as! Service }
    }

    /// The storage of a singleton or weak instance, which copies of this provider share.
    var slot: AnyObject? { singleton ?? weakSlot ?? asyncSingleton ?? asyncWeakSlot }
}
