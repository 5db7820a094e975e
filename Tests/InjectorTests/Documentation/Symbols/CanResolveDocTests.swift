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

// The snippet of Resolving.canResolve(_:name:argumentTypes:)'s doc comment (Resolving.swift), with
// the types it assumes, and what a factory's resolver answers: the same as the resolve it would
// make, in its resolution's scope, never for a resolver kept past its resolution.

private protocol Exporter {}
private struct PDFExporter: Exporter {}
private protocol SpellChecker: Sendable {}
private struct EnglishSpelling: SpellChecker {}
private final class NoteStore: Sendable {}
private protocol Editor { var spelling: SpellChecker? { get } }
private struct NoteEditor: Editor {
    let store: NoteStore
    let spelling: SpellChecker?
}

private final class RequestLog: Sendable {}
private final class Cache: Sendable {}
private struct Answer { let canResolve: Bool }
private final class ResolverBox: @unchecked Sendable { var resolver: Resolver? }

@Suite struct CanResolveDocTests {
    @Test func aFactoryAsksItsResolverWhetherAnOptionalDependencyIsThere() throws {
        let container = Container()
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
        container.register(NoteStore.self, scope: .singleton) { _ in NoteStore() }
        let exports = container.canResolve(Exporter.self, name: "pdf")
        container.register(Editor.self) { r in
            let spelling = r.canResolve(SpellChecker.self) ? try r.resolve(SpellChecker.self) : nil
            return try NoteEditor(store: r.resolve(NoteStore.self), spelling: spelling)
        }

        #expect(exports)
        #expect(try container.resolve(Editor.self).spelling == nil)
        container.register(SpellChecker.self) { _ in EnglishSpelling() }
        #expect(try container.resolve(Editor.self).spelling is EnglishSpelling)
    }

    @Test func aResolverAnswersForAScopedRegistrationAsItsResolutionWouldResolveIt() throws {
        let container = Container()
        container.register(RequestLog.self, scope: .scoped) { _ in RequestLog() }
        container.register(Answer.self) { r in Answer(canResolve: r.canResolve(RequestLog.self)) }
        container.register(Cache.self, scope: .singleton) { r in
            #expect(!r.canResolve(RequestLog.self), "a singleton must not hold a scoped instance")
            let captive = #expect(throws: InjectionError.self) { try r.resolve(RequestLog.self) }
            #expect(captive?.code == .captiveDependency)
            #expect(
                captive?.message
                    == "Captive dependency: Cache (.singleton) depends on RequestLog (.scoped), which would then"
                    + " outlive its lifetime scope. Path: Cache -> RequestLog. Fix: give Cache a scope no longer"
                    + " than RequestLog's (.scoped or .transient), give RequestLog a longer one, or pass RequestLog to the methods of Cache that use it rather than hold it."
            )
            return Cache()
        }
        let scope = container.makeScope()
        defer { try? scope.close() }

        #expect(try scope.resolve(Answer.self).canResolve)
        #expect(try !container.resolve(Answer.self).canResolve)
        _ = try scope.resolve(Cache.self)
    }

    @Test func aResolverKeptPastItsResolutionResolvesNothing() throws {
        let container = Container()
        let kept = ResolverBox()
        container.register(NoteStore.self) { r in
            kept.resolver = r
            return NoteStore()
        }
        _ = try container.resolve(NoteStore.self)
        let resolver = try #require(kept.resolver)

        #expect(!resolver.canResolve(NoteStore.self))
        #expect(!resolver.canResolveAsync(NoteStore.self))
        let outlived = #expect(throws: InjectionError.self) { try resolver.resolve(NoteStore.self) }
        #expect(outlived?.code == .resolverOutlivedResolution)
        #expect(
            outlived?.message
                == "A Resolver was used to resolve NoteStore after the resolution that handed it out had finished."
                + " A resolver is valid only while its factory or onResolved hook runs. Fix: resolve what is needed"
                + " while the factory runs, or inject Lazy<Service> or ServiceProvider<Service> to resolve it later."
        )
    }

    @Test func aResolverAnswersForAnAsyncRegistrationOnlyInAnAsyncResolution() async throws {
        let container = Container()
        container.register(RequestLog.self) { _ async in RequestLog() }
        container.register(Answer.self, name: "sync") { r in
            Answer(canResolve: r.canResolveAsync(RequestLog.self))
        }
        container.register(Answer.self, name: "async") { r async in
            Answer(canResolve: r.canResolveAsync(RequestLog.self) && !r.canResolve(RequestLog.self))
        }

        #expect(container.canResolveAsync(RequestLog.self))
        #expect(!container.canResolve(RequestLog.self))
        #expect(try await container.resolveAsync(Answer.self, name: "async").canResolve)
        #expect(try !container.resolve(Answer.self, name: "sync").canResolve)
        #expect(try await container.resolveAsync(Answer.self, name: "sync").canResolve)
    }
}
