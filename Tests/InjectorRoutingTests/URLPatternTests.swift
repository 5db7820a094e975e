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

/// Pins how URL patterns are parsed and which patterns are refused, with what message.
struct URLPatternTests {
    @Test func literalPatternKeepsItsTextAndLowercasesSchemeAndHost() throws {
        let pattern = try URLPattern("APP://Notes/New")
        #expect(pattern.text == "APP://Notes/New")
        #expect(pattern.description == "APP://Notes/New")
        #expect(pattern.components == [.literal("app"), .literal("notes"), .literal("New")])
    }

    @Test func placeholdersAndTrailingWildcardAreParsed() throws {
        let pattern = try URLPattern("app://:tenant/files/:folder_1/*")
        #expect(
            pattern.components == [
                .literal("app"), .placeholder("tenant"), .literal("files"), .placeholder("folder_1"), .wildcard,
            ]
        )
        #expect(pattern.specificity == URLPattern.Specificity(literals: 2, placeholders: 2))
    }

    @Test(arguments: [
        ("app://notes/", "app://notes"),
        ("app://notes/:id/", "app://notes/:id"),
        ("app://notes/*/", "app://notes/*"),
    ])
    func trailingSlashIsIgnored(withSlash: String, without: String) throws {
        #expect(try URLPattern(withSlash).components == URLPattern(without).components)
    }

    @Test func literalSegmentsArePercentDecodedAndEscapeColonAndStar() throws {
        let pattern = try URLPattern("app://files/a%2Fb/%3Aid/%2A/caf%C3%A9")
        #expect(
            pattern.components == [
                .literal("app"), .literal("files"), .literal("a/b"), .literal(":id"), .literal("*"), .literal("café"),
            ]
        )
    }

    @Test func patternsWithEqualTextAreEqualAndHashEqually() throws {
        #expect(try URLPattern("app://notes/:id") == URLPattern("app://notes/:id"))
        #expect(try Set([URLPattern("app://a/:x"), URLPattern("app://a/:x"), URLPattern("app://a/:y")]).count == 2)
    }

    @Test(arguments: [
        (
            "notes/:id",
            #"The URL pattern "notes/:id" has no "://" after a scheme. Fix: write it as "scheme://host/path", for example "app://notes/:id"."#
        ),
        (
            "://notes",
            #"The URL pattern "://notes" has an empty scheme before "://". Fix: write it as "scheme://host/path", for example "app://notes/:id"."#
        ),
        (
            ":app://notes",
            #"The URL pattern ":app://notes" has the scheme ":app", which is not a letter followed by letters, digits, "+", "-" or ".". Fix: use a literal scheme such as "app"; write it as "scheme://host/path", for example "app://notes/:id"."#
        ),
        (
            "app:///notes",
            #"The URL pattern "app:///notes" has an empty host after "://". Fix: name the host; write it as "scheme://host/path", for example "app://notes/:id"."#
        ),
        (
            "app://*/notes",
            #"The URL pattern "app://*/notes" has "*" as its host. Fix: match any host with a placeholder, as in "app://:host/*"."#
        ),
        (
            "app://notes/:",
            #"The URL pattern "app://notes/:" has a ":" without a placeholder name after it. Fix: name the placeholder, as in ":id", or write a literal colon as %3A."#
        ),
        (
            "app://:/x",
            #"The URL pattern "app://:/x" has a ":" without a placeholder name after it. Fix: name the placeholder, as in ":id", or write a literal colon as %3A."#
        ),
        (
            "app://notes/:note-id",
            #"The URL pattern "app://notes/:note-id" has the placeholder ":note-id", whose name is not only letters, digits and "_". Fix: use only ASCII letters, digits and "_" in placeholder names, as in ":note_id"."#
        ),
        (
            "app://notes/:id/:id",
            #"The URL pattern "app://notes/:id/:id" uses the placeholder name "id" twice. Fix: give each placeholder its own name, as in ":id" and ":id2"."#
        ),
        (
            "app://:id/notes/:id",
            #"The URL pattern "app://:id/notes/:id" uses the placeholder name "id" twice. Fix: give each placeholder its own name, as in ":id" and ":id2"."#
        ),
        (
            "app://files/*/edit",
            #"The URL pattern "app://files/*/edit" has "*" before its last segment, but "*" matches the rest of the path. Fix: move "*" to the end, or match one segment with a placeholder such as ":name"."#
        ),
        (
            "app://files/*.txt",
            #"The URL pattern "app://files/*.txt" has the segment "*.txt", which mixes "*" with other text. Fix: write "*" alone as the last segment to match the rest of the path, or a literal star as %2A."#
        ),
        (
            "app://notes//edit",
            #"The URL pattern "app://notes//edit" has an empty path segment ("//"). Fix: remove the extra "/"."#
        ),
        (
            "app://notes//",
            #"The URL pattern "app://notes//" has an empty path segment ("//"). Fix: remove the extra "/"."#
        ),
        (
            "app://notes/:id?tab=info",
            ##"The URL pattern "app://notes/:id?tab=info" has a query or fragment ("?…" or "#…"). Fix: remove it; the query items of a URL reach the parameters without being declared."##
        ),
        (
            "app://notes/:id#top",
            ##"The URL pattern "app://notes/:id#top" has a query or fragment ("?…" or "#…"). Fix: remove it; the query items of a URL reach the parameters without being declared."##
        ),
        (
            "app://notes/a%2",
            #"The URL pattern "app://notes/a%2" has invalid percent-encoding in "a%2". Fix: write "%" followed by two hexadecimal digits of a UTF-8 byte, and a literal "%" as %25."#
        ),
        (
            "app://notes/%FF",
            #"The URL pattern "app://notes/%FF" has invalid percent-encoding in "%FF". Fix: write "%" followed by two hexadecimal digits of a UTF-8 byte, and a literal "%" as %25."#
        ),
        (
            "app://notes/my note",
            #"The URL pattern "app://notes/my note" contains the whitespace or control character U+0020. Fix: percent-encode it as %20."#
        ),
        (
            "app://notes/\u{7}",
            "The URL pattern \"app://notes/\u{7}\" contains the whitespace or control character U+0007. Fix: percent-encode it as %07."
        ),
        (
            "app://notes/\u{A0}",
            "The URL pattern \"app://notes/\u{A0}\" contains the whitespace or control character U+00A0. Fix: percent-encode it as %C2%A0."
        ),
        (
            "app://notes/:\u{301}id",
            "The URL pattern \"app://notes/:\u{301}id\" has the placeholder \":\u{301}id\", whose name is not only letters, digits and \"_\". Fix: use only ASCII letters, digits and \"_\" in placeholder names, as in \":note_id\"."
        ),
        (
            "app://files/*\u{301}",
            "The URL pattern \"app://files/*\u{301}\" has the segment \"*\u{301}\", which mixes \"*\" with other text. Fix: write \"*\" alone as the last segment to match the rest of the path, or a literal star as %2A."
        ),
    ])
    func malformedPatternIsRefusedWithAMessageQuotingIt(text: String, message: String) {
        let failure = #expect(throws: URLRoutingFailure.self) { try URLPattern(text) }
        #expect(failure?.kind == .malformedPattern)
        #expect(failure?.message == message)
    }

    @Test func patternWithMoreThanTheSegmentLimitIsRefused() {
        let text = "app://deep/" + Array(repeating: "s", count: 65).joined(separator: "/")
        let failure = #expect(throws: URLRoutingFailure.self) { try URLPattern(text) }
        #expect(failure?.kind == .malformedPattern)
        #expect(
            failure?.message
                == "The URL pattern \"\(text)\" has 65 path segments, more than the 64 supported."
                + " Fix: shorten the path, or pass long data in a query item."
        )
    }

    @Test func patternWithExactlyTheSegmentLimitIsAccepted() throws {
        let text = "app://deep/" + Array(repeating: "s", count: 64).joined(separator: "/")
        #expect(try URLPattern(text).components.count == 66)
    }
}
