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

/// A parsed pattern such as "app://notes/:id" or "app://files/*": `scheme://host/segment/…`, each a
/// `Component` (the scheme a literal, `*` the last segment only). A trailing slash is ignored; a literal
/// segment that starts with ":" is written `%3A`, a literal "*" `%2A`.
struct URLPattern: Sendable, Hashable, CustomStringConvertible {
    /// One component of a pattern: the scheme, the host, or a path segment.
    enum Component: Sendable, Hashable {
        /// Text that must be equal: lowercased for the scheme and host, percent-decoded for all.
        case literal(String)
        /// `:name`, matching any one non-empty component and capturing it under `name`.
        case placeholder(String)
        /// `*`, matching one or more remaining path segments, captured under "*".
        case wildcard
    }

    /// How specific a pattern is; of two patterns that match one URL, the greater wins.
    ///
    /// More literal components win; with as many literals, more placeholders win (so a placeholder beats
    /// `*`). Equal specificities are a tie, which matching reports as ambiguous.
    struct Specificity: Sendable, Hashable, Comparable {
        /// The number of literal components, the scheme included.
        let literals: Int
        /// The number of placeholder components, the host included.
        let placeholders: Int

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.literals, lhs.placeholders) < (rhs.literals, rhs.placeholders)
        }
    }

    /// The pattern as given.
    let text: String
    /// The scheme, the host, then the path segments, in order.
    let components: [Component]

    var description: String { text }

    /// The pattern with its placeholders' names left out: two patterns of one shape match the same
    /// URLs equally, which validation reports.
    var shape: [String] {
        components.map { component in
            switch component {
            case .literal(let text): "=" + text
            case .placeholder: ":"
            case .wildcard: "*"
            }
        }
    }

    /// How specific this pattern is; see ``Specificity``.
    var specificity: Specificity {
        var literals = 0
        var placeholders = 0
        for component in components {
            switch component {
            case .literal: literals += 1
            case .placeholder: placeholders += 1
            case .wildcard: break
            }
        }
        return Specificity(literals: literals, placeholders: placeholders)
    }
}
