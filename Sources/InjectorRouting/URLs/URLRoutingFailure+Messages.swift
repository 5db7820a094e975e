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

/// The failures of the URL layer, each a full sentence that quotes the pattern or URL, says what is
/// wrong and ends with a "Fix: …" hint.
extension URLRoutingFailure {
    /// A pattern refused at registration: `The URL pattern "…" <problem>. Fix: <fix>.`
    static func malformedPattern(_ pattern: String, problem: String, fix: String) -> Self {
        URLRoutingFailure(kind: .malformedPattern, message: "The URL pattern \"\(pattern)\" \(problem). Fix: \(fix).")
    }

    /// A pattern whose text could not be split into scheme, host and path, or decoded.
    static func malformedPattern(_ pattern: String, _ problem: URLSyntax.Problem) -> Self {
        let (what, fix) = phrases(for: problem, example: "app://notes/:id")
        return .malformedPattern(pattern, problem: what, fix: fix)
    }

    /// A URL refused before matching: `The URL "…" <problem>. Fix: <fix>.`
    static func malformedURL(_ url: String, problem: String, fix: String) -> Self {
        URLRoutingFailure(kind: .malformedURL, message: "The URL \"\(url)\" \(problem). Fix: \(fix).")
    }

    /// A URL whose text could not be split into scheme, host and path, or decoded.
    static func malformedURL(_ url: String, _ problem: URLSyntax.Problem) -> Self {
        let (what, fix) = phrases(for: problem, example: "app://notes/42")
        return .malformedURL(url, problem: what, fix: fix)
    }

    /// No pattern matches `url`; `nearMisses` are patterns registered for its scheme and host.
    static func unmatched(_ url: String, nearMisses: [URLPattern], more: Bool) -> Self {
        var message = "No URL pattern matches the URL \"\(url)\"."
        if !nearMisses.isEmpty {
            let patterns = listed(nearMisses.map { "\"\($0.text)\"" })
            message +=
                more
                ? " Patterns for its scheme and host include \(patterns)."
                : " Patterns for its scheme and host are \(patterns)."
        }
        message += " Fix: register a pattern that matches it, or correct the URL."
        return URLRoutingFailure(kind: .unmatched, message: message)
    }

    /// Several equally specific patterns match `url`; `tied` lists them in insertion order.
    static func ambiguous(_ url: String, tied: [URLPattern]) -> Self {
        let patterns = listed(tied.map { "\"\($0.text)\"" })
        let message =
            "The URL \"\(url)\" matches \(tied.count) equally specific patterns: \(patterns)."
            + " Fix: make one of them more specific (a literal segment beats a placeholder, and a placeholder"
            + " beats \"*\"), or remove all but one."
        return URLRoutingFailure(kind: .ambiguous, message: message)
    }

    /// What is wrong, and how to fix it, for a text that could not be split; `example` is a valid one.
    private static func phrases(for problem: URLSyntax.Problem, example: String) -> (problem: String, fix: String) {
        let shape = "write it as \"scheme://host/path\", for example \"\(example)\""
        switch problem {
        case .whitespaceOrControl(let scalar):
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return (
                "contains the whitespace or control character \(code)",
                "percent-encode it as \(URLSyntax.percentEncoded(scalar))"
            )
        case .missingSeparator:
            return ("has no \"://\" after a scheme", shape)
        case .emptyScheme:
            return ("has an empty scheme before \"://\"", shape)
        case .invalidScheme(let scheme):
            return (
                "has the scheme \"\(scheme)\", which is not a letter followed by letters, digits, \"+\", \"-\" or \".\"",
                "use a literal scheme such as \"app\"; " + shape
            )
        case .emptyHost:
            return ("has an empty host after \"://\"", "name the host; " + shape)
        case .emptySegment:
            return ("has an empty path segment (\"//\")", "remove the extra \"/\"")
        case .tooManySegments(let count):
            return (
                "has \(count) path segments, more than the \(URLSyntax.maximumSegments) supported",
                "shorten the path, or pass long data in a query item"
            )
        case .invalidPercentEncoding(let raw):
            return (
                "has invalid percent-encoding in \"\(raw)\"",
                "write \"%\" followed by two hexadecimal digits of a UTF-8 byte, and a literal \"%\" as %25"
            )
        }
    }
}
