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
import NIOCore
import NotesServerCore
import Synchronization
import Testing

/// The `NotesServer` executable as users run it, in a process of its own, stopped by a signal as
/// `kill` or Ctrl-C stops it.
@Suite("The NotesServer executable and SIGTERM or SIGINT", .serialized)
struct SignalTests {
    @Test(
        "SIGTERM or SIGINT: the request in flight is answered, the singletons are disposed in reverse completion order, and every acknowledged note is there after a restart",
        .timeLimit(.minutes(1)),
        arguments: [SIGTERM, SIGINT]
    )
    func gracefulShutdown(signal: Int32) async throws {
        let directory = NotesServerOptions.temporaryDirectory()
        let first = try ServerProcess(dataDirectory: directory)
        defer { first.killIfRunning() }
        let base = "http://127.0.0.1:\(try await first.port())"

        let created = try await send(.POST, "\(base)/notes", body: #"{"title": "before the signal"}"#, kind: "create")
        try #require(created.status == 201)

        // A request in flight when the signal comes: its body is not finished yet.
        let body = Array(#"{"title": "in flight at the signal"}"#.utf8)
        let (parts, sender) = AsyncStream.makeStream(of: ByteBuffer.self)
        defer { sender.finish() }
        let inFlight = Task {
            try await send(.POST, "\(base)/notes", streaming: parts, length: body.count, kind: "in flight")
        }
        sender.yield(ByteBuffer(bytes: body[..<10]))
        // The maintenance job logs the open scopes: one open of two opened is the one in flight.
        _ = try await first.line(matching: #/scopes\.open=1 scopes\.opened=2 /#)

        first.signal(signal)
        try await eventually("the server refuses new connections") {
            !(await acceptsConnections(port: try await first.port()))
        }
        sender.yield(ByteBuffer(bytes: body[10...]))
        sender.finish()
        let answered = try await inFlight.value
        #expect(answered.status == 201, "\(String(buffer: answered.body))")

        #expect(try await first.exitStatus() == 0, "\(first.output)")
        let output = first.output
        let steps = [
            "maintenance: stopped",
            "database: final checkpoint",
            "disposed MaintenanceService",
            "disposed NotesDatabase (pool closed)",
            "scopes.open=0 scopes.opened=2 [NotesServerCore] container shut down",
        ]
        let positions = steps.map { output.range(of: $0)?.lowerBound }
        #expect(!positions.contains(nil), "missing from the log:\n\(output)")
        #expect(positions.compactMap(\.self) == positions.compactMap(\.self).sorted(), "out of order:\n\(output)")

        // Started again on the same data directory: both acknowledged notes are there, as they were.
        let second = try ServerProcess(dataDirectory: directory)
        defer { second.killIfRunning() }
        let again = "http://127.0.0.1:\(try await second.port())"
        for answer in [created, answered] {
            let note = try JSONDecoder.iso8601.decode(Note.self, from: Data(answer.body.readableBytesView))
            let fetched = try await send(.GET, "\(again)/notes/\(note.id)", kind: "get")
            #expect(fetched.status == 200)
            #expect(try JSONDecoder.iso8601.decode(Note.self, from: Data(fetched.body.readableBytesView)) == note)
        }
        second.signal(SIGTERM)
        #expect(try await second.exitStatus() == 0, "\(second.output)")
    }
}

/// The `NotesServer` executable running on an ephemeral loopback port, its log collected.
final class ServerProcess {
    private let process: Process
    private let log = LogText()

    init(dataDirectory: String) throws {
        process = Process()
        process.executableURL = try Self.executable()
        // The maintenance job logs the scope counters every 50 ms, which the test reads.
        process.arguments = [
            "--data-dir", dataDirectory, "--port", "0", "--maintenance-interval", "0.05", "--log-level", "info",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [log] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                log.append(String(decoding: data, as: UTF8.self))
            }
        }
        try process.run()
    }

    /// What the server logged so far.
    var output: String { log.text }

    /// The first log line matching `pattern`, waiting up to `limit` for it.
    func line(
        matching pattern: Regex<Substring>,
        within limit: Duration = .seconds(20)
    ) async throws -> Substring {
        var found: Substring?
        try await eventually("a log line matching the pattern", within: limit) {
            found = output.split(separator: "\n").first { $0.contains(pattern) }
            if found == nil && !process.isRunning { throw Exited(output: output) }
            return found != nil
        }
        return found!
    }

    /// The port Hummingbird logs once it listens.
    func port() async throws -> Int {
        let line = try await line(matching: #/listening on 127\.0\.0\.1:\d+/#)
        let port = try #require(line.firstMatch(of: #/127\.0\.0\.1:(\d+)/#).flatMap { Int($0.1) })
        return port
    }

    func signal(_ signal: Int32) {
        _ = kill(process.processIdentifier, signal)
    }

    /// Waits up to `limit` for the process to exit, and returns its status.
    func exitStatus(within limit: Duration = .seconds(20)) async throws -> Int32 {
        try await eventually("the server to exit", within: limit) { !process.isRunning }
        return process.terminationStatus
    }

    /// Ends the process at once if it still runs: a failed test leaves nothing behind.
    func killIfRunning() {
        if process.isRunning { signal(SIGKILL) }
    }

    /// The executable `swift build` puts next to the test bundle.
    static func executable() throws -> URL {
        #if os(Linux)
        let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #else
        let products = Bundle.main.bundleURL.deletingLastPathComponent()
        #endif
        let candidates = [
            products.appendingPathComponent("NotesServer"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/NotesServer"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw MissingExecutable(looked: candidates.map(\.path))
        }
        return found
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        let looked: [String]
        var description: String {
            "NotesServer is not built (looked at \(looked.joined(separator: ", "))): swift build --build-tests"
        }
    }

    struct Exited: Error, CustomStringConvertible {
        let output: String
        var description: String { "the server exited:\n\(output)" }
    }
}

/// Text appended from the pipe's reading thread and read by the test.
final class LogText: Sendable {
    private let storage = Mutex("")
    func append(_ text: String) { storage.withLock { $0 += text } }
    var text: String { storage.withLock { $0 } }
}
