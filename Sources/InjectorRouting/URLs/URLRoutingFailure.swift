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

/// Why a URL or a URL pattern was refused: what the URL layer reports to the router, which turns it
/// into a RoutingError with the code RoutingError/Code/invalidConfiguration.
struct URLRoutingFailure: Error, Sendable, Equatable {
    /// What went wrong.
    enum Kind: Sendable, Equatable {
        /// A pattern given at registration cannot be parsed.
        case malformedPattern
        /// A URL given to perform cannot be parsed.
        case malformedURL
        /// No registered pattern matches the URL.
        case unmatched
        /// Two or more equally specific patterns match the URL.
        case ambiguous
    }

    let kind: Kind
    /// A sentence that quotes the URL or pattern, says what is wrong and how to fix it.
    let message: String
}
