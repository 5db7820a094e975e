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

import Testing

@testable import Injector

// Asking whether a service is registered, or could be resolved, without building anything.

private protocol QueryExporter: Sendable {}
private struct QueryPDFExporter: QueryExporter {}
private struct QueryNote: Sendable {}
private final class QueryEditor: Sendable {}
private final class QueryPool: Sendable {}
private final class QueryRequest: Sendable {}

struct ContainerQueryTests {
    /// A registration is found by type, name and argument types, in the container or a parent,
    /// and nothing is built to find it.
    @Test func isRegisteredFindsAKeyWithoutBuildingIt() {
        let container = Container()
        let calls = CallCounter()
        container.register((any QueryExporter).self, name: "pdf") { _ in
            calls.next()
            return QueryPDFExporter()
        }
        container.register(QueryEditor.self) { (_, _: QueryNote) in QueryEditor() }
        let child = container.makeChild()

        #expect(container.isRegistered((any QueryExporter).self, name: "pdf"))
        #expect(child.isRegistered((any QueryExporter).self, name: "pdf"))
        #expect(!container.isRegistered((any QueryExporter).self))
        #expect(!container.isRegistered((any QueryExporter).self, name: "markdown"))
        #expect(container.isRegistered(QueryEditor.self, argumentTypes: QueryNote.self))
        #expect(!container.isRegistered(QueryEditor.self))
        #expect(calls.count == 0)
    }

    /// canResolve says whether a resolve would find a usable registration: not a duplicate, not
    /// async for the sync resolve, not scoped from a container.
    @Test func canResolveTellsWhetherAResolveWouldFindAUsableRegistration() {
        let container = Container()
        let calls = CallCounter()
        container.register((any QueryExporter).self) { _ in
            calls.next()
            return QueryPDFExporter()
        }
        container.register(QueryEditor.self) { _ in QueryEditor() }
        container.register(QueryEditor.self) { _ in QueryEditor() }  // a duplicate
        container.register(QueryPool.self, scope: .singleton) { _ in
            await Task.yield()
            return QueryPool()
        }
        container.register(QueryRequest.self, scope: .scoped(to: "request")) { _ in QueryRequest() }

        #expect(container.canResolve((any QueryExporter).self))
        #expect(container.isRegistered(QueryEditor.self))
        #expect(!container.canResolve(QueryEditor.self))
        #expect(!container.canResolve(QueryPool.self))
        #expect(container.canResolveAsync(QueryPool.self))
        #expect(!container.canResolve(QueryRequest.self))
        #expect(!container.canResolve(QueryNote.self))
        #expect(container.canResolve(Optional<any QueryExporter>.self))
        #expect(calls.count == 0)
    }

    /// A scope can resolve the scoped registrations of its tag, and nothing once closed.
    @Test func scopeCanResolveItsOwnScopedRegistrations() throws {
        let container = Container()
        container.register(QueryRequest.self, scope: .scoped(to: "request")) { _ in QueryRequest() }
        let request = container.makeScope(tag: "request")
        let session = container.makeScope(tag: "session")

        #expect(request.canResolve(QueryRequest.self))
        #expect(request.canResolveAsync(QueryRequest.self))
        #expect(!session.canResolve(QueryRequest.self))
        try request.close()
        #expect(!request.canResolve(QueryRequest.self))
    }

    /// Test overrides in effect for the task count.
    @Test func overridesInEffectCount() throws {
        let container = Container()

        let seen = try container.withOverrides { overrides in
            overrides.register((any QueryExporter).self) { _ in QueryPDFExporter() }
        } operation: {
            container.canResolve((any QueryExporter).self)
        }

        #expect(seen)
        #expect(!container.canResolve((any QueryExporter).self))
    }
}
