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

// Interim: a linear matcher with the URL layer's contract, replaced by the trie being built beside it.

struct URLPattern: Sendable, Hashable, CustomStringConvertible {
    let text: String
    let parts: [String]
    init(_ text: String) throws(URLRoutingFailure) {
        guard let range = text.range(of: "://") else {
            throw URLRoutingFailure(kind: .malformedPattern, message: "The URL pattern \"\(text)\" has no \"://\".")
        }
        self.text = text
        parts = [String(text[..<range.lowerBound])] + text[range.upperBound...].split(separator: "/").map(String.init)
    }
    var description: String { text }
}

struct URLMatch<Value: Sendable>: Sendable {
    let value: Value
    let pattern: URLPattern
    let parameters: [String: String]
}

struct URLTrie<Value: Sendable>: Sendable {
    private var entries: [(URLPattern, Value)] = []
    init() {}
    var isEmpty: Bool { entries.isEmpty }
    mutating func insert(_ pattern: URLPattern, value: Value) { entries.append((pattern, value)) }
    func match(_ url: String) throws(URLRoutingFailure) -> URLMatch<Value> {
        guard let range = url.range(of: "://") else {
            throw URLRoutingFailure(kind: .malformedURL, message: "The URL \"\(url)\" has no \"://\".")
        }
        let parts = [String(url[..<range.lowerBound])] + url[range.upperBound...].split(separator: "/").map(String.init)
        for (pattern, value) in entries where pattern.parts.count == parts.count {
            var parameters: [String: String] = [:]
            var matched = true
            for (p, u) in zip(pattern.parts, parts) {
                if p.hasPrefix(":") { parameters[String(p.dropFirst())] = u } else if p != u { matched = false }
            }
            if matched { return URLMatch(value: value, pattern: pattern, parameters: parameters) }
        }
        throw URLRoutingFailure(kind: .unmatched, message: "No route matches the URL \"\(url)\".")
    }
}
