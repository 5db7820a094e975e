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

// A factory's resolve of a published singleton, or of a value given to its lifetime scope, is one
// non-generic step (`ResolutionContext.lookUp`), which must answer as the lifetime switch does:
// errors (code and message), side stores of overrides and validation, async and weak
// registrations, child containers, amended registrations, many tasks at once.

private protocol Account: Disposable, AnyObject, Sendable {}
private protocol Named: Sendable {
    var name: String { get }
}
/// Disposable, and records how often it was disposed.
private final class Ledger: Account, Named, @unchecked Sendable {  // `count` is only touched under `lock`
    private let lock = NSLock()
    private var count = 0
    let name: String
    init(_ name: String = "ledger") { self.name = name }
    func dispose() { lock.withLock { count += 1 } }
    var disposals: Int { lock.withLock { count } }
}
private final class Envelope<Content: Sendable>: Sendable {
    let content: Content
    init(_ content: Content) { self.content = content }
}
private struct RequestInfo: Sendable, Equatable {
    let id: Int
}
private final class Handler: Sendable {
    let info: RequestInfo
    init(_ info: RequestInfo) { self.info = info }
}
private final class Cache: Sendable {}
private final class Clock: Sendable {
    let serial: Int
    init(_ serial: Int) { self.serial = serial }
}
private final class Service: Sendable {
    let clock: Clock
    init(_ clock: Clock) { self.clock = clock }
}
private final class AsyncClock: Sendable {}
private final class Holder: Sendable {
    let ledger: Ledger?
    init(_ ledger: Ledger?) { self.ledger = ledger }
}

// MARK: - A published singleton

@Suite struct SingletonThroughAResolverTests {
    private static let tasks = 24

    /// A configure closure for a singleton, published or not, through a resolver, is an error.
    @Test func configuredSingletonThroughAResolverIsAnErrorPublishedOrNot() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in Clock(1) }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self, configure: { _ in })) }

        let cold = try #require(injectionError { try container.resolve(Service.self) })
        _ = try container.resolve(Clock.self)
        let warm = try #require(injectionError { try container.resolve(Service.self) })
        let top = try #require(injectionError { try container.resolve(Clock.self, configure: { _ in }) })

        for error in [cold, warm, top] {
            #expect(error.code == .sharedInstanceConfigured)
            #expect(
                error.message
                    == "A configure closure was given for Clock, whose .singleton instance is shared with other"
                    + " callers, so one caller may not shape it. Fix: move that set-up into the factory or an"
                    + " onResolved hook, or register Clock as .transient if each caller needs its own."
            )
        }
        #expect(cold.resolutionPath.map(\.description) == ["Service", "Clock"])
        #expect(warm.resolutionPath.map(\.description) == ["Service", "Clock"])
    }

    /// A late registration of a published singleton's key makes every resolve of it an error,
    /// top-level and through a resolver, though the first registration's slot holds an instance.
    @Test func lateRegistrationOfAPublishedSingletonIsAnErrorThroughAResolver() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in Clock(1) }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self)) }
        let clock = try container.resolve(Clock.self)
        #expect(try container.resolve(Service.self).clock === clock)
        try container.finishRegistration()

        let line = #line + 1
        container.register(Clock.self, scope: .singleton) { _ in Clock(2) }

        let nested = try #require(injectionError { try container.resolve(Service.self) })
        let top = try #require(injectionError { try container.resolve(Clock.self) })
        for error in [nested, top] {
            #expect(error.code == .registrationAfterFinish)
            #expect(error.message.contains("Clock was registered after finishRegistration() (at"))
            #expect(error.message.contains("ResolverLookUpTests.swift:\(line)); the registry was already frozen."))
        }
    }

    /// A hook added after finishRegistration to a published singleton: a late amendment, an error
    /// through a resolver as at the top level.
    @Test func lateAmendmentOfAPublishedSingletonIsAnErrorThroughAResolver() throws {
        let container = Container()
        let registration = container.register(Clock.self, scope: .singleton) { _ in Clock(1) }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self)) }
        _ = try container.resolve(Service.self)
        try container.finishRegistration()

        registration.onResolved { _, _ in }

        let nested = try #require(injectionError { try container.resolve(Service.self) })
        let top = try #require(injectionError { try container.resolve(Clock.self) })
        for error in [nested, top] {
            #expect(error.code == .registrationAfterFinish)
            #expect(error.message.hasPrefix("An onResolved hook or verify check was added to Clock at"))
        }
    }

    @Test func duplicateSingletonIsAConflictThroughAResolver() throws {
        let container = Container()
        let line = #line + 1
        container.register(Clock.self, scope: .singleton) { _ in Clock(1) }
        container.register(Clock.self, scope: .singleton) { _ in Clock(2) }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self)) }

        let error = try #require(injectionError { try container.resolve(Service.self) })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "Clock is registered 2 times: at InjectorTests/ResolverLookUpTests.swift:\(line), then at"
                + " InjectorTests/ResolverLookUpTests.swift:\(line + 1). Fix: remove all but one; give them different"
                + " names if each is needed (resolveAll collects them); or pass replacesExisting: true to the one"
                + " meant to replace the others, as a test does when it swaps in a double."
        )
        #expect(error.resolutionPath.map(\.description) == ["Service", "Clock"])
    }

    @Test func singletonWithArgumentsIsAConflictThroughAResolver() throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { (_, serial: Int) in Clock(serial) }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self, argument: 3)) }

        let first = try #require(injectionError { try container.resolve(Service.self) })
        let second = try #require(injectionError { try container.resolve(Service.self) })

        for error in [first, second] {
            #expect(error.code == .sharedScopeWithArguments)
            #expect(error.message.contains("is registered as .singleton at"))
        }
    }

    /// A singleton built under overrides stays in their store: a resolver inside the call gets the
    /// call's, outside gets the container's own, built then; one published before the call is not
    /// returned inside it either when it is overridden.
    @Test func singletonBuiltUnderOverridesIsNeverTheContainersThroughAResolver() throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clock.self, scope: .singleton) { _ in Clock(built.next()) }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self)) }
        container.register(Cache.self) { _ in Cache() }

        let inside = try container.withOverrides {
            $0.register(Cache.self) { _ in Cache() }
        } operation: {
            let first = try container.resolve(Service.self).clock
            #expect(try container.resolve(Service.self).clock === first)
            #expect(try container.resolve(Clock.self) === first)
            return first
        }
        let outside = try container.resolve(Service.self).clock

        #expect(inside !== outside)
        #expect(try container.resolve(Clock.self) === outside)
        #expect(built.count == 2)

        let overridden = try container.withOverrides {
            $0.register(Clock.self, scope: .singleton) { _ in Clock(100) }
        } operation: {
            try container.resolve(Service.self).clock
        }
        #expect(overridden.serial == 100)
        #expect(try container.resolve(Service.self).clock === outside)
    }

    /// Validation's singletons stay in its sandbox: the first real resolve through a resolver
    /// builds the container's own.
    @Test func singletonBuiltInValidationIsNotReturnedThroughAResolver() throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clock.self, scope: .singleton) { _ in Clock(built.next()) }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self)) }

        _ = try container.validate()
        let inValidation = built.count
        let service = try container.resolve(Service.self)

        #expect(inValidation >= 1)
        #expect(service.clock.serial == inValidation + 1)
        #expect(try container.resolve(Clock.self) === service.clock)
        _ = try container.validate()
        #expect(try container.resolve(Service.self).clock === service.clock)
    }

    /// A validation run after publication still builds its own and does not hand out the published
    /// one's; a value-type singleton, too.
    @Test func validationAfterPublicationLeavesThePublishedSingletonAlone() throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clock.self, scope: .singleton) { _ in Clock(built.next()) }
        container.register(Int.self, name: "serial", scope: .singleton) { r in try r.resolve(Clock.self).serial }
        container.register(Service.self) { r in
            _ = try r.resolve(Int.self, name: "serial")
            return try Service(r.resolve(Clock.self))
        }
        let published = try container.resolve(Service.self).clock

        _ = try container.validate()

        #expect(try container.resolve(Int.self, name: "serial") == published.serial)
        #expect(try container.resolve(Service.self).clock === published)
    }

    /// The sync path never returns an async singleton, even published: a sync factory's resolve
    /// of it is an error.
    @Test func publishedAsyncSingletonIsNotReturnedBySyncResolverPath() async throws {
        let container = Container()
        container.register(AsyncClock.self, scope: .singleton) { _ async in AsyncClock() }
        container.register(Cache.self) { r in
            _ = try r.resolve(AsyncClock.self)
            return Cache()
        }
        _ = try await container.resolveAsync(AsyncClock.self)

        let sync = try #require(injectionError { try container.resolve(Cache.self) })
        let async = await injectionErrorAsync { try await container.resolveAsync(Cache.self) }

        for error in [sync, try #require(async)] {
            #expect(error.code == .asyncResolutionRequired)
            #expect(error.message.hasPrefix("AsyncClock has an async factory, which a sync resolve cannot run."))
        }
        let topLevel = try #require(injectionError { try container.resolve(AsyncClock.self) })
        #expect(topLevel.code == .asyncResolutionRequired)
        #expect(
            topLevel.message
                == "AsyncClock has an async factory, which a sync resolve cannot run. Fix: resolve it with try await"
                + " resolveAsync(AsyncClock.self), from the container or scope you resolve from (r.resolveAsync in"
                + " an async factory); a sync factory that needs it must become async too."
        )
    }

    @Test func childThatShadowsASingletonGetsItsOwnAndOneThatInheritsGetsTheParents() throws {
        let parent = Container()
        let built = CallCounter()
        parent.register(Clock.self, scope: .singleton) { _ in Clock(built.next()) }
        parent.register(Service.self) { r in try Service(r.resolve(Clock.self)) }
        let inheriting = parent.makeChild()
        let shadowing = parent.makeChild()
        shadowing.register(Clock.self, scope: .singleton) { _ in Clock(1000 + built.next()) }
        shadowing.register(Service.self) { r in try Service(r.resolve(Clock.self)) }

        let fromParent = try parent.resolve(Service.self).clock
        let fromInheriting = try inheriting.resolve(Service.self).clock
        let fromShadowing = try shadowing.resolve(Service.self).clock

        #expect(fromInheriting === fromParent)
        #expect(fromShadowing !== fromParent)
        #expect(fromShadowing.serial > 1000)
        #expect(try shadowing.resolve(Clock.self) === fromShadowing)
        #expect(try shadowing.makeScope().resolve(Service.self).clock === fromShadowing)
        #expect(try parent.resolve(Clock.self) === fromParent)
    }

    /// A singleton with a hook added before finishRegistration is a copy of its provider sharing
    /// its slot: one instance, the hook run once, whichever path asks first.
    @Test(arguments: [true, false])
    func amendedSingletonIsOneInstanceThroughEveryPath(resolverFirst: Bool) throws {
        let container = Container()
        let built = CallCounter()
        let hooked = CallCounter()
        container.register(Clock.self, scope: .singleton) { _ in Clock(built.next()) }
            .onResolved { _, _ in hooked.next() }
            .verify { _ in }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self)) }
        try container.finishRegistration()

        let first = resolverFirst ? try container.resolve(Service.self).clock : try container.resolve(Clock.self)
        #expect(try container.resolve(Service.self).clock === first)
        #expect(try container.resolve(Clock.self) === first)
        #expect(try container.makeScope().resolve(Service.self).clock === first)
        #expect(built.count == 1)
        #expect(hooked.count == 1)
    }

    /// Singletons of many kinds of types come back intact through a resolver.
    @Test func singletonsOfManyTypesComeBackIntactThroughAResolver() throws {
        let container = Container()
        container.register(Envelope<Int>.self, scope: .singleton) { _ in Envelope(1) }
        container.register(Envelope<String>.self, scope: .singleton) { _ in Envelope("one") }
        container.register(RequestInfo.self, scope: .singleton) { _ in RequestInfo(id: 7) }
        container.register((any Named).self, scope: .singleton) { _ in Ledger("named") }
        container.register(Ledger?.self, name: "none", scope: .singleton) { _ in nil }
        container.register(Ledger?.self, name: "some", scope: .singleton) { _ in Ledger("some") }
        container.register((@Sendable () -> Int).self, scope: .singleton) { _ in { 42 } }
        container.register(Ledger.Type.self, scope: .singleton) { _ in Ledger.self }
        container.register(String.self, scope: .singleton) { _ in String(repeating: "long string ", count: 4) }
        container.register(Holder.self) { r in
            #expect(try r.resolve(Envelope<Int>.self).content == 1)
            #expect(try r.resolve(Envelope<String>.self).content == "one")
            #expect(try r.resolve(RequestInfo.self) == RequestInfo(id: 7))
            #expect(try r.resolve((any Named).self).name == "named")
            #expect(try r.resolve(Ledger?.self, name: "none") == nil)
            #expect(try r.resolve((@Sendable () -> Int).self)() == 42)
            #expect(try r.resolve(Ledger.Type.self) == Ledger.self)
            #expect(try r.resolve(String.self) == String(repeating: "long string ", count: 4))
            return Holder(try r.resolve(Ledger?.self, name: "some"))
        }

        let cold = try container.resolve(Holder.self)
        let warm = try container.resolve(Holder.self)

        #expect(cold.ledger?.name == "some")
        #expect(warm.ledger === cold.ledger)
        #expect(try container.resolve(Envelope<Int>.self) === container.resolve(Envelope<Int>.self))
    }

    /// Many tasks, sync and async, through resolvers and a captured container, ask a cold
    /// singleton: one instance, built once.
    @Test func coldSingletonThroughResolversAndACapturedContainerIsBuiltOnce() async throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clock.self, scope: .singleton) { _ in
            usleep(2_000)
            return Clock(built.next())
        }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self)) }
        container.register(Service.self, name: "captured") { _ in try Service(container.resolve(Clock.self)) }
        container.register(Service.self, name: "async") { r async throws in try Service(r.resolve(Clock.self)) }
        container.register(Service.self, name: "async captured") { _ async throws in
            try await Service(container.resolveAsync(Clock.self))
        }

        let names: [String?] = [nil, "captured", "async", "async captured"]
        let clocks = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<Self.tasks {
                let name = names[index % names.count]
                group.addTask {
                    let scope = container.makeScope()
                    if index.isMultiple(of: 3) {
                        return ObjectIdentifier(try await scope.resolveAsync(Service.self, name: name).clock)
                    }
                    if name == nil || name == "captured" {
                        return ObjectIdentifier(try scope.resolve(Service.self, name: name).clock)
                    }
                    return ObjectIdentifier(try await container.resolveAsync(Service.self, name: name).clock)
                }
            }
            let detached = (0..<4).map { _ in
                Task.detached { ObjectIdentifier(try container.resolve(Service.self).clock) }
            }
            async let first = container.resolveAsync(Service.self, name: "async")
            var set = try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            for task in detached { set.insert(try await task.value) }
            set.insert(ObjectIdentifier(try await first.clock))
            return set
        }

        #expect(clocks.count == 1)
        #expect(built.count == 1)
    }

    /// Tasks inside an override call and outside it at once, each through resolvers: those inside
    /// get the override, those outside the container's, never crossed.
    @Test func tasksInsideAndOutsideOverridesAtOnceNeverCrossSingletons() async throws {
        let container = Container()
        container.register(Clock.self, scope: .singleton) { _ in Clock(1) }
        container.register(Service.self) { r in try Service(r.resolve(Clock.self)) }
        let real = try container.resolve(Service.self).clock

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await container.withOverridesAsync {
                    $0.register(Clock.self, scope: .singleton) { _ in Clock(2) }
                } operation: {
                    for _ in 0..<200 {
                        let clock = try container.makeScope().resolve(Service.self).clock
                        #expect(clock.serial == 2)
                        await Task.yield()
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask { () async throws in
                    for _ in 0..<200 {
                        #expect(try container.resolve(Service.self).clock === real)
                        #expect(try await container.resolveAsync(Service.self).clock === real)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try container.resolve(Clock.self) === real)
    }
}

// MARK: - A value given to a scope

@Suite struct ScopeValueThroughAResolverTests {
    private static let tasks = 48

    @Test func valueOfAnotherTagThroughAResolverIsAMismatch() throws {
        let container = Container()
        let line = #line + 1
        container.register(RequestInfo.self, providedByScope: "request")
        container.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self)) }
        let session = container.makeScope(tag: "session") { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }
        let request = container.makeScope(tag: "request") { $0.provide(RequestInfo.self, RequestInfo(id: 2)) }

        #expect(try request.resolve(Handler.self).info.id == 2)
        let error = try #require(injectionError { try session.resolve(Handler.self) })

        #expect(error.code == .scopeMismatch)
        #expect(
            error.message
                == "RequestInfo is a value provided by lifetime scopes tagged \"request\" (declared at"
                + " InjectorTests/ResolverLookUpTests.swift:\(line)), but was resolved from the scope \"session\"."
                + " Path: Handler -> RequestInfo. Fix: resolve it from a scope made with"
                + " container.makeScope(tag: \"request\") { $0.provide(RequestInfo.self, …) }, or declare it with"
                + " providedByScope: nil to let a scope of any tag be given it."
        )
    }

    /// A singleton or weak factory resolving a scope value, directly or through a transient:
    /// a captive dependency, also once the value was served to others.
    @Test(arguments: ["singleton", "weak"])
    func outlivingFactoryResolvingAValueThroughAResolverIsCaptive(kind: String) throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self)) }
        container.register(Cache.self, scope: kind == "weak" ? .weak : .singleton) { r in
            _ = try r.resolve(Handler.self)
            return Cache()
        }
        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }
        #expect(try scope.resolve(Handler.self).info.id == 1)

        let error = try #require(injectionError { try scope.resolve(Cache.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message.hasPrefix(
                "Captive dependency: Cache (.\(kind)) depends on RequestInfo (.scoped), which would then"
                    + " outlive its lifetime scope. Path: Cache -> Handler -> RequestInfo."
            )
        )
    }

    /// An undeclared value is captive in a singleton too (the unregistered path).
    @Test func singletonResolvingAnUndeclaredValueIsCaptive() throws {
        let container = Container()
        container.register(Cache.self, scope: .singleton) { r in
            _ = try r.resolve(RequestInfo.self)
            return Cache()
        }
        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }

        let error = try #require(injectionError { try scope.resolve(Cache.self) })

        #expect(error.code == .captiveDependency)
        #expect(error.message.hasPrefix("Captive dependency: Cache (.singleton) depends on RequestInfo (.scoped)"))
    }

    @Test func missingValueThroughAResolverIsReportedEveryTime() throws {
        let container = Container()
        let line = #line + 1
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self)) }
        let scope = container.makeScope { $0.provide(String.self, "other") }

        for _ in 0..<2 {
            let error = try #require(injectionError { try scope.resolve(Handler.self) })
            #expect(error.code == .scopeValueMissing)
            #expect(
                error.message
                    == "RequestInfo is a value provided by lifetime scopes (declared at"
                    + " InjectorTests/ResolverLookUpTests.swift:\(line)), but the untagged scope was not given one."
                    + " Path: Handler -> RequestInfo. Fix: give it when making the scope:"
                    + " container.makeScope() { $0.provide(RequestInfo.self, …) }."
            )
        }
        let fromContainer = try #require(injectionError { try container.resolve(Handler.self) })
        #expect(fromContainer.code == .scopeMismatch)
        #expect(
            fromContainer.message
                == "RequestInfo is a value provided by lifetime scopes (declared at"
                + " InjectorTests/ResolverLookUpTests.swift:\(line)), but was resolved from a container, outside any"
                + " lifetime scope. Path: Handler -> RequestInfo. Fix: resolve it from a scope given one:"
                + " container.makeScope() { $0.provide(RequestInfo.self, …) }."
        )
    }

    /// A configure closure for a scope value through a resolver is an error, as for a scoped one.
    @Test func configuredValueThroughAResolverIsAnError() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self, configure: { _ in })) }
        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }

        let error = try #require(injectionError { try scope.resolve(Handler.self) })

        #expect(error.code == .sharedInstanceConfigured)
        #expect(error.message.hasPrefix("A configure closure was given for RequestInfo, whose .scoped instance"))
    }

    /// A value declared twice is a conflict, not the value.
    @Test func valueDeclaredTwiceIsAConflictThroughAResolver() throws {
        let container = Container()
        let line = #line + 1
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self)) }
        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }

        let error = try #require(injectionError { try scope.resolve(Handler.self) })

        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message
                == "RequestInfo is registered 2 times: at InjectorTests/ResolverLookUpTests.swift:\(line), then at"
                + " InjectorTests/ResolverLookUpTests.swift:\(line + 1). Fix: remove all but one; give them different"
                + " names if each is needed (resolveAll collects them); or pass replacesExisting: true to the one"
                + " meant to replace the others, as a test does when it swaps in a double."
        )
    }

    /// Validation has no value to give: what needs one is listed as not checked, and a captive
    /// singleton around one is still reported.
    @Test func validationSandboxListsValuesAndStillFindsCaptives() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: "request")
        container.register(Handler.self, scope: .scoped(to: "request")) { r in try Handler(r.resolve(RequestInfo.self))
        }
        container.register(Cache.self, scope: .singleton) { r in
            _ = try r.resolve(Handler.self)
            return Cache()
        }

        let error = try #require(injectionError { try container.validate() })

        #expect(error.code == .validationFailed)
        #expect(error.message.contains("Captive dependency: Cache (.singleton) depends on Handler (.scoped"))
    }

    @Test func validationSandboxListsValuesNeededThroughAResolverAsUnchecked() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: "request")
        container.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self)) }

        let report = try container.validate()

        #expect(
            report.unchecked.map(\.description) == [
                "RequestInfo: provided by lifetime scopes",
                "Handler: needs a value provided by lifetime scopes",
            ]
        )
    }

    /// A value registration with a hook runs its hook once per scope, and hands out the value.
    @Test func valueWithAHookRunsItOncePerScopeThroughAResolver() throws {
        let container = Container()
        let hooked = CallCounter()
        container.register(Ledger.self, providedByScope: nil).onResolved { _, _ in hooked.next() }
        container.register(Holder.self) { r in Holder(try r.resolve(Ledger.self)) }
        let first = Ledger("first")
        let second = Ledger("second")
        let one = container.makeScope { $0.provide(Ledger.self, first) }
        let two = container.makeScope { $0.provide(Ledger.self, second) }

        #expect(try one.resolve(Holder.self).ledger === first)
        #expect(try one.resolve(Holder.self).ledger === first)
        #expect(try two.resolve(Holder.self).ledger === second)
        #expect(try one.resolve(Ledger.self) === first)
        #expect(hooked.count == 2)
        try one.close()
        try two.close()
        #expect(first.disposals == 0)
        #expect(second.disposals == 0)
    }

    /// Overriding a declared value: the override's factory, through a resolver, inside the call;
    /// the scope's value after it.
    @Test func overriddenValueIsTheOverridesThroughAResolverInsideTheCallOnly() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self)) }
        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }

        let inside = try container.withOverrides {
            $0.register(RequestInfo.self) { _ in RequestInfo(id: 99) }
        } operation: {
            try scope.resolve(Handler.self).info.id
        }
        let overriddenByValue = try container.withOverrides {
            $0.register(RequestInfo.self, providedByScope: nil)
        } operation: {
            try scope.resolve(Handler.self).info.id
        }

        #expect(inside == 99)
        #expect(overriddenByValue == 1)
        #expect(try scope.resolve(Handler.self).info.id == 1)
    }

    /// A value of many kinds of types, through a resolver, comes back as given.
    @Test func valuesOfManyTypesComeBackAsGivenThroughAResolver() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Ledger?.self, name: "none", providedByScope: nil)
        container.register((any Named).self, providedByScope: nil)
        container.register(Envelope<Int>.self, providedByScope: nil)
        container.register((@Sendable () -> Int).self, providedByScope: nil)
        container.register(String.self, providedByScope: nil)
        let envelope = Envelope(5)
        let named = Ledger("named")
        container.register(Holder.self) { r in
            #expect(try r.resolve(RequestInfo.self) == RequestInfo(id: 3))
            #expect(try r.resolve(Ledger?.self, name: "none") == nil)
            #expect(try r.resolve((any Named).self) as AnyObject === named)
            #expect(try r.resolve(Envelope<Int>.self) === envelope)
            #expect(try r.resolve((@Sendable () -> Int).self)() == 11)
            #expect(try r.resolve(String.self) == String(repeating: "x", count: 40))
            return Holder(try r.resolve(Ledger?.self, name: "none"))
        }
        let scope = container.makeScope { values in
            values.provide(RequestInfo.self, RequestInfo(id: 3))
            values.provide(Ledger?.self, name: "none", nil)
            values.provide((any Named).self, named)
            values.provide(Envelope<Int>.self, envelope)
            values.provide((@Sendable () -> Int).self) { 11 }
            values.provide(String.self, String(repeating: "x", count: 40))
        }

        _ = try scope.resolve(Holder.self)
        _ = try scope.resolve(Holder.self)
        try scope.close()
        #expect(named.disposals == 0)
    }

    /// An async factory resolving the value, sync and async, and a sync factory in an async
    /// resolution, and one resolving through the captured scope.
    @Test func valueThroughAsyncAndNestedResolutions() async throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Handler.self, name: "sync") { r in try Handler(r.resolve(RequestInfo.self)) }
        container.register(Handler.self, name: "async") { r async throws in
            let viaAsync = try await r.resolveAsync(RequestInfo.self)
            let viaSync = try r.resolve(RequestInfo.self)
            #expect(viaAsync == viaSync)
            return Handler(viaSync)
        }
        container.register(Handler.self, name: "scoped", scope: .scoped) { r in
            try Handler(r.resolve(Handler.self, name: "sync").info)
        }

        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 8)) }
        #expect(try await scope.resolveAsync(Handler.self, name: "sync").info.id == 8)
        #expect(try await scope.resolveAsync(Handler.self, name: "async").info.id == 8)
        #expect(try await scope.resolveAsync(Handler.self, name: "scoped").info.id == 8)
        #expect(try scope.resolve(Handler.self, name: "scoped").info.id == 8)
        try await scope.closeAsync()
    }

    /// Dependency-graph edges are recorded for a singleton and a value resolved through a resolver.
    @Test func dependencyGraphRecordsSingletonAndValueEdgesThroughAResolver() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Clock.self, scope: .singleton) { _ in Clock(1) }
        container.register(Handler.self) { r in
            _ = try r.resolve(Clock.self)
            return try Handler(r.resolve(RequestInfo.self))
        }
        _ = try container.resolve(Clock.self)  // published before the handler asks
        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }
        _ = try scope.resolve(Handler.self)
        _ = try scope.resolve(Handler.self)

        let graph = container.dependencyGraph()
        let handler = try #require(graph.nodes.first { $0.key.description == "Handler" })

        #expect(handler.dependencies.map(\.description).sorted() == ["Clock", "RequestInfo"])
    }

    /// Many scopes at once, each given its own value, resolved through resolvers on many tasks:
    /// each scope's factories see its value, never another's.
    @Test func manyScopesAtOnceEachSeeTheirOwnValue() async throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: "request")
        container.register(Ledger.self, providedByScope: "request")
        container.register(Handler.self, scope: .scoped(to: "request")) { r in
            try Handler(r.resolve(RequestInfo.self))
        }
        container.register(Holder.self) { r in
            _ = try r.resolve(Handler.self)
            return Holder(try r.resolve(Ledger.self))
        }
        container.register(Holder.self, name: "async") { r async throws in
            _ = try await r.resolveAsync(Handler.self)
            return Holder(try await r.resolveAsync(Ledger.self))
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<Self.tasks {
                group.addTask {
                    let ledger = Ledger("\(id)")
                    let scope = container.makeScope(tag: "request") { values in
                        values.provide(RequestInfo.self, RequestInfo(id: id))
                        values.provide(Ledger.self, ledger)
                    }
                    async let sync = Task.detached { try scope.resolve(Holder.self) }.value
                    async let async = scope.resolveAsync(Holder.self, name: "async")
                    let (first, second) = try await (sync, async)
                    #expect(first.ledger === ledger)
                    #expect(second.ledger === ledger)
                    #expect(try scope.resolve(Handler.self).info.id == id)
                    try await scope.closeAsync()
                    #expect(ledger.disposals == 0)
                }
            }
            try await group.waitForAll()
        }
    }
}

// MARK: - Edges of the value path

@Suite struct ScopeValueEdgeTests {
    /// A graph instance built with a value through a resolver holds it: lookUp counts the value as
    /// a scoped resolution, so handing the graph instance to a singleton is captive.
    @Test func graphInstanceBuiltWithAValueIsCaptiveInASingleton() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Handler.self, scope: .graph) { r in try Handler(r.resolve(RequestInfo.self)) }
        container.register(Cache.self, scope: .singleton) { r in
            _ = try r.resolve(Handler.self)
            return Cache()
        }
        container.register(Holder.self) { r in
            _ = try r.resolve(Handler.self)
            _ = try r.resolve(Cache.self)
            return Holder(nil)
        }
        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }

        let error = try #require(injectionError { try scope.resolve(Holder.self) })

        #expect(error.code == .captiveDependency)
        #expect(error.message.contains("which this resolution built with the scoped RequestInfo"))
    }

    /// A child that declares a value shadows its parent's singleton of that key; the parent keeps
    /// its singleton.
    @Test func childDeclaringAValueShadowsTheParentsSingleton() throws {
        let parent = Container()
        parent.register(RequestInfo.self, scope: .singleton) { _ in RequestInfo(id: 0) }
        parent.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self)) }
        let child = parent.makeChild()
        let line = #line + 1
        child.register(RequestInfo.self, providedByScope: nil)
        child.register(Handler.self) { r in try Handler(r.resolve(RequestInfo.self)) }
        let childScope = child.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 5)) }
        let parentScope = parent.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 6)) }

        #expect(try parent.resolve(Handler.self).info.id == 0)
        #expect(try childScope.resolve(Handler.self).info.id == 5)
        #expect(try parentScope.resolve(Handler.self).info.id == 0)
        let fromChild = try #require(injectionError { try child.resolve(Handler.self) })
        #expect(fromChild.code == .scopeMismatch)
        #expect(
            fromChild.message
                == "RequestInfo is a value provided by lifetime scopes (declared at"
                + " InjectorTests/ResolverLookUpTests.swift:\(line)), but was resolved from a container, outside any"
                + " lifetime scope. Path: Handler -> RequestInfo. Fix: resolve it from a scope given one:"
                + " container.makeScope() { $0.provide(RequestInfo.self, …) }."
        )
    }

    /// A resolver kept past its resolution may not serve a value or a published singleton.
    @Test func keptResolverAskingAValueOrASingletonAfterItsResolutionIsAnError() throws {
        let container = Container()
        let kept = KeptResolver()
        container.register(RequestInfo.self, providedByScope: nil)
        container.register(Clock.self, scope: .singleton) { _ in Clock(1) }
        container.register(Handler.self) { r in
            kept.keep(r)
            _ = try r.resolve(Clock.self)
            return try Handler(r.resolve(RequestInfo.self))
        }
        let scope = container.makeScope { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }
        _ = try scope.resolve(Handler.self)
        let resolver = try #require(kept.resolver)

        let value = try #require(injectionError { try resolver.resolve(RequestInfo.self) })
        let singleton = try #require(injectionError { try resolver.resolve(Clock.self) })
        #expect(value.code == .resolverOutlivedResolution)
        #expect(
            value.message
                == "A Resolver was used to resolve RequestInfo after the resolution that handed it out had"
                + " finished. A resolver is valid only while its factory or onResolved hook runs. Fix: resolve what"
                + " is needed while the factory runs, or inject Lazy<Service> or ServiceProvider<Service> to resolve it"
                + " later."
        )
        #expect(singleton.code == .resolverOutlivedResolution)
        #expect(
            singleton.message
                == "A Resolver was used to resolve Clock after the resolution that handed it out had"
                + " finished. A resolver is valid only while its factory or onResolved hook runs. Fix: resolve what"
                + " is needed while the factory runs, or inject Lazy<Service> or ServiceProvider<Service> to resolve it"
                + " later."
        )
    }

    /// A resolver's container is where its own resolves look up: the child a transient is resolved
    /// from, but the parent that registered a singleton, which sees none of a child's registrations.
    @Test func aResolversContainerIsWhereItsResolvesLookUp() throws {
        let parent = Container()
        let child = parent.makeChild()
        let seen = Locked.make([String: ObjectIdentifier]())
        parent.register(Clock.self) { r in
            let container = try r.container
            seen.withLock { $0["transient"] = ObjectIdentifier(container) }
            return Clock(1)
        }
        parent.register(Clock.self, name: "shared", scope: .singleton) { r in
            let container = try r.container
            seen.withLock { $0["singleton"] = ObjectIdentifier(container) }
            return Clock(2)
        }

        _ = try child.resolve(Clock.self)
        _ = try child.resolve(Clock.self, name: "shared")

        #expect(seen.withLock { $0["transient"] } == ObjectIdentifier(child))
        #expect(seen.withLock { $0["singleton"] } == ObjectIdentifier(parent))
    }

    /// A resolver kept past its resolution no longer gives its container either: what a factory
    /// takes it for is the child tasks it starts while it runs.
    @Test func keptResolverAskedForItsContainerAfterItsResolutionIsAnError() throws {
        let container = Container()
        let kept = KeptResolver()
        let given = Locked.make(ObjectIdentifier?.none)
        container.register(Clock.self) { r in
            kept.keep(r)
            let container = try r.container
            given.withLock { $0 = ObjectIdentifier(container) }
            return Clock(1)
        }
        _ = try container.resolve(Clock.self)
        let resolver = try #require(kept.resolver)
        #expect(given.withLock { $0 } == ObjectIdentifier(container), "while it ran, the one resolved from")

        let error = try #require(injectionError { _ = try resolver.container })
        #expect(error.code == .resolverOutlivedResolution)
        #expect(
            error.message
                == "A Resolver was asked for its container after the resolution that handed it out had finished."
                + " A resolver is valid only while its factory or onResolved hook runs. Fix: take try r.container"
                + " while the factory runs, for the child tasks it starts."
        )
        #expect(error.resolutionPath.isEmpty)
    }
}
