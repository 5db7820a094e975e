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

/// The promise that routing to an undeclared protocol does not compile, kept by compiling snippets
/// against the built `InjectorRouting` module.
@Suite struct DeclarationCompileTests {
    /// The folder of the modules this test binary was built with (`.build/<triple>/<configuration>/Modules`).
    private static var modules: URL? {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(
                atPath: candidate.appendingPathComponent("InjectorRouting.swiftmodule").path
            ) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Type-checks `source` against the built modules; returns the compiler's exit status and output.
    private func typeCheck(_ source: String) throws -> (status: Int32, output: String) {
        let modules = try #require(Self.modules, "no Modules folder beside the test binary")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declaration-\(UUID().uuidString).swift"
        )
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // Injector imports the C module of its atomics, whose module map SwiftPM writes beside the modules.
        let atomics = modules.deletingLastPathComponent().appendingPathComponent("InjectorAtomics.build")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, "-I", atomics.path, file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    private static let preamble = """
        import InjectorRouting

        protocol Declared {}
        protocol Undeclared {}

        extension RoutableService where Protocol == any Declared {
            init() { self.init(declaredProtocol: Protocol.self) }
        }

        """

    @Test func routingToADeclaredProtocolCompiles() throws {
        let result = try typeCheck(
            Self.preamble + """
                func route(with router: Router) throws -> any Declared {
                    try router.makeDestination(to: RoutableService<any Declared>())
                }
                """
        )

        #expect(result.status == 0, "\(result.output)")
    }

    @Test func routingToAnUndeclaredProtocolDoesNotCompile() throws {
        let result = try typeCheck(
            Self.preamble + """
                func route(with router: Router) throws -> any Undeclared {
                    try router.makeDestination(to: RoutableService<any Undeclared>())
                }
                """
        )

        #expect(result.status != 0)
        // With one declaration in scope the compiler names the mismatch; with none, the missing argument.
        #expect(
            result.output.contains(
                "error: referencing initializer 'init()' on 'RoutableService' requires the types 'any Undeclared' "
                    + "and 'any Declared' be equivalent"
            ),
            "\(result.output)"
        )
    }

    @Test func routingToAnUndeclaredViewProtocolDoesNotCompile() throws {
        let result = try typeCheck(
            Self.preamble + """
                @MainActor func route(with router: Router, from home: AnyObject) throws {
                    try router.perform(to: RoutableView<any Undeclared>(), path: .push(from: home))
                }
                """
        )

        #expect(result.status != 0)
        #expect(result.output.contains("missing argument for parameter 'declaredProtocol' in call"), "\(result.output)")
    }

    @Test func routingToADeclaredViewProtocolCompiles() throws {
        let result = try typeCheck(
            Self.preamble + """
                protocol DeclaredView: AnyObject {}
                extension RoutableView where Protocol == any DeclaredView {
                    init() { self.init(declaredProtocol: Protocol.self) }
                }
                extension RoutableViewModule where Protocol == any Declared {
                    init() { self.init(declaredProtocol: Protocol.self) }
                }
                @MainActor func route(with router: Router, from home: AnyObject) throws {
                    try router.perform(to: RoutableView<any DeclaredView>(), path: .push(from: home))
                    _ = RoutableViewModule<any Declared>()
                }
                """
        )

        #expect(result.status == 0, "\(result.output)")
    }

    @Test func anUndeclaredViewModuleDoesNotCompile() throws {
        let result = try typeCheck(
            Self.preamble + """
                func declare() {
                    _ = RoutableViewModule<any Undeclared>()
                }
                """
        )

        #expect(result.status != 0)
        #expect(result.output.contains("missing argument for parameter 'declaredProtocol' in call"), "\(result.output)")
    }

    @Test func anUndeclaredModuleDoesNotCompileEither() throws {
        let result = try typeCheck(
            Self.preamble + """
                func route(with router: Router) throws {
                    _ = try router.to(RoutableServiceModule<any Undeclared>()) { _ in 1 }
                }
                """
        )

        #expect(result.status != 0)
        #expect(result.output.contains("missing argument for parameter 'declaredProtocol' in call"), "\(result.output)")
    }
}
