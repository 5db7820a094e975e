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

import Injector
import Swinject

// J. The server example's request (Examples/NotesServer), without HTTP or a database: a scope
// tagged `request` is given the request's info, a transient service is resolved in it with four
// dependencies (two singletons, the request's scoped unit of work, the request's info), the unit of
// work has three (a singleton, the info, an instance registered at start-up), and the close disposes
// the unit of work. Case H's shape is smaller; this one runs every kind of step a request of the
// example runs, and a specialisation per service type as it does, so that an engine change can be
// measured on it (instructions, footprint, cold misses) without a release build of the server.

final class ServerAudit: Sendable {}
protocol ServerClock: Sendable {}
final class ServerClockImpl: ServerClock {}
final class ServerDatabase: Sendable {
    let audit: ServerAudit
    init(audit: ServerAudit) { self.audit = audit }
}
final class ServerRequestInfo: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
final class ServerUnitOfWork: Disposable, @unchecked Sendable {  // written by its request alone
    let database: ServerDatabase
    let request: ServerRequestInfo
    let audit: ServerAudit
    private(set) var isDisposed = false
    init(database: ServerDatabase, request: ServerRequestInfo, audit: ServerAudit) {
        self.database = database
        self.request = request
        self.audit = audit
    }
    func dispose() { isDisposed = true }
}
final class ServerNotesService {
    let database: ServerDatabase
    let unitOfWork: ServerUnitOfWork
    let clock: any ServerClock
    let request: ServerRequestInfo
    init(database: ServerDatabase, unitOfWork: ServerUnitOfWork, clock: any ServerClock, request: ServerRequestInfo) {
        self.database = database
        self.unitOfWork = unitOfWork
        self.clock = clock
        self.request = request
    }
}

extension ScopeTag {
    static let benchmarkRequest: ScopeTag = "request"
}

/// What the hand-wired server keeps from start-up: its singletons.
final class DirectServer: Sendable {
    let audit = ServerAudit()
    let clock: any ServerClock = ServerClockImpl()
    let database: ServerDatabase
    init() { database = ServerDatabase(audit: audit) }
}

/// Direct construction: what the example's hand-wired middleware and services do for a request
/// (`HandWiredRequestServices`). Out of line, the service returned, so the optimiser can neither
/// delete the work nor keep the objects on the stack.
@inline(never)
func serveRequestDirectly(_ server: DirectServer, id: Int) -> ServerNotesService {
    let request = ServerRequestInfo(id: id)
    let unitOfWork = ServerUnitOfWork(database: server.database, request: request, audit: server.audit)
    defer { unitOfWork.dispose() }
    return ServerNotesService(database: server.database, unitOfWork: unitOfWork, clock: server.clock, request: request)
}

/// Closure wiring: a closure for the unit of work and one for the service, given the request.
struct ClosureWiredServer {
    var makeUnitOfWork: (ServerRequestInfo) -> ServerUnitOfWork
    var makeService: (ServerUnitOfWork, ServerRequestInfo) -> ServerNotesService

    func serve(id: Int) -> ServerNotesService {
        let request = ServerRequestInfo(id: id)
        let unitOfWork = makeUnitOfWork(request)
        defer { unitOfWork.dispose() }
        return makeService(unitOfWork, request)
    }
}

@inline(never)
func makeClosureWiredServer() -> ClosureWiredServer {
    let server = DirectServer()
    return ClosureWiredServer(
        makeUnitOfWork: { ServerUnitOfWork(database: server.database, request: $0, audit: server.audit) },
        makeService: {
            ServerNotesService(database: server.database, unitOfWork: $0, clock: server.clock, request: $1)
        }
    )
}

/// Swinject's answer to a value given to each request: a custom object scope, reset after each
/// request, whose request-info factory reads the request being served.
final class SwinjectCurrentRequest: @unchecked Sendable {  // one thread serves the batch
    var info: ServerRequestInfo?
}

extension ObjectScope {
    static let benchmarkServerRequest = ObjectScope(storageFactory: PermanentStorage.init, description: "request")
}

struct ServerRequestCase: ResolutionCase {
    let id = "J"
    let title = "server request: tagged scope given a value, a service of 4 dependencies, close"

    func makeBatch(for contender: Contender) throws -> Batch {
        switch contender {
        case .injector:
            let container = InjectorContainer()
            container.register(ServerAudit.self, instance: ServerAudit(), ownedBy: .caller)
            container.register((any ServerClock).self, scope: .singleton) { _ in ServerClockImpl() }
            container.register(ServerDatabase.self, scope: .singleton) { r in
                try ServerDatabase(audit: r.resolve(ServerAudit.self))
            }
            container.register(ServerRequestInfo.self, providedByScope: .benchmarkRequest)
            container.register(ServerUnitOfWork.self, scope: .scoped(to: .benchmarkRequest)) { r in
                try ServerUnitOfWork(
                    database: r.resolve(ServerDatabase.self),
                    request: r.resolve(ServerRequestInfo.self),
                    audit: r.resolve(ServerAudit.self)
                )
            }
            container.register(ServerNotesService.self) { r in
                try ServerNotesService(
                    database: r.resolve(ServerDatabase.self),
                    unitOfWork: r.resolve(ServerUnitOfWork.self),
                    clock: r.resolve((any ServerClock).self),
                    request: r.resolve(ServerRequestInfo.self)
                )
            }
            try container.finishRegistration()
            try checkRequests { id in
                let request = ServerRequestInfo(id: id)
                let scope = container.makeScope(tag: .benchmarkRequest) { $0.provide(ServerRequestInfo.self, request) }
                let service = try scope.resolve(ServerNotesService.self)
                try scope.close()
                return service
            }
            return Self.injectorBatch(container)
        case .swinject:
            let container = SwinjectContainer()
            let current = SwinjectCurrentRequest()
            container.register(ServerAudit.self) { _ in ServerAudit() }.inObjectScope(.container)
            container.register((any ServerClock).self) { _ in ServerClockImpl() }.inObjectScope(.container)
            container.register(ServerDatabase.self) { r in
                ServerDatabase(audit: r.resolve(ServerAudit.self)!)
            }.inObjectScope(.container)
            container.register(ServerRequestInfo.self) { _ in current.info! }.inObjectScope(.benchmarkServerRequest)
            container.register(ServerUnitOfWork.self) { r in
                ServerUnitOfWork(
                    database: r.resolve(ServerDatabase.self)!,
                    request: r.resolve(ServerRequestInfo.self)!,
                    audit: r.resolve(ServerAudit.self)!
                )
            }.inObjectScope(.benchmarkServerRequest)
            container.register(ServerNotesService.self) { r in
                ServerNotesService(
                    database: r.resolve(ServerDatabase.self)!,
                    unitOfWork: r.resolve(ServerUnitOfWork.self)!,
                    clock: r.resolve((any ServerClock).self)!,
                    request: r.resolve(ServerRequestInfo.self)!
                )
            }.inObjectScope(.transient)
            try checkRequests { id in
                current.info = ServerRequestInfo(id: id)
                let service = try required(container.resolve(ServerNotesService.self))
                service.unitOfWork.dispose()  // Swinject has no disposal: the request's end does it by hand
                container.resetObjectScope(.benchmarkServerRequest)
                return service
            }
            return Self.swinjectBatch(container, current)
        case .direct:
            let server = DirectServer()
            try checkRequests { serveRequestDirectly(server, id: $0) }
            return Self.directBatch(server)
        case .closureWired:
            let server = makeClosureWiredServer()
            try checkRequests { server.serve(id: $0) }
            return Self.closureWiredBatch(server)
        }
    }

    // One function per contender, so that a profiler can name each batch.

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for id in 0..<iterations {
                let request = ServerRequestInfo(id: id)
                let scope = container.makeScope(tag: .benchmarkRequest) { $0.provide(ServerRequestInfo.self, request) }
                checksum &+= identity(try scope.resolve(ServerNotesService.self))
                try scope.close()
            }
            return checksum
        }
    }

    private static func swinjectBatch(_ container: SwinjectContainer, _ current: SwinjectCurrentRequest) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for id in 0..<iterations {
                current.info = ServerRequestInfo(id: id)
                let service = try required(container.resolve(ServerNotesService.self))
                checksum &+= identity(service)
                service.unitOfWork.dispose()
                container.resetObjectScope(.benchmarkServerRequest)
            }
            return checksum
        }
    }

    private static func directBatch(_ server: DirectServer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for id in 0..<iterations {
                checksum &+= identity(serveRequestDirectly(server, id: id))
            }
            return checksum
        }
    }

    private static func closureWiredBatch(_ server: ClosureWiredServer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for id in 0..<iterations {
                checksum &+= identity(server.serve(id: id))
            }
            return checksum
        }
    }

    /// Checks that a request's service has the request's own info and unit of work, which is
    /// disposed at the request's end, and shares the singletons with the next request.
    private func checkRequests(_ serve: (Int) throws -> ServerNotesService) throws {
        let first = try serve(1)
        try check(first.request.id == 1, "the service has its request's info")
        try check(first.unitOfWork.request === first.request, "the unit of work has its request's info")
        try check(first.unitOfWork.database === first.database, "one database")
        try check(first.unitOfWork.isDisposed, "the request's unit of work is disposed at its end")
        let second = try serve(2)
        try check(second.unitOfWork !== first.unitOfWork, "each request has its own unit of work")
        try check(second.request.id == 2, "each request has its own info")
        try check(second.database === first.database, "the database is a singleton")
        try check(second.clock as AnyObject === first.clock as AnyObject, "the clock is a singleton")
        try check(second.unitOfWork.audit === first.unitOfWork.audit, "the audit is shared")
    }
}
