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

extension Container {
    /// The dependency graph as seen so far: a node for each registration visible from this
    /// container (its own and its parents', the nearest for each key), with its lifetime, and an
    /// edge for each dependency its factory or hooks resolved, in any construction so far.
    ///
    /// A registration not yet resolved shows no dependencies: call ``validate()`` first to see the
    /// whole graph.
    public func dependencyGraph() -> DependencyGraph {
        DependencyGraph(
            nodes: visibleProviders.map { provider in
                DependencyGraph.Node(
                    key: provider.key,
                    scope: provider.scope,
                    isAsync: provider.isAsync,
                    dependencies: provider.record.dependencies
                )
            }
        )
    }
}
