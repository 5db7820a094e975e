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

// Attacks on canResolve/canResolveAsync on every Resolving (container, scope, a factory's
// resolver): each answer is compared with what the resolve it stands for does from the same place.
// The factories resolved here all succeed when their registration is usable, so any difference is
// the query's. Also attacks on the one internal register: every kind of registration, sync and
// async, with arguments, through recursion and cycles.

private final class CraTransient: Sendable {}
private final class CraGraph: Sendable {}
private final class CraSingleton: Sendable {}
private final class CraWeak: Sendable {}
private final class CraScoped: Sendable {}
private final class CraRequestScoped: Sendable {}
private final class CraSessionScoped: Sendable {}
private final class CraAsync: Sendable {}
private final class CraDuplicate: Sendable {}
private final class CraMissing: Sendable {}
private final class CraNamed: Sendable {}
private final class CraWithArgument: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}
private final class CraSharedWithArgument: Sendable {}
private final class CraRequestInfo: Sendable {}
private protocol CraPort: Sendable {}
private final class CraAdapter: CraPort {}
private final class CraCaptor: Sendable {}
private final class CraRoot: Sendable {
    let mismatches: [String]
    init(_ mismatches: [String]) { self.mismatches = mismatches }
}
private struct CraNode: Sendable { let depth: Int }
private final class CraHelper: Sendable {}

/// What a resolver saw during its resolution, kept for the test to check after it.
private final class CraSeen: Sendable {
    private let list = Guarded([String]())
    func add(_ items: [String]) { list.withLock { $0 += items } }
    var mismatches: [String] { list.current }
}

/// How `canResolve` and a resolve of `service` from `resolving` disagree, described; `nil` when the
/// answer is `true` and the resolve succeeds, or `false` and it fails.
private func disagreement<Service>(
    _ resolving: some Resolving,
    _ service: Service.Type,
    name: String? = nil,
    _ label: String
) -> String? {
    let outcome = resolveOutcome { try resolving.resolve(service, name: name) }
    return verdict(label, "canResolve", resolving.canResolve(service, name: name), outcome)
}

/// `disagreement(_:_:name:_:)` for a registration taking one `Int` argument, given `1`.
private func disagreementWithArgument<Service>(
    _ resolving: some Resolving,
    _ service: Service.Type,
    _ label: String
) -> String? {
    let outcome = resolveOutcome { try resolving.resolve(service, arguments: 1) }
    return verdict(label, "canResolve", resolving.canResolve(service, argumentTypes: Int.self), outcome)
}

/// How `canResolveAsync` and an async resolve of `service` disagree, as `disagreement` tells.
private func asyncDisagreement<Service>(
    _ resolving: some Resolving,
    _ service: Service.Type,
    name: String? = nil,
    _ label: String,
    isolation: isolated (any Actor)? = #isolation
) async -> String? {
    let answer = resolving.canResolveAsync(service, name: name)
    let outcome: String?
    do {
        _ = try await resolving.resolveAsync(service, name: name)
        outcome = nil
    } catch {
        outcome = describe(error)
    }
    return verdict(label, "canResolveAsync", answer, outcome)
}

/// What a sync resolve did: `nil` if it returned, else what it threw (see `describe`).
private func resolveOutcome<Service>(_ resolve: () throws -> Service) -> String? {
    do {
        _ = try resolve()
        return nil
    } catch {
        return describe(error)
    }
}

/// An `InjectionError`'s code, or any other error as it prints.
private func describe(_ error: any Error) -> String {
    (error as? InjectionError)?.code.description ?? "\(error)"
}

/// `nil` when `answer`, of `query`, says what the resolve did (`outcome`); otherwise both.
private func verdict(_ label: String, _ query: String, _ answer: Bool, _ outcome: String?) -> String? {
    if answer == (outcome == nil) { return nil }
    let resolve = query == "canResolve" ? "resolve" : "resolveAsync"
    return "\(label): \(query) \(answer), \(resolve) \(outcome.map { "threw \($0)" } ?? "succeeded")"
}

/// A container with one registration of each kind the queries tell apart.
private func craContainer() -> Container {
    let container = Container()
    container.register(CraTransient.self) { _ in CraTransient() }
    container.register(CraGraph.self, scope: .graph) { _ in CraGraph() }
    container.register(CraSingleton.self, scope: .singleton) { _ in CraSingleton() }
    container.register(CraWeak.self, scope: .weak) { _ in CraWeak() }
    container.register(CraScoped.self, scope: .scoped) { _ in CraScoped() }
    container.register(CraRequestScoped.self, scope: .scoped(to: "request")) { _ in CraRequestScoped() }
    container.register(CraSessionScoped.self, scope: .scoped(to: "session")) { _ in CraSessionScoped() }
    container.register(CraAsync.self) { _ async in CraAsync() }
    container.register(CraDuplicate.self) { _ in CraDuplicate() }
    container.register(CraDuplicate.self) { _ in CraDuplicate() }
    container.register(CraNamed.self, name: "n") { _ in CraNamed() }
    container.register(CraWithArgument.self) { (_, value: Int) in CraWithArgument(value) }
    container.register(CraSharedWithArgument.self, scope: .singleton) { (_, _: Int) in CraSharedWithArgument() }
    return container
}

/// Every key of `craContainer()`, asked of `resolving`, as itself and as an optional.
private func everyDisagreement(_ resolving: some Resolving, _ place: String) -> [String] {
    [
        disagreement(resolving, CraTransient.self, "\(place) transient"),
        disagreement(resolving, CraGraph.self, "\(place) graph"),
        disagreement(resolving, CraSingleton.self, "\(place) singleton"),
        disagreement(resolving, CraWeak.self, "\(place) weak"),
        disagreement(resolving, CraScoped.self, "\(place) scoped"),
        disagreement(resolving, CraRequestScoped.self, "\(place) scoped(to: .request)"),
        disagreement(resolving, CraSessionScoped.self, "\(place) scoped(to: .session)"),
        disagreement(resolving, CraAsync.self, "\(place) async"),
        disagreement(resolving, CraDuplicate.self, "\(place) duplicate"),
        disagreement(resolving, CraMissing.self, "\(place) missing"),
        disagreement(resolving, CraNamed.self, name: "n", "\(place) named"),
        disagreement(resolving, CraNamed.self, "\(place) named, asked unnamed"),
        disagreement(resolving, CraScoped?.self, "\(place) Optional scoped"),
        disagreement(resolving, CraRequestScoped?.self, "\(place) Optional scoped(to: .request)"),
        disagreement(resolving, CraAsync?.self, "\(place) Optional async"),
        disagreement(resolving, CraDuplicate?.self, "\(place) Optional duplicate"),
        disagreement(resolving, CraMissing?.self, "\(place) Optional missing"),
        disagreement(resolving, CraSingleton??.self, "\(place) Optional Optional singleton"),
        disagreementWithArgument(resolving, CraWithArgument.self, "\(place) with argument"),
        disagreementWithArgument(resolving, CraWithArgument?.self, "\(place) Optional with argument"),
        disagreementWithArgument(resolving, CraSharedWithArgument.self, "\(place) singleton with argument"),
        disagreementWithArgument(resolving, CraTransient.self, "\(place) transient asked with argument"),
    ].compactMap { $0 }
}

@Suite struct CanResolveAttackTests {
    // MARK: Containers and scopes

    @Test func aContainerAndScopesOfEveryTagAnswerAsTheirResolveForEveryKindOfRegistration() throws {
        let container = craContainer()
        let untagged = container.makeScope()
        let request = container.makeScope(tag: "request")
        let session = container.makeScope(tag: "session")
        defer {
            for scope in [untagged, request, session] { try? scope.close() }
        }

        #expect(everyDisagreement(container, "container") == [])
        #expect(everyDisagreement(untagged, "untagged scope") == [])
        #expect(everyDisagreement(request, "request scope") == [])
        #expect(everyDisagreement(session, "session scope") == [])
    }

    @Test func asyncQueriesFromContainerAndScopesAnswerAsTheirAsyncResolve() async throws {
        let container = craContainer()
        container.register(CraCaptor.self, scope: .singleton) { _ async in CraCaptor() }
        let request = container.makeScope(tag: "request")
        var mismatches: [String] = []
        for (place, resolving) in [("container", container as any Resolving), ("request", request)] {
            mismatches += [
                await asyncDisagreement(resolving, CraAsync.self, "\(place) async"),
                await asyncDisagreement(resolving, CraCaptor.self, "\(place) async singleton"),
                await asyncDisagreement(resolving, CraTransient.self, "\(place) sync transient"),
                await asyncDisagreement(resolving, CraRequestScoped.self, "\(place) scoped(to: .request)"),
                await asyncDisagreement(resolving, CraSessionScoped.self, "\(place) scoped(to: .session)"),
                await asyncDisagreement(resolving, CraAsync?.self, "\(place) Optional async"),
                await asyncDisagreement(resolving, CraDuplicate.self, "\(place) duplicate"),
            ].compactMap { $0 }
        }
        try await request.closeAsync()

        #expect(mismatches == [])
    }

    @Test func aClosedScopeAnswersFalseAndRefusesEveryResolve() throws {
        let container = craContainer()
        let scope = container.makeScope(tag: "request")
        _ = try scope.resolve(CraRequestScoped.self)
        try scope.close()

        #expect(everyDisagreement(scope, "closed scope") == [])
        #expect(!scope.canResolve(CraTransient.self))
        let closed = injectionError { try scope.resolve(CraTransient.self) }
        #expect(closed?.code == .scopeClosed)
    }

    // MARK: A factory's resolver

    @Test func aResolverInAScopesFactoryAnswersAsItsResolveForEveryKindOfRegistration() throws {
        let container = craContainer()
        container.register(CraRoot.self) { r in CraRoot(everyDisagreement(r, "resolver")) }
        container.register(CraRoot.self, name: "graph", scope: .graph) { r in
            _ = try r.resolve(CraGraph.self)
            return CraRoot(everyDisagreement(r, "graph resolver"))
        }
        let untagged = container.makeScope()
        let request = container.makeScope(tag: "request")
        let session = container.makeScope(tag: "session")
        defer {
            for scope in [untagged, request, session] { try? scope.close() }
        }

        #expect(try container.resolve(CraRoot.self).mismatches == [])
        #expect(try untagged.resolve(CraRoot.self).mismatches == [])
        #expect(try request.resolve(CraRoot.self).mismatches == [])
        #expect(try session.resolve(CraRoot.self).mismatches == [])
        #expect(try request.resolve(CraRoot.self, name: "graph").mismatches == [])
    }

    @Test func aResolverBuildingASingletonOrWeakInstanceInAScopeAnswersAsItsResolve() throws {
        let container = craContainer()
        container.register(CraRoot.self, name: "singleton", scope: .singleton) { r in
            CraRoot(everyDisagreement(r, "singleton resolver"))
        }
        container.register(CraRoot.self, name: "weak", scope: .weak) { r in
            CraRoot(everyDisagreement(r, "weak resolver"))
        }
        // A transient built inside a singleton: its resolver is under the captor too.
        container.register(CraRoot.self, name: "holder", scope: .singleton) { r in
            let inner = try r.resolve(CraRoot.self, name: "inner")
            return CraRoot(inner.mismatches)
        }
        container.register(CraRoot.self, name: "inner") { r in
            CraRoot(everyDisagreement(r, "transient under singleton"))
        }
        let request = container.makeScope(tag: "request")
        defer { try? request.close() }

        #expect(try request.resolve(CraRoot.self, name: "singleton").mismatches == [])
        let weak = try request.resolve(CraRoot.self, name: "weak")
        #expect(weak.mismatches == [])
        #expect(try request.resolve(CraRoot.self, name: "holder").mismatches == [])
        #expect(!container.canResolve(CraRoot.self, name: "holder", argumentTypes: Int.self))
    }

    @Test func aResolverInAnAsyncFactoryAnswersAsItsAsyncAndSyncResolves() async throws {
        let container = craContainer()
        container.register(CraCaptor.self, scope: .singleton) { _ async in CraCaptor() }
        container.register(CraRoot.self) { r async in
            var mismatches = everyDisagreement(r, "async resolver")
            mismatches += [
                await asyncDisagreement(r, CraAsync.self, "async resolver async"),
                await asyncDisagreement(r, CraCaptor.self, "async resolver async singleton"),
                await asyncDisagreement(r, CraRequestScoped.self, "async resolver scoped(to: .request)"),
                await asyncDisagreement(r, CraSessionScoped.self, "async resolver scoped(to: .session)"),
                await asyncDisagreement(r, CraAsync?.self, "async resolver Optional async"),
                await asyncDisagreement(r, CraDuplicate.self, "async resolver duplicate"),
            ].compactMap { $0 }
            return CraRoot(mismatches)
        }
        container.register(CraRoot.self, name: "async singleton", scope: .singleton) { r async in
            CraRoot(
                [
                    await asyncDisagreement(r, CraRequestScoped.self, "async singleton scoped(to: .request)"),
                    await asyncDisagreement(r, CraScoped.self, "async singleton scoped"),
                    await asyncDisagreement(r, CraAsync.self, "async singleton async"),
                ].compactMap { $0 }
            )
        }
        let request = container.makeScope(tag: "request")

        let fromContainer = try await container.resolveAsync(CraRoot.self).mismatches
        let fromScope = try await request.resolveAsync(CraRoot.self).mismatches
        let fromSingleton = try await request.resolveAsync(CraRoot.self, name: "async singleton").mismatches
        try await request.closeAsync()

        #expect(fromContainer == [])
        #expect(fromScope == [])
        #expect(fromSingleton == [])
    }

    @Test func aSyncFactoryInAnAsyncResolutionAnswersTheAsyncQueryAsItsSyncResolveCannot() async throws {
        // A sync factory cannot await: canResolveAsync answering true there is only what an
        // async resolve from the same resolution would find. Its sync resolve of the async one fails.
        let container = craContainer()
        container.register(CraRoot.self) { r in
            let canAsync = r.canResolveAsync(CraAsync.self)
            let canSync = r.canResolve(CraAsync.self)
            let error = injectionError { try r.resolve(CraAsync.self) }
            return CraRoot(["\(canAsync) \(canSync) \(error?.code.description ?? "none")"])
        }
        container.register(CraRoot.self, name: "shared", scope: .singleton) { r in
            CraRoot(["\(r.canResolveAsync(CraAsync.self)) \(r.canResolve(CraAsync.self))"])
        }

        #expect(try await container.resolveAsync(CraRoot.self).mismatches == ["true false asyncResolutionRequired"])
        #expect(try container.resolve(CraRoot.self).mismatches == ["false false asyncResolutionRequired"])
        // A sync singleton in an async resolution is built in a nested sync resolution.
        let shared = try await container.resolveAsync(CraRoot.self, name: "shared").mismatches
        #expect(shared == ["false false"])
    }

    @Test func anOnResolvedHookAnswersAsItsResolveUnderASingletonAndInAScope() throws {
        let container = craContainer()
        let seen = CraSeen()
        container.register(CraCaptor.self, scope: .singleton) { _ in CraCaptor() }
            .onResolved { r, _ in seen.add(everyDisagreement(r, "singleton hook")) }
        container.register(CraHelper.self) { _ in CraHelper() }
            .onResolved { r, _ in seen.add(everyDisagreement(r, "transient hook")) }
        container.register(CraRoot.self, name: "holder", scope: .singleton) { r in
            _ = try r.resolve(CraHelper.self)
            return CraRoot([])
        }
        let request = container.makeScope(tag: "request")
        defer { try? request.close() }

        _ = try request.resolve(CraCaptor.self)
        _ = try request.resolve(CraHelper.self)
        _ = try request.resolve(CraRoot.self, name: "holder")
        _ = try container.resolve(CraHelper.self)

        #expect(seen.mismatches == [])
    }

    @Test func aResolverKeptPastItsResolutionAnswersFalseForEveryKey() throws {
        let container = craContainer()
        let kept = KeptResolver()
        container.register(CraHelper.self) { r in
            kept.keep(r)
            return CraHelper()
        }
        let request = container.makeScope(tag: "request")
        defer { try? request.close() }
        _ = try request.resolve(CraHelper.self)
        let resolver = try #require(kept.resolver)

        #expect(everyDisagreement(resolver, "kept resolver") == [])
        #expect(!resolver.canResolve(CraTransient.self))
        #expect(!resolver.canResolveAsync(CraSingleton.self))
        #expect(!resolver.canResolve(CraSingleton?.self))
    }

    @Test func aResolverKeptFromAFailedResolutionAnswersFalse() throws {
        let container = craContainer()
        let kept = KeptResolver()
        container.register(CraHelper.self) { r in
            kept.keep(r)
            _ = try r.resolve(CraMissing.self)
            return CraHelper()
        }
        #expect(injectionError { try container.resolve(CraHelper.self) }?.code == .missingRegistration)
        let resolver = try #require(kept.resolver)

        #expect(!resolver.canResolve(CraTransient.self))
        #expect(everyDisagreement(resolver, "kept failed resolver") == [])
    }

    // MARK: Overrides, children, late registrations

    @Test func overridesInEffectForTheTaskAreWhatAResolverAnswersFor() throws {
        let container = craContainer()
        container.register(CraRoot.self) { r in
            CraRoot(
                everyDisagreement(r, "resolver under overrides")
                    + [disagreement(r, CraHelper.self, "override-only key")].compactMap { $0 }
                    + [
                        "\(r.canResolve(CraHelper.self)) \(r.canResolve(CraDuplicate.self)) \(r.canResolve(CraTransient.self))"
                    ]
            )
        }
        let request = container.makeScope(tag: "request")
        defer { try? request.close() }

        let inside = try container.withOverrides { overrides in
            overrides.register(CraHelper.self) { _ in CraHelper() }
            // Replaces the duplicate: usable under the overrides.
            overrides.register(CraDuplicate.self) { _ in CraDuplicate() }
            // An async override of a sync registration: not for a sync resolve.
            overrides.register(CraTransient.self) { _ async in CraTransient() }
            // A duplicate among the overrides.
            overrides.register(CraNamed.self, name: "n") { _ in CraNamed() }
            overrides.register(CraNamed.self, name: "n") { _ in CraNamed() }
        } operation: {
            (
                try request.resolve(CraRoot.self).mismatches,
                everyDisagreement(container, "container under overrides"),
                everyDisagreement(request, "scope under overrides")
            )
        }
        let after = try request.resolve(CraRoot.self).mismatches

        #expect(inside.0 == ["true true false"])
        #expect(inside.1 == [])
        #expect(inside.2 == [])
        #expect(after == ["false false true"])
    }

    @Test func aChildShadowingItsParentsKeysIsWhatItsScopesAndResolversAnswerFor() throws {
        let parent = craContainer()
        parent.register(CraHelper.self) { _ in CraHelper() }
        let child = parent.makeChild()
        // Shadows the parent's duplicate with a usable one, and a usable one with a duplicate.
        child.register(CraDuplicate.self) { _ in CraDuplicate() }
        child.register(CraHelper.self) { _ in CraHelper() }
        child.register(CraHelper.self) { _ in CraHelper() }
        // Shadows a scoped registration with a transient one, and a transient with an async one.
        child.register(CraScoped.self) { _ in CraScoped() }
        child.register(CraTransient.self) { _ async in CraTransient() }
        child.register(CraRoot.self) { r in
            CraRoot(
                everyDisagreement(r, "child resolver")
                    + [disagreement(r, CraHelper.self, "child resolver helper")].compactMap { $0 }
            )
        }
        // A singleton the parent registers resolves from the parent, whatever the child shadows.
        parent.register(CraRoot.self, name: "parent singleton", scope: .singleton) { r in
            CraRoot(
                [
                    disagreement(r, CraDuplicate.self, "parent singleton duplicate"),
                    disagreement(r, CraHelper.self, "parent singleton helper"),
                    disagreement(r, CraTransient.self, "parent singleton transient"),
                    "\(r.canResolve(CraDuplicate.self)) \(r.canResolve(CraHelper.self))",
                ].compactMap { $0 }
            )
        }
        let scope = child.makeScope(tag: "request")
        defer { try? scope.close() }

        #expect(everyDisagreement(child, "child") == [])
        #expect(everyDisagreement(scope, "child scope") == [])
        #expect(disagreement(child, CraHelper.self, "child helper") == nil)
        #expect(!child.canResolve(CraHelper.self))
        #expect(parent.canResolve(CraHelper.self))
        #expect(child.canResolve(CraDuplicate.self))
        #expect(!parent.canResolve(CraDuplicate.self))
        #expect(try scope.resolve(CraRoot.self).mismatches == [])
        #expect(try scope.resolve(CraRoot.self, name: "parent singleton").mismatches == ["false true"])
    }

    @Test func registrationsAfterFinishRegistrationAreNotUsable() throws {
        let parent = craContainer()
        parent.register(CraHelper.self) { _ in CraHelper() }
        let child = parent.makeChild()
        // Both report the conflicts craContainer() registers on purpose.
        #expect(throws: InjectionError.self) { try parent.finishRegistration() }
        try child.finishRegistration()
        // Late: a new key, a replacement, a key the child shadows late, and a hook added late.
        parent.register(CraCaptor.self) { _ in CraCaptor() }
        parent.register(CraTransient.self, replacesExisting: true) { _ in CraTransient() }
        child.register(CraHelper.self) { _ in CraHelper() }
        parent.register(CraRoot.self) { r in CraRoot(everyDisagreement(r, "late resolver")) }
        let scope = child.makeScope(tag: "request")
        defer { try? scope.close() }

        var mismatches = [
            disagreement(parent, CraCaptor.self, "parent late new key"),
            disagreement(parent, CraTransient.self, "parent late replacement"),
            disagreement(child, CraHelper.self, "child late shadow"),
            disagreement(parent, CraHelper.self, "parent helper"),
            disagreement(scope, CraHelper.self, "child scope late shadow"),
            disagreement(parent, CraRoot.self, "late root"),
            disagreement(scope, CraCaptor?.self, "Optional late"),
        ].compactMap { $0 }
        mismatches += everyDisagreement(child, "child")
        #expect(mismatches == [])
        #expect(!parent.canResolve(CraCaptor.self))
        #expect(injectionError { try parent.resolve(CraCaptor.self) }?.code == .registrationAfterFinish)
        #expect(parent.canResolve(CraHelper.self))
        #expect(!child.canResolve(CraHelper.self))
    }

    @Test func aHookAddedAfterFinishRegistrationMakesTheRegistrationUnusable() throws {
        let container = Container()
        let registration = container.register(CraHelper.self) { _ in CraHelper() }
        try container.finishRegistration()
        registration.onResolved { _, _ in }

        #expect(disagreement(container, CraHelper.self, "late hook") == nil)
        #expect(!container.canResolve(CraHelper.self))
    }

    // MARK: Validation

    @Test func aFactoryAskingItsResolverInValidationValidatesWhetherOrNotTheDependencyIsThere() throws {
        let container = Container()
        container.register(CraHelper.self) { r in
            _ = r.canResolve(CraMissing.self) ? try r.resolve(CraMissing.self) : nil
            _ = r.canResolve(CraAsync.self) ? try r.resolve(CraAsync.self) : nil
            _ = r.canResolve(CraDuplicate.self) ? try r.resolve(CraDuplicate.self) : nil
            _ = r.canResolve(CraScoped.self) ? try r.resolve(CraScoped.self) : nil
            return CraHelper()
        }
        container.register(CraCaptor.self, scope: .singleton) { r in
            _ = r.canResolve(CraScoped.self) ? try r.resolve(CraScoped.self) : nil
            _ = r.canResolve(CraRequestScoped.self) ? try r.resolve(CraRequestScoped.self) : nil
            return CraCaptor()
        }
        container.register(CraAsync.self) { _ async in CraAsync() }
        container.register(CraDuplicate.self) { _ in CraDuplicate() }
        container.register(CraDuplicate.self, name: "other") { _ in CraDuplicate() }
        container.register(CraScoped.self, scope: .scoped) { _ in CraScoped() }
        container.register(CraRequestScoped.self, scope: .scoped(to: "request")) { _ in CraRequestScoped() }

        let problems = injectionError { try container.validate() }?.problems ?? []
        #expect(problems.map(\.message) == [])
    }

    /// In validation's sandbox, which stands for a scope of every tag, a scoped(to: .request)
    /// registration adopts the tag "request" for its resolution; its factory's resolver must then
    /// not answer true for a scoped(to: .session) one, which the resolve refuses (scopeMismatch).
    /// In a real request scope the answer is false and the factory never resolves it.
    @Test func aResolverInValidationAnswersForAnotherTagAsTheSandboxsResolveDoes() throws {
        let container = Container()
        container.register(CraSessionScoped.self, scope: .scoped(to: "session")) { _ in CraSessionScoped() }
        let answers = Guarded([String]())
        container.register(CraRequestScoped.self, scope: .scoped(to: "request")) { r in
            if let mismatch = disagreement(r, CraSessionScoped.self, "request-scoped factory, session-scoped") {
                answers.withLock { $0.append(mismatch) }
            }
            return CraRequestScoped()
        }
        container.register(CraHelper.self, scope: .scoped(to: "request")) { r in
            _ = r.canResolve(CraSessionScoped.self) ? try r.resolve(CraSessionScoped.self) : nil
            return CraHelper()
        }
        let request = container.makeScope(tag: "request")
        defer { try? request.close() }
        _ = try request.resolve(CraHelper.self)
        _ = try request.resolve(CraRequestScoped.self)
        #expect(answers.current == [])

        let problems = injectionError { try container.validate() }?.problems ?? []
        #expect(problems.map(\.code) == [], "\(problems.map(\.message))")
        #expect(answers.current == [])
    }

    // MARK: Values given to a scope

    /// A value given to a scope (`values.provide`) with no registration resolves from that scope
    /// and from its factories' resolvers; the queries answer false.
    @Test func aValueGivenToAScopeWithoutARegistrationIsWhatItsQueriesAnswerFor() throws {
        let container = Container()
        container.register(CraRoot.self) { r in
            CraRoot(
                [
                    disagreement(r, CraRequestInfo.self, "resolver, given value"),
                    disagreement(r, CraRequestInfo?.self, "resolver, Optional given value"),
                ].compactMap { $0 }
            )
        }
        let request = container.makeScope(tag: "request") { $0.provide(CraRequestInfo.self, CraRequestInfo()) }
        defer { try? request.close() }

        _ = try request.resolve(CraRequestInfo.self)
        #expect(
            [
                disagreement(request, CraRequestInfo.self, "scope, given value"),
                disagreement(request, CraRequestInfo?.self, "scope, Optional given value"),
            ].compactMap { $0 } == []
        )
        #expect(try request.resolve(CraRoot.self).mismatches == [])
    }

    @Test func aValueDeclaredAsProvidedByScopeIsUsableFromAScopeOfItsTagOnly() throws {
        let container = Container()
        container.register(CraRequestInfo.self, providedByScope: "request")
        container.register(CraRoot.self, scope: .singleton) { r in
            CraRoot([disagreement(r, CraRequestInfo.self, "singleton, scope value")].compactMap { $0 })
        }
        let request = container.makeScope(tag: "request") { $0.provide(CraRequestInfo.self, CraRequestInfo()) }
        let session = container.makeScope(tag: "session") { $0.provide(CraRequestInfo.self, CraRequestInfo()) }
        defer {
            try? request.close()
            try? session.close()
        }

        #expect(
            [
                disagreement(container, CraRequestInfo.self, "container"),
                disagreement(request, CraRequestInfo.self, "request scope"),
                disagreement(session, CraRequestInfo.self, "session scope"),
            ].compactMap { $0 } == []
        )
        #expect(try request.resolve(CraRoot.self).mismatches == [])
    }

    // MARK: Forwarding (implements)

    // `.implements` adds a transient, sync registration of the other type whose factory resolves
    // the original: the forwarded key is usable only where the original is (scoped, tag, async,
    // duplicate), but the queries look at the forwarding registration alone.

    @Test func aForwardedScopedRegistrationIsNotUsableFromAContainer() throws {
        let container = Container()
        container.register(CraAdapter.self, scope: .scoped) { _ in CraAdapter() }.implements(CraPort.self)

        #expect(disagreement(container, CraPort.self, "container, scoped original") == nil)
        #expect(injectionError { try container.resolve(CraPort.self) }?.code == .scopeMismatch)
        #expect(!container.canResolve(CraAdapter.self))
    }

    @Test func aForwardedRegistrationScopedToATagIsNotUsableFromAScopeOfAnother() throws {
        let container = Container()
        container.register(CraAdapter.self, scope: .scoped(to: "request")) { _ in CraAdapter() }
            .implements(CraPort.self)
        container.register(CraRoot.self) { r in
            CraRoot([disagreement(r, CraPort.self, "session resolver")].compactMap { $0 })
        }
        let session = container.makeScope(tag: "session")
        let request = container.makeScope(tag: "request")
        defer {
            try? session.close()
            try? request.close()
        }

        #expect(disagreement(request, CraPort.self, "request scope") == nil)
        #expect(disagreement(session, CraPort.self, "session scope") == nil)
        #expect(try session.resolve(CraRoot.self).mismatches == [])
    }

    @Test func aForwardedAsyncRegistrationIsNotUsableFromASyncResolve() throws {
        let container = Container()
        container.register(CraAdapter.self) { _ async in CraAdapter() }.implements(CraPort.self)

        #expect(disagreement(container, CraPort.self, "container, async original") == nil)
        #expect(injectionError { try container.resolve(CraPort.self) }?.code == .asyncResolutionRequired)
    }

    /// The forwarding factory is sync: it resolves the original with a sync resolve even in an
    /// async resolution, so an async original is not reachable through `.implements` at all.
    @Test func aForwardedAsyncRegistrationResolvesAsync() async throws {
        let container = Container()
        container.register(CraAdapter.self) { _ async in CraAdapter() }.implements(CraPort.self)

        #expect(container.canResolveAsync(CraPort.self))
        let result = await injectionErrorAsync { try await container.resolveAsync(CraPort.self) }
        #expect(result == nil, "\(result?.message ?? "")")
    }

    @Test func aForwardedDuplicateIsNotUsable() throws {
        let container = Container()
        container.register(CraAdapter.self) { _ in CraAdapter() }
        container.register(CraAdapter.self) { _ in CraAdapter() }.implements(CraPort.self)

        #expect(disagreement(container, CraPort.self, "container, duplicate original") == nil)
        #expect(injectionError { try container.resolve(CraPort.self) }?.code == .duplicateRegistration)
        #expect(!container.canResolve(CraAdapter.self))
    }

    @Test func aForwardedRegistrationIsUsableWhereItsOriginalIs() throws {
        let container = Container()
        container.register(CraAdapter.self, name: "plain") { _ in CraAdapter() }
            .implements(CraPort.self, name: "plain")
        container.register(CraAdapter.self, name: "scoped", scope: .scoped) { _ in CraAdapter() }
            .implements(CraPort.self, name: "scoped")
        let scope = container.makeScope()
        defer { try? scope.close() }

        #expect(disagreement(container, CraPort.self, name: "plain", "container, plain") == nil)
        #expect(disagreement(scope, CraPort.self, name: "scoped", "scope, scoped") == nil)
        #expect(scope.canResolve(CraPort.self, name: "scoped"))
    }

    // MARK: Deferred handles

    /// A `Lazy` or `ServiceProvider` is made by the resolve, with no registration of its own: it
    /// resolves (from a container, scope or resolver) whenever the wrapped key is usable, as an
    /// optional does, but the queries answer false.
    @Test func aLazyOrServiceProviderOfAUsableRegistrationIsWhatTheQueriesAnswerFor() throws {
        let container = craContainer()
        container.register(CraRoot.self) { r in
            CraRoot(
                [
                    disagreement(r, Lazy<CraTransient>.self, "resolver Lazy"),
                    disagreement(r, ServiceProvider<CraTransient>.self, "resolver ServiceProvider"),
                ].compactMap { $0 }
            )
        }

        _ = try container.resolve(Lazy<CraTransient>.self).value
        #expect(
            [
                disagreement(container, Lazy<CraTransient>.self, "container Lazy"),
                disagreement(container, ServiceProvider<CraTransient>.self, "container ServiceProvider"),
            ].compactMap { $0 } == []
        )
        #expect(try container.resolve(CraRoot.self).mismatches == [])
    }

    // MARK: Shutdown

    @Test func aShutDownContainerAnswersAsItsResolve() throws {
        let container = craContainer()
        _ = try container.resolve(CraSingleton.self)
        try container.shutdown()

        #expect(
            [
                disagreement(container, CraTransient.self, "shut down, transient"),
                disagreement(container, CraSingleton.self, "shut down, singleton"),
            ].compactMap { $0 } == []
        )
    }

    @Test func aForwardedRegistrationWithArgumentsIsReportedAsInvalidForwarding() throws {
        let container = Container()
        container.register(CraAdapter.self) { (_, _: Int) in CraAdapter() }
            .implements(CraPort.self)

        let error = try #require(injectionError { try container.resolve(CraPort.self) })
        #expect(error.code == .invalidForwarding)
        #expect(error.message.contains("resolve-time arguments"))
        #expect(container.canResolve(CraAdapter.self, argumentTypes: Int.self))
    }

    // MARK: The one internal register: every kind, sync and async

    @Test func everyKindOfRegistrationSyncOrAsyncIsUsableAsItsQueriesSay() async throws {
        let container = Container()
        container.register(CraTransient.self) { _ in CraTransient() }
        container.register(CraNamed.self, name: "n") { _ in CraNamed() }
        // Declared, by the function's parameters, sync and async.
        container.register(CraDeclared.self, name: "sync", CraDeclared.init(transient:))
        container.register(CraDeclared.self, name: "async") { (t: CraTransient) async in CraDeclared(transient: t) }
        // Declared with using:, sync and async.
        container.register(CraDeclared.self, name: "using", using: Resolved(CraNamed.self, name: "n")) { _ in
            CraDeclared(transient: CraTransient())
        }
        container.register(CraDeclared.self, name: "using async", using: Resolved(CraNamed.self, name: "n")) {
            _ async in CraDeclared(transient: CraTransient())
        }
        // Declared with a resolve-time argument, sync and async.
        container.register(CraWithArgument.self, name: "sync", argument: Int.self) { (value: Int, _: CraTransient) in
            CraWithArgument(value)
        }
        container.register(CraWithArgument.self, name: "async", argument: Int.self) {
            (value: Int, _: CraTransient) async in CraWithArgument(value)
        }
        // Declared with an argument, shared: refused.
        container.register(CraWithArgument.self, name: "singleton", scope: .singleton, argument: Int.self) {
            (value: Int, _: CraTransient) in CraWithArgument(value)
        }
        // Closure registrations with arguments, sync and async, and a shared one.
        container.register(CraWithArgument.self, name: "closure") { (_, value: Int) in CraWithArgument(value) }
        container.register(CraWithArgument.self, name: "closure async") { (_, value: Int) async in
            CraWithArgument(value)
        }
        container.register(CraWithArgument.self, name: "closure weak", scope: .weak) { (_, value: Int) in
            CraWithArgument(value)
        }
        // An existing instance, a value provided by scopes, and forwarding.
        container.register(CraSingleton.self, instance: CraSingleton(), ownedBy: .caller)
        container.register(CraRequestInfo.self, providedByScope: nil)
        container.register(CraAdapter.self) { _ in CraAdapter() }.implements(CraPort.self)
        let scope = container.makeScope { $0.provide(CraRequestInfo.self, CraRequestInfo()) }

        var mismatches: [String] = []
        for (place, resolving) in [("container", container as any Resolving), ("scope", scope)] {
            for name in ["sync", "async", "using", "using async"] {
                mismatches += [
                    disagreement(resolving, CraDeclared.self, name: name, "\(place) declared \(name)"),
                    await asyncDisagreement(resolving, CraDeclared.self, name: name, "\(place) declared \(name)"),
                ].compactMap { $0 }
            }
            for name in ["sync", "async", "singleton", "closure", "closure async", "closure weak"] {
                let answer = resolving.canResolve(CraWithArgument.self, name: name, argumentTypes: Int.self)
                let resolved = (try? resolving.resolve(CraWithArgument.self, name: name, arguments: 7))?.value
                if answer != (resolved == 7) { mismatches.append("\(place) \(name) with argument: \(answer)") }
                let asyncAnswer = resolving.canResolveAsync(CraWithArgument.self, name: name, argumentTypes: Int.self)
                let asyncResolved = (try? await resolving.resolveAsync(CraWithArgument.self, name: name, arguments: 7))?
                    .value
                if asyncAnswer != (asyncResolved == 7) {
                    mismatches.append("\(place) \(name) with argument, async: \(asyncAnswer)")
                }
            }
            mismatches += [
                disagreement(resolving, CraSingleton.self, "\(place) instance"),
                disagreement(resolving, CraRequestInfo.self, "\(place) provided by scope"),
                disagreement(resolving, CraPort.self, "\(place) forwarded"),
                await asyncDisagreement(resolving, CraSingleton.self, "\(place) instance"),
                await asyncDisagreement(resolving, CraRequestInfo.self, "\(place) provided by scope"),
                await asyncDisagreement(resolving, CraPort.self, "\(place) forwarded"),
            ].compactMap { $0 }
        }
        try await scope.closeAsync()

        #expect(mismatches == [])
    }

    @Test func aSyncResolveOfEachKindOfAsyncRegistrationSaysToResolveAsync() throws {
        let container = Container()
        container.register(CraTransient.self) { _ in CraTransient() }
        container.register(CraDeclared.self, name: "declared") { (t: CraTransient) async in CraDeclared(transient: t) }
        container.register(CraDeclared.self, name: "closure") { _ async in CraDeclared(transient: CraTransient()) }
        container.register(CraDeclared.self, name: "singleton", scope: .singleton) { _ async in
            CraDeclared(transient: CraTransient())
        }
        container.register(CraWithArgument.self, name: "declared", argument: Int.self) {
            (value: Int, _: CraTransient) async in CraWithArgument(value)
        }
        container.register(CraWithArgument.self, name: "closure") { (_, value: Int) async in CraWithArgument(value) }

        for name in ["declared", "closure", "singleton"] {
            let error = try #require(injectionError { try container.resolve(CraDeclared.self, name: name) })
            #expect(error.code == .asyncResolutionRequired)
            #expect(
                error.message.hasPrefix(
                    "CraDeclared (name: \"\(name)\") has an async factory, which a sync resolve cannot run."
                )
            )
            #expect(error.message.contains("resolveAsync(CraDeclared.self, name: \"\(name)\")"))
            #expect(!container.canResolve(CraDeclared.self, name: name))
            #expect(container.canResolveAsync(CraDeclared.self, name: name))
        }
        for name in ["declared", "closure"] {
            let error = try #require(
                injectionError { try container.resolve(CraWithArgument.self, name: name, arguments: 1) }
            )
            #expect(error.code == .asyncResolutionRequired)
            #expect(error.message.contains("CraWithArgument"))
            #expect(error.message.contains("Int"))
            #expect(!container.canResolve(CraWithArgument.self, name: name, argumentTypes: Int.self))
            #expect(container.canResolveAsync(CraWithArgument.self, name: name, argumentTypes: Int.self))
        }
    }

    @Test func aSharedDeclaredRegistrationWithAnArgumentIsRefusedWithItsCode() async throws {
        let container = Container()
        container.register(CraTransient.self) { _ in CraTransient() }
        container.register(CraWithArgument.self, scope: .singleton, argument: Int.self) {
            (value: Int, _: CraTransient) in CraWithArgument(value)
        }
        container.register(CraWithArgument.self, name: "async", scope: .weak, argument: Int.self) {
            (value: Int, _: CraTransient) async in CraWithArgument(value)
        }

        let error = try #require(injectionError { try container.resolve(CraWithArgument.self, arguments: 1) })
        #expect(error.code == .sharedScopeWithArguments)
        #expect(error.message.contains("CraWithArgument"))
        let asyncError = try #require(
            await injectionErrorAsync {
                try await container.resolveAsync(CraWithArgument.self, name: "async", arguments: 1)
            }
        )
        #expect(asyncError.code == .sharedScopeWithArguments)
        #expect(!container.canResolveAsync(CraWithArgument.self, name: "async", argumentTypes: Int.self))
    }

    // MARK: Recursion and cycles through registrations with arguments

    /// A declared registration with an argument, resolved at the bottom of a closure recursion 40
    /// deep (past the stack's index), whose dependency resolves it again: with the argument of the
    /// frame on the stack a cycle on it; with another, built, then its dependency is the cycle.
    @Test func aDeclaredRegistrationWithAnArgumentCyclesWithEqualArgumentsBelowADeepRecursion() throws {
        let container = Container()
        let back = Guarded(-1)
        container.register(CraNode.self) { (r, depth: Int) in
            if depth == 0 { return try r.resolve(CraNode.self, name: "declared", arguments: 7) }
            return try r.resolve(CraNode.self, arguments: depth - 1)
        }
        container.register(CraNode.self, name: "declared", argument: Int.self) { (value: Int, _: CraHelperNode) in
            CraNode(depth: value)
        }
        container.register(CraHelperNode.self) { r in
            let target = back.current
            guard target >= 0 else { return CraHelperNode(below: 0) }
            return CraHelperNode(below: try r.resolve(CraNode.self, name: "declared", arguments: target).depth)
        }

        for depth in [0, 31, 32, 40] {
            back.set(-1)
            #expect(try container.resolve(CraNode.self, arguments: depth).depth == 7)
            back.set(7)
            let equal = try #require(injectionError { try container.resolve(CraNode.self, arguments: depth) })
            #expect(equal.code == .circularDependency, "depth \(depth)")
            #expect(equal.resolutionPath.last?.name == "declared", "depth \(depth)")
            #expect(equal.resolutionPath.count == depth + 4, "depth \(depth)")
            back.set(8)
            let other = try #require(injectionError { try container.resolve(CraNode.self, arguments: depth) })
            #expect(other.code == .circularDependency, "depth \(depth)")
            #expect(other.resolutionPath.last?.serviceType == CraHelperNode.self, "depth \(depth)")
            #expect(other.resolutionPath.count == depth + 5, "depth \(depth)")
        }
    }

    /// A closure registration resolving itself with a countdown, then, at the bottom, the
    /// outermost frame's arguments again: a cycle found at depth 1 (unindexed) and 40 (indexed), sync
    /// and async, with a message naming the loop.
    @Test func equalArgumentsMakeACycleAtEveryDepthSyncAndAsync() async throws {
        let container = Container()
        container.register(CraNode.self) { (r, depth: Int, top: Int) in
            if depth == 0 { return try r.resolve(CraNode.self, arguments: top, top) }
            return try r.resolve(CraNode.self, arguments: depth - 1, top)
        }
        container.register(CraNode.self, name: "async") { (r, depth: Int, top: Int) async throws in
            if depth == 0 { return try await r.resolveAsync(CraNode.self, name: "async", arguments: top, top) }
            return try await r.resolveAsync(CraNode.self, name: "async", arguments: depth - 1, top)
        }
        // Different arguments all the way: a recursion that ends.
        container.register(CraNode.self, name: "countdown") { (r, depth: Int, top: Int) in
            if depth == 0 { return CraNode(depth: top) }
            return try r.resolve(CraNode.self, name: "countdown", arguments: depth - 1, top)
        }

        for top in [1, 31, 32, 33, 40, 100] {
            let error = try #require(injectionError { try container.resolve(CraNode.self, arguments: top, top) })
            #expect(error.code == .circularDependency, "depth \(top)")
            #expect(error.resolutionPath.count == top + 2, "depth \(top)")
            #expect(error.message.contains("CraNode"), "depth \(top)")
            let asyncError = try #require(
                await injectionErrorAsync {
                    try await container.resolveAsync(CraNode.self, name: "async", arguments: top, top)
                }
            )
            #expect(asyncError.code == .circularDependency, "async depth \(top)")
            #expect(try container.resolve(CraNode.self, name: "countdown", arguments: top, top).depth == top)
        }
        // A cycle entered below the top: the path leads to the loop.
        let error = try #require(injectionError { try container.resolve(CraNode.self, arguments: 50, 10) })
        #expect(error.code == .circularDependency)
    }

    /// The same registration, with arguments that are not Hashable: never a cycle, a recursion that
    /// the depth guard ends.
    @Test func argumentsThatAreNotHashableRecurseUntilTheDepthGuard() throws {
        let container = Container()
        container.register(CraNode.self) { (r, box: CraUnhashable) in
            try r.resolve(CraNode.self, arguments: box)
        }
        let error = try #require(injectionError { try container.resolve(CraNode.self, arguments: CraUnhashable()) })
        #expect(error.code == .resolutionTooDeep)
    }
}

private struct CraDeclared: Sendable {
    let transient: CraTransient
}
private struct CraHelperNode: Sendable { let below: Int }
private struct CraUnhashable: Sendable {}
