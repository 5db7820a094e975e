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

// Construction, sync and async side by side: a factory runs with its provider on the construction
// stack (`enter`, which refuses a cycle, and `leave`, which pops it where the stack is kept, in
// `ResolutionContext.swift`), then come the caller's `configure`, the hand-over of what is
// disposable, and the registration's preparation, deferred until the whole graph is built (see
// `ResolutionContext+Preparation.swift`).

extension ResolutionContext {
    /// Pushes `provider` on the construction stack, with the arguments `values` borrows if its
    /// registration takes any, refusing a cycle or a stack about to overflow. Resolving a
    /// registration again with other arguments is recursion (a tree built by depth), which ends or
    /// meets the stack guard; with the same arguments, it is a cycle. Arguments that cannot be
    /// compared (not `Hashable`) are taken as other arguments.
    @usableFromInline func enter(_ provider: AnyProvider, arguments values: BorrowedValues?) throws {
        guard let values else {
            if isConstructing(provider) { throw cycle(closedBy: provider, at: nil) }
            return try push(provider)
        }
        // The usual resolve with arguments: nothing is under construction, here or around it.
        if construction.stack.count == 0, nesting.outer == nil, !isAsync {
            return try push(provider, arguments: values)
        }
        var identity: [AnyHashable]??  // worked out when the registration is first met on a stack
        if let depth = depthOfConstruction(of: provider, with: values, identity: &identity) {
            throw cycle(closedBy: provider, at: depth)
        }
        if inheritedConstruction(of: provider) {
            throw cycle(closedBy: provider, at: nil)  // arguments are not inherited: taken as the same
        }
        try push(provider, arguments: values, identity: identity)
    }

    /// The cycle `provider` closes, from where it is under construction: at `depth` on the path
    /// (not counting inherited entries), or where it first is.
    private func cycle(closedBy provider: AnyProvider, at depth: Int?) -> InjectionError {
        let chain = underConstruction
        let start = depth.map { inheritedDepth + $0 } ?? chain.firstIndex { $0 === provider }!
        // A loop of one layer's registrations alone (adapters) is explained in that layer's words.
        let origin = provider.site.origin
        let advice = chain[start...].allSatisfy { $0.site.origin === origin } ? origin?.cycleAdvice : nil
        return InjectionError.cycle(
            chain[start...].map(\.key) + [provider.key],
            path: path + [provider.key],
            advice: advice
        )
    }

    /// Runs the factory with `provider` on the construction stack, then the caller's `configure`,
    /// and defers the registration's own preparation until the whole graph is built.
    @inlinable
    func construct<Service, each Argument>(
        _ provider: Provider<Service>,
        lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        guard provider.takesArguments else {
            return try runFactory(of: provider, lookup: lookup, configure: configure)
        }
        return try constructWithArguments(
            provider,
            lookup: lookup,
            arguments: repeat each arguments,
            configure: configure
        )
    }

    /// `construct` for a registration that takes arguments, whose frame borrows them where they are
    /// for the time of the factory. (A function of its own: inlined, it made `construct` too large to
    /// be inlined where a resolve without arguments calls it.)
    @inlinable @inline(never)
    func constructWithArguments<Service, each Argument>(
        _ provider: Provider<Service>,
        lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        try BorrowedValues.with(repeat each arguments) { values in
            try runFactory(of: provider, lookup: lookup, borrowing: values, configure: configure)
        }
    }

    /// Runs the factory of `provider` on the construction stack (`enter`, with the frame of the
    /// arguments `values` borrows, if any), then what follows it. (Inlined into `construct`: as a
    /// call of its own, it cost every resolve a call and the spills around it.)
    @inlinable @inline(__always)
    func runFactory<Service>(
        of provider: Provider<Service>,
        lookup: Container,
        borrowing values: BorrowedValues? = nil,
        configure: ((inout Service) throws -> Void)?
    ) throws -> Service {
        try enter(provider, arguments: values)
        let mark = queueMark
        var instance: Service
        do {
            if _slowPath(isAsync) {
                instance = try runStandingAsThreadResolution(provider, lookup: lookup, arguments: values ?? .none)
            } else {
                instance = try provider.factory(Resolver(container: lookup, context: self), values ?? .none)
            }
        } catch {
            throw factoryFailed(error, of: provider, since: mark)
        }
        leave()
        try finishConstruction(of: &instance, provider: provider, given: values, lookup: lookup, configure: configure)
        return instance
    }

    /// Runs the sync factory of `provider` in this async resolution with it standing as the thread's
    /// resolution, so that a resolve the factory starts through a container nests in this one: it
    /// sees this resolution's path, and a cycle back into it is found at its first re-entry.
    @usableFromInline @inline(never)
    func runStandingAsThreadResolution<Service>(
        _ provider: Provider<Service>,
        lookup: Container,
        arguments values: BorrowedValues
    ) throws -> Service {
        try standingAsThreadResolution {
            try provider.factory(Resolver(container: lookup, context: self), values)
        }
    }

    /// Ends the construction of `provider` whose factory threw `error`: pops it, drops what its
    /// construction queued since `mark`, and returns the error to throw: an `InjectionError` as it
    /// is (it passes through every level of a deep resolve on its way up, and has its path), any
    /// other wrapped with this resolution's path, worked out only then. Not inlined: every
    /// specialisation of `construct` calls this one copy, kept out of the way of the code that runs.
    @usableFromInline @inline(never)
    func factoryFailed(_ error: any Error, of provider: AnyProvider, since mark: QueueMark) -> InjectionError {
        defer { leave() }
        discardQueued(since: mark)
        if let error = error as? InjectionError { return error }
        return InjectionError.factoryFailed(error, path: path, of: provider)
    }

    /// Runs the async factory with `provider` on the construction stack, then what follows any
    /// factory (see `finishConstruction`).
    func constructAsync<Service, each Argument>(
        _ provider: Provider<Service>,
        lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        // The argument frame's copy of the arguments: `BorrowedValues.with` cannot span an `await`.
        let values = provider.takesArguments ? BorrowedValues.allocate(repeat each arguments) : nil
        defer { values?.deallocate(as: (repeat each Argument).self) }
        try enter(provider, arguments: values)
        let mark = queueMark
        var instance: Service
        // A resolution the factory starts through a container, in this task or a child task, runs
        // within this one: it sees what this one is building, and may take its gates.
        let running = RunningAsyncFactory(
            owners: family.ancestors + [gateOwner],
            path: construction.pathChain,
            unpublished: unpublishedInstances,
            gates: constructionGates,
            sideStore: environment.sideStore,
            enclosing: Self.runningAsyncFactory
        )
        do {
            instance = try await Self.$runningAsyncFactory.withValue(running) {
                try await provider.asyncFactory!(Resolver(container: lookup, context: self), values ?? .none)
            }
        } catch {
            endRun(of: running)
            throw factoryFailed(error, of: provider, since: mark)
        }
        endRun(of: running)
        leave()
        try finishConstruction(of: &instance, provider: provider, given: values, lookup: lookup, configure: configure)
        return instance
    }

    /// What follows a factory, which was given the arguments `values` borrows, if any: the caller's
    /// `configure`, taking charge of disposal, and deferring the registration's own preparation.
    /// (`inout`, so that the instance is not copied.)
    @inlinable
    func finishConstruction<Service>(
        of instance: inout Service,
        provider: AnyProvider,
        given values: BorrowedValues?,
        lookup: Container,
        configure: ((inout Service) throws -> Void)?
    ) throws {
        if let configure {
            do {
                try configure(&instance)
            } catch {
                throw InjectionError.preparationFailed(
                    error,
                    step: "the caller's configure closure",
                    path: path + [provider.key]
                )
            }
        }
        if environment.disposalOwner != nil, !provider.handsOnInstances,
            let (disposer, object) = provider.disposer(for: instance)
        {
            handOverForDisposal(disposer, of: instance, object: object, provider: provider, lookup: lookup)
        }
        if let preparation = provider.preparation {
            try deferPreparation(preparation, of: instance, provider: provider, arguments: values, lookup: lookup)
        }
    }

    /// Hands a new disposable instance, which `disposer` disposes and whose identity is `object` if
    /// it is a class instance, to the owner of what is built now, unless it is an instance owned
    /// elsewhere that a factory merely passed on (under another key): a singleton or weak instance,
    /// published (by any container, of any tree, or kept by overrides or validation, or given to
    /// them) or built by this resolution, or a value given to the lifetime scope, which a scope
    /// never takes charge of.
    @usableFromInline func handOverForDisposal(
        _ disposer: DisposalBag.Disposer,
        of instance: Any,
        object: AnyObject?,
        provider: AnyProvider,
        lookup: Container
    ) {
        guard let owner = environment.disposalOwner else { return }
        // Borrowed: the container keeps its tree's shared objects, and a retain around the filter's
        // few loads cost more than they do. It asks what every set remembers: other trees', and the
        // side stores' (overrides' and validation's, and what was given to overrides).
        if Borrowed(lookup.tree.sharedObjects).withObject({ $0.isSharedAnywhere(instance, object: object) })
            || isUnpublished(instance, object: object)
            || environment.borrowedLifetimeScope?.withObject({ $0.values.contains(instance, object: object) }) == true
        {
            return
        }
        owner.withObject { $0.takeCharge(disposer, madeBy: provider) }
    }

    /// Whether `instance`, whose identity is `object` if it is a class instance, is one this
    /// resolution, or one it runs inside, built to share and has not published yet.
    ///
    /// That includes what another resolution of its async family built (see `ConstructionGates`):
    /// a resolution within an async factory hands what it built to the one running the factory
    /// when it completes, which publishes it only when it completes in turn.
    private func isUnpublished(_ instance: Any, object: AnyObject?) -> Bool {
        if nesting.outer == nil, activeBookkeeping?.unpublished.isEmpty != false, family.unpublished.isEmpty,
            family.gates == nil
        {
            return false  // the usual case: nothing is unpublished
        }
        return searchUnpublished(for: instance, object: object)
    }

    /// `isUnpublished(_:object:)`, when something may be.
    @inline(never)
    private func searchUnpublished(for instance: Any, object: AnyObject?) -> Bool {
        func holds(_ box: AnyObject) -> Bool {
            isSameInstance(keptInstance(box), instance, object: object)
        }
        var context: ResolutionContext? = self
        while let current = context {
            if current.storedBookkeeping?.unpublished.contains(where: { holds($0.box) }) == true { return true }
            if current.nesting.outer == nil {
                return current.family.unpublished.values.contains(where: holds)
                    || current.family.gates.map { InstanceGates.builtInstances(of: $0).contains(where: holds) } == true
            }
            context = current.nesting.outer
        }
        return false
    }
}
