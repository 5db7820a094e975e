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

import Logging
import Synchronization

/// What a request scope is given when the middleware opens it: the request's id and its logger,
/// whose metadata carries the id. Resolved in that scope only (`register(_:providedByScope:)`).
///
/// The request's unit of work enlists here when it is made, so that the middleware, which resolves
/// nothing itself, commits or rolls back the one the handlers used, if they used one.
public final class RequestInfo: Sendable {
    public let id: String
    public let logger: Logger
    private let enlisted = Mutex<UnitOfWork?>(nil)

    public init(id: String, logger: Logger) {
        self.id = id
        self.logger = logger
    }

    /// The unit of work made for this request, if any.
    public var unitOfWork: UnitOfWork? { enlisted.withLock { $0 } }

    /// Records the request's unit of work.
    ///
    /// - Returns: `false` when another one had enlisted already: a second unit of work in one
    ///   request, which the request scope exists to prevent.
    func enlist(_ unitOfWork: UnitOfWork) -> Bool {
        enlisted.withLock { current in
            if let current, current !== unitOfWork { return false }
            current = unitOfWork
            return true
        }
    }
}
