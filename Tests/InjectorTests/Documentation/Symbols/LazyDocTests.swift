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

// The snippets of Lazy's and ServiceProvider's doc comments (Lazy.swift), with the types they
// assume: a Lazy resolves on first use, once; a ServiceProvider resolves a new instance each time;
// both resolve from where they came from, and fail once their scope is closed.

private protocol Exporter: AnyObject, Sendable {}
private final class PDFExporter: Exporter {}
private final class NoteHandler {
    let exporter: Lazy<Exporter>
    init(exporter: Lazy<Exporter>) { self.exporter = exporter }
}

private final class Shared: Sendable {
    let exporter: Lazy<Exporter>
    init(exporter: Lazy<Exporter>) { self.exporter = exporter }
}

private final class Transaction: Sendable {}
private final class Mailer: Sendable {
    let transactions: ServiceProvider<Transaction>
    init(transactions: ServiceProvider<Transaction>) { self.transactions = transactions }
}

@Suite struct LazyDocTests {
    @Test func aLazyResolvesOnFirstUseThenKeepsTheInstance() throws {
        let container = Container()
        let built = CallCounter()
        container.register(Exporter.self) { _ in
            _ = built.next()
            return PDFExporter()
        }
        container.register(NoteHandler.self) { r in NoteHandler(exporter: try r.resolve(Lazy<Exporter>.self)) }
        let handler = try container.resolve(NoteHandler.self)
        #expect(built.count == 0)

        // later, in the handler:
        let exporter = handler.exporter
        let pdf = try exporter.value  // resolved now; the same instance on every later use
        #expect(built.count == 1)
        #expect(try exporter.value === pdf)
        #expect(built.count == 1)
    }

    @Test func aLazyFromAClosedScopeFails() throws {
        let container = Container()
        container.register(Exporter.self) { _ in PDFExporter() }
        container.register(NoteHandler.self) { r in NoteHandler(exporter: try r.resolve(Lazy<Exporter>.self)) }
        let handler = try container.withScope { scope in try scope.resolve(NoteHandler.self) }
        let error = try #require(injectionError { try handler.exporter.value })
        #expect(error.code == .scopeClosed)
        #expect(
            error.message
                == "A Lazy or ServiceProvider resolved Exporter from an untagged scope after the scope was closed;"
                + " its instances are disposed, and a handle does not keep its scope open. Fix: use the handle only"
                + " while its scope is open, or resolve Exporter before closing the scope."
        )
    }

    @Test func aLazyHandedToASingletonResolvesFromTheContainerNotTheScope() throws {
        let container = Container()
        container.register(Exporter.self) { _ in PDFExporter() }
        container.register(Shared.self, scope: .singleton) { r in Shared(exporter: try r.resolve(Lazy<Exporter>.self)) }
        let shared = try container.withScope { scope in try scope.resolve(Shared.self) }
        #expect(try shared.exporter.value is PDFExporter)  // the scope is closed; the container is not
    }

    @Test func aServiceProviderResolvesANewInstanceEachTime() throws {
        let container = Container()
        container.register(Transaction.self) { _ in Transaction() }
        container.register(Mailer.self, scope: .singleton) { r in
            Mailer(transactions: try r.resolve(ServiceProvider<Transaction>.self))
        }
        let mailer = try container.resolve(Mailer.self)

        // later, in the mailer:
        let transactions = mailer.transactions
        let transaction = try transactions.resolve()
        #expect(try transactions.resolve() !== transaction)
    }
}
