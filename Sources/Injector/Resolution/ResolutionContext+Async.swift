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

import Synchronization

// The steps of an async resolution. An async resolution uses one context from start to end, across
// threads; sync registrations it meets are resolved as in a sync resolution, except shared ones,
// which are built in a sync resolution nested in it (see `ResolutionContext+Lifetimes.swift`).

extension ResolutionContext {
    func resolveAsync<Service, each Argument>(
        _ key: LookupKey,
        found: Unmanaged<AnyProvider>?,
        from lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) async throws -> Service {
        guard let found else {
            return try await resolveUnregisteredAsync(
                key,
                from: lookup,
                arguments: repeat each arguments,
                configure: configure
            )
        }
        let provider = unsafeDowncast(found.takeUnretainedValue(), to: Provider<Service, repeat each Argument>.self)
        guard provider.conflict == nil else {
            throw unresolvable(
                Service.self,
                arguments: repeat (each Argument).self,
                key: key,
                found: provider,
                from: lookup
            )
        }
        noteDependency(on: found)
        guard provider.isAsync else {
            return try resolve(provider, from: lookup, arguments: repeat each arguments, configure: configure)
        }
        switch provider.scope.kind {
        case .transient:
            return try await constructAsync(
                provider,
                lookup: lookup,
                arguments: repeat each arguments,
                configure: configure
            )
        case .graph:
            if let instance: Service = try existingGraphInstance(of: provider, lookup: lookup, configure: configure) {
                return instance
            }
            let scopedBefore = scopedResolutionCount
            let instance = try await constructAsync(
                provider,
                lookup: lookup,
                arguments: repeat each arguments,
                configure: configure
            )
            keepGraphInstance(instance, of: provider, lookup: lookup, scopedBefore: scopedBefore)
            return instance
        case .singleton, .weak:
            guard configure == nil else {
                throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path)
            }
            if let sideStore {
                return try await constructStoredAsync(
                    provider,
                    in: sideStore,
                    lookup: lookup.owner(of: provider),
                    arguments: repeat each arguments
                )
            }
            if let instance = provider.asyncSharedInstance { return instance }
            return try await constructSharedAsync(
                provider,
                owner: lookup.owner(of: provider),
                arguments: repeat each arguments
            )
        case .scoped:
            guard configure == nil else {
                throw InjectionError.sharedInstanceConfigured(provider.key, scope: provider.scope, path: path)
            }
            let instance = try await constructStoredAsync(
                provider,
                in: owningStore(for: provider),
                lookup: lookup,
                arguments: repeat each arguments
            )
            noteScopedResolution(of: provider)
            return instance
        }
    }

    /// Builds an async singleton or weak instance, its factory running once however many tasks ask:
    /// the first takes the instance's gate until its resolution ends, the others wait at it.
    private func constructSharedAsync<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        owner: Container,
        arguments: repeat each Argument
    ) async throws -> Service {
        let key = SharedInstanceKey(slot: provider.slot!, store: nil)
        let start = try await beginSharedConstruction(of: key, for: provider, realm: owner.tree)
        if case .built(let box) = start { return unsafeDowncast(box, to: InstanceBox<Service>.self).value }
        var built: AnyObject?
        defer { if case .claimed(let gates) = start { gates.open(key, by: ObjectIdentifier(self), with: built) } }
        if let instance = provider.asyncSharedInstance { return instance }  // another task was first

        let saved = disposalOwner
        disposalOwner = provider.asyncSingleton == nil ? nil : owner.disposals
        defer { disposalOwner = saved }
        let instance = try await constructAsync(
            provider,
            lookup: owner,
            arguments: repeat each arguments,
            configure: nil
        )
        try recordShared(
            instance,
            as: key,
            in: provider.asyncSingleton,
            or: provider.asyncWeakSlot,
            provider: provider,
            sharedObjects: owner.tree.sharedObjects
        )
        built = unpublishedInstance(of: key)
        return instance
    }

    /// Builds an async instance kept in `store`, once per store however many tasks ask.
    private func constructStoredAsync<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        in store: InstanceStore,
        lookup: Container,
        arguments: repeat each Argument
    ) async throws -> Service {
        let record = provider.record
        if let box = store.instance(of: record) { return unsafeDowncast(box, to: InstanceBox<Service>.self).value }
        let key = SharedInstanceKey(slot: record, store: store)
        let start = try await beginSharedConstruction(of: key, for: provider, realm: store)
        if case .built(let box) = start { return unsafeDowncast(box, to: InstanceBox<Service>.self).value }
        var built: AnyObject?
        defer { if case .claimed(let gates) = start { gates.open(key, by: ObjectIdentifier(self), with: built) } }
        if let box = store.instance(of: record) { return unsafeDowncast(box, to: InstanceBox<Service>.self).value }
        let saved = disposalOwner
        disposalOwner = store.disposals
        defer { disposalOwner = saved }
        let instance = try await constructAsync(
            provider,
            lookup: lookup,
            arguments: repeat each arguments,
            configure: nil
        )
        try recordStored(instance, of: provider, in: store, as: key)
        built = unpublishedInstance(of: key)
        return instance
    }

    /// Runs the async factory with `provider` on the construction stack, then what follows any
    /// factory (see `finishConstruction`).
    private func constructAsync<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        lookup: Container,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)?
    ) async throws -> Service {
        try enter(provider, arguments: repeat each arguments)
        let mark = queueMark
        var instance: Service
        // A resolution the factory starts through a container, in this task or a child task, runs
        // within this one: it sees what this one is building, and may take its locks.
        let running = RunningAsyncFactory(
            owners: lockAncestors + [ObjectIdentifier(self)],
            path: pathChain,
            unpublished: unpublishedInstances,
            gates: constructionGates
        )
        defer { running.end() }
        do {
            instance = try await Self.$runningAsyncFactory.withValue(running) {
                try await provider.asyncFactory!(Resolver(container: lookup, context: self), repeat each arguments)
            }
        } catch {
            defer { leave(completed: false) }
            discardQueued(since: mark)
            throw InjectionError.factoryFailed(error, path: path)
        }
        leave(completed: true)
        try finishConstruction(of: &instance, provider: provider, lookup: lookup, configure: configure)
        return instance
    }
}

/// What an async factory runs within, as the resolutions it starts through a container see it:
/// the resolutions holding construction locks (the one running the factory, and those it runs
/// within), what they are constructing, and the shared instances they have not yet published.
/// Taken when the factory is called; inert once it returns (a task the factory left running must
/// not resolve as if inside it).
final class RunningAsyncFactory: @unchecked Sendable {  // immutable, but for `running`
    let owners: [ObjectIdentifier]
    let path: ProviderChain?
    let unpublished: [ResolutionContext.SharedInstanceKey: AnyObject]
    let gates: ConstructionGates
    private let running = Atomic<Bool>(true)

    init(
        owners: [ObjectIdentifier],
        path: ProviderChain?,
        unpublished: [ResolutionContext.SharedInstanceKey: AnyObject],
        gates: ConstructionGates
    ) {
        self.owners = owners
        self.path = path
        self.unpublished = unpublished
        self.gates = gates
    }

    /// Whether the factory is still running.
    var isRunning: Bool { running.load(ordering: .acquiring) }

    func end() { running.store(false, ordering: .releasing) }
}

extension ResolutionContext {
    /// The async factory the current task runs in (directly, or as its child task), if any.
    @TaskLocal static var runningAsyncFactory: RunningAsyncFactory?
}
