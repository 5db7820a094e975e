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

/// What a declared registration's function resolves: the keys of its parameters, in order, and,
/// once registration has finished, its resolve plan: the provider each key finds in the container
/// that registered it, so that resolving the registration looks none of them up. (A sync resolve
/// does; an async one looks them up, as `resolveAsync` does.)
///
/// Every copy of the registration's provider shares it. A plan holds for the snapshot of the
/// registrations it was linked to, and only there:
///
/// - **in the registering container.** A resolve from a child looks its keys up: the child's own
///   registrations come first there.
/// - **while that snapshot is current.** Every change after `finishRegistration()` (a late
///   registration, reported when resolved) publishes a new one, and links the plans of the
///   registrations in it again; a resolve still running a registration replaced since looks up.
/// - **without test overrides.** Overrides in effect may give a key another provider.
///
/// A key this container does not register (a parent's, or none) has no link and is looked up.
@usableFromInline
final class DeclaredDependencies: Sendable {
    /// The keys of the function's parameters resolved from the container, in order.
    @usableFromInline let keys: [ServiceKey]
    /// The plan linked to the registrations last published, if registration has finished.
    private let plan = PublishedReference<Plan>()

    /// The providers of `keys` in one snapshot of a container's registrations, in order.
    private final class Plan: Sendable {
        /// The snapshot the links are to: kept alive by its container for as long as it lives.
        let registry: ObjectIdentifier
        /// The provider of each key in that snapshot, or `nil` where it has none.
        let providers: [Borrowed<AnyProvider>?]
        /// The plan this one replaced, which a resolve on another thread may still be reading.
        let replaced: Plan?

        init(registry: ObjectIdentifier, providers: [Borrowed<AnyProvider>?], replacing replaced: Plan?) {
            self.registry = registry
            self.providers = providers
            self.replaced = replaced
        }

        /// The link of the parameter at `position`, if this plan holds for `lookup`'s current
        /// registrations.
        func provider(at position: Int, from lookup: Container) -> Borrowed<AnyProvider>? {
            lookup.registry.borrowed()?.identity == registry ? providers[position] : nil
        }
    }

    init(_ keys: [ServiceKey]) {
        self.keys = keys
    }

    /// Links the plan to `registry`, a container's registrations about to be published after
    /// `finishRegistration()`. Called under the container's registration lock.
    func link(to registry: Registry) {
        let providers = keys.map { registry.provider(for: $0.lookupKey) }
        _ = plan.replace(
            with: Plan(registry: ObjectIdentifier(registry), providers: providers, replacing: plan.load())
        )
    }

    /// The provider of the parameter at `position` for a resolve looking up from `lookup`: its link,
    /// where the plan holds, or what a lookup finds.
    @usableFromInline
    func provider(at position: Int, from lookup: Container) -> Borrowed<AnyProvider>? {
        if _fastPath(!lookup.tree.mayHaveOverrides), let plan = plan.borrowed(),
            let linked = plan.withObject({ $0.provider(at: position, from: lookup) })
        {
            return linked
        }
        return lookup.provider(for: keys[position].lookupKey)
    }

    /// The provider the plan links for the parameter at `position` when resolving from
    /// `container`, if it links one there: what tests check a resolve takes without a lookup.
    func linkedProvider(at position: Int, from container: Container) -> AnyProvider? {
        plan.load()?.provider(at: position, from: container)?.object
    }
}
