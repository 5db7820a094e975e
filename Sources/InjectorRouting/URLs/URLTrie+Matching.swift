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

extension URLTrie {
    /// Finds the most specific pattern that matches `url`, with its value and parameters; throws
    /// `.malformedURL`, `.unmatched` or `.ambiguous`.
    ///
    /// A backtracking search walks the trie one URL component at a time (literal, then placeholder,
    /// then wildcard child) and collects the patterns that end where the URL does. It visits only the
    /// nodes on a path the URL can take, each once: its cost depends on the URL, not on the patterns.
    func match(_ url: String) throws(URLRoutingFailure) -> URLMatch<Value> {
        let parsed = try ParsedURL(url)
        var candidates = Candidates()
        collect(node: 0, depth: 0, url: parsed, into: &candidates)
        guard let winner = candidates.tied.first else { throw unmatched(url, parsed) }
        guard candidates.tied.count == 1 else {
            throw .ambiguous(url, tied: candidates.tied.sorted().map { entries[$0].pattern })
        }
        let entry = entries[winner]
        return URLMatch(value: entry.value, pattern: entry.pattern, parameters: parameters(entry.pattern, parsed))
    }

    /// The most specific entries seen so far during a search.
    private struct Candidates {
        var best: URLPattern.Specificity?
        var tied: [Int] = []

        /// Considers the entries that end at one node (all of one shape, so of one specificity).
        mutating func offer(_ ending: [Int], specificity: URLPattern.Specificity) {
            if let best, specificity < best { return }
            if let best, specificity == best {
                tied += ending
            } else {
                best = specificity
                tied = ending
            }
        }
    }

    /// Collects the patterns below `node` that match the URL's components from `depth` on.
    private func collect(node: Int, depth: Int, url: ParsedURL, into candidates: inout Candidates) {
        guard depth < url.keys.count else {
            offer(node, to: &candidates)
            return
        }
        if let child = nodes[node].literals[url.keys[depth]] {
            collect(node: child, depth: depth + 1, url: url, into: &candidates)
        }
        if let child = nodes[node].placeholder {
            collect(node: child, depth: depth + 1, url: url, into: &candidates)
        }
        if let child = nodes[node].wildcard {
            offer(child, to: &candidates)
        }
    }

    /// Offers the entries that end at `node`.
    private func offer(_ node: Int, to candidates: inout Candidates) {
        let ending = nodes[node].entries
        guard let first = ending.first else { return }
        candidates.offer(ending, specificity: entries[first].specificity)
    }

    /// The query items overlaid with the pattern's placeholders and `*` remainder.
    private func parameters(_ pattern: URLPattern, _ url: ParsedURL) -> [String: String] {
        var parameters = url.query
        for (depth, component) in pattern.components.enumerated() {
            switch component {
            case .literal: continue
            case .placeholder(let name): parameters[name] = url.values[depth]
            case .wildcard: parameters["*"] = url.values[depth...].joined(separator: "/")
            }
        }
        return parameters
    }

    /// The failure for a URL no pattern matches, naming patterns registered for its scheme and host.
    private func unmatched(_ url: String, _ parsed: ParsedURL) -> URLRoutingFailure {
        let scheme = nodes[0].literals[parsed.keys[0]]
        let host = scheme.flatMap { nodes[$0].literals[parsed.keys[1]] }
        let nearMisses = host.map { nodes[$0].nearMisses } ?? []
        return .unmatched(
            url,
            nearMisses: nearMisses.prefix(Self.nearMissLimit).map { entries[$0].pattern },
            more: nearMisses.count > Self.nearMissLimit
        )
    }
}
