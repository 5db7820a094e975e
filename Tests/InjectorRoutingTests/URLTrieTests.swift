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

import Testing

@testable import InjectorRouting

/// Pins how a trie matches URLs: parameters, case rules, precedence and every refusal.
struct URLTrieTests {
    @Test func emptyTrieIsEmptyAndMatchesNothing() throws {
        let trie = URLTrie<Int>()
        #expect(trie.isEmpty)
        let failure = #expect(throws: URLRoutingFailure.self) { try trie.match("app://notes") }
        #expect(failure?.kind == .unmatched)
        #expect(try !makeTrie(["app://notes"]).isEmpty)
    }

    @Test(arguments: [
        ("app://notes", "app://notes", [String: String]()),
        ("app://notes/", "app://notes", [:]),
        ("app://notes/new", "app://notes/new", [:]),
        ("app://notes/42", "app://notes/:id", ["id": "42"]),
        ("app://notes/42/", "app://notes/:id", ["id": "42"]),
        ("app://notes/42/edit", "app://notes/:id/edit", ["id": "42"]),
        ("app://notes/7/comments/9", "app://notes/:note/comments/:comment", ["note": "7", "comment": "9"]),
        ("app://files/a", "app://files/*", ["*": "a"]),
        ("app://files/a/b%2Fc/d%20e", "app://files/*", ["*": "a/b/c/d e"]),
        ("app://bob/profile", "app://:user/profile", ["user": "bob"]),
        ("app://Bob/profile", "app://:user/profile", ["user": "Bob"]),
    ])
    func urlMatchesItsPatternWithParameters(url: String, pattern: String, parameters: [String: String]) throws {
        let trie = try makeTrie([
            "app://notes", "app://notes/new", "app://notes/:id", "app://notes/:id/edit",
            "app://notes/:note/comments/:comment", "app://files/*", "app://:user/profile",
        ])
        let match = try trie.match(url)
        #expect(match.value == pattern)
        #expect(match.pattern.text == pattern)
        #expect(match.parameters == parameters)
    }

    @Test func wildcardNeedsAtLeastOneSegment() throws {
        let failure = #expect(throws: URLRoutingFailure.self) { try makeTrie(["app://files/*"]).match("app://files") }
        #expect(failure?.kind == .unmatched)
    }

    @Test(arguments: ["APP://NOTES/42", "App://Notes/42", "app://notes/42"])
    func schemeAndHostAreCaseInsensitive(url: String) throws {
        #expect(try makeTrie(["app://Notes/:id"]).match(url).parameters == ["id": "42"])
    }

    @Test func pathLiteralsAreCaseSensitive() throws {
        let trie = try makeTrie(["app://notes/New"])
        #expect(try trie.match("app://notes/New").value == "app://notes/New")
        let failure = #expect(throws: URLRoutingFailure.self) { try trie.match("app://notes/new") }
        #expect(failure?.kind == .unmatched)
    }

    @Test func percentEncodedSegmentMatchesDecodedLiteral() throws {
        let trie = try makeTrie(["app://notes/caf%C3%A9/a%2Fb"])
        #expect(try trie.match("app://notes/café/a%2Fb").value == "app://notes/caf%C3%A9/a%2Fb")
        #expect(try trie.match("app://notes/caf%c3%a9/a%2fb").value == "app://notes/caf%C3%A9/a%2Fb")
    }

    @Test func queryItemsAreMergedAndPercentDecoded() throws {
        let match = try makeTrie(["app://notes/:id"]).match(
            "app://notes/a%20b?tab=info&q=x+y%2Bz&e=%C3%A9&flag&=skip#top"
        )
        #expect(match.parameters == ["id": "a b", "tab": "info", "q": "x y+z", "e": "é", "flag": ""])
    }

    @Test func pathPlaceholderWinsOverQueryItemOfTheSameName() throws {
        let match = try makeTrie(["app://notes/:id/*"]).match("app://notes/42/a/b?id=7&*=x&tab=info")
        #expect(match.parameters == ["id": "42", "*": "a/b", "tab": "info"])
    }

    @Test func combiningMarkCannotHideAQuerySeparator() throws {
        let match = try makeTrie(["app://notes/:id"]).match("app://notes/1?=\u{301}x&\u{301}q=2")
        #expect(match.parameters == ["id": "1", "\u{301}q": "2"])
    }

    @Test func lastOfRepeatedQueryItemsWins() throws {
        let match = try makeTrie(["app://search"]).match("app://search?q=one&q=two&q=three")
        #expect(match.parameters == ["q": "three"])
    }

    @Test(arguments: [
        (["app://notes/:id", "app://notes/new"], "app://notes/new", "app://notes/new"),
        (["app://notes/*", "app://notes/:id"], "app://notes/42", "app://notes/:id"),
        (["app://notes/*", "app://notes/:id/*"], "app://notes/42/a", "app://notes/:id/*"),
        (["app://:host/a/b", "app://h/:x/*"], "app://h/a/b", "app://:host/a/b"),
        (["app://a/:x/:y", "app://a/b/*"], "app://a/b/c", "app://a/b/*"),
        (["app://a/:x/c", "app://a/*"], "app://a/b/c", "app://a/:x/c"),
    ])
    func moreLiteralsThenMorePlaceholdersWin(patterns: [String], url: String, winner: String) throws {
        #expect(try makeTrie(patterns).match(url).value == winner)
        #expect(try makeTrie(patterns.reversed()).match(url).value == winner)
    }

    @Test func equalLiteralCountsInDifferentPlacesAreAmbiguous() throws {
        let failure = #expect(throws: URLRoutingFailure.self) {
            try makeTrie(["app://a/:x/c", "app://a/b/:y"]).match("app://a/b/c")
        }
        #expect(failure?.kind == .ambiguous)
        #expect(
            failure?.message
                == #"The URL "app://a/b/c" matches 2 equally specific patterns: "app://a/:x/c" and "app://a/b/:y"."#
                + #" Fix: make one of them more specific (a literal segment beats a placeholder, and a placeholder"#
                + #" beats "*"), or remove all but one."#
        )
    }

    @Test func equalShapePatternsAreAmbiguousInInsertionOrder() throws {
        let trie = try makeTrie(["app://notes/:id", "app://notes/new", "APP://notes/:note", "app://notes/:id"])
        #expect(try trie.match("app://notes/new").value == "app://notes/new")
        let failure = #expect(throws: URLRoutingFailure.self) { try trie.match("app://notes/42") }
        #expect(failure?.kind == .ambiguous)
        #expect(
            failure?.message.hasPrefix(
                #"The URL "app://notes/42" matches 3 equally specific patterns: "app://notes/:id", "APP://notes/:note" and "app://notes/:id". Fix: "#
            ) == true
        )
    }

    @Test func unmatchedURLNamesUpToThreeNearMisses() throws {
        let trie = try makeTrie([
            "app://notes/:id", "app://notes/new", "app://files/*", "app://notes/:id/edit", "app://notes/a/b",
        ])
        let failure = #expect(throws: URLRoutingFailure.self) { try trie.match("app://Notes/1/2/3") }
        #expect(failure?.kind == .unmatched)
        #expect(
            failure?.message
                == #"No URL pattern matches the URL "app://Notes/1/2/3". Patterns for its scheme and host include "#
                + #""app://notes/:id", "app://notes/new" and "app://notes/:id/edit". Fix: register a pattern that"#
                + " matches it, or correct the URL."
        )
    }

    @Test func unmatchedURLWithFewNearMissesNamesAllOfThem() throws {
        let failure = #expect(throws: URLRoutingFailure.self) { try makeTrie(["app://notes/new"]).match("app://notes") }
        #expect(
            failure?.message
                == #"No URL pattern matches the URL "app://notes". Patterns for its scheme and host are "app://notes/new"."#
                + " Fix: register a pattern that matches it, or correct the URL."
        )
    }

    @Test(arguments: ["web://notes/1", "app://files/1"])
    func unmatchedURLOfAnotherSchemeOrHostNamesNoNearMiss(url: String) throws {
        let failure = #expect(throws: URLRoutingFailure.self) { try makeTrie(["app://notes/:id"]).match(url) }
        #expect(failure?.kind == .unmatched)
        #expect(
            failure?.message
                == "No URL pattern matches the URL \"\(url)\". Fix: register a pattern that matches it, or correct the URL."
        )
    }

    @Test(arguments: [
        (
            "notes/42",
            #"The URL "notes/42" has no "://" after a scheme. Fix: write it as "scheme://host/path", for example "app://notes/42"."#
        ),
        (
            "app:/notes/42",
            #"The URL "app:/notes/42" has no "://" after a scheme. Fix: write it as "scheme://host/path", for example "app://notes/42"."#
        ),
        (
            "://notes/42",
            #"The URL "://notes/42" has an empty scheme before "://". Fix: write it as "scheme://host/path", for example "app://notes/42"."#
        ),
        (
            "4pp://notes",
            #"The URL "4pp://notes" has the scheme "4pp", which is not a letter followed by letters, digits, "+", "-" or ".". Fix: use a literal scheme such as "app"; write it as "scheme://host/path", for example "app://notes/42"."#
        ),
        (
            "app://",
            #"The URL "app://" has an empty host after "://". Fix: name the host; write it as "scheme://host/path", for example "app://notes/42"."#
        ),
        (
            "app:///42",
            #"The URL "app:///42" has an empty host after "://". Fix: name the host; write it as "scheme://host/path", for example "app://notes/42"."#
        ),
        (
            "app://?q=1",
            #"The URL "app://?q=1" has an empty host after "://". Fix: name the host; write it as "scheme://host/path", for example "app://notes/42"."#
        ),
        ("app://notes//42", #"The URL "app://notes//42" has an empty path segment ("//"). Fix: remove the extra "/"."#),
        (
            "app://notes/42//",
            #"The URL "app://notes/42//" has an empty path segment ("//"). Fix: remove the extra "/"."#
        ),
        (
            "app://notes/4%2",
            #"The URL "app://notes/4%2" has invalid percent-encoding in "4%2". Fix: write "%" followed by two hexadecimal digits of a UTF-8 byte, and a literal "%" as %25."#
        ),
        (
            "app://notes/%zz",
            #"The URL "app://notes/%zz" has invalid percent-encoding in "%zz". Fix: write "%" followed by two hexadecimal digits of a UTF-8 byte, and a literal "%" as %25."#
        ),
        (
            "app://notes/%C3",
            #"The URL "app://notes/%C3" has invalid percent-encoding in "%C3". Fix: write "%" followed by two hexadecimal digits of a UTF-8 byte, and a literal "%" as %25."#
        ),
        (
            "app://no%tes/1",
            #"The URL "app://no%tes/1" has invalid percent-encoding in "no%tes". Fix: write "%" followed by two hexadecimal digits of a UTF-8 byte, and a literal "%" as %25."#
        ),
        (
            "app://notes/1?q=%",
            #"The URL "app://notes/1?q=%" has invalid percent-encoding in "%". Fix: write "%" followed by two hexadecimal digits of a UTF-8 byte, and a literal "%" as %25."#
        ),
        (
            "app://notes/1?%G1=x",
            #"The URL "app://notes/1?%G1=x" has invalid percent-encoding in "%G1". Fix: write "%" followed by two hexadecimal digits of a UTF-8 byte, and a literal "%" as %25."#
        ),
        (
            "app://notes/my note",
            #"The URL "app://notes/my note" contains the whitespace or control character U+0020. Fix: percent-encode it as %20."#
        ),
        (
            " app://notes",
            #"The URL " app://notes" contains the whitespace or control character U+0020. Fix: percent-encode it as %20."#
        ),
        (
            "app://notes/1\n",
            "The URL \"app://notes/1\n\" contains the whitespace or control character U+000A. Fix: percent-encode it as %0A."
        ),
        (
            "app://notes/\t1",
            "The URL \"app://notes/\t1\" contains the whitespace or control character U+0009. Fix: percent-encode it as %09."
        ),
        (
            "app://notes/1\u{0}",
            "The URL \"app://notes/1\u{0}\" contains the whitespace or control character U+0000. Fix: percent-encode it as %00."
        ),
        (
            "app://notes/1\u{7F}",
            "The URL \"app://notes/1\u{7F}\" contains the whitespace or control character U+007F. Fix: percent-encode it as %7F."
        ),
        (
            "app://notes/1\u{85}",
            "The URL \"app://notes/1\u{85}\" contains the whitespace or control character U+0085. Fix: percent-encode it as %C2%85."
        ),
        (
            "app://notes/\u{3000}",
            "The URL \"app://notes/\u{3000}\" contains the whitespace or control character U+3000. Fix: percent-encode it as %E3%80%80."
        ),
    ])
    func malformedURLIsRefusedWithAMessageQuotingIt(url: String, message: String) throws {
        let failure = #expect(throws: URLRoutingFailure.self) { try makeTrie(["app://notes/:id"]).match(url) }
        #expect(failure?.kind == .malformedURL)
        #expect(failure?.message == message)
    }

    @Test func urlWithMoreThanTheSegmentLimitIsRefused() throws {
        let url = "app://files/" + Array(repeating: "a", count: 100).joined(separator: "/")
        let failure = #expect(throws: URLRoutingFailure.self) { try makeTrie(["app://files/*"]).match(url) }
        #expect(failure?.kind == .malformedURL)
        #expect(
            failure?.message
                == "The URL \"\(url)\" has 100 path segments, more than the 64 supported."
                + " Fix: shorten the path, or pass long data in a query item."
        )
    }

    @Test func urlWithExactlyTheSegmentLimitMatches() throws {
        let segments = (1...64).map(String.init)
        let match = try makeTrie(["app://files/*"]).match("app://files/" + segments.joined(separator: "/"))
        #expect(match.parameters == ["*": segments.joined(separator: "/")])
    }

    @Test func fragmentIsIgnored() throws {
        #expect(try makeTrie(["app://notes/:id"]).match("app://notes/1#a%zz?x=1").parameters == ["id": "1"])
    }

    @Test(arguments: [100, 10_000])
    func largeTrieMatchesLikeASmallOne(count: Int) throws {
        var trie = URLTrie<Int>()
        for index in 0..<count {
            trie.insert(try URLPattern("app://h\(index % 10)/p\(index)/:id"), value: index)
            trie.insert(try URLPattern("app://h\(index % 10)/p\(index)/:id/edit"), value: -index)
        }
        trie.insert(try URLPattern("app://h7/p57/new"), value: 1_000_000)
        let match = try trie.match("app://H7/p57/42/edit?mode=fast")
        #expect(match.value == -57)
        #expect(match.pattern.text == "app://h7/p57/:id/edit")
        #expect(match.parameters == ["id": "42", "mode": "fast"])
        #expect(try trie.match("app://h7/p57/new").value == 1_000_000)
        #expect(try trie.match("app://h7/p\(count - 3)/x").value == count - 3)
    }
}
