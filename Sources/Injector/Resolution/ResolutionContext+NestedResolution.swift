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

// Resolutions nested in another. A sync resolution cannot build an async shared instance, nor an
// async resolution a sync shared one (its gates belong to a thread): the latter is built in a sync
// resolution nested in the async one, completed before it goes on. An async factory's own
// resolutions through a container run within the resolution that called it (`RunningAsyncFactory`).
// A sync factory resolving through a captured container nests a context as well (see
// `init(nestedIn:)` and `ResolutionContext+Reuse.swift`).

extension ResolutionContext {
    /// Resolves an instance kept in `store` that this resolution cannot build itself.
    @usableFromInline func resolveStoredInNestedResolution<Service, each Argument>(
        _ provider: Provider<Service>,
        in store: InstanceStore,
        lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        try inNestedResolution(building: provider) { nested in
            try nested.constructStored(provider, in: store, lookup: lookup, arguments: repeat each arguments)
        }
    }

    /// The error of a sync resolve of `key`, whose registration is async, at `path`, asked for by
    /// `requester`: told, when that is a sync declared function, that it must be registered async,
    /// since its parameters are resolved synchronously however it is resolved.
    func asyncResolutionRequired(_ key: ServiceKey, path: [ServiceKey], requester: AnyProvider?) -> InjectionError {
        let declared = requester.flatMap { $0.declaredDependencies != nil && !$0.isAsync ? $0.key : nil }
        return InjectionError.asyncResolutionRequired(key, path: path, neededByDeclared: declared)
    }

    /// Runs `body`, which builds `provider`'s shared instance, in a sync resolution nested in this
    /// async one, completed before this one goes on: the gates a sync construction takes belong to
    /// a thread, and must be released before the next `await`. The nested resolution sees this
    /// one's lifetime scope, path and unpublished instances. An async registration cannot be built
    /// so: the error says to resolve it asynchronously.
    func inNestedResolution<Result>(
        building provider: AnyProvider,
        _ body: (ResolutionContext) throws -> Result
    ) throws -> Result {
        guard !provider.isAsync else {
            throw asyncResolutionRequired(provider.key, path: path + [provider.key], requester: underConstruction.last)
        }
        let nested = ResolutionContext(nestedIn: self)
        defer { nested.end() }
        nested.startAsPart(of: self)
        return try nested.standingAsThreadResolution {
            let result = try body(nested)
            try nested.complete()
            return result
        }
    }
}

/// What an async factory runs within, as the resolutions it starts through a container see it:
/// the resolutions holding construction gates (the one running the factory, and those it runs
/// within), what they are constructing, the shared instances they have not yet published, and the
/// store that keeps their singletons apart from the container's (validation's or overrides').
/// Taken when the factory is called; inert once it returns (a task the factory left running must
/// not resolve as if inside it).
///
/// A resolution started within the factory that completes while it runs hands the shared instances
/// it built, and the gates it holds for them, to the resolution running the factory (`takeOver`),
/// as a resolution nested in a sync one does: they may hold what that one built and has not
/// published, so they are published when it completes, and dropped with it if it fails.
final class RunningAsyncFactory: @unchecked Sendable {  // immutable, but for `state`, behind its lock
    let owners: [InstanceGates.Owner]
    let path: ProviderChain?
    let unpublished: [ResolutionContext.SharedInstanceKey: AnyObject]
    let gates: ConstructionGates
    /// Where the resolution running the factory keeps singleton and weak instances instead of the
    /// container (validation's sandbox, or the overrides' store); `nil` for the container.
    let sideStore: InstanceStore?
    /// The run of an async factory of the same resolution that this factory was called within (its
    /// resolver's), if any: what a resolution started within this factory completes after this
    /// factory returned goes to it while it runs, to be dropped if the resolution fails.
    let enclosing: RunningAsyncFactory?
    private let state = Locked.make(HandedOver())

    /// Whether the factory runs, and what the resolutions within it handed over.
    private struct HandedOver {
        var isRunning = true
        var instances: [ResolutionContext.Unpublished] = []
        var gates: [ResolutionContext.SharedInstanceKey] = []
    }

    init(
        owners: [InstanceGates.Owner],
        path: ProviderChain?,
        unpublished: [ResolutionContext.SharedInstanceKey: AnyObject],
        gates: ConstructionGates,
        sideStore: InstanceStore?,
        enclosing: RunningAsyncFactory?
    ) {
        self.owners = owners
        self.path = path
        self.unpublished = unpublished
        self.gates = gates
        self.sideStore = sideStore
        self.enclosing = enclosing?.owners.last == owners.last ? enclosing : nil
    }

    /// Whether the factory is still running.
    var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Takes the shared instances that `owner`, a resolution within the factory, built and has
    /// not published, and the async gates it holds, for the resolution running the factory;
    /// whether it took them (not once the factory has returned, unless an enclosing factory of the
    /// same resolution still runs: then that one takes them).
    func takeOver(
        _ instances: [ResolutionContext.Unpublished],
        gates: [ResolutionContext.SharedInstanceKey],
        from owner: InstanceGates.Owner
    ) -> Bool {
        let taken = state.withLock { state in
            guard state.isRunning, let runner = owners.last else { return false }
            InstanceGates.hand(gates, from: owner, to: runner)
            state.instances += instances
            state.gates += gates
            return true
        }
        return taken || enclosing?.takeOver(instances, gates: gates, from: owner) == true
    }

    /// Ends the factory's run: returns what resolutions within it handed over, for the resolution
    /// running it to publish when it completes (see `takeOver`).
    func end() -> (instances: [ResolutionContext.Unpublished], gates: [ResolutionContext.SharedInstanceKey]) {
        state.withLock { state in
            state.isRunning = false
            defer { (state.instances, state.gates) = ([], []) }
            return (state.instances, state.gates)
        }
    }
}

extension ResolutionContext {
    /// The async factory the current task runs in (directly, or as its child task), if any.
    @TaskLocal static var runningAsyncFactory: RunningAsyncFactory?
}
