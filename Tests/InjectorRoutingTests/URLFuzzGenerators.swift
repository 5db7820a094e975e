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

@testable import InjectorRouting

/// A URL for the fuzz test: valid for one of `patterns`, mutated, very long, or random.
func randomURL(patterns: [ReferencePattern], using random: inout SplitMix64) -> String {
    let base = validURL(for: patterns.randomElement(using: &random)!, using: &random)
    switch random.next() % 10 {
    case 0..<4:
        return base
    case 4..<7:
        return mutated(base, using: &random)
    case 7:
        return base + String(repeating: "/s", count: Int.random(in: 55...80, using: &random))
    case 8:
        return base + "/" + String(repeating: "ab%20é", count: Int.random(in: 200...1_000, using: &random))
    default:
        return (0..<Int.random(in: 0...12, using: &random)).map { _ in urlPieces.randomElement(using: &random)! }
            .joined()
    }
}

/// A pattern for the fuzz test: pieces that are mostly valid, some of them mutated byte by byte.
func randomPattern(using random: inout SplitMix64) -> String {
    func pick(_ valid: [String], _ invalid: [String]) -> String {
        (random.next() % 100 < 85 ? valid : invalid).randomElement(using: &random)!
    }
    var text = pick(["app", "App", "a+b.c-1", "web"], ["", "1x", ":s", "é"])
    text += pick(["://"], [":/", "//", ""])
    text += pick(["notes", ":host", "H%41", "caf%C3%A9"], ["*", "", ":", "x y", ":h-1", "a%zz"])
    for _ in 0..<Int.random(in: 0...4, using: &random) {
        text += "/"
        text += pick(
            ["a", ":id", ":name", "%41", "é", ":_1", "%3Aid", "%2A", "B", "*"],
            ["", ":", ":a-b", "%2", "x y", "?q", "#f", "*x", "\u{7}"]
        )
    }
    if random.next() % 5 == 0 { text += "/" }
    return random.next() % 4 == 0 ? mutated(text, using: &random) : text
}

/// A URL that `pattern` matches: placeholders and `*` filled from a pool, case and query varied.
private func validURL(for pattern: ReferencePattern, using random: inout SplitMix64) -> String {
    var parts: [String] = []
    for (index, component) in pattern.components.enumerated() {
        switch component {
        case .literal where index < 2:
            parts.append(random.next() % 2 == 0 ? pattern.raw[index] : pattern.raw[index].uppercased())
        case .literal:
            parts.append(pattern.raw[index])
        case .placeholder:
            parts.append(values.randomElement(using: &random)!)
        case .wildcard:
            parts += (0..<Int.random(in: 1...3, using: &random)).map { _ in values.randomElement(using: &random)! }
        }
    }
    var url = parts[0] + "://" + parts.dropFirst().joined(separator: "/")
    if random.next() % 4 == 0 { url += "/" }
    let items = (0..<Int.random(in: 0...3, using: &random)).map { _ in
        "\(["id", "tab", "q", "*", "x+y", ""].randomElement(using: &random)!)=\(values.randomElement(using: &random)!)"
    }
    if !items.isEmpty { url += "?" + items.joined(separator: "&") }
    if random.next() % 5 == 0 { url += "#frag%zz?x" }
    return url
}

/// `text` with one to three byte-level mutations: inserts, deletes, replacements, percent sequences, Unicode.
private func mutated(_ text: String, using random: inout SplitMix64) -> String {
    var bytes = Array(text.utf8)
    for _ in 0..<Int.random(in: 1...3, using: &random) {
        let position = Int.random(in: 0...bytes.count, using: &random)
        switch random.next() % 5 {
        case 0:
            bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
        case 1 where position < bytes.count:
            bytes.remove(at: position)
        case 2 where position < bytes.count:
            bytes[position] = Array(" /%?#&=+:*.-_aZ09\u{0}\t".utf8).randomElement(using: &random)!
        case 3:
            let digits = Array("0123456789abcdefABCDEFgz%".utf8)
            let sequence = [UInt8(ascii: "%")] + (0..<2).map { _ in digits.randomElement(using: &random)! }
            bytes.insert(contentsOf: sequence, at: position)
        default:
            let unicode = ["é", "😀", "\u{301}", "\u{200B}", "\u{3000}", "\u{FFFD}", "ß"].randomElement(using: &random)!
            bytes.insert(contentsOf: Array(unicode.utf8), at: position)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Placeholder values and query values: plain, percent-encoded, "+", Unicode, and ones that hit literals.
private let values = [
    "42", "new", "edit", "a%20b", "x+y", "caf%C3%A9", "é", "😀", "%F0%9F%98%80", "a%2Fb", "%25", "E%CC%81", "Notes",
    "b", "c", "settings",
]

/// Pieces random URLs are made of.
private let urlPieces = [
    "app", "web", "://", ":/", "/", "//", "notes", "NOTES", "x", "?", "#", "&", "=", "%", "%2", "%41", "%C3", "+", " ",
    "é", "\u{0}", ":id", "*", "new", "a",
]
