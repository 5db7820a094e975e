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

/// The services of a container and the dependencies between them, for people who would rather look
/// than read: as Graphviz DOT (``dot``) or as a text tree (``textTree``).
///
/// A node is a registration, with its lifetime; an edge is a dependency a factory (or hook)
/// resolved, as seen by the resolves made so far (every construction of each registration, so a
/// factory that resolves other services for other arguments shows them all) or by
/// ``Container/validate()``, which resolves everything:
///
/// ```swift
/// try container.validate()
/// print(container.dependencyGraph().textTree)
/// try container.dependencyGraph().dot.write(toFile: "graph.dot", atomically: true, encoding: .utf8)
/// ```
public struct DependencyGraph: Sendable, CustomStringConvertible {
    /// A registration in the graph.
    public struct Node: Sendable {
        /// The registration's key.
        public let key: ServiceKey
        /// Its lifetime.
        public let scope: Scope
        /// Whether its factory is `async`.
        public let isAsync: Bool
        /// The keys its factory and hooks resolved, over every construction so far, in the order
        /// they were first resolved.
        public let dependencies: [ServiceKey]

        /// The node as the tree and the DOT labels show it: `NoteStore (singleton)`.
        var label: String { "\(key) (\(isAsync ? "async " : "")\(scope))" }
    }

    /// The registrations visible from the container, in registration order.
    public let nodes: [Node]

    /// The graph in Graphviz's DOT language: render it with `dot -Tsvg graph.dot -o graph.svg`.
    public var dot: String {
        var lines = ["digraph Injector {", "    rankdir=LR;", "    node [shape=box, fontname=\"Helvetica\"];"]
        for node in nodes {
            lines.append("    \(quoted(node.key)) [label=\(quoted(node.label))];")
        }
        let registered = Set(nodes.map(\.key))
        var unregistered: [ServiceKey] = []
        for dependency in nodes.flatMap(\.dependencies)
        where !registered.contains(dependency) && !unregistered.contains(dependency) {
            unregistered.append(dependency)
            lines.append("    \(quoted(dependency)) [label=\(quoted("\(dependency) (not registered)")), style=dashed];")
        }
        for node in nodes {
            for dependency in node.dependencies {
                lines.append("    \(quoted(node.key)) -> \(quoted(dependency));")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as an indented tree: each service no other depends on, with what it depends on
    /// below it, then any service not reached that way (one in a cycle). A service met again is written once in full, then `(see above)`; a dependency back
    /// to a service being written is marked `(cycle)`.
    ///
    /// ```
    /// NoteEditor (transient)
    /// ├─ NoteStore (singleton)
    /// │  └─ Clock (singleton)
    /// └─ Exporter (name: "pdf") (transient)
    /// ```
    public var textTree: String {
        var writer = TreeWriter(graph: self)
        for root in roots { writer.write(root, prefix: "", childPrefix: "") }
        // Services that only depend on each other in a cycle are reached from no root.
        for node in nodes where !writer.hasWritten(node.key) { writer.write(node.key, prefix: "", childPrefix: "") }
        return writer.lines.joined(separator: "\n") + "\n"
    }

    /// The ``textTree``.
    public var description: String { textTree }

    func node(for key: ServiceKey) -> Node? { nodes.first { $0.key == key } }

    /// The nodes no other node depends on, in registration order.
    private var roots: [ServiceKey] {
        let dependedOn = Set(nodes.flatMap(\.dependencies))
        return nodes.map(\.key).filter { !dependedOn.contains($0) }
    }

    /// `text` as a DOT string: quoted, with quotes and backslashes escaped.
    private func quoted(_ text: some CustomStringConvertible) -> String {
        var quoted = "\""
        for character in text.description {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}

/// Writes a ``DependencyGraph`` as a text tree.
private struct TreeWriter {
    let graph: DependencyGraph
    var lines: [String] = []
    private var written: Set<ServiceKey> = []
    private var writing: [ServiceKey] = []

    init(graph: DependencyGraph) {
        self.graph = graph
    }

    func hasWritten(_ key: ServiceKey) -> Bool { written.contains(key) }

    mutating func write(_ key: ServiceKey, prefix: String, childPrefix: String) {
        guard let node = graph.node(for: key) else {
            lines.append(prefix + "\(key) (not registered)")
            return
        }
        if writing.contains(key) {
            lines.append(prefix + node.label + " (cycle)")
            return
        }
        if written.contains(key), !node.dependencies.isEmpty {
            lines.append(prefix + node.label + " (see above)")
            return
        }
        lines.append(prefix + node.label)
        written.insert(key)
        writing.append(key)
        for (index, dependency) in node.dependencies.enumerated() {
            let isLast = index == node.dependencies.count - 1
            write(
                dependency,
                prefix: childPrefix + (isLast ? "└─ " : "├─ "),
                childPrefix: childPrefix + (isLast ? "   " : "│  ")
            )
        }
        writing.removeLast()
    }
}
