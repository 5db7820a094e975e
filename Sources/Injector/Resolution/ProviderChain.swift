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

/// A chain of providers, innermost last, that shares its outer part with the chain it extends: the
/// path an async factory hands to the resolutions it starts, the hooks that led to a hook.
///
/// Each level of a deep chain keeps such a chain; copied as arrays, they would take memory in the
/// square of the depth. Linked, each level adds one link.
///
/// Immutable once made, but for `parent`, which only `deinit` clears, when it holds the last
/// reference: releasing a long chain then takes a loop, not a recursion as deep as the chain.
final class ProviderChain: @unchecked Sendable {
    private let link: Borrowed<AnyProvider>
    /// The identity of the resolve-time arguments the innermost provider's instance was made with,
    /// if it took any that can be compared.
    private let arguments: [AnyHashable]?
    private(set) var parent: ProviderChain?
    /// How many providers the chain holds.
    let count: Int
    /// How many times the innermost provider is in the chain.
    let occurrences: Int

    init(
        _ provider: AnyProvider,
        arguments: [AnyHashable]? = nil,
        occurrences: Int = 1,
        extending parent: ProviderChain?
    ) {
        link = Borrowed(provider)
        self.arguments = arguments
        self.parent = parent
        count = (parent?.count ?? 0) + 1
        self.occurrences = occurrences
    }

    /// Frees a long chain link by link, not by recursion, which a deep one (hooks 2,000 deep) would
    /// overflow a small stack with. `next` lets go of each link before the uniqueness check, which
    /// fails while two variables hold it (as they do in a debug build).
    deinit {
        var next = parent
        parent = nil
        while var chain = next {
            next = nil
            guard isKnownUniquelyReferenced(&chain) else { return }
            next = chain.parent
            chain.parent = nil
        }
    }

    /// The innermost provider.
    var last: AnyProvider { link.object }

    /// The providers, outermost first.
    var providers: [AnyProvider] {
        var providers: [AnyProvider] = []
        providers.reserveCapacity(count)
        var chain: ProviderChain? = self
        while let current = chain {
            providers.append(current.last)
            chain = current.parent
        }
        return providers.reversed()
    }

    /// Whether `provider` is in the chain. Walked without a retain of each link (each holds the
    /// next, and the caller holds this one), since it is asked at each hook of a chain of hooks
    /// thousands deep.
    func contains(_ provider: AnyProvider) -> Bool {
        var chain = Borrowed(self)
        while !chain.withObject({ $0.link == Borrowed(provider) }) {
            guard let parent = chain.withObject({ $0.parent.map(Borrowed.init) }) else { return false }
            chain = parent
        }
        return true
    }

    /// Where `provider`, about to extend the chain, would close a cycle: the providers from its
    /// outermost occurrence made with the same arguments on, if the chain has one; and how often it
    /// occurs in the chain. `arguments` is the identity of the new instance's arguments: `.none`
    /// when its registration takes none, so that any occurrence closes a cycle, and `.some(nil)`
    /// when they cannot be compared, taken as other arguments. (Asked at each hook: the walk that
    /// finds no cycle allocates nothing.)
    func cycle(
        closedBy provider: AnyProvider,
        arguments: [AnyHashable]??
    ) -> (cycle: [AnyProvider]?, occurrences: Int) {
        var chain = Borrowed(self)
        var (distance, occurrences) = (0, 0)
        var outermost: Int?  // counted from the innermost provider
        while true {
            let parent = chain.withObject { current -> Borrowed<ProviderChain>? in
                if current.link == Borrowed(provider) {
                    occurrences += 1
                    if arguments.map({ $0 != nil && $0 == current.arguments }) != false { outermost = distance }
                }
                return current.parent.map(Borrowed.init)
            }
            guard let parent else { break }
            chain = parent
            distance += 1
        }
        return (outermost.map { Array(providers.suffix($0 + 1)) }, occurrences)
    }
}
