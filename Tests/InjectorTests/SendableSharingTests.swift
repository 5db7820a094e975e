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
import Testing

// Sharing a non-Sendable instance across threads is refused by the compiler: these tests compile
// snippets against the Injector module this test bundle was built with, and read the verdict.

/// The outcome of type-checking `source` against the Injector module: `nil` when it compiles,
/// otherwise the compiler's diagnostics.
private func typeCheck(_ source: String) throws -> String? {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    // …/debug/InjectorPackageTests.xctest (or a test runner beside it): the modules are in …/debug/Modules.
    var directory = bundle.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules").path),
        directory.path != "/"
    {
        directory.deleteLastPathComponent()
    }
    let modules = directory.appendingPathComponent("Modules")
    let snippet = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-\(UUID()).swift")
    try source.write(to: snippet, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: snippet) }

    // Injector imports the C module of its atomics, whose module map SwiftPM writes beside the modules.
    let atomics = directory.appendingPathComponent("InjectorAtomics.build")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, "-I", atomics.path, snippet.path,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let diagnostics = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 ? nil : diagnostics
}

@Suite(.timeLimit(.minutes(1))) struct SendableSharingTests {
    /// A non-Sendable class registered as a singleton (or weak) does not compile, with a
    /// diagnostic that names the type and Sendable.
    @Test(arguments: ["singleton", "weak"])
    func nonSendableSharedServiceDoesNotCompile(scope: String) throws {
        let diagnostics = try typeCheck(
            """
            import Injector
            final class Cache { var entries: [String: String] = [:] }
            let container = Container()
            container.register(Cache.self, scope: .\(scope)) { _ in Cache() }
            """
        )

        let rejected = try #require(diagnostics, "a non-Sendable .\(scope) registration compiled")
        #expect(rejected.contains("type 'Cache' does not conform to the 'Sendable' protocol"), "\(rejected)")
    }

    /// Sendable and main-actor services may be shared; non-Sendable ones may be transient, graph or
    /// scoped; a scope chosen at run time is accepted for Sendable services.
    @Test func sendableMainActorAndUnsharedServicesCompile() throws {
        let diagnostics = try typeCheck(
            """
            import Injector
            final class Cache { var entries: [String: String] = [:] }
            final class Clock: Sendable {}
            @MainActor final class ViewModel { var title = "" }
            let container = Container()
            container.register(Clock.self, scope: .singleton) { _ in Clock() }
            container.register(ViewModel.self, scope: .singleton) { _ in MainActor.assumeIsolated { ViewModel() } }
            container.register(Cache.self) { _ in Cache() }
            container.register(Cache.self, name: "graph", scope: .graph) { _ in Cache() }
            container.register(Cache.self, name: "scoped", scope: .scoped(to: "request")) { _ in Cache() }
            let chosen: Scope = .weak
            container.register(Clock.self, name: "chosen", scope: chosen) { _ in Clock() }
            """
        )

        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }
}
