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

/// A build-then-freeze table from patterns to values; matching reads it without locks.
///
/// The trie has one node per component (scheme, host, path segments); patterns that differ only in
/// placeholder names share nodes. Nodes and entries live in two flat arrays addressed by index, so the
/// trie is a plain value (copy-on-write, `Sendable`) that any number of threads can read.
struct URLTrie<Value: Sendable>: Sendable {
    /// One component of the patterns inserted through it.
    struct Node: Sendable {
        /// Children for literal components, by key (lowercased for scheme and host, decoded for all).
        var literals: [String: Int] = [:]
        /// The child for a `:name` placeholder, whatever its name.
        var placeholder: Int?
        /// The child for `*`; it only ends patterns, it has no children.
        var wildcard: Int?
        /// The entries whose patterns end at this node, in insertion order; all have one shape.
        var entries: [Int] = []
        /// On a literal host node: the first entries inserted for that scheme and host (at most
        /// ``nearMissLimit`` + 1, to know whether there are more), named when a URL matches none.
        var nearMisses: [Int] = []
    }

    /// A pattern with its value and its precomputed specificity.
    struct Entry: Sendable {
        let pattern: URLPattern
        let value: Value
        let specificity: URLPattern.Specificity
    }

    /// How many near misses an unmatched URL's message names at most.
    static var nearMissLimit: Int { 3 }

    /// All nodes; the root, whose literal children are the schemes, is at index 0.
    private(set) var nodes: [Node] = [Node()]
    /// All entries, in insertion order; nodes refer to them by index.
    private(set) var entries: [Entry] = []

    /// An empty trie.
    init() {}

    /// Whether no pattern has been inserted.
    var isEmpty: Bool { entries.isEmpty }

    /// Adds `pattern` with `value`.
    ///
    /// Patterns of equal shape (such as "app://a/:x" and "app://a/:y", or the same pattern twice) may both
    /// be inserted; a URL that both match is reported as ambiguous by ``match(_:)``.
    mutating func insert(_ pattern: URLPattern, value: Value) {
        let entry = entries.count
        entries.append(Entry(pattern: pattern, value: value, specificity: pattern.specificity))
        var node = 0
        for (depth, component) in pattern.components.enumerated() {
            node = child(of: node, for: component)
            if depth == 1, case .literal = component, nodes[node].nearMisses.count <= Self.nearMissLimit {
                nodes[node].nearMisses.append(entry)
            }
        }
        nodes[node].entries.append(entry)
    }

    /// The child of `node` for `component`, created if missing.
    private mutating func child(of node: Int, for component: URLPattern.Component) -> Int {
        let existing: Int? =
            switch component {
            case .literal(let key): nodes[node].literals[key]
            case .placeholder: nodes[node].placeholder
            case .wildcard: nodes[node].wildcard
            }
        if let existing { return existing }
        let created = nodes.count
        nodes.append(Node())
        switch component {
        case .literal(let key): nodes[node].literals[key] = created
        case .placeholder: nodes[node].placeholder = created
        case .wildcard: nodes[node].wildcard = created
        }
        return created
    }
}
