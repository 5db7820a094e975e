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
import Hummingbird
import Injector

/// The Hummingbird request context: the core storage, and the request's services, set by the
/// middleware that opens the request's scope.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Where this request's handlers get their services: its lifetime scope, or the hand-wired
    /// equivalent; `nil` outside a scope middleware.
    public var services: (any RequestServices)?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.services = nil
    }

    /// Bodies larger than this are refused with 413 before they are decoded.
    public var maxUploadSize: Int { 64 * 1024 }

    /// ISO 8601 dates, keys in a stable order.
    public var responseEncoder: JSONEncoder { .notes }

    /// The request's notes service.
    public func notes() throws -> NotesService {
        guard let services else {
            throw HTTPError(.internalServerError, message: "The route has no request scope.")
        }
        return try services.notesService()
    }
}

/// Where a request's handlers get their services.
public protocol RequestServices: Sendable {
    func notesService() throws -> NotesService
}

/// The services of a request, resolved from its Injector lifetime scope.
public struct ScopedRequestServices: RequestServices {
    public let scope: LifetimeScope

    public func notesService() throws -> NotesService {
        try scope.resolve(NotesService.self)
    }
}

/// The same services wired by hand, for the load test's comparison: the same objects, built with
/// `init` instead of a container.
public struct HandWiredRequestServices: RequestServices {
    let database: NotesDatabase
    let clock: any NotesClock
    let audit: ScopeAudit
    let request: RequestInfo

    public func notesService() throws -> NotesService {
        let unitOfWork = request.unitOfWork ?? UnitOfWork(database: database, request: request, audit: audit)
        return NotesService(database: database, unitOfWork: unitOfWork, clock: clock, request: request)
    }
}

extension JSONEncoder {
    /// The encoder of every response body: ISO 8601 dates, sorted keys.
    static var notes: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
