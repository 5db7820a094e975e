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

/// The lexical layer shared by URL patterns and URLs: it splits `scheme://host/path?query#fragment`
/// into raw (still percent-encoded) slices and percent-decodes them.
///
/// Splitting happens before decoding, so an encoded "/" (`%2F`) stays inside its segment. Everything
/// here works on the UTF-8 view and allocates only the segment array and decoded strings that differ
/// from their raw text.
enum URLSyntax {
    /// The most path segments a pattern or URL may have; more is refused rather than searched.
    static let maximumSegments = 64

    /// The raw pieces of `scheme://host/path?query#fragment`.
    struct Pieces {
        /// The text before "://", validated as a scheme.
        var scheme: Substring
        /// The text between "://" and the first "/", "?" or "#"; never empty.
        var host: Substring
        /// The path split on "/", without the leading slash or one trailing slash; never empty slices.
        var segments: [Substring]
        /// The text between "?" and "#", if the text has a "?".
        var query: Substring?
        /// Whether the text has a "#".
        var hasFragment: Bool
    }

    /// Why a text could not be split into pieces, or a piece decoded; pattern and URL messages phrase
    /// it for their reader.
    enum Problem: Error, Equatable {
        case whitespaceOrControl(Unicode.Scalar)
        case missingSeparator
        case emptyScheme
        case invalidScheme(Substring)
        case emptyHost
        case emptySegment
        case tooManySegments(Int)
        case invalidPercentEncoding(Substring)
    }

    /// Splits `text` into its raw pieces.
    ///
    /// The first "://" ends the scheme; the host runs to the first "/", "?" or "#"; the path to the first
    /// "?" or "#"; the query to the first "#". One trailing slash is ignored; any other empty segment, and
    /// more than ``maximumSegments`` segments, is a problem.
    static func split(_ text: String) throws(Problem) -> Pieces {
        if let scalar = firstWhitespaceOrControl(in: text) { throw .whitespaceOrControl(scalar) }
        let utf8 = text.utf8
        guard let separator = firstSeparator(in: utf8) else { throw .missingSeparator }
        let scheme = Substring(utf8[utf8.startIndex..<separator])
        guard !scheme.isEmpty else { throw .emptyScheme }
        guard isValidScheme(scheme) else { throw .invalidScheme(scheme) }

        let afterSeparator = utf8.index(separator, offsetBy: 3)
        let rest = utf8[afterSeparator...]
        let fragmentStart = rest.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        let queryStart = rest[..<fragmentStart].firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = queryStart ?? fragmentStart
        let hostEnd = rest[..<pathEnd].firstIndex(of: UInt8(ascii: "/")) ?? pathEnd
        guard hostEnd > afterSeparator else { throw .emptyHost }

        let segments = try splitPath(utf8[hostEnd..<pathEnd])
        let query = queryStart.map { Substring(utf8[utf8.index(after: $0)..<fragmentStart]) }
        return Pieces(
            scheme: scheme,
            host: Substring(utf8[afterSeparator..<hostEnd]),
            segments: segments,
            query: query,
            hasFragment: fragmentStart != utf8.endIndex
        )
    }

    /// Splits a path that is empty or starts with "/" into its segments.
    ///
    /// "" and "/" have no segments; "//" is an empty segment followed by the ignored trailing slash.
    private static func splitPath(_ path: Substring.UTF8View) throws(Problem) -> [Substring] {
        var body = path.dropFirst()
        guard !body.isEmpty else { return [] }
        if body.last == UInt8(ascii: "/") {
            body = body.dropLast()
            guard !body.isEmpty else { throw .emptySegment }
        }
        var segments: [Substring] = []
        var start = body.startIndex
        while true {
            let end = body[start...].firstIndex(of: UInt8(ascii: "/")) ?? body.endIndex
            guard end > start else { throw .emptySegment }
            guard segments.count < maximumSegments else {
                throw .tooManySegments(body.count(where: { $0 == UInt8(ascii: "/") }) + 1)
            }
            segments.append(Substring(body[start..<end]))
            guard end < body.endIndex else { return segments }
            start = body.index(after: end)
        }
    }

    /// The index of the first "://" in `utf8`, if any.
    private static func firstSeparator(in utf8: String.UTF8View) -> String.Index? {
        var index = utf8.startIndex
        while let colon = utf8[index...].firstIndex(of: UInt8(ascii: ":")) {
            let rest = utf8[utf8.index(after: colon)...]
            if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) { return colon }
            index = utf8.index(after: colon)
        }
        return nil
    }

    /// Whether `scheme` is a letter followed by letters, digits, "+", "-" or ".", all ASCII.
    static func isValidScheme(_ scheme: Substring) -> Bool {
        guard let first = scheme.utf8.first, isASCIILetter(first) else { return false }
        return scheme.utf8.allSatisfy { byte in
            isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// The first whitespace or control character in `text`, if any; ASCII text is checked byte by byte.
    static func firstWhitespaceOrControl(in text: String) -> Unicode.Scalar? {
        var hasNonASCII = false
        for byte in text.utf8 {
            if byte <= 0x20 || byte == 0x7F { return Unicode.Scalar(byte) }
            if byte >= 0x80 { hasNonASCII = true }
        }
        guard hasNonASCII else { return nil }
        return text.unicodeScalars.first { scalar in
            scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
        }
    }
}
