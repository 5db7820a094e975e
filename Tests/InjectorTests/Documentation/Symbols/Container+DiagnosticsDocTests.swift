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
import Testing

// The snippet of Container.setDiagnosticsHandler(_:)'s doc comment (Container+Diagnostics.swift),
// with the logger it assumes: a scope released without being closed, with instances it never
// disposed, is reported to the handler (scopeNotClosed); a child's own handler takes precedence.

private final class Logger: Sendable {
    private let lines = Guarded<[String]>([])
    func warning(_ line: String) { lines.withLock { $0.append(line) } }
    var warnings: [String] { lines.withLock { $0 } }
}

private final class Connection: Disposable, Sendable {
    func dispose() {}
}

/// Makes a scope of `container` that resolves a disposable instance, and releases it unclosed.
private func dropAnUnclosedScope(of container: Container) throws {
    let scope = container.makeScope(tag: "request")
    _ = try scope.resolve(Connection.self)
}

@Suite struct ContainerDiagnosticsDocTests {
    @Test func aScopeDroppedUnclosedIsReportedToTheHandler() throws {
        let container = Container()
        container.register(Connection.self) { _ in Connection() }
        let logger = Logger()

        container.setDiagnosticsHandler { problem in logger.warning("\(problem.message)") }

        try dropAnUnclosedScope(of: container)
        #expect(
            logger.warnings == [
                "The scope \"request\" was released without being closed: 1 disposable instance it owned will never"
                    + " be disposed: Connection. Fix: run the work in container.withScope { … } (withScopeAsync in"
                    + " async code), which closes the scope on every path, or close it on every path yourself"
                    + " (try await scope.closeAsync())."
            ]
        )
    }

    @Test func aChildsScopeGoesToTheParentsHandlerUnlessTheChildHasItsOwn() throws {
        let container = Container()
        container.register(Connection.self) { _ in Connection() }
        let parentLogger = Logger()
        let childLogger = Logger()
        container.setDiagnosticsHandler { problem in parentLogger.warning("\(problem.message)") }
        let child = container.makeChild()
        try dropAnUnclosedScope(of: child)
        #expect(parentLogger.warnings.count == 1)

        child.setDiagnosticsHandler { problem in childLogger.warning("\(problem.message)") }
        try dropAnUnclosedScope(of: child)
        #expect(parentLogger.warnings.count == 1)
        #expect(childLogger.warnings.count == 1)
    }
}
