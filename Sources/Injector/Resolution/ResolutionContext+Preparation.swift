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

// Deferred preparation: a registration's `onResolved` hooks and `verify` checks run once the whole
// top-level resolve has been built, in completion order.

extension ResolutionContext {
    /// How many times, in one resolve, hooks may lead back to a registration they came from, with
    /// other arguments each time, before the recursion is taken for one without end: hooks run one
    /// after another, not nested, so no stack guard stops them, and a recursion that branches never
    /// grows a long chain.
    static let hookRecursionLimit = 1_000

    struct PendingPreparation {
        /// The providers whose hooks led to this instance, this one's last.
        let chain: ProviderChain
        /// The singleton or weak service that holds this instance, if any, with the path from it
        /// to this instance: what a hook resolving a scoped service would make captive.
        let captor: Captor?
        let run: (ResolutionContext) throws -> Void
    }

    /// A singleton or weak service being built or prepared, and the path that leads from it to
    /// what is being resolved now.
    struct Captor {
        let provider: AnyProvider
        let path: [ServiceKey]
    }

    /// Queues the hooks and checks of a new instance: `preparation`, its registration's
    /// `Preparation<Service>`, made with the arguments `values` borrows, if any. Refuses a
    /// transient instance made by a hook of its own registration (directly or through others) with
    /// the same arguments, which would never end; with other arguments it is recursion, refused
    /// past `hookRecursionLimit` returns.
    @usableFromInline
    func deferPreparation<Service>(
        _ preparation: AnyObject,
        of instance: Service,
        provider: AnyProvider,
        arguments values: BorrowedValues?,
        lookup: Container
    ) throws {
        let preparation = uncheckedCast(preparation, to: Preparation<Service>.self)
        let bookkeeping = bookkeeping
        // A hook that resolves through a captured container starts a resolution nested in this
        // one's: the hooks that led to it are those running in the resolutions it runs inside.
        let ownChain = bookkeeping.hookChain
        let hookChain = ownChain ?? runningHookChain
        let arguments = values.map(provider.argumentIdentity(of:))
        let (cycle, occurrences) = hookChain?.cycle(closedBy: provider, arguments: arguments) ?? (nil, 0)
        if let cycle {
            let chain = cycle.map(\.key) + [provider.key]
            throw InjectionError.endlessHooks(chain, isCycle: true, viaContainer: ownChain == nil)
        }
        let key = provider.key
        // The instance's hooks run once the stack is empty: remember what would hold it.
        let captor =
            provider.outlivesLifetimeScopes
            ? Captor(provider: provider, path: path + [provider.key])
            : innermostOutlivingScopes().map { Captor(provider: $0.provider, path: $0.path + [provider.key]) }
        bookkeeping.pending.append(
            PendingPreparation(
                chain: ProviderChain(
                    provider,
                    arguments: arguments ?? nil,
                    occurrences: occurrences + 1,
                    extending: hookChain
                ),
                captor: captor
            ) { context in
                let resolver = Resolver(container: lookup, context: context)
                for hook in preparation.hooks {
                    do { try hook(resolver, instance) } catch {
                        throw InjectionError.preparationFailed(error, step: "an onResolved hook", path: [key])
                    }
                }
                for check in preparation.checks {
                    do { try check(instance) } catch {
                        throw InjectionError.preparationFailed(error, step: "a verify check", path: [key])
                    }
                }
            }
        )
    }

    /// The chain of hooks running in this resolution or, failing that, in the innermost one it runs
    /// inside that runs any.
    var runningHookChain: ProviderChain? {
        var context: ResolutionContext? = self
        while let current = context {
            if let chain = current.storedBookkeeping?.hookChain { return chain }
            context = current.nesting.outer
        }
        return nil
    }

    /// Runs the queued preparations in order, including those queued while they run.
    func runPendingPreparations(of bookkeeping: Bookkeeping) throws {
        var index = 0
        var returns = 0  // preparations of an instance that hooks of its registration led to
        while index < bookkeeping.pending.count {
            let preparation = bookkeeping.pending[index]
            index += 1
            if preparation.chain.occurrences > 1 {
                returns += 1
                // The chain counts the returns of the resolutions this one runs inside too (hooks
                // resolving through a captured container).
                if returns > Self.hookRecursionLimit || preparation.chain.occurrences > Self.hookRecursionLimit + 1 {
                    throw InjectionError.endlessHooks(preparation.chain.providers.map(\.key), isCycle: false)
                }
            }
            bookkeeping.hookChain = preparation.chain
            bookkeeping.preparingCaptor = preparation.captor
            try preparation.run(self)
        }
        bookkeeping.pending.removeAll()
        bookkeeping.hookChain = nil
        bookkeeping.preparingCaptor = nil
    }
}
