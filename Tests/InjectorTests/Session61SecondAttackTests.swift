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

private protocol S61bPort: Sendable {}
private final class S61bImpl: S61bPort, Sendable {}
private final class S61bOther: S61bPort, Sendable {}
private final class S61bScoped: Sendable {}
private final class S61bOptHolder: Sendable {
    let lazy: Lazy<S61bScoped?>
    init(lazy: Lazy<S61bScoped?>) { self.lazy = lazy }
}
private final class S61bAsyncThing: Sendable {}

/// Runs `body` on a thread of its own; whether it returned within `seconds`. A body that never
/// returns leaves its thread spinning: the test reports the hang rather than hanging the suite.
private func s61bFinishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}

// Second attack on f132f76..eb41548: Lazy of async services, captive handles, unmatched
// overrides, and handles used after their scope closed.

@Suite struct Session61SecondAttackTests {
    // MARK: - builtRegistration follows implements forever

    @Test func aLateSelfForwardingDoesNotHangALazyResolve() throws {
        let container = Container()
        let registration = container.register(S61bImpl.self) { _ in S61bImpl() }
        try container.finishRegistration()
        registration.implements(S61bImpl.self)  // late: recorded as a conflict, and stored
        let finished = s61bFinishes(within: 2) {
            _ = try? container.resolve(Lazy<S61bImpl>.self)
        }
        #expect(finished, "resolve(Lazy<S61bImpl>) never returned")
    }

    @Test func aLateForwardingCycleDoesNotHangAServiceProviderResolve() throws {
        let container = Container()
        let impl = container.register(S61bImpl.self) { _ in S61bImpl() }
        let port = container.register(S61bPort.self) { _ in S61bOther() }
        try container.finishRegistration()
        impl.implements(S61bPort.self)
        port.implements(S61bImpl.self)
        #expect(injectionError { try container.resolve(S61bPort.self) } != nil)
        let finished = s61bFinishes(within: 2) {
            _ = try? container.resolve(ServiceProvider<S61bPort>.self)
        }
        #expect(finished, "resolve(ServiceProvider<S61bPort>) never returned")
    }

    // MARK: - scopeClosed blamed on a handle whose scope is open

    @Test func aHandleFromAnOpenScopeIsNotBlamedForAnotherScopeClosed() throws {
        let container = Container()
        let job = container.makeScope(tag: "job")
        try job.close()
        container.register(S61bScoped.self, scope: .scoped) { _ in S61bScoped() }
        container.register(S61bImpl.self) { _ in
            _ = try job.resolve(S61bScoped.self)
            return S61bImpl()
        }
        let request = container.makeScope(tag: "request")
        let provider = try request.resolve(ServiceProvider<S61bImpl>.self)
        let error = try #require(injectionError { try provider.resolve() })
        #expect(error.code == .scopeClosed)
        #expect(!error.message.hasPrefix("A Lazy or ServiceProvider"), "\(error.message)")
        #expect(!error.message.contains("request"), "the open scope is blamed: \(error.message)")
    }

    // MARK: - handles of optional types bypass the new checks

    @Test func aSingletonsLazyOfAnOptionalScopedServiceIsCaptive() throws {
        let container = Container()
        container.register(S61bScoped.self, scope: .scoped) { _ in S61bScoped() }
        container.register(S61bOptHolder.self, scope: .singleton) { r in
            S61bOptHolder(lazy: try r.resolve(Lazy<S61bScoped?>.self))
        }
        let error = injectionError { try container.withScope { try $0.resolve(S61bOptHolder.self) } }
        #expect(error?.code == .captiveDependency)
        #expect(
            error?.message
                == "Captive dependency: S61bOptHolder (.singleton) holds a Lazy<Optional<S61bScoped>>, which resolves"
                + " from the container, where S61bScoped (.scoped) cannot be resolved: every use would fail. Path:"
                + " S61bOptHolder -> S61bScoped. Fix: pass S61bScoped to the methods of S61bOptHolder that use it"
                + " rather than hold a handle to it, or give S61bOptHolder a scope no longer than S61bScoped's"
                + " (.scoped or .transient)."
        )
    }

    @Test func validateAcceptsATransientsLazyOfAnOptionalScopedService() throws {
        let container = Container()
        container.register(S61bScoped.self, scope: .scoped) { _ in S61bScoped() }
        container.register(S61bOptHolder.self) { r in S61bOptHolder(lazy: try r.resolve(Lazy<S61bScoped?>.self)) }
        let scope = container.makeScope()
        #expect(try scope.resolve(S61bOptHolder.self).lazy.value != nil)  // works
        let error = injectionError { try container.validate() }
        #expect(error == nil, "\(error?.message ?? "")")
    }

    @Test func aLazyOfAnOptionalAsyncServiceIsRefusedAsCanResolveAsyncSays() async throws {
        let container = Container()
        container.register(S61bAsyncThing.self) { _ async in S61bAsyncThing() }
        #expect(!container.canResolveAsync(Lazy<S61bAsyncThing?>.self))
        let error = await injectionErrorAsync { try await container.resolveAsync(Lazy<S61bAsyncThing?>.self) }
        #expect(error?.code == .asyncResolutionRequired, "the Lazy was made; canResolveAsync said no")
        #expect(
            error?.message
                == "S61bAsyncThing has an async factory, which a Lazy cannot run: its value is read synchronously."
                + " Fix: hold a ServiceProvider<S61bAsyncThing> instead and call try await resolveAsync() where"
                + " S61bAsyncThing is needed (a shared one is built once), or resolve S61bAsyncThing with try await"
                + " resolveAsync before it is needed."
        )
    }

    // MARK: - unmatched overrides

    /// A plain override replaces a value given to scopes. Where the container also registers the
    /// type under a name, the override is checked against the registrations, which do not know the
    /// undeclared value: it is refused, with a fix that declares it; declared, it is used.
    @Test func aPlainOverrideOfAValueGivenToScopesIsUsedOnceTheValueIsDeclared() throws {
        let double = S61bImpl()
        let plain = Container()
        let got = try plain.withOverrides {
            $0.register(S61bImpl.self) { _ in double }
        } operation: {
            try plain.makeScope(providing: { $0.provide(S61bImpl.self, S61bImpl()) }).resolve(S61bImpl.self)
        }
        #expect(got === double)  // the override replaces the scope's value

        let container = Container()
        container.register(S61bImpl.self, name: "background") { _ in S61bImpl() }
        let override: (Container) -> Void = { $0.register(S61bImpl.self) { _ in double } }
        let resolve = {
            try container.makeScope(providing: { $0.provide(S61bImpl.self, S61bImpl()) }).resolve(S61bImpl.self)
        }
        let error = injectionError { try container.withOverrides(override, operation: resolve) }
        #expect(error?.code == .unmatchedOverride)
        #expect(
            error?.message
                == "The override of S61bImpl replaces no registration: the container registers S61bImpl as S61bImpl"
                + " (name: \"background\"), which resolves as before. Fix: override that key, e.g."
                + " overrides.register(S61bImpl.self, name: \"background\") { r in … }; if it is meant to add"
                + " S61bImpl, register it in the container first, or, for a value scopes are given, declare it:"
                + " container.register(S61bImpl.self, providedByScope: …)."
        )
        container.register(S61bImpl.self, providedByScope: nil)
        #expect(try container.withOverrides(override, operation: resolve) === double)
    }
}
