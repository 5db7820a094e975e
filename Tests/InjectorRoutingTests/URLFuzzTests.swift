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
import Testing

@testable import InjectorRouting

/// Bounded, deterministic fuzzing of URL matching and pattern parsing against an independent reference.
///
/// Every input either matches, and the match is the one a naive reference finds by scanning all
/// patterns with Foundation's percent-decoding, or is refused with a message that quotes the input.
struct URLFuzzTests {
    @Test func randomAndMutatedURLsMatchLikeTheReferenceOrAreRefusedWithTheirText() throws {
        var random = SplitMix64(seed: 0x5EED_0F_0042)
        let texts = fuzzPatterns
        let trie = try makeTrie(texts)
        let reference = texts.map(ReferencePattern.init)
        var outcomes: [URLRoutingFailure.Kind?: Int] = [:]
        for _ in 0..<3_000 {
            let url = randomURL(patterns: reference, using: &random)
            switch Result(catching: { () throws(URLRoutingFailure) in try trie.match(url) }) {
            case .success(let match):
                outcomes[nil, default: 0] += 1
                let best = try #require(bestReferenceMatches(url, reference), "\(url)")
                #expect(best.count == 1, "\(url)")
                #expect(match.pattern.text == best.first?.pattern.text, "\(url)")
                #expect(match.value == match.pattern.text)
                #expect(match.parameters == best.first?.parameters, "\(url)")
            case .failure(let failure):
                outcomes[failure.kind, default: 0] += 1
                #expect(contains(failure.message, "\"\(url)\""), "\(failure.message)")
                let best = failure.kind == .malformedURL ? nil : bestReferenceMatches(url, reference)
                if failure.kind == .unmatched { #expect(best?.isEmpty == true, "\(url)") }
                if failure.kind == .ambiguous {
                    #expect((best?.count ?? 0) > 1, "\(url)")
                    for tied in best ?? [] { #expect(contains(failure.message, "\"\(tied.pattern.text)\""), "\(url)") }
                }
            }
        }
        // The generator reaches every outcome, so none of the checks above is vacuous.
        #expect(outcomes.count == 4 && outcomes.values.allSatisfy { $0 >= 20 }, "\(outcomes)")
    }

    @Test func randomAndMutatedPatternsParseConsistentlyOrAreRefusedWithTheirText() {
        var random = SplitMix64(seed: 0xFACE_FEED)
        var accepted = 0
        for _ in 0..<5_000 {
            let text = randomPattern(using: &random)
            switch Result(catching: { () throws(URLRoutingFailure) in try URLPattern(text) }) {
            case .success(let pattern):
                accepted += 1
                #expect(pattern.text == text && pattern.description == text)
                #expect(pattern.components == ReferencePattern(text).components, "\(text)")
                // A URL spelled from the pattern's own components matches it.
                var trie = URLTrie<Int>()
                trie.insert(pattern, value: 1)
                let url = ReferencePattern(text).exampleURL()
                #expect((try? trie.match(url).pattern) == pattern, "\(text) -> \(url)")
            case .failure(let failure):
                #expect(failure.kind == .malformedPattern)
                #expect(contains(failure.message, "\"\(text)\""), "\(failure.message)")
            }
        }
        #expect(accepted > 500 && accepted < 4_500, "\(accepted)")
    }
}

/// Whether `text` contains `part`, compared as UTF-8 bytes so that grapheme clustering cannot interfere.
private func contains(_ text: String, _ part: String) -> Bool {
    Array(text.utf8).contains(Array(part.utf8))
}

/// About sixty patterns over two schemes and five hosts, with equal-shape pairs that tie.
private let fuzzPatterns: [String] = {
    let shapes = ["", "/new", "/:id", "/:id/edit", "/*", "/:id/*", "/a/:b/c"]
    var texts: [String] = []
    for scheme in ["app", "Web"] {
        for host in ["notes", "Files", "caf%C3%A9", "x"] {
            texts += shapes.map { "\(scheme)://\(host)\($0)" }
        }
    }
    return texts + [
        "app://:tenant/settings", "app://:tenant/new", "app://a/:x/c", "app://a/b/:y", "app://notes/:other",
        "app://notes/x%2Fy/:z",
    ]
}()

/// SplitMix64: a tiny, fast, deterministic generator, so every run fuzzes the same inputs.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
