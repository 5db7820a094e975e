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

import NotesServerCore
import Testing

@Suite("Command-line options", .timeLimit(.minutes(1)))
struct OptionsTests {
    @Test func defaultsServeOnPort8080FromANewTemporaryDirectory() throws {
        let options = try NotesServerOptions.parse([])
        #expect(options.port == 8080)
        #expect(options.maintenanceInterval == .seconds(30))
        #expect(options.logLevel == .info)
        #expect(options.dataDirectory.contains("notes-server-"))
    }

    @Test func everyOptionIsRead() throws {
        let options = try NotesServerOptions.parse([
            "--data-dir", "/tmp/notes", "--port", "0", "--maintenance-interval", "0.5", "--log-level", "debug",
        ])
        #expect(options.dataDirectory == "/tmp/notes")
        #expect(options.port == 0)
        #expect(options.maintenanceInterval == .milliseconds(500))
        #expect(options.logLevel == .debug)
    }

    @Test(arguments: ["--help", "-h"])
    func helpAsksForTheUsageAlone(_ flag: String) throws {
        let error = try #require(throws: NotesServerOptions.UsageError.self) {
            try NotesServerOptions.parse(["--port", "1", flag])
        }
        #expect(error.isHelp)
        #expect(error.description == NotesServerOptions.usage)
        #expect(error.description.hasPrefix("usage: NotesServer [--data-dir PATH]"))
    }

    @Test(arguments: [
        (["--port"], "--port needs a value"),
        (["--port", "70000"], "bad port 70000"),
        (["--maintenance-interval", "0"], "bad maintenance interval 0"),
        (["--log-level", "loud"], "bad log level loud"),
        (["--verbose", "yes"], "unknown option --verbose"),
    ])
    func badArgumentsSayWhatIsWrongThenTheUsage(_ arguments: [String], _ message: String) throws {
        let error = try #require(throws: NotesServerOptions.UsageError.self) {
            try NotesServerOptions.parse(arguments)
        }
        #expect(!error.isHelp)
        #expect(error.message == message)
        #expect(error.description == message + "\n" + NotesServerOptions.usage)
    }
}
