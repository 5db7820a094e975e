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
import HummingbirdTesting
import Logging
import NIOCore
import NotesServerCore
import ServiceLifecycle
import Testing

/// A server on a new temporary data directory, tracking every request scope.
func makeServer(
    dataDirectory: String? = nil,
    clock: any NotesClock = SystemNotesClock(),
    adjusting adjust: (inout NotesServerOptions) -> Void = { _ in }
) throws -> NotesServer {
    var options = NotesServerOptions(
        dataDirectory: dataDirectory ?? NotesServerOptions.temporaryDirectory(),
        port: 0,
        maintenanceInterval: .milliseconds(100),
        logLevel: .warning
    )
    adjust(&options)
    return try NotesServer(options: options, audit: ScopeAudit(tracksRequests: true), clock: clock)
}

/// Runs `body` against the server's router (no sockets), then shuts the container down.
func withRouterClient<Value: Sendable>(
    _ server: NotesServer,
    _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    let application = try server.makeApplication()
    let value = try await application.test(.router) { client in try await body(client) }
    try await server.container.shutdownAsync()
    return value
}

/// A JSON request body.
func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

let jsonHeaders: HTTPFields = [.contentType: "application/json"]

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(body.readableBytesView))
    }

    var error: ErrorBody.Detail? { try? decode(ErrorBody.self).error }
}

/// A server started on an ephemeral loopback port, under a `ServiceGroup` as in production.
struct LiveServer {
    let server: NotesServer
    let port: Int
    let group: ServiceGroup
    let running: Task<Void, any Error>

    static func start(_ server: NotesServer) async throws -> LiveServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = try server.makeApplication { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        }
        let group = server.makeServiceGroup(running: application, gracefulShutdownSignals: [])
        let running = Task { try await group.run() }
        var port = 0
        for await value in ports {
            port = value
            break
        }
        try #require(port > 0)
        return LiveServer(server: server, port: port, group: group, running: running)
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Graceful shutdown, as SIGTERM does it, then the container's shutdown.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
        try await server.container.shutdownAsync()
    }
}

/// Fails the test if `body` takes longer than `limit`.
func withTimeLimit<Value: Sendable>(
    _ limit: Duration,
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw TimeLimitExceeded(limit: limit)
        }
        group.cancelAll()
        return value
    }
}

struct TimeLimitExceeded: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "the test took longer than \(limit)" }
}
