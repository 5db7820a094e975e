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

import Foundation

@testable import InjectorRouting

/// A pattern taken apart the naive way, independently of ``URLPattern``'s parser.
struct ReferencePattern {
    let text: String
    /// The raw components: scheme, host, then path segments, as written.
    let raw: [String]
    /// The parsed components, with Foundation's percent-decoding.
    let components: [URLPattern.Component]

    /// Takes apart a pattern text that ``URLPattern`` accepted.
    init(_ text: String) {
        self.text = text
        let separator = text.unicodeScalars.firstRange(of: "://".unicodeScalars)!
        let scheme = String(text.unicodeScalars[..<separator.lowerBound])
        var parts = splitScalars(Substring(text.unicodeScalars[separator.upperBound...]), on: "/").map(String.init)
        if parts.count > 1, parts.last == "" { parts.removeLast() }
        raw = [scheme] + parts
        components = raw.enumerated().map { index, part in
            if index == 0 { return .literal(part.lowercased()) }
            if part.unicodeScalars.elementsEqual("*".unicodeScalars) { return .wildcard }
            if part.unicodeScalars.first == ":" { return .placeholder(String(part.unicodeScalars.dropFirst())) }
            let decoded = part.removingPercentEncoding ?? "<invalid>"
            return .literal(index == 1 ? decoded.lowercased() : decoded)
        }
    }

    /// The path parameters this pattern captures from `url`'s components, or nil if it does not match.
    func parameters(for url: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, component) in components.enumerated() {
            if case .wildcard = component {
                guard index < url.count else { return nil }
                parameters["*"] = url[index...].joined(separator: "/")
                return parameters
            }
            guard index < url.count else { return nil }
            switch component {
            case .literal(let literal):
                guard literal == (index < 2 ? url[index].lowercased() : url[index]) else { return nil }
            case .placeholder(let name):
                parameters[name] = url[index]
            case .wildcard:
                return nil
            }
        }
        return components.count == url.count ? parameters : nil
    }

    /// A URL spelled from this pattern's components: literals percent-encoded, placeholders "v", `*` "w/w2".
    func exampleURL() -> String {
        let spelled = components.enumerated().map { index, component in
            switch component {
            case .literal(let literal):
                index == 0 ? literal : literal.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            case .placeholder: "v"
            case .wildcard: "w/w2"
            }
        }
        return spelled[0] + "://" + spelled.dropFirst().joined(separator: "/")
    }
}

/// The most specific reference matches of `url` with their parameters (query overlaid by path), or nil
/// if the reference cannot take the URL apart.
func bestReferenceMatches(
    _ url: String,
    _ patterns: [ReferencePattern]
) -> [(pattern: ReferencePattern, parameters: [String: String])]? {
    let beforeFragment = splitScalars(Substring(url), on: "#", maxSplits: 1)[0]
    let parts = splitScalars(beforeFragment, on: "?", maxSplits: 1)
    guard let separator = parts[0].unicodeScalars.firstRange(of: "://".unicodeScalars) else { return nil }
    var path = splitScalars(Substring(parts[0].unicodeScalars[separator.upperBound...]), on: "/")
    if path.count > 1, path.last == "" { path.removeLast() }
    var components = [String(parts[0].unicodeScalars[..<separator.lowerBound])]
    for part in path {
        guard let decoded = part.removingPercentEncoding else { return nil }
        components.append(decoded)
    }
    var query: [String: String] = [:]
    for item in parts.count > 1 ? splitScalars(parts[1], on: "&") : [] where !item.isEmpty {
        let nameAndValue = splitScalars(item, on: "=", maxSplits: 1).map { part in
            String(String.UnicodeScalarView(part.unicodeScalars.map { $0 == "+" ? " " : $0 })).removingPercentEncoding
        }
        guard let name = nameAndValue[0], let value = nameAndValue.count > 1 ? nameAndValue[1] : "" else { return nil }
        if !name.isEmpty { query[name] = value }
    }
    var best: [(pattern: ReferencePattern, parameters: [String: String])] = []
    var bestScore = (-1, -1)
    for pattern in patterns {
        guard let path = pattern.parameters(for: components) else { continue }
        let score = (pattern.components.count { $0.isLiteral }, pattern.components.count { $0.isPlaceholder })
        if score < bestScore { continue }
        if score > bestScore { (best, bestScore) = ([], score) }
        best.append((pattern, query.merging(path) { _, fromPath in fromPath }))
    }
    return best
}

/// Splits on a Unicode scalar (not a Character, so that a following combining mark cannot hide it).
func splitScalars(_ text: Substring, on separator: Unicode.Scalar, maxSplits: Int = .max) -> [Substring] {
    text.unicodeScalars.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: false)
        .map(Substring.init)
}

extension URLPattern.Component {
    fileprivate var isLiteral: Bool { if case .literal = self { true } else { false } }
    fileprivate var isPlaceholder: Bool { if case .placeholder = self { true } else { false } }
}
