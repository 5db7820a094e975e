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

/// The result of matching a URL: the value registered for the winning pattern and the parameters.
struct URLMatch<Value: Sendable>: Sendable {
    /// The value inserted with ``pattern``.
    let value: Value
    /// The most specific pattern that matches the URL.
    let pattern: URLPattern
    /// Placeholder values and query items, percent-decoded; a path placeholder wins over a query item of the same
    /// name; of repeated query items the last wins; the `*` remainder is under the key "*" (decoded segments joined by "/").
    let parameters: [String: String]
}
