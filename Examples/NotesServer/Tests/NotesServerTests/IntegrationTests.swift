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

import AsyncHTTPClient
import Foundation
import GRDB
import NIOCore
import NIOHTTP1
import NIOPosix
import NotesServerCore
import Synchronization
import Testing

/// One answer the server gave.
struct Answer: Sendable {
    let kind: String
    let status: Int
    let requestID: String?
    let unitOfWork: Int?
    let body: ByteBuffer
}

/// Sends a request to the live server and collects its answer.
func send(
    _ method: HTTPMethod,
    _ url: String,
    body: String? = nil,
    kind: String,
    timeout: TimeAmount = .seconds(10)
) async throws -> Answer {
    var request = HTTPClientRequest(url: url)
    request.method = method
    if let body {
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: timeout)
    let buffer = try await response.body.collect(upTo: 1 << 20)
    return Answer(
        kind: kind,
        status: Int(response.status.code),
        requestID: response.headers.first(name: "x-request-id"),
        unitOfWork: response.headers.first(name: "x-unit-of-work").flatMap { Int($0) },
        body: buffer
    )
}

/// Sends a request whose body arrives in `parts` (`length` bytes in all), as a slow client does.
func send(
    _ method: HTTPMethod,
    _ url: String,
    streaming parts: AsyncStream<ByteBuffer>,
    length: Int,
    kind: String
) async throws -> Answer {
    var request = HTTPClientRequest(url: url)
    request.method = method
    request.headers.add(name: "content-type", value: "application/json")
    request.body = .stream(parts, length: .known(Int64(length)))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
    return Answer(
        kind: kind,
        status: Int(response.status.code),
        requestID: response.headers.first(name: "x-request-id"),
        unitOfWork: response.headers.first(name: "x-unit-of-work").flatMap { Int($0) },
        body: try await response.body.collect(upTo: 1 << 20)
    )
}

/// Whether a TCP connection to the loopback port is accepted: `false` once the server closed its
/// listening socket.
func acceptsConnections(port: Int) async -> Bool {
    do {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(2))
            .connect(host: "127.0.0.1", port: port)
            .get()
        try? await channel.close()
        return true
    } catch {
        return false
    }
}

/// Waits until `condition` holds, checking every 10 ms; fails after `limit`.
func eventually(
    _ what: String,
    within limit: Duration = .seconds(10),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitedTooLong(what: what, limit: limit) }
        try await Task.sleep(for: .milliseconds(10))
    }
}

struct WaitedTooLong: Error, CustomStringConvertible {
    let what: String
    let limit: Duration
    var description: String { "waited \(limit) for \(what)" }
}

@Suite("The server on a loopback port", .serialized)
struct IntegrationTests {
    static let requestCount = 400
    static let concurrency = 16
    static let seedCount = 10

    @Test(
        "concurrent requests: each scope closed and disposed once, never shared, failures leave nothing",
        .timeLimit(.minutes(1))
    )
    func concurrentRequests() async throws {
        let live = try await LiveServer.start(try makeServer())
        let base = live.baseURL
        // Titles taken before the concurrent part, so that the duplicates' answers do not depend on
        // which request the server saw first.
        let seeds = (0..<Self.seedCount).map { "seed \($0)" }
        for title in seeds {
            let answer = try await send(.POST, "\(base)/notes", body: #"{"title": "\#(title)"}"#, kind: "seed")
            try #require(answer.status == 201)
        }
        let answers = try await withTimeLimit(.seconds(45)) {
            try await withThrowingTaskGroup(of: Answer.self) { group in
                var answers: [Answer] = []
                var next = 0
                func add(_ index: Int) {
                    group.addTask {
                        switch index % 8 {
                        case 0, 1:
                            return try await send(
                                .POST,
                                "\(base)/notes",
                                body: #"{"title": "note \#(index)"}"#,
                                kind: "create"
                            )
                        case 2:
                            // A title already taken: 409, rolled back.
                            return try await send(
                                .POST,
                                "\(base)/notes",
                                body: #"{"title": "seed \#(index % Self.seedCount)"}"#,
                                kind: "duplicate"
                            )
                        case 3:
                            // Two new notes and a taken title: 409, none of the three saved.
                            let body =
                                #"[{"title": "batch \#(index) a"}, {"title": "batch \#(index) b"}, {"title": "seed \#(index % Self.seedCount)"}]"#
                            return try await send(.POST, "\(base)/notes/batch", body: body, kind: "conflicting batch")
                        case 4:
                            return try await send(.POST, "\(base)/notes", body: #"{"title": "#, kind: "malformed")
                        case 5:
                            return try await send(.GET, "\(base)/notes/missing-\(index)", kind: "unknown id")
                        case 6:
                            return try await send(.GET, "\(base)/notes", kind: "list")
                        default:
                            return try await send(
                                .POST,
                                "\(base)/hand/notes",
                                body: #"{"title": "hand \#(index)"}"#,
                                kind: "hand-wired create"
                            )
                        }
                    }
                }
                while next < Self.concurrency {
                    add(next)
                    next += 1
                }
                while let answer = try await group.next() {
                    answers.append(answer)
                    if next < Self.requestCount {
                        add(next)
                        next += 1
                    }
                }
                return answers
            }
        }
        try await live.stop()

        #expect(answers.count == Self.requestCount)
        let audit = live.server.audit
        // Every answer names its request; no two requests share an id or a unit of work.
        let requestIDs = answers.compactMap(\.requestID)
        #expect(requestIDs.count == answers.count)
        #expect(Set(requestIDs).count == requestIDs.count)
        let unitsOfWork = answers.compactMap(\.unitOfWork)
        #expect(Set(unitsOfWork).count == unitsOfWork.count)
        // Every request's scope was closed exactly once, and its unit of work, the one the answer
        // named, disposed exactly once, by that request's scope.
        let records = audit.records
        #expect(records.count == answers.count + seeds.count)
        for answer in answers {
            let record = try #require(records[answer.requestID ?? ""], "no record for a \(answer.kind) request")
            #expect(record.closes == 1, "\(answer.kind) request closed \(record.closes) times")
            if let unitOfWork = answer.unitOfWork {
                #expect(record.unitOfWorkDisposals == [unitOfWork], "\(answer.kind): \(record.unitOfWorkDisposals)")
            } else {
                // An error answer does not name its unit of work; a handler that threw may have made one.
                #expect(record.unitOfWorkDisposals.count <= 1)
            }
        }
        let disposed = records.values.flatMap(\.unitOfWorkDisposals)
        #expect(Set(disposed).count == disposed.count, "a unit of work was disposed by two requests")
        #expect(audit.violations.isEmpty, "\(audit.violations)")
        let totals = audit.snapshot
        #expect(totals.open == 0)
        #expect(totals.closedByFallback == 0)

        // Expected statuses.
        for answer in answers {
            let expected =
                switch answer.kind {
                case "create", "hand-wired create": 201
                case "duplicate", "conflicting batch": 409
                case "malformed": 400
                case "unknown id": 404
                default: 200
                }
            #expect(answer.status == expected, "\(answer.kind): \(answer.status) \(String(buffer: answer.body))")
        }

        // Failed requests left nothing: the database holds exactly the acknowledged notes.
        let acknowledged = Set(seeds).union(
            answers.filter { $0.status == 201 }.compactMap {
                try? JSONDecoder.iso8601.decode(Note.self, from: Data($0.body.readableBytesView)).title
            }
        )
        let stored = try await storedTitles(in: live.server.options.dataDirectory)
        #expect(stored == acknowledged)
        #expect(!stored.contains { $0.hasPrefix("batch") })

        // Shutdown was clean: singletons disposed, dependents first.
        #expect(audit.disposalOrder == ["MaintenanceService", "NotesDatabase"])
    }

    @Test(
        "bodies too large, sent over a socket while the handler reads them: 413 JSON errors, every scope closed, nothing saved",
        .timeLimit(.minutes(1))
    )
    func oversizedBodiesOverASocket() async throws {
        let live = try await LiveServer.start(try makeServer())
        let big = String(repeating: "x", count: 200 * 1024)
        let answers = try await withTimeLimit(.seconds(30)) {
            try await withThrowingTaskGroup(of: Answer.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await send(
                            .POST,
                            "\(live.baseURL)/notes",
                            body: #"{"title": "big \#(index)", "body": "\#(big)"}"#,
                            kind: "oversized"
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let after = try await send(.GET, "\(live.baseURL)/notes", kind: "list")
        try await live.stop()

        for answer in answers {
            #expect(answer.status == 413)
            let error = try JSONDecoder().decode(ErrorBody.self, from: Data(answer.body.readableBytesView)).error
            #expect(error.message == "The request body is larger than 65536 bytes.")
            #expect(error.requestID == answer.requestID)
        }
        #expect(try JSONDecoder.iso8601.decode(NoteList.self, from: Data(after.body.readableBytesView)).notes.isEmpty)
        let audit = live.server.audit
        #expect(audit.snapshot.opened == 9)
        #expect(audit.snapshot.open == 0)
        #expect(audit.snapshot.closedByFallback == 0)
        #expect(audit.records.values.allSatisfy { $0.closes == 1 })
        #expect(audit.violations.isEmpty)
    }

    @Test("a note acknowledged with 201 survives a graceful shutdown and restart", .timeLimit(.minutes(1)))
    func survivesRestart() async throws {
        let directory = NotesServerOptions.temporaryDirectory()
        let first = try await LiveServer.start(try makeServer(dataDirectory: directory))
        let created = try await send(.POST, "\(first.baseURL)/notes", body: #"{"title": "keep me"}"#, kind: "create")
        #expect(created.status == 201)
        let note = try JSONDecoder.iso8601.decode(Note.self, from: Data(created.body.readableBytesView))
        try await first.stop()

        let second = try await LiveServer.start(try makeServer(dataDirectory: directory))
        let fetched = try await send(.GET, "\(second.baseURL)/notes/\(note.id)", kind: "get")
        try await second.stop()
        #expect(fetched.status == 200)
        #expect(try JSONDecoder.iso8601.decode(Note.self, from: Data(fetched.body.readableBytesView)) == note)
    }

    @Test(
        "graceful shutdown waits for a request in flight: its body ends after the server stopped accepting, and it is answered and kept",
        .timeLimit(.minutes(1))
    )
    func inFlightRequestFinishes() async throws {
        let directory = NotesServerOptions.temporaryDirectory()
        let live = try await LiveServer.start(try makeServer(dataDirectory: directory))
        let audit = live.server.audit
        let body = Array(#"{"title": "in flight", "body": "the rest of it arrives during the shutdown"}"#.utf8)
        let (parts, sender) = AsyncStream.makeStream(of: ByteBuffer.self)
        defer { sender.finish() }
        let answer = Task {
            try await send(.POST, "\(live.baseURL)/notes", streaming: parts, length: body.count, kind: "in flight")
        }
        sender.yield(ByteBuffer(bytes: body[..<12]))
        // In flight: the middleware has opened the request's scope, and the handler waits for the body.
        try await eventually("the request's scope opens") { audit.snapshot.opened == 1 }

        let stopping = Task { try await live.stop() }
        try await eventually("the server refuses new connections") { !(await acceptsConnections(port: live.port)) }
        #expect(audit.snapshot.open == 1)
        sender.yield(ByteBuffer(bytes: body[12...]))
        sender.finish()
        let answered = try await answer.value
        try await stopping.value

        #expect(answered.status == 201, "\(String(buffer: answered.body))")
        #expect(audit.snapshot.open == 0)
        #expect(audit.snapshot.closedByFallback == 0)
        #expect(audit.disposalOrder == ["MaintenanceService", "NotesDatabase"])
        #expect(try await storedTitles(in: directory) == ["in flight"])
    }

    /// A server, with `adjust`'s options, and a client that sends it part of a body and then
    /// nothing: a stalled connection, which would keep its request, and a graceful shutdown waiting
    /// for it, open for ever. Returns once the request's scope is open.
    func startStalledRequest(
        in directory: String,
        adjusting adjust: (inout NotesServerOptions) -> Void
    ) async throws -> (LiveServer, Task<Answer, any Error>, AsyncStream<ByteBuffer>.Continuation) {
        let live = try await LiveServer.start(try makeServer(dataDirectory: directory, adjusting: adjust))
        let body = Array(#"{"title": "stalled", "body": "the rest never comes"}"#.utf8)
        let (parts, sender) = AsyncStream.makeStream(of: ByteBuffer.self)
        let answer = Task {
            try await send(.POST, "\(live.baseURL)/notes", streaming: parts, length: body.count, kind: "stalled")
        }
        sender.yield(ByteBuffer(bytes: body[..<12]))
        try await eventually("the request's scope opens") { live.server.audit.snapshot.opened == 1 }
        return (live, answer, sender)
    }

    @Test(
        "a client that stalls mid-body is cut off after the idle timeout: its scope closes, nothing is saved, shutdown goes on",
        .timeLimit(.minutes(1))
    )
    func stalledBodyIsCutOff() async throws {
        let directory = NotesServerOptions.temporaryDirectory()
        let (live, answer, sender) = try await startStalledRequest(in: directory) {
            $0.idleTimeout = .milliseconds(500)
            $0.shutdownGracePeriod = .seconds(60)  // not what ends it
        }
        defer { sender.finish() }
        let audit = live.server.audit
        try await eventually("the idle timeout closes the connection and the scope") { audit.snapshot.open == 0 }
        #expect(audit.snapshot.opened == 1)
        #expect(audit.snapshot.committed == 0)
        _ = try? await answer.value  // the connection was closed under it
        try await withTimeLimit(.seconds(10)) { try await live.stop() }
        #expect(audit.violations.isEmpty)
        #expect(audit.disposalOrder == ["MaintenanceService", "NotesDatabase"])
        #expect(try await storedTitles(in: directory).isEmpty)
    }

    @Test(
        "graceful shutdown waits for a stalled request the grace period at most, then cancels it: its scope closes, nothing is saved",
        .timeLimit(.minutes(1))
    )
    func shutdownGivesUpOnAStalledRequest() async throws {
        let directory = NotesServerOptions.temporaryDirectory()
        let (live, answer, sender) = try await startStalledRequest(in: directory) {
            $0.idleTimeout = nil  // only the grace period can end it
            $0.shutdownGracePeriod = .milliseconds(500)
        }
        defer { sender.finish() }
        let audit = live.server.audit
        let started = ContinuousClock.now
        await live.group.triggerGracefulShutdown()
        // The client never sends the rest, and no idle timeout cuts it off: only the end of the
        // grace period, when the group cancels the server, can end the run.
        let ended = try await withTimeLimit(.seconds(10)) { await live.running.result }
        #expect(ContinuousClock.now - started >= .milliseconds(500), "the group did not wait the grace period")
        // It ends with `CancellationError`, which `NotesServer.run()` logs as a warning: not the
        // cancelled application's own outcome, which is a return or a `CancellationError` by the
        // order its services finish in, but the report of the group `makeServiceGroup` builds
        // (see `CancellationReportingService`) that it had to cancel the application.
        #expect(throws: CancellationError.self) { try ended.get() }
        // The request was cancelled, not left behind: its handler, a task of the server's, ended
        // before the server's run did, and closed the request's scope itself.
        #expect(audit.snapshot.opened == 1)
        #expect(audit.snapshot.open == 0)
        #expect(audit.snapshot.closedByFallback == 0)
        #expect(audit.snapshot.committed == 0)
        try await live.server.container.shutdownAsync()
        let answered = try? await answer.value
        #expect(answered?.status != 201)
        #expect(audit.violations.isEmpty)
        #expect(try await storedTitles(in: directory).isEmpty)
    }

    @Test(
        "a malformed chunked body is a 400, not the server's failure: the connection closes, no scope is left open, nothing is saved",
        .timeLimit(.minutes(1))
    )
    func malformedChunkedBody() async throws {
        let directory = NotesServerOptions.temporaryDirectory()
        let live = try await LiveServer.start(try makeServer(dataDirectory: directory))
        let audit = live.server.audit
        let request =
            "POST /notes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"tit\r\nZZ\r\nle\": \"x\"}\r\n0\r\n\r\n"
        let answer = try await exchange(request, port: live.port)
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
        try await eventually("the request's scope closes") { audit.snapshot.open == 0 }
        try await live.stop()
        #expect(audit.snapshot.committed == 0)
        #expect(audit.violations.isEmpty)
        #expect(try await storedTitles(in: directory).isEmpty)
    }

    @Test(
        "graceful shutdown under load: in-flight requests finish, every acknowledged note is kept",
        .timeLimit(.minutes(1))
    )
    func shutdownUnderLoad() async throws {
        let directory = NotesServerOptions.temporaryDirectory()
        let live = try await LiveServer.start(try makeServer(dataDirectory: directory))
        let base = live.baseURL
        let acknowledged = TitleSet()
        try await withTimeLimit(.seconds(40)) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for index in 0..<50 {
                            let title = "w\(worker) n\(index)"
                            guard
                                let answer = try? await send(
                                    .POST,
                                    "\(base)/notes",
                                    body: #"{"title": "\#(title)"}"#,
                                    kind: "create",
                                    timeout: .seconds(2)  // a stopped server is retried until then
                                )
                            else { return }  // the server stopped accepting
                            if answer.status == 201 { acknowledged.insert(title) }
                        }
                    }
                }
                // Shut down while the workers are sending.
                try await Task.sleep(for: .milliseconds(150))
                try await live.stop()
                try await group.waitForAll()
            }
        }
        let totals = live.server.audit.snapshot
        #expect(totals.open == 0)
        #expect(totals.closedByFallback == 0)
        #expect(live.server.audit.violations.isEmpty)
        let kept = try await storedTitles(in: directory)
        let sent = acknowledged.titles
        #expect(!sent.isEmpty)
        #expect(sent.isSubset(of: kept), "lost: \(sent.subtracting(kept))")
    }
}

/// The titles in the database of a stopped server.
/// Sends `request` as it is (bytes an HTTP client would not send) on a new connection to
/// 127.0.0.1:`port`, and returns what comes back until the server closes it (or 5 s of silence).
func exchange(_ request: String, port: Int) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(
                with: Result {
                    let socket = try Socket(port: port)
                    defer { close(socket.descriptor) }
                    return socket.exchange(Array(request.utf8))
                }
            )
        }.start()
    }
}

/// A blocking TCP connection, for `exchange`.
private struct Socket {
    struct ConnectionFailed: Error { let errno: Int32 }
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(descriptor)
            throw ConnectionFailed(errno: errno)
        }
    }

    func exchange(_ bytes: [UInt8]) -> String {
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = recv(descriptor, &buffer, buffer.count, 0), count > 0 {
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

func storedTitles(in directory: String) async throws -> Set<String> {
    let queue = try DatabaseQueue(path: URL(fileURLWithPath: directory).appendingPathComponent("notes.sqlite").path)
    defer { try? queue.close() }
    return try await queue.read { db in Set(try String.fetchAll(db, sql: "SELECT title FROM note")) }
}

extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// Titles collected from concurrent tasks.
final class TitleSet: Sendable {
    private let storage = Mutex<Set<String>>([])
    func insert(_ title: String) { storage.withLock { _ = $0.insert(title) } }
    var titles: Set<String> { storage.withLock { $0 } }
}
