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
/// than read: as Graphviz DOT (``dot``), as a Mermaid flowchart (``mermaid``, which GitHub renders in
/// Markdown) or as a text tree (``textTree``).
///
/// A node is a registration, with its lifetime. An edge of a declared registration is a parameter
/// it declares, there before anything is resolved. An edge of a closure registration is a
/// dependency its factory (or a hook) resolved, as seen by the resolves made so far (every
/// construction of each registration, so a factory that resolves other services for other
/// arguments shows them all) or by ``Container/validate()``, which resolves everything; DOT and
/// Mermaid draw those dashed:
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
        /// Whether it declares its dependencies (a declared registration), rather than being a
        /// closure registration whose dependencies are seen when it is resolved.
        public let isDeclared: Bool
        /// The keys it declares, in parameter order; or, for a closure registration, the keys its
        /// factory and hooks resolved, over every construction so far, in the order they were
        /// first resolved.
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
                lines.append(
                    "    \(quoted(node.key)) -> \(quoted(dependency))\(node.isDeclared ? "" : " [style=dashed]");"
                )
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart, which GitHub renders in a Markdown ` ```mermaid ` block.
    /// A dependency that is not registered is a dashed node.
    public var mermaid: String {
        var lines = ["flowchart LR"]
        var ids: [ServiceKey: String] = [:]
        func id(_ key: ServiceKey, label: String) -> String {
            if let id = ids[key] { return id }
            let id = "n\(ids.count)"
            ids[key] = id
            // Mermaid takes a label's quotes as an entity; it has no other escape.
            let escaped = label.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "#quot;")
            lines.append("    \(id)[\"\(escaped)\"]")
            return id
        }
        for node in nodes { _ = id(node.key, label: node.label) }
        for node in nodes {
            for dependency in node.dependencies {
                let target = ids[dependency] ?? id(dependency, label: "\(dependency) (not registered)")
                if self.node(for: dependency) == nil { lines.append("    style \(target) stroke-dasharray: 4 4") }
                lines.append("    \(ids[node.key]!) \(node.isDeclared ? "-->" : "-.->") \(target)")
            }
        }
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
    /// How deep the tree goes.
    static let maxDepth = 100

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
        // Deeper than a reader follows, and than the recursion's stack may hold: the rest is left out.
        guard writing.count < TreeWriter.maxDepth || node.dependencies.isEmpty else {
            lines.append(childPrefix + "└─ … (deeper than \(TreeWriter.maxDepth) levels: left out)")
            return
        }
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
