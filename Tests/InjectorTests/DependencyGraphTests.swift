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

import Testing

@testable import Injector

// dependencyGraph(): the nodes of the visible registrations, the edges seen by resolves or by
// validate(), and their renderings as a text tree and as Graphviz DOT.

private final class GraphClock: Sendable {}
private final class GraphNoteStore: Sendable {}
private final class GraphExporter: Sendable {}
private final class GraphEditor: Sendable {}
private final class GraphChicken: Sendable {}
private final class GraphEgg: Sendable {}
private final class GraphApp: Sendable {}
private final class GraphLeft: Sendable {}
private final class GraphRight: Sendable {}
private final class GraphShared: Sendable {}
private final class GraphLeaf: Sendable {}
private final class GraphRequestContext: Sendable {}
private final class GraphHandler: Sendable {}
private final class GraphPool: Sendable {}
private final class GraphRepository: Sendable {}

extension ScopeTag {
    fileprivate static let graphRequest: ScopeTag = "request"
}

private func graphKey<Service>(_ service: Service.Type, name: String? = nil) -> ServiceKey {
    ServiceKey(service, name: name)
}

/// Registers GraphEditor -> GraphNoteStore -> GraphClock and GraphEditor -> GraphExporter "pdf".
private func graphRegisterNotes(in container: Container) {
    container.register(GraphClock.self, scope: .singleton) { _ in GraphClock() }
    container.register(GraphNoteStore.self, scope: .singleton) { r in
        _ = try r.resolve(GraphClock.self)
        return GraphNoteStore()
    }
    container.register(GraphExporter.self, name: "pdf") { _ in GraphExporter() }
    container.register(GraphEditor.self) { r in
        _ = try r.resolve(GraphNoteStore.self)
        _ = try r.resolve(GraphExporter.self, name: "pdf")
        return GraphEditor()
    }
}

/// The dependencies of `key`'s node in `graph`.
private func graphDependencies(of key: ServiceKey, in graph: DependencyGraph) -> [ServiceKey]? {
    graph.nodes.first { $0.key == key }?.dependencies
}

@Suite struct DependencyGraphTests {
    // MARK: Declared registrations

    /// A declared registration's edges are in the graph before anything is resolved, solid; a
    /// closure registration's, once resolved, dashed; a missing dependency is a dashed node.
    @Test func declaredEdgesAreThereBeforeAnyResolveAndRecordedOnesAreDashed() throws {
        let container = Container()
        container.register(GraphClock.self, scope: .singleton) { _ in GraphClock() }
        container.register(GraphNoteStore.self, scope: .singleton) { (_: GraphClock, _: GraphPool) in GraphNoteStore() }
        container.register(GraphEditor.self) { r in
            _ = try r.resolve(GraphClock.self)
            return GraphEditor()
        }

        let before = container.dependencyGraph()
        _ = try container.resolve(GraphEditor.self)
        let after = container.dependencyGraph()

        #expect(
            graphDependencies(of: graphKey(GraphNoteStore.self), in: before) == [
                graphKey(GraphClock.self), graphKey(GraphPool.self),
            ]
        )
        #expect(graphDependencies(of: graphKey(GraphEditor.self), in: before) == [])
        #expect(before.nodes.map(\.isDeclared) == [false, true, false])
        #expect(
            after.dot.hasSuffix(
                """
                    "GraphPool" [label="GraphPool (not registered)", style=dashed];
                    "GraphNoteStore" -> "GraphClock";
                    "GraphNoteStore" -> "GraphPool";
                    "GraphEditor" -> "GraphClock" [style=dashed];
                }

                """
            )
        )
        #expect(
            after.mermaid == """
                flowchart LR
                    n0["GraphClock (singleton)"]
                    n1["GraphNoteStore (singleton)"]
                    n2["GraphEditor (transient)"]
                    n1 --> n0
                    n3["GraphPool (not registered)"]
                    style n3 stroke-dasharray: 4 4
                    n1 --> n3
                    n2 -.-> n0

                """
        )
    }

    /// Mermaid takes a label's quotes as the `#quot;` entity.
    @Test func mermaidWritesQuotesAsEntities() {
        let container = Container()
        container.register(GraphExporter.self, name: "pdf") { _ in GraphExporter() }

        #expect(
            container.dependencyGraph().mermaid
                == "flowchart LR\n    n0[\"GraphExporter (name: #quot;pdf#quot;) (transient)\"]\n"
        )
    }

    // MARK: After validate()

    /// After validate(), the text tree shows the root with every dependency below it.
    @Test func textTreeAfterValidationShowsEveryDependency() throws {
        let container = Container()
        graphRegisterNotes(in: container)

        try container.validate()
        let graph = container.dependencyGraph()

        #expect(
            graph.textTree == """
                GraphEditor (transient)
                ├─ GraphNoteStore (singleton)
                │  └─ GraphClock (singleton)
                └─ GraphExporter (name: "pdf") (transient)

                """
        )
        #expect(graph.description == graph.textTree)
    }

    /// After validate(), the DOT text declares every node with its label, then every edge; the
    /// quotes of a named key are escaped.
    @Test func dotAfterValidationDeclaresNodesThenEdges() throws {
        let container = Container()
        graphRegisterNotes(in: container)

        try container.validate()

        #expect(
            container.dependencyGraph().dot == #"""
                digraph Injector {
                    rankdir=LR;
                    node [shape=box, fontname="Helvetica"];
                    "GraphClock" [label="GraphClock (singleton)"];
                    "GraphNoteStore" [label="GraphNoteStore (singleton)"];
                    "GraphExporter (name: \"pdf\")" [label="GraphExporter (name: \"pdf\") (transient)"];
                    "GraphEditor" [label="GraphEditor (transient)"];
                    "GraphNoteStore" -> "GraphClock" [style=dashed];
                    "GraphEditor" -> "GraphNoteStore" [style=dashed];
                    "GraphEditor" -> "GraphExporter (name: \"pdf\")" [style=dashed];
                }

                """#
        )
    }

    /// Backslashes and quotes in a name are escaped in DOT, in the node's id and in its label.
    @Test func dotEscapesQuotesAndBackslashes() {
        let container = Container()
        container.register(GraphExporter.self, name: #"C:\notes "draft""#) { _ in GraphExporter() }

        let dot = container.dependencyGraph().dot

        #expect(
            dot.contains(
                #"""
                    "GraphExporter (name: \"C:\\notes \"draft\"\")" [label="GraphExporter (name: \"C:\\notes \"draft\"\") (transient)"];
                """#
            )
        )
    }

    // MARK: Edges seen by resolves

    /// Before any resolve, the nodes have no dependencies: each is a root of the tree.
    @Test func graphBeforeAnyResolveHasNodesButNoEdges() {
        let container = Container()
        graphRegisterNotes(in: container)

        let graph = container.dependencyGraph()

        #expect(
            graph.nodes.map(\.key) == [
                graphKey(GraphClock.self), graphKey(GraphNoteStore.self), graphKey(GraphExporter.self, name: "pdf"),
                graphKey(GraphEditor.self),
            ]
        )
        #expect(graph.nodes.allSatisfy { $0.dependencies.isEmpty })
        #expect(
            graph.textTree == """
                GraphClock (singleton)
                GraphNoteStore (singleton)
                GraphExporter (name: "pdf") (transient)
                GraphEditor (transient)

                """
        )
    }

    /// An ordinary resolve, without validate(), records the edges of what it built, and only those.
    @Test func ordinaryResolvesRecordEdges() throws {
        let container = Container()
        graphRegisterNotes(in: container)

        _ = try container.resolve(GraphNoteStore.self)

        #expect(
            container.dependencyGraph().textTree == """
                GraphNoteStore (singleton)
                └─ GraphClock (singleton)
                GraphExporter (name: "pdf") (transient)
                GraphEditor (transient)

                """
        )
    }

    /// A dependency already built (a singleton, or a scoped instance of the scope) is still an edge
    /// from a dependent built later.
    @Test func cachedDependenciesAreStillRecordedAsEdges() throws {
        let container = Container()
        container.register(GraphClock.self, scope: .singleton) { _ in GraphClock() }
        container.register(GraphNoteStore.self) { r in
            _ = try r.resolve(GraphClock.self)
            return GraphNoteStore()
        }
        container.register(GraphRequestContext.self, scope: .scoped) { _ in GraphRequestContext() }
        container.register(GraphHandler.self) { r in
            _ = try r.resolve(GraphRequestContext.self)
            return GraphHandler()
        }

        _ = try container.resolve(GraphClock.self)
        _ = try container.resolve(GraphNoteStore.self)
        let scope = container.makeScope()
        _ = try scope.resolve(GraphRequestContext.self)
        _ = try scope.resolve(GraphHandler.self)

        let graph = container.dependencyGraph()
        #expect(graphDependencies(of: graphKey(GraphNoteStore.self), in: graph) == [graphKey(GraphClock.self)])
        #expect(graphDependencies(of: graphKey(GraphHandler.self), in: graph) == [graphKey(GraphRequestContext.self)])
    }

    /// Edges are those of every construction of a registration: a later one that resolves something
    /// else adds its edge. (This test pinned the opposite, issue #10's defect 9: only the first
    /// completed construction's edges were kept.)
    @Test func edgesComeFromEveryConstruction() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(GraphClock.self) { _ in GraphClock() }
        container.register(GraphPool.self) { _ in GraphPool() }
        container.register(GraphNoteStore.self) { r in
            if calls.next() == 1 { _ = try r.resolve(GraphClock.self) } else { _ = try r.resolve(GraphPool.self) }
            return GraphNoteStore()
        }

        _ = try container.resolve(GraphNoteStore.self)
        _ = try container.resolve(GraphNoteStore.self)

        #expect(
            graphDependencies(of: graphKey(GraphNoteStore.self), in: container.dependencyGraph()) == [
                graphKey(GraphClock.self), graphKey(GraphPool.self),
            ]
        )
    }

    /// Async factories' dependencies are recorded by validateAsync(), and async nodes say so.
    @Test func asyncResolutionsRecordEdges() async throws {
        let container = Container()
        container.register(GraphPool.self, scope: .singleton) { _ async in GraphPool() }
        container.register(GraphRepository.self) { r async throws in
            _ = try await r.resolveAsync(GraphPool.self)
            return GraphRepository()
        }

        try await container.validateAsync()
        let graph = container.dependencyGraph()

        #expect(graph.nodes.map(\.isAsync) == [true, true])
        #expect(
            graph.textTree == """
                GraphRepository (async transient)
                └─ GraphPool (async singleton)

                """
        )
    }

    // MARK: Rendering

    /// Services that only depend on each other in a cycle are written after the roots, the edge
    /// back to a service being written marked "(cycle)"; DOT has both edges.
    @Test func cycleRendersWithCycleMarker() throws {
        let container = Container()
        container.register(GraphChicken.self) { r in
            _ = try r.resolve(GraphEgg.self)
            return GraphChicken()
        }
        container.register(GraphEgg.self) { r in
            _ = try r.resolve(GraphChicken.self)
            return GraphEgg()
        }

        #expect(injectionError { try container.validate() }?.problems.map(\.code) == [.circularDependency])
        let graph = container.dependencyGraph()

        #expect(
            graph.textTree == """
                GraphChicken (transient)
                └─ GraphEgg (transient)
                   └─ GraphChicken (transient) (cycle)

                """
        )
        #expect(
            graph.dot.contains(
                "    \"GraphChicken\" -> \"GraphEgg\" [style=dashed];\n    \"GraphEgg\" -> \"GraphChicken\" [style=dashed];\n"
            )
        )
    }

    /// A service with dependencies met a second time is written "(see above)"; a leaf met again is
    /// written in full.
    @Test func sharedSubtreeIsWrittenOnceThenSeeAbove() throws {
        let container = Container()
        container.register(GraphLeaf.self, scope: .singleton) { _ in GraphLeaf() }
        container.register(GraphShared.self) { r in
            _ = try r.resolve(GraphLeaf.self)
            return GraphShared()
        }
        container.register(GraphLeft.self) { r in
            _ = try r.resolve(GraphShared.self)
            return GraphLeft()
        }
        container.register(GraphRight.self) { r in
            _ = try r.resolve(GraphShared.self)
            _ = try r.resolve(GraphLeaf.self)
            return GraphRight()
        }
        container.register(GraphApp.self) { r in
            _ = try r.resolve(GraphLeft.self)
            _ = try r.resolve(GraphRight.self)
            return GraphApp()
        }

        try container.validate()

        #expect(
            container.dependencyGraph().textTree == """
                GraphApp (transient)
                ├─ GraphLeft (transient)
                │  └─ GraphShared (transient)
                │     └─ GraphLeaf (singleton)
                └─ GraphRight (transient)
                   ├─ GraphShared (transient) (see above)
                   └─ GraphLeaf (singleton)

                """
        )
    }

    /// Labels show every lifetime as written at the registration, a tag included.
    @Test func labelsShowEveryLifetime() {
        let container = Container()
        container.register(GraphRequestContext.self, scope: .scoped(to: .graphRequest)) { _ in GraphRequestContext() }
        container.register(GraphHandler.self, scope: .scoped) { _ in GraphHandler() }
        container.register(GraphPool.self, scope: .weak) { _ in GraphPool() }
        container.register(GraphLeaf.self, scope: .graph) { _ in GraphLeaf() }

        let graph = container.dependencyGraph()

        #expect(graph.nodes.map(\.scope) == [.scoped(to: .graphRequest), .scoped, .weak, .graph])
        #expect(graph.nodes.map(\.isAsync) == [false, false, false, false])
        #expect(
            graph.textTree == """
                GraphRequestContext (scoped(to: .request))
                GraphHandler (scoped)
                GraphPool (weak)
                GraphLeaf (graph)

                """
        )
    }

    // MARK: Child containers

    /// A child's graph has the parent's registrations and its own, the nearest for each key, in
    /// the order keys were first registered; the parent's graph has only its own.
    @Test func childGraphShowsTheNearestRegistrations() throws {
        let parent = Container()
        parent.register(GraphClock.self, scope: .singleton) { _ in GraphClock() }
        parent.register(GraphNoteStore.self) { r in
            _ = try r.resolve(GraphClock.self)
            return GraphNoteStore()
        }
        let child = parent.makeChild()
        child.register(GraphEditor.self) { r in
            _ = try r.resolve(GraphNoteStore.self)
            return GraphEditor()
        }
        child.register(GraphClock.self) { _ in GraphClock() }

        try child.validate()

        #expect(
            child.dependencyGraph().textTree == """
                GraphEditor (transient)
                └─ GraphNoteStore (transient)
                   └─ GraphClock (transient)

                """
        )
        #expect(
            child.dependencyGraph().nodes.map(\.key) == [
                graphKey(GraphClock.self), graphKey(GraphNoteStore.self), graphKey(GraphEditor.self),
            ]
        )
        #expect(
            parent.dependencyGraph().textTree == """
                GraphNoteStore (transient)
                └─ GraphClock (singleton)

                """
        )
    }

    // MARK: Missing dependencies

    /// A dependency that is not registered still appears: in the tree as "(not registered)", and in
    /// DOT as a dashed node declared before the edges.
    @Test func missingDependencyAppearsAsNotRegistered() {
        let container = Container()
        container.register(GraphNoteStore.self) { r in
            _ = try r.resolve(GraphClock.self)
            return GraphNoteStore()
        }

        #expect(throws: InjectionError.self) { try container.validate() }
        let graph = container.dependencyGraph()

        #expect(
            graph.textTree == """
                GraphNoteStore (transient)
                └─ GraphClock (not registered)

                """
        )
        #expect(
            graph.dot == """
                digraph Injector {
                    rankdir=LR;
                    node [shape=box, fontname="Helvetica"];
                    "GraphNoteStore" [label="GraphNoteStore (transient)"];
                    "GraphClock" [label="GraphClock (not registered)", style=dashed];
                    "GraphNoteStore" -> "GraphClock" [style=dashed];
                }

                """
        )
    }

    // MARK: Edges seen outside a factory's own resolver

    /// A dependency an onResolved hook resolves (property injection) is an edge of the hooked
    /// service, as is one a factory resolves through a captured container.
    @Test func hooksAndCapturedContainerResolvesRecordEdges() throws {
        let container = Container()
        container.register(GraphClock.self) { _ in GraphClock() }
        container.register(GraphExporter.self) { _ in GraphExporter() }
        container.register(GraphNoteStore.self) { _ in GraphNoteStore() }
            .onResolved { r, _ in _ = try r.resolve(GraphClock.self) }
        container.register(GraphEditor.self) { _ in
            _ = try container.resolve(GraphExporter.self)
            return GraphEditor()
        }

        _ = try container.resolve(GraphNoteStore.self)
        _ = try container.resolve(GraphEditor.self)
        let graph = container.dependencyGraph()

        #expect(graphDependencies(of: graphKey(GraphNoteStore.self), in: graph) == [graphKey(GraphClock.self)])
        #expect(graphDependencies(of: graphKey(GraphEditor.self), in: graph) == [graphKey(GraphExporter.self)])
    }
}

/// A handler whose formatter depends on the argument it is resolved with.
private protocol GraphFormatter: Sendable {}
private struct GraphJSONFormatter: GraphFormatter {}
private struct GraphTextFormatter: GraphFormatter {}
private struct GraphFormattingHandler: Sendable { let formatter: any GraphFormatter }

extension DependencyGraphTests {
    /// Every resolution adds the edges it follows: a handler resolved once with the "json"
    /// formatter and once with "text" shows both edges.
    @Test func graphKeepsTheEdgesOfEveryResolution() throws {
        let container = Container()
        container.register((any GraphFormatter).self, name: "json") { _ in GraphJSONFormatter() }
        container.register((any GraphFormatter).self, name: "text") { _ in GraphTextFormatter() }
        container.register(GraphFormattingHandler.self) { (r, format: String) in
            GraphFormattingHandler(formatter: try r.resolve((any GraphFormatter).self, name: format))
        }

        _ = try container.resolve(GraphFormattingHandler.self, argument: "json")
        _ = try container.resolve(GraphFormattingHandler.self, argument: "text")
        _ = try container.resolve(GraphFormattingHandler.self, argument: "json")

        let handler = try #require(
            container.dependencyGraph().nodes.first { $0.key.serviceType == GraphFormattingHandler.self }
        )
        #expect(
            handler.dependencies.map(\.description) == [
                #"GraphFormatter (name: "json")"#, #"GraphFormatter (name: "text")"#,
            ]
        )
    }

    /// The same for the edges a hook follows.
    @Test func graphKeepsTheEdgesOfEveryHookRun() throws {
        let container = Container()
        container.register((any GraphFormatter).self, name: "json") { _ in GraphJSONFormatter() }
        container.register((any GraphFormatter).self, name: "text") { _ in GraphTextFormatter() }
        let calls = CallCounter()
        container.register(GraphEditor.self) { _ in GraphEditor() }
            .onResolved { r, _ in
                _ = try r.resolve((any GraphFormatter).self, name: calls.next() == 1 ? "json" : "text")
            }

        _ = try container.resolve(GraphEditor.self)
        _ = try container.resolve(GraphEditor.self)

        let editor = try #require(container.dependencyGraph().nodes.first { $0.key.serviceType == GraphEditor.self })
        #expect(
            editor.dependencies.map(\.description) == [
                #"GraphFormatter (name: "json")"#, #"GraphFormatter (name: "text")"#,
            ]
        )
    }
}
