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
import Injector
import Testing

// The snippet of DependencyGraph's doc comment (DependencyGraph.swift): after validate(), the graph
// shows every registration and the dependencies its factory resolved, as a text tree and as DOT.

private protocol Clock: Sendable {}
private struct SystemClock: Clock {}
private protocol NoteStore {}
private struct FileNoteStore: NoteStore { let clock: any Clock }

@Suite struct DependencyGraphDocTests {
    @Test func afterValidationTheGraphShowsEveryDependency() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
        defer { try? FileManager.default.removeItem(atPath: "graph.dot") }

        try container.validate()
        print(container.dependencyGraph().textTree)
        try container.dependencyGraph().dot.write(toFile: "graph.dot", atomically: true, encoding: .utf8)

        #expect(
            container.dependencyGraph().textTree == """
                NoteStore (transient)
                └─ Clock (singleton)

                """
        )
        #expect(
            container.dependencyGraph().dot == """
                digraph Injector {
                    rankdir=LR;
                    node [shape=box, fontname="Helvetica"];
                    "Clock" [label="Clock (singleton)"];
                    "NoteStore" [label="NoteStore (transient)"];
                    "NoteStore" -> "Clock" [style=dashed];
                }

                """
        )
        #expect(try String(contentsOfFile: "graph.dot", encoding: .utf8) == container.dependencyGraph().dot)
    }
}
