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

// The edges of the dependency graph, noted as resolutions run: the service under construction
// depends on what it resolves.

extension ResolutionContext {
    /// Notes that the service under construction depends on `provider`'s: the edges of the
    /// dependency graph, recorded in every construction (a factory may resolve other services for
    /// other arguments), lock-free once known.
    ///
    /// Called where a dependent may exist: a resolve through a resolver, or a resolution nested in
    /// another. A top-level resolve has none, and skips the call.
    @usableFromInline func noteDependency(on provider: Borrowed<AnyProvider>) {
        // The usual case first: the dependent is under construction here.
        if let record = construction.stack.innermostRecord {
            provider.withObject { dependency in
                record.withObject { $0.noteDependency(on: dependency) }
            }
            return
        }
        guard activeBookkeeping != nil || nesting.outer != nil else { return }
        provider.withObject { dependency in dependent?.noteDependency(on: dependency) }
    }

    /// Notes a dependency by key: also one that is not registered, so that the graph shows it.
    func noteDependency(on key: ServiceKey) {
        dependent?.noteDependency(on: key)
    }

    /// The record of the dependent of what is resolved now: the innermost service under
    /// construction; failing that, the one whose hooks are running; failing that, the dependent of
    /// the resolution this one runs inside.
    private var dependent: AnyProvider? {
        var context: ResolutionContext? = self
        while let current = context {
            if let record = current.construction.stack.innermostRecord { return record.object }
            if let preparing = current.storedBookkeeping?.hookChain?.last { return preparing.record }
            context = current.nesting.outer
        }
        return nil
    }
}
