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

// Resolutions nested in another. A sync resolution cannot build an async shared instance, nor an
// async resolution a sync shared one (its gates belong to a thread): the latter is built in a sync
// resolution nested in the async one, completed before it goes on. An async factory's own
// resolutions through a container run within the resolution that called it (`RunningAsyncFactory`).
// A sync factory resolving through a captured container nests a context as well (see
// `init(nestedIn:)` and `ResolutionContext+Reuse.swift`).

extension ResolutionContext {
    /// Resolves a singleton or weak instance this resolution cannot build itself.
    @usableFromInline func resolveSharedInNestedResolution<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        lookup owner: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        guard !provider.isAsync else {
            throw InjectionError.asyncResolutionRequired(provider.key, path: path + [provider.key])
        }
        return try inNestedResolution { nested in
            try nested.constructShared(provider, owner: owner, arguments: repeat each arguments)
        }
    }

    /// Resolves an instance kept in `store` that this resolution cannot build itself.
    @usableFromInline func resolveStoredInNestedResolution<Service, each Argument>(
        _ provider: Provider<Service, repeat each Argument>,
        in store: InstanceStore,
        lookup: Container,
        arguments: repeat each Argument
    ) throws -> Service {
        guard !provider.isAsync else {
            throw InjectionError.asyncResolutionRequired(provider.key, path: path + [provider.key])
        }
        return try inNestedResolution { nested in
            try nested.constructStored(provider, in: store, lookup: lookup, arguments: repeat each arguments)
        }
    }

    /// Runs `body` in a sync resolution nested in this async one, completed before this one goes
    /// on: the gates a sync construction takes belong to a thread, and must be released before the
    /// next `await`. The nested resolution sees this one's lifetime scope, path and unpublished instances.
    private func inNestedResolution<Result>(_ body: (ResolutionContext) throws -> Result) throws -> Result {
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
