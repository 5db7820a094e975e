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

import HTTPTypes
import Hummingbird
import Injector
import Logging
import Synchronization

/// Opens a lifetime scope for each request, gives it the request's info, and closes it once the
/// response has been written: the scope's unit of work commits before the response leaves (a 201
/// means the note is in the database), and is disposed with the scope afterwards.
public struct RequestScopeMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    let container: Container
    let audit: ScopeAudit

    public init(container: Container, audit: ScopeAudit) {
        self.container = container
        self.audit = audit
    }

    public func handle(
        _ request: Request,
        context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let info = RequestInfo(id: context.id, logger: context.logger)
        let scope = container.makeScope(tag: .request) { $0.provide(RequestInfo.self, info) }
        var context = context
        context.services = ScopedRequestServices(scope: scope)
        let lease = ScopeLease(info: info, audit: audit) { try await scope.closeAsync() }
        return try await lease.serve(request, context: context, next: next)
    }
}

/// The same lifecycle without a container, for the load test's comparison: the middleware builds
/// the request's objects itself and disposes the unit of work after the response is written.
public struct HandWiredScopeMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    let database: NotesDatabase
    let clock: any NotesClock
    let audit: ScopeAudit

    public init(database: NotesDatabase, clock: any NotesClock, audit: ScopeAudit) {
        self.database = database
        self.clock = clock
        self.audit = audit
    }

    public func handle(
        _ request: Request,
        context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let info = RequestInfo(id: context.id, logger: context.logger)
        var context = context
        context.services = services(for: info)
        let lease = ScopeLease(info: info, audit: audit) { info.unitOfWork?.dispose() }
        return try await lease.serve(request, context: context, next: next)
    }

    /// The request's services, built with `init`.
    func services(for info: RequestInfo) -> HandWiredRequestServices {
        HandWiredRequestServices(database: database, clock: clock, audit: audit, request: info)
    }
}

/// The hand-wired services inside a request scope that resolves nothing, for the load test's
/// decomposition (`/scope-only/notes`): what opening a scope, giving it the request's info and
/// closing it cost this server, apart from what the resolve costs.
public struct ScopeOnlyMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    let container: Container
    let handWired: HandWiredScopeMiddleware

    public init(container: Container, handWired: HandWiredScopeMiddleware) {
        self.container = container
        self.handWired = handWired
    }

    public func handle(
        _ request: Request,
        context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let info = RequestInfo(id: context.id, logger: context.logger)
        let scope = container.makeScope(tag: .request) { $0.provide(RequestInfo.self, info) }
        var context = context
        context.services = handWired.services(for: info)
        let lease = ScopeLease(info: info, audit: handWired.audit) {
            info.unitOfWork?.dispose()
            try await scope.closeAsync()
        }
        return try await lease.serve(request, context: context, next: next)
    }
}

/// The hand-wired lifecycle after a busy loop of `extraWork` a request, for the load test's
/// calibration routes, which measure what a given amount of work on the handler's path costs this
/// server (`Scripts/compare-load.sh`). A middleware of its own, so the hand-wired routes, the floor
/// the request scopes are measured against, run none of it.
public struct CalibrationMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    let handWired: HandWiredScopeMiddleware
    let extraWork: Duration

    public init(handWired: HandWiredScopeMiddleware, extraWork: Duration) {
        self.handWired = handWired
        self.extraWork = extraWork
    }

    public func handle(
        _ request: Request,
        context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        Self.spin(for: extraWork)
        return try await handWired.handle(request, context: context, next: next)
    }

    /// Keeps the thread busy for `duration`: work that touches no memory, so it stands for CPU
    /// time alone.
    @inline(never)
    static func spin(for duration: Duration) {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {}
    }
}

/// One request's scope, from the middleware to the end of the response body: closed exactly once,
/// when the body has been written, when writing it failed, or when the handler threw. If Hummingbird
/// drops the response without writing it, the lease's deinit closes the scope.
final class ScopeLease: Sendable {
    let info: RequestInfo
    let audit: ScopeAudit
    let closeScope: @Sendable () async throws -> Void
    private let closed = Atomic<Bool>(false)

    init(info: RequestInfo, audit: ScopeAudit, close: @escaping @Sendable () async throws -> Void) {
        self.info = info
        self.audit = audit
        self.closeScope = close
        audit.scopeOpened(info.id)
    }

    // A safety net: `serve` commits or rolls back before it returns the response, so the rollback
    // here only acts on a unit of work `serve` never reached. A response dropped after the commit
    // (its client went away) cannot be undone: the note is stored, as its 201 would have said.
    deinit {
        guard !closed.load(ordering: .acquiring) else { return }
        let (closeScope, audit, info) = (self.closeScope, self.audit, self.info)
        Task {
            info.unitOfWork?.rollback()
            try? await closeScope()
            audit.scopeClosed(info.id, byFallback: true)
        }
    }

    func close() async {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        do {
            try await closeScope()
        } catch {
            audit.violation("closing the scope of request \(info.id) failed: \(error)")
            info.logger.error("closing the request scope failed: \(error)")
        }
        audit.scopeClosed(info.id, byFallback: false)
    }

    func serve(
        _ request: Request,
        context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
            if response.status.code < 400 {
                try await info.unitOfWork?.commit()
            } else {
                info.unitOfWork?.rollback()
            }
        } catch {
            info.unitOfWork?.rollback()
            await close()
            throw error
        }
        response.headers[.requestID] = info.id
        if let unitOfWork = info.unitOfWork {
            response.headers[.unitOfWork] = String(unitOfWork.id)
        }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                await self.close()
                throw error
            }
            await self.close()
        }
        return response
    }
}

extension HTTPField.Name {
    /// The request's id, as its logger's metadata has it.
    public static let requestID = Self("x-request-id")!
    /// The serial number of the request's unit of work, if it made one.
    public static let unitOfWork = Self("x-unit-of-work")!
}
