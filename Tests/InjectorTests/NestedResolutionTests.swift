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

// Resolutions started inside a factory or an onResolved hook through a captured container rather
// than through the resolver `r`: such a resolution is nested in the one it runs inside, so it sees
// the singletons that resolution built but has not published yet (a singleton is published as soon
// as its factory returns unless it, or what it holds, has hooks still to run: the tests give it
// one), and the services it is constructing (cycles and error paths). And a construction that fails drops what it queued, even
// when a factory catches the error and goes on.

// MARK: - Test services (private to this file)

private final class NestClock: Sendable {
    /// Which factory call made this clock (1 for the first), to tell instances apart.
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// Gets one clock through its factory's resolver and, later, another through a captured container.
private final class NestStore: @unchecked Sendable {
    let clock: NestClock
    var capturedClock: NestClock?
    init(clock: NestClock) { self.clock = clock }
}

private final class NestEditor: Sendable {
    let store: NestStore?
    init(store: NestStore?) { self.store = store }
}

/// Never registered: what the failing constructions are missing.
private final class NestMissing: Sendable {}

private final class NestCycleA: Sendable {}
private final class NestCycleB: Sendable {}

/// Keeps what a factory caught, to check after the resolve.
private final class NestCaught: @unchecked Sendable {  // `caught` is only touched under `lock`
    private let lock = NSLock()
    private var caught: [InjectionError] = []

    func keep(_ error: InjectionError) { lock.withLock { caught.append(error) } }

    var errors: [InjectionError] { lock.withLock { caught } }
}

private func nestKey<Service>(_ service: Service.Type, name: String? = nil) -> ServiceKey {
    ServiceKey(service, name: name)
}

// MARK: - Tests

struct NestedResolutionTests {
    // MARK: A singleton built earlier in the same resolve

    @Test func hookResolvingThroughACapturedContainerGetsTheSingletonBuiltEarlierInTheSameResolve() throws {
        let container = Container()
        let clockCalls = CallCounter()
        // With a hook of its own, the clock is published only when the resolve completes.
        container.register(NestClock.self, scope: .singleton) { _ in NestClock(serial: clockCalls.next()) }
            .onResolved { _, _ in }
        container.register(NestStore.self) { r in NestStore(clock: try r.resolve(NestClock.self)) }
            .onResolved { [unowned container] _, store in
                store.capturedClock = try container.resolve(NestClock.self)
            }
        try container.finishRegistration()

        let store = try container.resolve(NestStore.self)
        let published = try container.resolve(NestClock.self)

        #expect(clockCalls.count == 1, "the hook's resolve found the unpublished singleton instead of building another")
        #expect(store.capturedClock === store.clock)
        #expect(published === store.clock, "the instance the hook received is the one published")
        #expect(published.serial == 1)
    }

    @Test func singletonFactoryResolvingThroughACapturedContainerGetsTheSingletonItsResolverBuilt() throws {
        let container = Container()
        let clockCalls = CallCounter()
        let storeCalls = CallCounter()
        // With a hook of its own, the clock is published only when the resolve completes.
        container.register(NestClock.self, scope: .singleton) { _ in NestClock(serial: clockCalls.next()) }
            .onResolved { _, _ in }
        container.register(NestStore.self, scope: .singleton) { [unowned container] r in
            storeCalls.next()
            let store = NestStore(clock: try r.resolve(NestClock.self))
            store.capturedClock = try container.resolve(NestClock.self)
            return store
        }

        let store = try container.resolve(NestStore.self)

        #expect(clockCalls.count == 1)
        #expect(store.capturedClock === store.clock)
        #expect(try container.resolve(NestClock.self) === store.clock)
        #expect(try container.resolve(NestStore.self) === store)
        #expect(clockCalls.count == 1)
        #expect(storeCalls.count == 1)
    }

    @Test func singletonBuiltFirstThroughACapturedContainerIsTheOneTheResolverGetsLater() throws {
        let container = Container()
        let clockCalls = CallCounter()
        container.register(NestClock.self, scope: .singleton) { _ in NestClock(serial: clockCalls.next()) }
        container.register(NestStore.self) { [unowned container] r in
            let captured = try container.resolve(NestClock.self)
            let store = NestStore(clock: try r.resolve(NestClock.self))
            store.capturedClock = captured
            return store
        }

        let store = try container.resolve(NestStore.self)

        #expect(clockCalls.count == 1)
        #expect(store.capturedClock === store.clock)
        #expect(try container.resolve(NestClock.self) === store.clock)
    }

    // MARK: Cycles through a captured container

    @Test(arguments: [Scope.transient, .graph, .singleton, .weak], [Scope.transient, .graph, .singleton, .weak])
    func cycleThroughCapturedContainersIsACircularDependencyAndRunsEachFactoryOnce(
        scopeOfA: Scope,
        scopeOfB: Scope
    ) throws {
        let container = Container()
        let log = EventLog()
        container.register(NestCycleA.self, scope: scopeOfA) { [unowned container] _ in
            log.record("A")
            _ = try container.resolve(NestCycleB.self)
            return NestCycleA()
        }
        container.register(NestCycleB.self, scope: scopeOfB) { [unowned container] _ in
            log.record("B")
            _ = try container.resolve(NestCycleA.self)
            return NestCycleB()
        }

        let error = try #require(injectionError { _ = try container.resolve(NestCycleA.self) })

        #expect(error.code == .circularDependency)
        #expect(error.message.contains("Circular dependency: NestCycleA -> NestCycleB -> NestCycleA."))
        #expect(error.message.contains("onResolved"), "the fix names property injection in a hook")
        #expect(error.resolutionPath == [nestKey(NestCycleA.self), nestKey(NestCycleB.self), nestKey(NestCycleA.self)])
        #expect(log.counts == ["A": 1, "B": 1], "no factory ran twice")
    }

    @Test(arguments: ["captured container", "resolver"])
    func cycleFromASingletonThroughACapturedContainerBackToItIsNamedAndBuildsItOnce(backThrough route: String) throws {
        // The singleton's factory resolves B through the captured container; B's factory asks for
        // the singleton back, through its resolver or through the container too.
        let container = Container()
        let log = EventLog()
        container.register(NestCycleA.self, scope: .singleton) { [unowned container] _ in
            log.record("A")
            _ = try container.resolve(NestCycleB.self)
            return NestCycleA()
        }
        container.register(NestCycleB.self) { [unowned container] r in
            log.record("B")
            if route == "resolver" {
                _ = try r.resolve(NestCycleA.self)
            } else {
                _ = try container.resolve(NestCycleA.self)
            }
            return NestCycleB()
        }

        let error = try #require(injectionError { _ = try container.resolve(NestCycleA.self) })

        #expect(error.code == .circularDependency)
        #expect(error.message.contains("Circular dependency: NestCycleA -> NestCycleB -> NestCycleA."))
        #expect(log.counts == ["A": 1, "B": 1])
    }

    @Test func cycleEnteredFromTheMiddleOfACapturedChainShowsTheWholePathAndTheCycle() throws {
        // Editor -> (captured) A -> (captured) B -> (captured) A: the cycle is A -> B -> A, and the
        // path starts at the Editor the outer resolve was building.
        let container = Container()
        container.register(NestEditor.self) { [unowned container] _ in
            _ = try container.resolve(NestCycleA.self)
            return NestEditor(store: nil)
        }
        container.register(NestCycleA.self) { [unowned container] _ in
            _ = try container.resolve(NestCycleB.self)
            return NestCycleA()
        }
        container.register(NestCycleB.self) { [unowned container] _ in
            _ = try container.resolve(NestCycleA.self)
            return NestCycleB()
        }

        let error = try #require(injectionError { _ = try container.resolve(NestEditor.self) })

        #expect(error.code == .circularDependency)
        #expect(
            error.message.hasPrefix(
                "Circular dependency: NestEditor -> NestCycleA -> NestCycleB -> NestCycleA. The loop is NestCycleA"
                    + " -> NestCycleB -> NestCycleA: each of these asks for the next in its factory"
            )
        )
        #expect(error.resolutionPath.map(\.description) == ["NestEditor", "NestCycleA", "NestCycleB", "NestCycleA"])
    }

    // MARK: Errors from a nested resolution carry the whole path

    @Test func missingRegistrationReachedThroughACapturedContainerHasAPathStartingAtTheOuterService() throws {
        let container = Container()
        container.register(NestEditor.self) { [unowned container] _ in
            NestEditor(store: try container.resolve(NestStore.self))
        }
        container.register(NestStore.self) { r in
            _ = try r.resolve(NestMissing.self, name: "wall")
            return NestStore(clock: NestClock(serial: 0))
        }

        let error = try #require(injectionError { _ = try container.resolve(NestEditor.self) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.resolutionPath == [
                nestKey(NestEditor.self), nestKey(NestStore.self), nestKey(NestMissing.self, name: "wall"),
            ]
        )
        #expect(
            error.message.hasPrefix(
                "No registration for NestMissing (name: \"wall\"), needed by NestEditor -> NestStore -> NestMissing (name: \"wall\") (missing)."
            )
        )
        #expect(error.message.contains("container.register(NestMissing.self, name: \"wall\") { r in … }"))
        #expect(error.underlyingError == nil, "passed through, not wrapped as .factoryFailed")
    }

    @Test func missingRegistrationTwoCapturedContainerLevelsDownHasThePathFromTheTop() throws {
        let container = Container()
        container.register(NestEditor.self) { [unowned container] _ in
            NestEditor(store: try container.resolve(NestStore.self))
        }
        container.register(NestStore.self) { [unowned container] _ in
            NestStore(clock: try container.resolve(NestClock.self))
        }
        container.register(NestClock.self) { [unowned container] _ in
            _ = try container.resolve(NestMissing.self)
            return NestClock(serial: 0)
        }

        let error = try #require(injectionError { _ = try container.resolve(NestEditor.self) })

        #expect(error.code == .missingRegistration)
        #expect(error.resolutionPath.map(\.description) == ["NestEditor", "NestStore", "NestClock", "NestMissing"])
        #expect(error.message.contains("needed by NestEditor -> NestStore -> NestClock -> NestMissing (missing)."))
    }

    @Test func missingRegistrationFromAHookThroughACapturedContainerSaysWhichHookAndStartsAtItsService() throws {
        let container = Container()
        container.register(NestStore.self) { _ in NestStore(clock: NestClock(serial: 0)) }
            .onResolved { [unowned container] _, _ in _ = try container.resolve(NestMissing.self) }
        container.register(NestEditor.self) { r in NestEditor(store: try r.resolve(NestStore.self)) }

        let error = try #require(injectionError { _ = try container.resolve(NestEditor.self) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message.hasPrefix("While running an onResolved hook of NestStore: No registration for NestMissing.")
        )
        #expect(error.resolutionPath.map(\.description) == ["NestStore", "NestMissing"])
    }

    // MARK: A construction that fails, caught by a factory that goes on

    @Test func hookOfASingletonBuiltByACaughtFailedConstructionDoesNotRunAndTheSingletonStillResolves() throws {
        // Editor's factory catches the error of r.resolve(Store): Store's factory had already built
        // the Clock singleton (whose hook is queued) and then failed on a missing dependency. That
        // Clock is discarded with the failed construction: its hook must not run, and it is not
        // published; the next resolve of Clock builds one (documented: the factory may run again).
        let container = Container()
        let clockCalls = CallCounter()
        let hookCalls = CallCounter()
        let caught = NestCaught()
        container.register(NestClock.self, scope: .singleton) { _ in NestClock(serial: clockCalls.next()) }
            .onResolved { _, _ in hookCalls.next() }
        registerStoreThatFailsAfterItsClockAndEditorThatCatchesIt(in: container, caught: caught)

        let editor = try container.resolve(NestEditor.self)

        #expect(editor.store == nil)
        #expect(clockCalls.count == 1)
        #expect(hookCalls.count == 0, "the discarded Clock's hook did not run")
        let error = try #require(caught.errors.first)
        #expect(caught.errors.count == 1)
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("needed by NestEditor -> NestStore -> NestMissing (missing)."))
        #expect(error.resolutionPath.map(\.description) == ["NestEditor", "NestStore", "NestMissing"])

        let clock = try container.resolve(NestClock.self)

        #expect(clock.serial == clockCalls.count, "the Clock resolved now is the one built last")
        #expect(hookCalls.count == 1, "a Clock that is kept is prepared once")
        #expect(try container.resolve(NestClock.self) === clock)
        #expect(hookCalls.count == 1)
    }

    @Test func hookOfATransientBuiltByACaughtFailedConstructionDoesNotRun() throws {
        let container = Container()
        let hookCalls = CallCounter()
        let caught = NestCaught()
        container.register(NestClock.self) { _ in NestClock(serial: 0) }
            .onResolved { _, _ in hookCalls.next() }
        registerStoreThatFailsAfterItsClockAndEditorThatCatchesIt(in: container, caught: caught)

        _ = try container.resolve(NestEditor.self)

        #expect(hookCalls.count == 0)
        #expect(caught.errors.map(\.code) == [.missingRegistration])
    }

    @Test func singletonBuiltBeforeACaughtFailedConstructionIsKeptAndPreparedOnce() throws {
        // The Clock is built by Editor's own factory before the failing construction of Store
        // reuses it: it is not part of what fails, so it is kept, prepared once and published.
        let container = Container()
        let clockCalls = CallCounter()
        let hookCalls = CallCounter()
        container.register(NestClock.self, scope: .singleton) { _ in NestClock(serial: clockCalls.next()) }
            .onResolved { _, _ in hookCalls.next() }
        container.register(NestStore.self) { r in
            let clock = try r.resolve(NestClock.self)
            _ = try r.resolve(NestMissing.self)
            return NestStore(clock: clock)
        }
        container.register(NestEditor.self) { r in
            let clock = try r.resolve(NestClock.self)
            let store = (try? r.resolve(NestStore.self)) ?? NestStore(clock: clock)
            return NestEditor(store: store)
        }

        let editor = try container.resolve(NestEditor.self)

        #expect(clockCalls.count == 1)
        #expect(hookCalls.count == 1)
        #expect(try container.resolve(NestClock.self) === editor.store?.clock)
        #expect(clockCalls.count == 1)
        #expect(hookCalls.count == 1)
    }
}

/// Registers a `NestStore` whose factory resolves the `NestClock`, then fails on a missing
/// dependency, and a `NestEditor` whose factory catches that failure (keeping the error) and goes
/// on without a store.
private func registerStoreThatFailsAfterItsClockAndEditorThatCatchesIt(in container: Container, caught: NestCaught) {
    container.register(NestStore.self) { r in
        let clock = try r.resolve(NestClock.self)
        _ = try r.resolve(NestMissing.self)
        return NestStore(clock: clock)
    }
    container.register(NestEditor.self) { r in
        do {
            return NestEditor(store: try r.resolve(NestStore.self))
        } catch let error as InjectionError {
            caught.keep(error)
            return NestEditor(store: nil)
        }
    }
}
