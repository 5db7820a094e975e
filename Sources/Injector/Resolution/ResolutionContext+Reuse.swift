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

import InjectorAtomics

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Each thread keeps the context of its last resolve, so that the next one allocates none: nor its
// bookkeeping, which a resolution that builds a shared or scoped instance makes, and which `end()`
// empties rather than drops. A resolve finds it in C thread-local storage (`InjectorAtomics`); a
// thread-specific key holds the same reference, to release it when the thread exits.

extension ResolutionContext {
    /// The thread-specific slot holding a thread's cached context (retained; released when the
    /// thread exits, after which a resolve, from another key's destructor, makes a new one).
    private static let cacheKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { context in
            guard let context else { return }
            if injector_thread_context_get() == context { injector_thread_context_set(nil) }
            Borrowed<ResolutionContext>(opaque: context).release()
        }
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// A context for a new top-level resolve: this thread's cached one when it is free, or a new one
    /// when a resolve is already running on this thread (a factory resolving from a container
    /// rather than its resolver). Pair with `end()`.
    @usableFromInline static func begin() -> ResolutionContext {
        // The usual resolve finds its thread's context free; the others are functions of their
        // own, not laid out between the few instructions it runs.
        guard let cached = injector_thread_context_get() else { return beginFirst() }
        let context = Borrowed<ResolutionContext>(opaque: cached).object
        guard _fastPath(!context.isInUse) else { return beginNested(in: context) }
        context.isInUse = true
        return context
    }

    /// `begin()` for a thread's first resolve: makes the context the thread keeps.
    @inline(never)
    private static func beginFirst() -> ResolutionContext {
        let context = ResolutionContext()
        let retained = Borrowed.retaining(context).opaque
        pthread_setspecific(cacheKey, retained)
        injector_thread_context_set(retained)
        context.isInUse = true
        return context
    }

    /// `begin()` for a resolve that starts while the thread's context is in use (a factory or a
    /// deinit resolving through a captured container): a context nested in the innermost one.
    @inline(never)
    private static func beginNested(in context: ResolutionContext) -> ResolutionContext {
        let nested = ResolutionContext(nestedIn: context.nesting.innermostNested ?? context)
        context.nesting.innermostNested = nested
        nested.isInUse = true
        return nested
    }

    /// The path of the resolution running on this thread, if any: for an error about a wait this
    /// thread would make outside a resolve's own steps (a ``Lazy``'s first value).
    static var threadPath: [ServiceKey] {
        guard let cached = injector_thread_context_get() else { return [] }
        let context = Borrowed<ResolutionContext>(opaque: cached).object
        return context.isInUse ? (context.nesting.innermostNested ?? context).path : []
    }

    /// Runs `body` with this context standing as the thread's resolution, so that a resolve a
    /// factory starts meanwhile through a container nests in it (sees its path and what it built):
    /// for a sync resolution nested in an async one, which the thread does not otherwise know.
    /// When a resolution already runs on the thread, that one stays the thread's; if this one is
    /// nested in its innermost (a sync part of an async resolution running a sync factory), this
    /// one is its innermost while `body` runs.
    func standingAsThreadResolution<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = injector_thread_context_get()
        if let previous, case let running = Borrowed<ResolutionContext>(opaque: previous).object, running.isInUse {
            guard let outer = nesting.outer, (running.nesting.innermostNested ?? running) === outer else {
                return try body()
            }
            let innermost = running.nesting.innermostNested
            running.nesting.innermostNested = self
            defer { running.nesting.innermostNested = innermost }
            return try body()
        }
        injector_thread_context_set(Borrowed(self).opaque)
        nesting.isThreadRoot = true
        isInUse = true
        defer {
            injector_thread_context_set(previous)
            nesting.isThreadRoot = false
            nesting.innermostNested = nil
        }
        return try body()
    }
}
