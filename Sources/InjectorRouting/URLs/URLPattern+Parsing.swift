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

/// Pattern components are classified by their UTF-8 bytes, not their Characters, so that a combining mark
/// cannot turn ":" or "*" into something else.
extension URLPattern {
    /// Parses `text` as a URL pattern; throws `.malformedPattern`, quoting `text` and saying what to
    /// write, for text outside `URLPattern`'s syntax.
    init(_ text: String) throws(URLRoutingFailure) {
        let pieces: URLSyntax.Pieces
        do { pieces = try URLSyntax.split(text) } catch { throw .malformedPattern(text, error) }
        guard pieces.query == nil, !pieces.hasFragment else {
            throw .malformedPattern(
                text,
                problem: "has a query or fragment (\"?…\" or \"#…\")",
                fix: "remove it; the query items of a URL reach the parameters without being declared"
            )
        }
        var components = [Component.literal(pieces.scheme.lowercased())]
        var names: Set<String> = []
        components.append(try Self.host(pieces.host, text: text, names: &names))
        for (offset, segment) in pieces.segments.enumerated() {
            let isLast = offset == pieces.segments.count - 1
            components.append(try Self.segment(segment, isLast: isLast, text: text, names: &names))
        }
        self.text = text
        self.components = components
    }

    /// Parses the host: a `:name` placeholder, or a literal, lowercased.
    private static func host(
        _ raw: Substring,
        text: String,
        names: inout Set<String>
    ) throws(URLRoutingFailure) -> Component {
        if raw.utf8.elementsEqual("*".utf8) {
            throw .malformedPattern(
                text,
                problem: "has \"*\" as its host",
                fix: "match any host with a placeholder, as in \"app://:host/*\""
            )
        }
        if raw.utf8.first == UInt8(ascii: ":") { return try placeholder(raw, text: text, names: &names) }
        return .literal(try decoded(raw, text: text).lowercased())
    }

    /// Parses a path segment: `*` (last only), a `:name` placeholder, or a percent-decoded literal.
    private static func segment(
        _ raw: Substring,
        isLast: Bool,
        text: String,
        names: inout Set<String>
    ) throws(URLRoutingFailure) -> Component {
        if raw.utf8.elementsEqual("*".utf8) {
            guard isLast else {
                throw .malformedPattern(
                    text,
                    problem: "has \"*\" before its last segment, but \"*\" matches the rest of the path",
                    fix: "move \"*\" to the end, or match one segment with a placeholder such as \":name\""
                )
            }
            return .wildcard
        }
        if raw.utf8.first == UInt8(ascii: ":") { return try placeholder(raw, text: text, names: &names) }
        if raw.utf8.contains(UInt8(ascii: "*")) {
            throw .malformedPattern(
                text,
                problem: "has the segment \"\(raw)\", which mixes \"*\" with other text",
                fix: "write \"*\" alone as the last segment to match the rest of the path, or a literal star as %2A"
            )
        }
        return .literal(try decoded(raw, text: text))
    }

    /// Parses `:name`, refusing an empty or invalid name and a name already used in the pattern.
    private static func placeholder(
        _ raw: Substring,
        text: String,
        names: inout Set<String>
    ) throws(URLRoutingFailure) -> Component {
        let name = String(Substring(raw.utf8.dropFirst()))
        guard !name.isEmpty else {
            throw .malformedPattern(
                text,
                problem: "has a \":\" without a placeholder name after it",
                fix: "name the placeholder, as in \":id\", or write a literal colon as %3A"
            )
        }
        let isNameByte = { (byte: UInt8) in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        guard name.utf8.allSatisfy(isNameByte) else {
            throw .malformedPattern(
                text,
                problem: "has the placeholder \"\(raw)\", whose name is not only letters, digits and \"_\"",
                fix: "use only ASCII letters, digits and \"_\" in placeholder names, as in \":note_id\""
            )
        }
        guard names.insert(name).inserted else {
            throw .malformedPattern(
                text,
                problem: "uses the placeholder name \"\(name)\" twice",
                fix: "give each placeholder its own name, as in \":\(name)\" and \":\(name)2\""
            )
        }
        return .placeholder(name)
    }

    /// Percent-decodes a literal component.
    private static func decoded(_ raw: Substring, text: String) throws(URLRoutingFailure) -> String {
        do { return try URLSyntax.percentDecoded(raw) } catch { throw .malformedPattern(text, error) }
    }
}
