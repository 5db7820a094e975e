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

@testable import Injector

// Attacks on four changes: a Lazy of an async registration refused at once (f132f76), unmatched
// unnamed overrides refused (19c0a00), handles to scoped services held by singletons refused as
// captive dependencies (77467da), and the declared parameter's near-miss fix (d55681c).

private protocol S61Checker: Sendable { var language: String { get } }
private struct S61FakeChecker: S61Checker { let language: String }

private protocol S61Session: Sendable {}
private final class S61SessionImpl: S61Session {}
private final class S61Scoped: Sendable {}
private struct S61RequestInfo: Sendable { let id: Int }

private final class S61Holder: Sendable {
    let provider: ServiceProvider<S61Session>?
    let lazyInfo: Lazy<S61RequestInfo>?
    init(provider: ServiceProvider<S61Session>? = nil, lazyInfo: Lazy<S61RequestInfo>? = nil) {
        self.provider = provider
        self.lazyInfo = lazyInfo
    }
}

private final class S61Worker: Sendable {
    let scoped: S61Scoped
    init(scoped: S61Scoped) { self.scoped = scoped }
}

private final class S61Dispatcher: Sendable {
    let workers: ServiceProvider<S61Worker>
    init(workers: ServiceProvider<S61Worker>) { self.workers = workers }
}

private final class S61Clock: Sendable {
    let now: Int
    init(now: Int) { self.now = now }
}
private final class S61Stamper: Sendable {
    let clock: Lazy<S61Clock>
    init(clock: Lazy<S61Clock>) { self.clock = clock }
}
private final class S61Reader: Sendable {
    let now: Int
    init(now: Int) { self.now = now }
}

private final class S61AsyncScoped: Sendable {}
private final class S61AsyncHolder: Sendable {
    let provider: ServiceProvider<S61AsyncScoped>
    init(provider: ServiceProvider<S61AsyncScoped>) { self.provider = provider }
}

private final class S61Tracked: Tracked, @unchecked Sendable {}

@Suite struct Session61AttackTests {
    // MARK: - 19c0a00: unmatched overrides

    /// An override is checked against the container it is made on and its parents, which know
    /// nothing of their children: a plain override, on a parent that registers the type only under
    /// a name, of what a child registers plainly is refused; made on the child, it is used (the
    /// limit `TestingWithOverrides.md` states).
    @Test func aPlainOverrideOfWhatOnlyAChildRegistersPlainlyIsMadeOnTheChild() throws {
        let parent = Container()
        parent.register(S61Checker.self, name: "en") { _ in S61FakeChecker(language: "en") }
        let child = parent.makeChild()
        child.register(S61Checker.self) { _ in S61FakeChecker(language: "child") }

        let onParent = injectionError {
            try parent.withOverrides {
                $0.register(S61Checker.self) { _ in S61FakeChecker(language: "test") }
            } operation: {
            }
        }
        #expect(onParent?.code == .unmatchedOverride)
        let language = try child.withOverrides {
            $0.register(S61Checker.self) { _ in S61FakeChecker(language: "test") }
        } operation: {
            try child.resolve(S61Checker.self).language
        }
        #expect(language == "test")
    }

    /// A refused override leaves nothing behind: the tree has no overrides running, later resolves
    /// get the container's registrations, and a later override is applied.
    @Test func aRefusedOverrideLeavesNoOverrideRunning() async throws {
        let container = Container()
        container.register(S61Checker.self, name: "en") { _ in S61FakeChecker(language: "en") }

        for _ in 0..<3 {
            let error = injectionError {
                try container.withOverrides {
                    $0.register(S61Checker.self) { _ in S61FakeChecker(language: "test") }
                } operation: {
                }
            }
            #expect(error?.code == .unmatchedOverride)
            let asyncError = await injectionErrorAsync {
                try await container.withOverridesAsync {
                    $0.register(S61Checker.self) { _ in S61FakeChecker(language: "test") }
                } operation: {
                }
            }
            #expect(asyncError?.code == .unmatchedOverride)
        }
        #expect(!container.tree.mayHaveOverrides)
        #expect(ActiveOverrides.bound == nil)
        #expect(try container.resolve(S61Checker.self, name: "en").language == "en")
        let overridden = try container.withOverrides {
            $0.register(S61Checker.self, name: "en") { _ in S61FakeChecker(language: "double") }
        } operation: {
            try container.resolve(S61Checker.self, name: "en").language
        }
        #expect(overridden == "double")
    }

    /// withOverridesAsync disposes what was given to a refused override too.
    @Test func aRefusedAsyncOverrideStillDisposesTheInstancesGivenToIt() async throws {
        let container = Container()
        container.register(S61Checker.self, name: "en") { _ in S61FakeChecker(language: "en") }
        let log = EventLog()
        let error = await injectionErrorAsync {
            try await container.withOverridesAsync {
                $0.register(S61Tracked.self, instance: S61Tracked(log), ownedBy: .container)
                $0.register(S61Checker.self) { _ in S61FakeChecker(language: "test") }
            } operation: {
            }
        }
        #expect(error?.code == .unmatchedOverride)
        #expect(log.events == ["S61Tracked"])
    }

    /// An unnamed override nested in a task group's child task, of what an override around it
    /// (inherited as a task-local value) adds, is accepted and used.
    @Test func aNestedOverrideInAChildTaskSeesTheOverrideAroundIt() async throws {
        let parent = Container()
        let child = parent.makeChild()
        child.register(S61Checker.self, name: "en") { _ in S61FakeChecker(language: "en") }
        let languages = try await parent.withOverridesAsync {
            $0.register(S61Checker.self) { _ in S61FakeChecker(language: "outer") }
        } operation: {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await child.withOverridesAsync {
                            $0.register(S61Checker.self) { _ in S61FakeChecker(language: "inner") }
                        } operation: {
                            try child.resolve(S61Checker.self).language
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(languages == Array(repeating: "inner", count: 4))
        #expect(!parent.tree.mayHaveOverrides)
    }

    // MARK: - 77467da: handles to scoped services held by singletons

    /// A scoped registration reached through `implements` is scoped all the same: a singleton's
    /// handle to the protocol resolves from the container, where every use fails.
    @Test func aSingletonsHandleToAScopedServiceReachedThroughImplementsIsACaptiveDependency() throws {
        let container = Container()
        container.register(S61SessionImpl.self, scope: .scoped) { _ in S61SessionImpl() }
            .implements(S61Session.self)
        container.register(S61Holder.self, scope: .singleton) { r in
            S61Holder(provider: try r.resolve(ServiceProvider<S61Session>.self))
        }

        let message =
            "Captive dependency: S61Holder (.singleton) holds a ServiceProvider<S61Session>, which resolves from"
            + " the container, where S61SessionImpl (.scoped) cannot be resolved: every use would fail. Path:"
            + " S61Holder -> S61SessionImpl. Fix: pass S61SessionImpl to the methods of S61Holder that use it"
            + " rather than hold a handle to it, or give S61Holder a scope no longer than S61SessionImpl's"
            + " (.scoped or .transient)."
        let built = try #require(injectionError { try container.withScope { try $0.resolve(S61Holder.self) } })
        #expect(built.code == .captiveDependency)
        #expect(built.message == message)
        let validation = try #require(injectionError { try container.validate() })
        #expect(validation.message == "Validation found 1 problem:\n- " + message)
    }

    /// A value a scope is given (without a `providedByScope:` registration) is refused to a
    /// singleton as a direct dependency (captiveDependency); a Lazy of it is as captive.
    @Test func aSingletonsLazyOfAValueGivenToTheScopeIsACaptiveDependency() throws {
        let container = Container()
        container.register(S61Holder.self, scope: .singleton) { r in
            S61Holder(lazyInfo: try r.resolve(Lazy<S61RequestInfo>.self))
        }
        container.register(S61Reader.self, scope: .singleton) { r in
            S61Reader(now: try r.resolve(S61RequestInfo.self).id)
        }
        // The direct dependency is refused:
        let direct = injectionError {
            try container.withScope(providing: { $0.provide(S61RequestInfo.self, S61RequestInfo(id: 1)) }) {
                try $0.resolve(S61Reader.self)
            }
        }
        #expect(direct?.code == .captiveDependency)

        let viaLazy = injectionError {
            try container.withScope(providing: { $0.provide(S61RequestInfo.self, S61RequestInfo(id: 1)) }) {
                try $0.resolve(S61Holder.self)
            }
        }
        #expect(viaLazy?.code == .captiveDependency, "the Lazy was made")
        #expect(
            viaLazy?.message
                == "Captive dependency: S61Holder (.singleton) holds a Lazy<S61RequestInfo>, which resolves from the"
                + " container, where S61RequestInfo (.scoped) cannot be resolved: every use would fail. Path: S61Holder"
                + " -> S61RequestInfo. Fix: pass S61RequestInfo to the methods of S61Holder that use it rather than"
                + " hold a handle to it, or give S61Holder a scope no longer than S61RequestInfo's (.scoped or"
                + " .transient)."
        )
    }

    /// An async singleton asking, in its async factory, for a ServiceProvider of an async scoped
    /// service is refused as a captive dependency, by resolveAsync and by validateAsync.
    @Test func anAsyncSingletonsProviderOfAnAsyncScopedServiceIsACaptiveDependency() async throws {
        let container = Container()
        container.register(S61AsyncScoped.self, scope: .scoped) { _ async in S61AsyncScoped() }
        container.register(S61AsyncHolder.self, scope: .singleton) { r async throws in
            S61AsyncHolder(provider: try await r.resolveAsync(ServiceProvider<S61AsyncScoped>.self))
        }
        let error = await injectionErrorAsync {
            try await container.withScopeAsync { try await $0.resolveAsync(S61AsyncHolder.self) }
        }
        #expect(error?.code == .captiveDependency)
        #expect(error?.resolutionPath.map(\.description) == ["S61AsyncHolder", "S61AsyncScoped"])
        let validation = await injectionErrorAsync { try await container.validateAsync() }
        #expect(validation?.problems.map(\.code) == [.captiveDependency])
    }

    /// Under an override that makes the scoped service a singleton instance, the singleton's
    /// handle is not captive: the lookup sees the override.
    @Test func aHandleToAScopedServiceOverriddenByAnInstanceIsNotCaptive() throws {
        let container = Container()
        container.register(S61SessionImpl.self, scope: .scoped) { _ in S61SessionImpl() }
        container.register(S61Session.self, scope: .scoped) { _ in S61SessionImpl() }
        container.register(S61Holder.self, scope: .singleton) { r in
            S61Holder(provider: try r.resolve(ServiceProvider<S61Session>.self))
        }
        let fake = S61SessionImpl()
        try container.withOverrides {
            $0.register(S61Session.self, instance: fake as S61Session, ownedBy: .caller)
        } operation: {
            let holder = try container.resolve(S61Holder.self)
            #expect(try holder.provider!.resolve() as? S61SessionImpl === fake)
        }
    }

    // MARK: - f132f76: Lazy of an async registration

    /// A Lazy made while its service was sync, read under an override that makes it async: the
    /// read's error is the Lazy's own (no resolveAsync to call on a Lazy), wherever it is read.
    @Test func aLazyReadInsideAFactoryAfterItsServiceBecameAsyncGivesTheLazyMessage() throws {
        let container = Container()
        container.register(S61Clock.self) { _ in S61Clock(now: 1) }
        let stamper = S61Stamper(clock: try container.resolve(Lazy<S61Clock>.self))
        container.register(S61Reader.self) { _ in S61Reader(now: try stamper.clock.value.now) }

        try container.withOverrides {
            $0.register(S61Clock.self) { _ async in S61Clock(now: 2) }
        } operation: {
            let topLevel = try #require(injectionError { try stamper.clock.value })
            #expect(topLevel.message.hasPrefix("S61Clock has an async factory, which a Lazy cannot run"))

            let nested = try #require(injectionError { try container.resolve(S61Reader.self) })
            #expect(nested.code == .asyncResolutionRequired)
            #expect(
                nested.message
                    == "S61Clock has an async factory, which a Lazy cannot run: its value is read synchronously."
                    + " Path: S61Reader -> S61Clock. Fix: hold a ServiceProvider<S61Clock> instead and call try await"
                    + " resolveAsync() where S61Clock is needed (a shared one is built once), or resolve S61Clock with"
                    + " try await resolveAsync before it is needed."
            )
        }
    }

    /// A Lazy of a service whose container registration is async but whose override is sync is
    /// made and read under the override.
    @Test func aLazyOfAnAsyncRegistrationOverriddenSyncIsMade() throws {
        let container = Container()
        container.register(S61Clock.self) { _ async in S61Clock(now: 1) }
        let now = try container.withOverrides {
            $0.register(S61Clock.self) { _ in S61Clock(now: 2) }
        } operation: {
            try container.resolve(Lazy<S61Clock>.self).value.now
        }
        #expect(now == 2)
        #expect(injectionError { try container.resolve(Lazy<S61Clock>.self) }?.code == .asyncResolutionRequired)
    }

    /// A Lazy of a protocol reached through `implements` is as async as the registration it hands
    /// on: where a child registers that original with an async factory, the Lazy resolved from the
    /// child could never be read, and is refused at once as a Lazy of an async registration is.
    @Test func aLazyOfAProtocolForwardedToAChildsAsyncRegistrationIsRefusedAtOnce() throws {
        let parent = Container()
        parent.register(S61SessionImpl.self) { _ in S61SessionImpl() }.implements(S61Session.self)
        let child = parent.makeChild()
        child.register(S61SessionImpl.self) { _ async in S61SessionImpl() }

        let made = try #require(injectionError { try child.resolve(Lazy<S61Session>.self) })
        #expect(made.code == .asyncResolutionRequired)
        #expect(
            made.message
                == "S61SessionImpl has an async factory, which a Lazy cannot run: its value is read synchronously."
                + " Path: S61Session -> S61SessionImpl. Fix: hold a ServiceProvider<S61Session> instead and call try"
                + " await resolveAsync() where S61Session is needed (a shared one is built once), or resolve S61Session"
                + " with try await resolveAsync before it is needed."
        )
    }

    /// canResolveAsync answers whether resolveAsync would find a usable registration: a Lazy of
    /// an async registration is refused by resolveAsync, so it is not one.
    @Test func canResolveAsyncOfALazyOfAnAsyncRegistrationAgreesWithResolveAsync() async throws {
        let container = Container()
        container.register(S61Clock.self) { _ async in S61Clock(now: 1) }
        let error = await injectionErrorAsync { try await container.resolveAsync(Lazy<S61Clock>.self) }
        #expect(error?.code == .asyncResolutionRequired)
        #expect(!container.canResolveAsync(Lazy<S61Clock>.self))
        #expect(!container.makeScope().canResolveAsync(Lazy<S61Clock>.self))
        #expect(container.canResolveAsync(ServiceProvider<S61Clock>.self))
    }

    // MARK: - d55681c: declared parameter near-miss fix

    /// The fix d55681c gives, followed, works: a Lazy parameter named in `using:` as
    /// `Resolved(Lazy<T>.self, name:)` resolves the named registration, and validate() passes.
    @Test func theDeclaredNearMissFixForALazyParameterWorksWhenFollowed() throws {
        let broken = Container()
        broken.register(S61Clock.self, name: "utc") { _ in S61Clock(now: 7) }
        broken.register(S61Stamper.self, S61Stamper.init(clock:))
        let error = try #require(injectionError { try broken.validate() })
        #expect(error.message.contains("e.g. Resolved(Lazy<S61Clock>.self, name: \"utc\")"), "\(error.message)")

        let fixed = Container()
        fixed.register(S61Clock.self, name: "utc") { _ in S61Clock(now: 7) }
        fixed.register(
            S61Stamper.self,
            using: Resolved(Lazy<S61Clock>.self, name: "utc"),
            make: S61Stamper.init(clock:)
        )
        _ = try fixed.validate()
        #expect(try fixed.resolve(S61Stamper.self).clock.value.now == 7)
    }

    /// A declared parameter missing where its type is registered only with arguments: a declared
    /// function cannot pass arguments, so the fix must not tell it to "ask for one of those (same
    /// name and argument types)", the very advice d55681c replaced as impossible for a declared
    /// function.
    @Test func aDeclaredParameterRegisteredOnlyWithArgumentsGetsNoImpossibleFix() throws {
        let container = Container()
        container.register(S61Scoped.self, name: "x") { (_, n: Int) in S61Scoped() }
        container.register(S61Worker.self, S61Worker.init(scoped:))

        let resolved = try #require(injectionError { try container.resolve(S61Worker.self) })
        #expect(resolved.code == .missingRegistration)
        #expect(resolved.message.hasPrefix("No registration for S61Scoped, the 1st parameter of S61Worker"))
        #expect(!resolved.message.contains("ask for one of those"), "\(resolved.message)")
        let validation = try #require(injectionError { try container.validate() })
        #expect(!validation.message.contains("ask for one of those"), "\(validation.message)")
    }

    // MARK: - 19c0a00, continued

    /// The public documentation of `unmatchedOverride` (and TestingWithOverrides.md) refuses an
    /// unnamed override that replaces nothing "while the container registers its type only under
    /// names or with arguments". A container that registers the type unnamed without arguments
    /// does not, so an override adding the key with arguments is accepted.
    @Test func anUnnamedOverrideWithArgumentsOfATypeRegisteredPlainlyFollowsTheDocumentedRule() throws {
        let container = Container()
        container.register(S61Clock.self) { _ in S61Clock(now: 1) }
        let now = try container.withOverrides {
            $0.register(S61Clock.self) { (_, n: Int) in S61Clock(now: n) }
        } operation: {
            try container.resolve(S61Clock.self, argument: 5).now
        }
        #expect(now == 5)
    }

    /// A declared singleton holding a handle to a value scopes are given, checked with a sample of
    /// it, is a captive dependency as when it is built.
    @Test func aDeclaredSingletonsLazyOfASampleScopeValueIsACaptiveDependency() throws {
        let container = Container()
        container.register(S61Holder.self, scope: .singleton) { (info: Lazy<S61RequestInfo>) in
            S61Holder(lazyInfo: info)
        }

        let error = try #require(
            injectionError {
                try container.validate(providing: { $0.provide(S61RequestInfo.self, S61RequestInfo(id: 1)) })
            }
        )
        #expect(
            error.problems.map(\.message) == [
                "Captive dependency: S61Holder (.singleton) holds a Lazy<S61RequestInfo>, which resolves from the"
                    + " container, where S61RequestInfo (.scoped) cannot be resolved: every use would fail. Path:"
                    + " S61Holder -> S61RequestInfo. Fix: pass S61RequestInfo to the methods of S61Holder that use it"
                    + " rather than hold a handle to it, or give S61Holder a scope no longer than S61RequestInfo's"
                    + " (.scoped or .transient)."
            ]
        )
    }
}
