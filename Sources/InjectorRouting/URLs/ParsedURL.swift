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

/// A URL split and percent-decoded for matching: what ``URLTrie/match(_:)`` walks the trie with.
struct ParsedURL {
    /// The lowercased scheme, the lowercased decoded host, then the decoded path segments: the keys that
    /// literal components are looked up by.
    let keys: [String]
    /// The same components as written (decoded, case kept): the values placeholders capture.
    let values: [String]
    /// The query items, decoded ("+" is a space); of repeated names the last wins.
    let query: [String: String]

    /// Splits and decodes `url` (not its fragment, which is ignored); throws `.malformedURL` when
    /// `URLSyntax` cannot split it or decode one of its pieces.
    init(_ url: String) throws(URLRoutingFailure) {
        do throws(URLSyntax.Problem) {
            let pieces = try URLSyntax.split(url)
            var keys: [String] = []
            var values: [String] = []
            keys.reserveCapacity(pieces.segments.count + 2)
            values.reserveCapacity(pieces.segments.count + 2)
            let scheme = String(pieces.scheme)
            keys.append(scheme.lowercased())
            values.append(scheme)
            let host = try URLSyntax.percentDecoded(pieces.host)
            keys.append(host.lowercased())
            values.append(host)
            for segment in pieces.segments {
                let value = try URLSyntax.percentDecoded(segment)
                keys.append(value)
                values.append(value)
            }
            self.keys = keys
            self.values = values
            self.query = try pieces.query.map { query throws(URLSyntax.Problem) in try Self.items(query) } ?? [:]
        } catch {
            throw .malformedURL(url, error)
        }
    }

    /// The query's items: split on "&", each on its first "="; empty names are skipped, a missing value is "".
    ///
    /// Splitting works on UTF-8 bytes, not Characters, so that a combining mark after "&" or "=" cannot
    /// hide the separator (the fuzz test found that).
    private static func items(_ query: Substring) throws(URLSyntax.Problem) -> [String: String] {
        var items: [String: String] = [:]
        for item in query.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            let name = try URLSyntax.percentDecoded(Substring(item[..<(equals ?? item.endIndex)]), plusIsSpace: true)
            let value = try equals.map { index throws(URLSyntax.Problem) in
                try URLSyntax.percentDecoded(Substring(item[item.index(after: index)...]), plusIsSpace: true)
            }
            if !name.isEmpty { items[name] = value ?? "" }
        }
        return items
    }
}
