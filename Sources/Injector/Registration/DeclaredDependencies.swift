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
/// that registered it, so that resolving the registration looks none of them up.
///
/// Every copy of the registration's provider shares it. A plan holds only where it was made:
///
/// - **in the registering container.** A resolve from a child looks its keys up: the child's own
///   registrations come first there.
/// - **without test overrides.** Overrides in effect may give a key another provider.
/// - **for the current registrations.** Every change after `finishRegistration()` (a late
///   registration, reported when resolved) links the plan again, to the snapshot it publishes.
///
/// A key this container does not register (a parent's, or none) has no link and is looked up.
@usableFromInline
final class DeclaredDependencies: Sendable {
    /// The keys of the function's parameters resolved from the container, in order.
    @usableFromInline let keys: [ServiceKey]
    /// The plan linked to the registrations last published, if registration has finished.
    private let plan = PublishedReference<Plan>()

    /// The providers of `keys` in one container's registrations, in order.
    private final class Plan: Sendable {
        /// The container whose registrations the links are.
        let container: ObjectIdentifier
        /// The provider of each key in that container, or `nil` where it has none.
        let providers: [Borrowed<AnyProvider>?]
        /// The plan this one replaced, which a resolve on another thread may still be reading.
        let replaced: Plan?

        init(container: ObjectIdentifier, providers: [Borrowed<AnyProvider>?], replacing replaced: Plan?) {
            self.container = container
            self.providers = providers
            self.replaced = replaced
        }
    }

    init(_ keys: [ServiceKey]) {
        self.keys = keys
    }

    /// Links the plan to `registry`, `container`'s registrations just published after
    /// `finishRegistration()`. Called under the container's registration lock.
    func link(to registry: Registry, of container: Container) {
        let providers = keys.map { registry.provider(for: $0.lookupKey) }
        _ = plan.replace(
            with: Plan(container: ObjectIdentifier(container), providers: providers, replacing: plan.load())
        )
    }

    /// The provider of the parameter at `position` for a resolve looking up from `lookup`: its link,
    /// where the plan holds, or what a lookup finds.
    @usableFromInline
    func provider(at position: Int, from lookup: Container) -> Borrowed<AnyProvider>? {
        if _fastPath(!lookup.tree.mayHaveOverrides), let plan = plan.borrowed(),
            let linked = plan.withObject({ $0.container == ObjectIdentifier(lookup) ? $0.providers[position] : nil })
        {
            return linked
        }
        return lookup.provider(for: keys[position].lookupKey)
    }

    /// The provider the plan links for the parameter at `position` when resolving from
    /// `container`, if it links one there: what tests check a resolve takes without a lookup.
    func linkedProvider(at position: Int, from container: Container) -> AnyProvider? {
        guard let plan = plan.load(), plan.container == ObjectIdentifier(container) else { return nil }
        return plan.providers[position]?.object
    }
}
