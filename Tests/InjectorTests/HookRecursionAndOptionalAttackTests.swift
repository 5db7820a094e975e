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

// An attack on hook recursion with other arguments (a hook resolving its own registration with
// other arguments is recursion, stopped past `ResolutionContext.hookRecursionLimit`) and on
// optional resolution done by the context itself.

// MARK: - Services

/// A transient instance numbered by its argument, whose hooks may resolve others.
private final class H60Step: Sendable {
    let serial: Int
    init(_ serial: Int) { self.serial = serial }
}

/// The other half of a recursion alternating between two registrations.
private final class H60Echo: Sendable {
    let serial: Int
    init(_ serial: Int) { self.serial = serial }
}

/// A transient service without arguments, whose hook may close a real cycle.
private final class H60Plain: Sendable {}
private final class H60Other: Sendable {}

/// A service that records its disposal.
private final class H60Disposable: Disposable, Sendable {
    let serial: Int
    let log: EventLog
    init(_ serial: Int, log: EventLog) {
        self.serial = serial
        self.log = log
    }
    func dispose() { log.record("disposed \(serial)") }
}

/// A shared service that recursion through hooks reaches.
private final class H60Shared: Sendable {}

/// A non-Hashable class argument.
private final class H60Token: Sendable {
    let serial: Int
    init(_ serial: Int) { self.serial = serial }
}

/// A Hashable argument whose instances are all equal.
private struct H60AllEqual: Hashable, Sendable {
    let serial: Int
    static func == (_: Self, _: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// A Hashable argument that is equal to nothing, itself included.
private struct H60NeverEqual: Hashable, Sendable {
    let serial: Int
    static func == (_: Self, _: Self) -> Bool { false }
    func hash(into hasher: inout Hasher) { hasher.combine(serial) }
}

/// An enum argument with payloads.
private enum H60Move: Hashable, Sendable {
    case step(Int)
    case jump(Int, label: String)
}

/// The error a hook throws on purpose.
private struct H60Stop: Error {}

/// A counter a hook may read and bump from any thread.
private final class H60Counter: @unchecked Sendable {  // `count` only touched under `lock`
    private let lock = NSLock()
    private var count = 0
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
    var value: Int { lock.withLock { count } }
}

/// A service of the optional attack.
private final class O60Clock: Sendable {
    let label: String
    init(_ label: String = "clock") { self.label = label }
}

/// A service only an async factory makes.
private final class O60Remote: Sendable {}

/// A service nothing registers, or declared with an optional parameter.
private final class O60Consumer: Sendable {
    let clock: O60Clock?
    init(clock: O60Clock?) { self.clock = clock }
}

/// The advice that ends every cycle-through-hooks message.
private let hookCycleAdvice =
    " Each hook makes a new transient instance whose own hook makes another, without end. Fix: give one"
    + " of them the .graph scope, so that the hook resolving it back receives the instance being prepared."

/// The advice that ends a cycle-through-hooks message whose hook resolved through a captured container.
private let capturedHookCycleAdvice =
    " Each hook makes a new transient instance whose own hook makes another, without end. Fix: resolve"
    + " through the hook's resolver (r), not a captured container, and give one of them the .graph scope,"
    + " so that the hook resolving it back receives the instance being prepared."

/// The advice that ends every hook-recursion-too-deep message.
private let endlessHooksAdvice =
    " Fix: end the recursion sooner, or build such a structure in a factory or a loop rather than through hooks."

/// The start of the message of hooks that led back to registrations they came from too often.
private let endlessHooksStart =
    "onResolved hooks led back to registrations they came from, with other arguments each time, more than 1000"
    + " times in one resolve, and no end is in sight; the last, to "

/// Registers `H60Step` whose hook resolves `H60Step(serial - 1)` down to 0, recording each serial.
private func registerCountdown(in container: Container, prepared: EventLog? = nil) {
    container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
        .onResolved { r, step in
            prepared?.record("\(step.serial)")
            if step.serial > 0 { _ = try r.resolve(H60Step.self, argument: step.serial - 1) }
        }
}

/// Registers `H60Step` whose hook resolves `H60Step(serial + 1)`, without end.
private func registerEndless(in container: Container) {
    container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
        .onResolved { r, step in _ = try r.resolve(H60Step.self, argument: step.serial + 1) }
}

// MARK: - Hook recursion

@Suite struct HookRecursionAttackTests {
    /// Just under the limit: a chain of hooks that leads back 999 times ends, each level prepared
    /// once, outermost first.
    @Test func aRecursionLeadingBack999TimesPreparesEveryLevelOnce() throws {
        let container = Container()
        let prepared = EventLog()
        registerCountdown(in: container, prepared: prepared)

        #expect(try container.resolve(H60Step.self, argument: 999).serial == 999)
        #expect(prepared.events == (0...999).reversed().map { "\($0)" })
    }

    /// Two registrations alternating through their hooks with other arguments: recursion that
    /// ends, hooks run in the order the instances were made.
    @Test func aRecursionAlternatingBetweenTwoRegistrationsEnds() throws {
        let container = Container()
        let prepared = EventLog()
        container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
            .onResolved { r, step in
                prepared.record("step \(step.serial)")
                if step.serial > 0 { _ = try r.resolve(H60Echo.self, argument: step.serial) }
            }
        container.register(H60Echo.self) { (_: Resolver, serial: Int) in H60Echo(serial) }
            .onResolved { r, echo in
                prepared.record("echo \(echo.serial)")
                _ = try r.resolve(H60Step.self, argument: echo.serial - 1)
            }

        #expect(try container.resolve(H60Step.self, argument: 2).serial == 2)
        #expect(prepared.events == ["step 2", "echo 2", "step 1", "echo 1", "step 0"])
    }

    /// Two registrations alternating without end: stopped once hooks led back more than 1,000 times
    /// in all (both registrations count), the path (1,003 links) elided.
    @Test func anEndlessAlternatingRecursionStopsOnceHooksLedBackMoreThan1000Times() throws {
        let container = Container()
        container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
            .onResolved { r, step in _ = try r.resolve(H60Echo.self, argument: step.serial) }
        container.register(H60Echo.self) { (_: Resolver, serial: Int) in H60Echo(serial) }
            .onResolved { r, echo in _ = try r.resolve(H60Step.self, argument: echo.serial + 1) }

        let error = try #require(injectionError { try container.resolve(H60Step.self, argument: 0) })

        let (step, echo) = ("H60Step (argument: Int)", "H60Echo (argument: Int)")
        let head = Array(repeating: "\(step) -> \(echo)", count: 4).joined(separator: " -> ")
        let tail = Array(repeating: "\(echo) -> \(step)", count: 4).joined(separator: " -> ")
        #expect(error.code == .resolutionTooDeep)
        #expect(
            error.message
                == endlessHooksStart + "\(step): \(head) -> … (987 more) -> \(tail)." + endlessHooksAdvice
        )
        #expect(error.resolutionPath.count == 1_003)
    }

    /// A recursion that ends in a real cycle (an argument-less registration resolving itself)
    /// reports that cycle alone, from its first link.
    @Test func aRealCycleBelowARecursionIsReportedAsThatCycleAlone() throws {
        let container = Container()
        container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
            .onResolved { r, step in
                if step.serial > 0 {
                    _ = try r.resolve(H60Step.self, argument: step.serial - 1)
                } else {
                    _ = try r.resolve(H60Plain.self)
                }
            }
        container.register(H60Plain.self) { _ in H60Plain() }
            .onResolved { r, _ in _ = try r.resolve(H60Plain.self) }

        let error = try #require(injectionError { try container.resolve(H60Step.self, argument: 2) })

        #expect(error.code == .circularDependency)
        #expect(
            error.message == "Circular dependency through onResolved hooks: H60Plain -> H60Plain." + hookCycleAdvice
        )
        #expect(error.resolutionPath.map(\.description) == ["H60Plain", "H60Plain"])
    }

    /// A recursion through an argument-less transient registration is a cycle at its second
    /// occurrence, even if the recursion would end (as a factory recursion through it would be):
    /// that registration's "arguments" are the same each time.
    @Test func aRecursionThroughAnArgumentlessTransientIsACycle() throws {
        let container = Container()
        let counter = H60Counter()
        container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
            .onResolved { r, step in
                if step.serial > 0 { _ = try r.resolve(H60Plain.self) }
            }
        container.register(H60Plain.self) { _ in H60Plain() }
            .onResolved { r, _ in
                let left = 3 - counter.next()
                if left >= 0 { _ = try r.resolve(H60Step.self, argument: left) }
            }

        let error = try #require(injectionError { try container.resolve(H60Step.self, argument: 5) })

        #expect(error.code == .circularDependency)
        #expect(
            error.message
                == "Circular dependency through onResolved hooks: H60Plain -> H60Step (argument: Int) -> H60Plain."
                + hookCycleAdvice
        )
    }

    /// How many factories ran, and the error if any, when a hook resolves its registration again
    /// with `next(first)` until 5 instances were made.
    private func recursion<A: Sendable>(
        from first: A,
        next: @escaping @Sendable (A) -> A
    ) -> (made: Int, error: InjectionError?) {
        let container = Container()
        let counter = H60Counter()
        container.register(H60Step.self) { (_: Resolver, _: A) in H60Step(counter.next()) }
            .onResolved { r, step in
                if step.serial < 5 { _ = try r.resolve(H60Step.self, argument: next(first)) }
            }
        let error = injectionError { try container.resolve(H60Step.self, argument: first) }
        return (counter.value, error)
    }

    /// Arguments that are not `Hashable` (a class, a tuple) or that equal nothing (NaN, an odd
    /// `==`) count as other arguments, even when they are the very same value: the recursion runs
    /// until the hook stops it.
    @Test func uncomparableOrNeverEqualArgumentsCountAsOtherArguments() {
        let token = H60Token(1)
        #expect(recursion(from: token) { $0 }.made == 5)
        #expect(recursion(from: (1, "a")) { $0 }.made == 5)
        #expect(recursion(from: Double.nan) { $0 }.made == 5)
        #expect(recursion(from: H60NeverEqual(serial: 1)) { $0 }.made == 5)
        #expect(recursion(from: H60NeverEqual(serial: 1)) { $0 }.error == nil)
    }

    /// Hashable arguments equal to an outer instance's close a cycle at once: `nil`, `some`, an enum
    /// with payloads, an existential, an odd `==` that is always true, and an `Any` holding `1` as
    /// `Int` then as `Int8` (`AnyHashable` takes them for one number).
    @Test func equalHashableArgumentsOfEveryKindCloseACycle() throws {
        func expectCycle<A: Sendable>(_ first: A, _ next: @escaping @Sendable (A) -> A, named type: String) {
            let (made, error) = recursion(from: first, next: next)
            #expect(made == 2, "\(type)")
            #expect(error?.code == .circularDependency, "\(type)")
            #expect(
                error?.message
                    == "Circular dependency through onResolved hooks: H60Step (argument: \(type)) -> H60Step"
                    + " (argument: \(type))." + hookCycleAdvice
            )
        }
        expectCycle(Int?.none, { $0 }, named: "Optional<Int>")
        expectCycle(Int?.some(3), { $0 }, named: "Optional<Int>")
        expectCycle(H60Move.jump(1, label: "a"), { $0 }, named: "H60Move")
        expectCycle(1 as any Sendable, { $0 }, named: "Any")
        expectCycle(H60AllEqual(serial: 1), { H60AllEqual(serial: $0.serial + 1) }, named: "H60AllEqual")
        expectCycle(1 as any Sendable, { _ in 1 as Int8 }, named: "Any")
        // An enum payload that changes once: the second and third instances are the same.
        let (made, error) = recursion(from: H60Move.jump(1, label: "a")) { _ in .step(1) }
        #expect(made == 3)
        #expect(error?.code == .circularDependency)
    }

    /// A hook that throws halfway through a recursion fails the resolve with the hook's error
    /// (the innermost step only in its path); every instance the recursion made was handed to the
    /// scope and is disposed once, when it closes; the container disposes none of them again.
    @Test func aHookThrowingHalfwayLeavesEveryInstanceMadeToTheScopeOnce() throws {
        let container = Container()
        let log = EventLog()
        container.register(H60Disposable.self) { (_: Resolver, serial: Int) in H60Disposable(serial, log: log) }
            .onResolved { r, made in
                log.record("hook \(made.serial)")
                if made.serial == 1 { throw H60Stop() }
                _ = try r.resolve(H60Disposable.self, argument: made.serial - 1)
            }

        let error = try #require(
            injectionError { try container.withScope { try $0.resolve(H60Disposable.self, argument: 3) } }
        )
        try container.shutdown()

        #expect(error.code == .preparationFailed)
        #expect(
            error.message
                == "Preparing H60Disposable (argument: Int) failed: an onResolved hook threw: H60Stop(). The error"
                + " is the underlyingError."
        )
        #expect(error.underlyingError is H60Stop)
        #expect(log.events == ["hook 3", "hook 2", "hook 1", "disposed 1", "disposed 2", "disposed 3"])
    }

    /// The recursion and its limit hold in a scope, a child container, under overrides (also one
    /// that registers the hooked recursion itself), and in an async resolve.
    @Test func aHookRecursionEndsAndItsLimitHoldsInEveryResolutionContext() async throws {
        let container = Container()
        registerCountdown(in: container)
        let inScope = try await container.withScopeAsync { try $0.resolve(H60Step.self, argument: 999).serial }
        let inChild = try container.makeChild().resolve(H60Step.self, argument: 999).serial
        let asyncTop = try await container.resolveAsync(H60Step.self, argument: 999).serial
        let overridden = try await container.withOverridesAsync { _ in
        } operation: {
            try await container.resolveAsync(H60Step.self, argument: 999).serial
        }
        #expect([inScope, inChild, asyncTop, overridden] as [Int] == [999, 999, 999, 999])

        let endless = Container()
        registerEndless(in: endless)
        let asyncError = await injectionErrorAsync { try await endless.resolveAsync(H60Step.self, argument: 0) }
        let childError = injectionError { try endless.makeChild().resolve(H60Step.self, argument: 0) }
        #expect(asyncError?.code == .resolutionTooDeep)
        #expect(childError?.code == .resolutionTooDeep)

        let base = Container()
        base.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
        let viaOverride = try await base.withOverridesAsync {
            registerCountdown(in: $0)
        } operation: {
            try await base.resolveAsync(H60Step.self, argument: 999).serial
        }
        let overrideError = await injectionErrorAsync {
            try await base.withOverridesAsync {
                registerEndless(in: $0)
            } operation: {
                try await base.resolveAsync(H60Step.self, argument: 0)
            }
        }
        #expect(viaOverride == 999)
        #expect(overrideError?.code == .resolutionTooDeep)
        #expect(
            overrideError?.message.hasPrefix(endlessHooksStart + "H60Step (argument: Int)") == true
        )
    }

    /// From the main actor, sync and async alike.
    @MainActor @Test func aHookRecursionEndsOnTheMainActor() async throws {
        let container = Container()
        registerCountdown(in: container)
        #expect(try await container.resolveAsync(H60Step.self, argument: 999).serial == 999)
        #expect(try container.resolve(H60Step.self, argument: 999).serial == 999)
        let endless = Container()
        registerEndless(in: endless)
        let error = injectionError { try endless.resolve(H60Step.self, argument: 0) }
        #expect(error?.code == .resolutionTooDeep)
    }

    /// Hooks run one after another: 1,000 levels, and the endless recursion's limit (a chain of
    /// 1,001 links, released link by link), fit a 256 KiB stack.
    @Test func aHookRecursionToTheLimitFitsA256KiBStack() {
        let done = DispatchSemaphore(value: 0)
        let outcome = EventLog()
        let thread = Thread {
            let container = Container()
            registerCountdown(in: container)
            outcome.record("\((try? container.resolve(H60Step.self, argument: 999).serial) ?? -1)")
            let endless = Container()
            registerEndless(in: endless)
            let error = injectionError { try endless.resolve(H60Step.self, argument: 0) }
            outcome.record("\(error.map { "\($0.code)" } ?? "none")")
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        done.wait()
        #expect(outcome.events == ["999", "resolutionTooDeep"])
    }

    /// A hook resolving its registration through a captured container with other arguments nests a
    /// resolution per level: recursion that ends.
    @Test func aHookRecursingThroughACapturedContainerEnds() throws {
        let container = Container()
        let prepared = EventLog()
        container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
            .onResolved { [unowned container] _, step in
                prepared.record("\(step.serial)")
                if step.serial > 0 { _ = try container.resolve(H60Step.self, argument: step.serial - 1) }
            }
        #expect(try container.resolve(H60Step.self, argument: 50).serial == 50)
        #expect(prepared.events == (0...50).reversed().map { "\($0)" })
    }

    /// A hook recursing without end through a captured container, with other arguments each time:
    /// stopped by the hook recursion's limit, which counts the returns of the resolutions each level
    /// nests in (on a thread whose stack holds 1,000 levels), with the path of 1,002 links elided.
    @Test func anEndlessHookRecursionThroughACapturedContainerStopsAtTheLimit() {
        let (error, hooks) = endlessHookRecursionThroughACapturedContainer(stackSize: 64 << 20)
        let step = "H60Step (argument: Int)"
        let links = Array(repeating: step, count: 8).joined(separator: " -> ")
        #expect(error?.code == .resolutionTooDeep)
        let path = "\(links) -> … (986 more) -> \(links)"
        #expect(error?.message == endlessHooksStart + "\(step): \(path)." + endlessHooksAdvice)
        #expect(error?.resolutionPath.count == 1_002)
        #expect(hooks == 1_001)
    }

    /// The same recursion on a 256 KiB stack, which a resolution nested per level fills first: the
    /// stack guard's error, whose path starts with the hooks that led there.
    @Test func anEndlessHookRecursionThroughACapturedContainerOnASmallStackNamesItsHooks() {
        let (error, hooks) = endlessHookRecursionThroughACapturedContainer(stackSize: 256 << 10)
        let depth = error?.resolutionPath.count ?? 0
        let step = "H60Step (argument: Int)"
        let links = Array(repeating: step, count: 4).joined(separator: " -> ")
        #expect(error?.code == .resolutionTooDeep)
        #expect(depth == hooks + 1)
        #expect(depth > 8)
        #expect(
            error?.message
                == "Resolving went \(depth) services deep and nearly used up the thread's stack: \(links) -> … -> \(links)."
                + " Such a chain is usually a registration that resolves itself under another name or argument. Fix:"
                + " resolve the chain iteratively, or, if it is really this deep, resolve it on a thread with a larger"
                + " stack. Some of these factories or hooks resolve through a container rather than through their"
                + " resolver, which starts a resolution of its own and takes more stack per level: resolve through the"
                + " resolver a factory receives (r.resolve(…))."
        )
    }

    /// Resolves `H60Step(0)`, whose hook resolves `H60Step(serial + 1)` through a captured
    /// container without end, on a thread with `stackSize`: the error, and how many hooks ran.
    private func endlessHookRecursionThroughACapturedContainer(stackSize: Int) -> (InjectionError?, Int) {
        let outcome = Guarded<InjectionError?>(nil)
        let hooks = H60Counter()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let container = Container()
            container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
                .onResolved { [unowned container] _, step in
                    _ = hooks.next()
                    _ = try container.resolve(H60Step.self, argument: step.serial + 1)
                }
            let error = injectionError { try container.resolve(H60Step.self, argument: 0) }
            outcome.withLock { $0 = error }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return (outcome.current, hooks.value)
    }

    /// An endless recursion of disposable instances in a scope: every instance made, the one whose
    /// hooks the limit refused included, is disposed once when the scope closes, none by the
    /// container after.
    @Test func anEndlessRecursionStoppedAtTheLimitLeavesEveryInstanceToTheScopeOnce() throws {
        let container = Container()
        let log = EventLog()
        let made = H60Counter()
        container.register(H60Disposable.self) { (_: Resolver, serial: Int) in
            _ = made.next()
            return H60Disposable(serial, log: log)
        }
        .onResolved { r, instance in _ = try r.resolve(H60Disposable.self, argument: instance.serial + 1) }

        let error = injectionError { try container.withScope { try $0.resolve(H60Disposable.self, argument: 0) } }
        try container.shutdown()

        #expect(error?.code == .resolutionTooDeep)
        #expect(made.value == 1_002)  // the first, and the 1,001 hooks led back to
        #expect(log.events.count == 1_002)
        #expect(Set(log.events).count == 1_002)
    }

    /// A hook recursion that reaches a singleton and a graph registration on each level: each is
    /// built once, and its own hook runs once.
    @Test func sharedRegistrationsReachedFromEveryLevelArePreparedOnce() throws {
        let container = Container()
        let prepared = EventLog()
        container.register(H60Shared.self, scope: .singleton) { _ in H60Shared() }
            .onResolved { _, _ in prepared.record("singleton") }
        container.register(H60Plain.self, scope: .graph) { _ in H60Plain() }
            .onResolved { _, _ in prepared.record("graph") }
        container.register(H60Step.self) { (_: Resolver, serial: Int) in H60Step(serial) }
            .onResolved { r, step in
                let shared = try r.resolve(H60Shared.self)
                let plain = try r.resolve(H60Plain.self)
                #expect(try shared === r.resolve(H60Shared.self))
                #expect(try plain === r.resolve(H60Plain.self))
                if step.serial > 0 { _ = try r.resolve(H60Step.self, argument: step.serial - 1) }
            }

        #expect(try container.resolve(H60Step.self, argument: 100).serial == 100)
        #expect(prepared.events == ["singleton", "graph"])
    }

    /// DEFECT (new in 11af836; at 8c433c9 any such recursion was the hook-cycle error). The limit
    /// is documented (docc RegisteringAndResolving, CHANGELOG, `hookRecursionLimit`'s comment) as
    /// "leads back to its registration more than 1,000 times": a countdown from 1,000 leads back
    /// exactly 1,000 times (999 … 0) and should end. Actual: `resolutionTooDeep`, "onResolved
    /// hooks led back to H60Step (argument: Int) 1000 times, …" (`occurrences > limit` counts the
    /// first instance, which nothing led back to). 999 passes.
    @Test
    func aRecursionLeadingBackExactly1000TimesEnds() throws {
        let container = Container()
        registerCountdown(in: container)
        #expect(try container.resolve(H60Step.self, argument: 1_000).serial == 1_000)
    }

    /// DEFECT (new in 11af836; at 8c433c9 this was the hook-cycle error in 0.2 ms). The limit is per
    /// registration, so a recursion through k registrations runs a chain of k × 1,000 hooks, and
    /// each hook walks the whole chain (`ProviderChain.cycle(closedBy:arguments:)`): quadratic. 20
    /// named registrations resolving one another with other arguments, without end, take 26–35 s in
    /// debug before `resolutionTooDeep` (chain of 20,001). Expected: the error within a few seconds,
    /// as for one registration (~0.1 s). Actual: 26–35 s in debug (2 busy cores). In release this
    /// case meets the 5 s bound (the whole file ran in 3.6 s); the cost still grows with the square
    /// of k (not measured in release for larger k).
    @Test
    func anEndlessHookRecursionThroughManyRegistrationsStopsPromptly() throws {
        let container = Container()
        let names = 20
        for index in 0..<names {
            container.register(H60Step.self, name: "n\(index)") { (_: Resolver, serial: Int) in H60Step(serial) }
                .onResolved { r, step in
                    _ = try r.resolve(H60Step.self, name: "n\((index + 1) % names)", argument: step.serial + 1)
                }
        }
        let start = ContinuousClock.now
        let error = injectionError { try container.resolve(H60Step.self, name: "n0", argument: 0) }
        #expect(error?.code == .resolutionTooDeep)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// DEFECT (new in 11af836; at 8c433c9 this was the hook-cycle error at the first hook). An
    /// endless recursion through hooks that branches (each hook resolves two instances with other
    /// arguments) is never stopped: hooks run breadth first from one queue, so after n hooks the
    /// deepest chain is only log2(n) long and never reaches 1,000 occurrences, while the queue
    /// doubles each level: time and memory without bound (a factory recursion of the same shape
    /// meets the stack guard). Expected: `resolutionTooDeep` (or another error of the library)
    /// before 20,000 hooks. Actual: the test's own guard stops it after 20,000 hooks (~1.2 s),
    /// `preparationFailed` wrapping `H60Stop`.
    @Test
    func anEndlessBranchingHookRecursionIsStopped() throws {
        let container = Container()
        let hooks = H60Counter()
        container.register(H60Step.self) { (_: Resolver, serial: Int, _: Int) in H60Step(serial) }
            .onResolved { r, step in
                if hooks.next() > 20_000 { throw H60Stop() }
                _ = try r.resolve(H60Step.self, arguments: step.serial + 1, 0)
                _ = try r.resolve(H60Step.self, arguments: step.serial + 1, 1)
            }
        let error = try #require(injectionError { try container.resolve(H60Step.self, arguments: 0, 0) })
        #expect(error.code != .preparationFailed, "\(error.message)")
        #expect(hooks.value <= 20_000)
    }

    /// A hook that resolves its own argument-less registration through a captured container (not
    /// its resolver) is the cycle it is through the resolver, reported at its first re-entry: the
    /// nested resolution sees the hooks that led to it. The fix names the resolver, since a `.graph`
    /// instance is not shared with a resolution a captured container starts.
    @Test func aHookCycleThroughACapturedContainerIsReportedAsACycle() throws {
        let container = Container()
        let hooks = H60Counter()
        container.register(H60Plain.self) { _ in H60Plain() }
            .onResolved { [unowned container] _, _ in
                _ = hooks.next()
                _ = try container.resolve(H60Plain.self)
            }
        let error = try #require(injectionError { try container.resolve(H60Plain.self) })
        #expect(error.code == .circularDependency)
        #expect(
            error.message
                == "Circular dependency through onResolved hooks: H60Plain -> H60Plain." + capturedHookCycleAdvice
        )
        #expect(error.resolutionPath.map(\.description) == ["H60Plain", "H60Plain"])
        #expect(hooks.value == 1)
    }

    /// Two registrations whose hooks resolve each other through a captured container, resolved
    /// synchronously and asynchronously: a cycle through both, with its path.
    @Test func aHookCycleOfTwoThroughACapturedContainerIsReportedSyncAndAsync() async throws {
        let container = Container()
        container.register(H60Plain.self) { _ in H60Plain() }
            .onResolved { [unowned container] _, _ in _ = try container.resolve(H60Other.self) }
        container.register(H60Other.self) { _ in H60Other() }
            .onResolved { [unowned container] _, _ in _ = try container.resolve(H60Plain.self) }
        let expected =
            "Circular dependency through onResolved hooks: H60Plain -> H60Other -> H60Plain." + capturedHookCycleAdvice
        let error = try #require(injectionError { try container.resolve(H60Plain.self) })
        #expect(error.code == .circularDependency)
        #expect(error.message == expected)
        let asyncError = try #require(await injectionErrorAsync { try await container.resolveAsync(H60Plain.self) })
        #expect(asyncError.code == .circularDependency)
        #expect(asyncError.message == expected)
    }
}

// MARK: - Optional resolution

@Suite struct OptionalResolutionAttackTests {
    private func container() -> Container {
        let container = Container()
        container.register(O60Clock.self) { _ in O60Clock() }
        container.register(O60Clock.self, name: "named") { _ in O60Clock("named") }
        container.register(O60Clock.self) { (_: Resolver, label: String) in O60Clock(label) }
        container.register(O60Remote.self) { _ async in O60Remote() }
        return container
    }

    /// The message of an optional asked for with nothing registered for `O60Consumer`.
    private let consumerMissing =
        "No registration for O60Consumer. Nothing is registered for O60Consumer under any name or arguments."
        + " Fix: register it, e.g. container.register(O60Consumer.self) { r in … }, in this container or one of"
        + " its parents. It was asked for as Optional<O60Consumer>: an optional service type resolves the type it"
        + " wraps (did you mean O60Consumer?)."

    /// `T?`, `T??` and `T???` of a registered type, with a name and with an argument, sync and
    /// async, resolve the wrapped registration.
    @Test func optionalsOfEveryDepthResolveTheWrappedRegistration() async throws {
        let container = container()
        #expect(try container.resolve(O60Clock?.self)?.label == "clock")
        #expect(try container.resolve(O60Clock??.self)??.label == "clock")
        #expect(try container.resolve(O60Clock???.self)???.label == "clock")
        #expect(try container.resolve(O60Clock?.self, name: "named")?.label == "named")
        #expect(try container.resolve(O60Clock?.self, argument: "given")?.label == "given")
        #expect(try await container.resolveAsync(O60Clock??.self, name: "named")??.label == "named")
        #expect(try await container.resolveAsync(Optional<O60Clock>.self, argument: "async")?.label == "async")
        #expect(try container.resolve(Lazy<O60Clock?>.self).value?.label == "clock")
    }

    /// An async-only registration resolves as an optional asynchronously, at any depth; sync, it
    /// is the async-required error naming the wrapped type; `canResolve` agrees with each.
    @Test func anOptionalOfAnAsyncOnlyRegistrationResolvesAsyncOnly() async throws {
        let container = container()
        #expect(try await container.resolveAsync(O60Remote?.self) != nil)
        #expect(try await container.resolveAsync(O60Remote??.self) != nil)
        for error in [
            injectionError { try container.resolve(O60Remote?.self) },
            injectionError { try container.resolve(O60Remote??.self) },
        ] {
            #expect(error?.code == .asyncResolutionRequired)
            #expect(
                error?.message
                    == "O60Remote has an async factory, which a sync resolve cannot run. Fix: resolve it with try"
                    + " await resolveAsync(O60Remote.self), from the container or scope you resolve from"
                    + " (r.resolveAsync in an async factory); a sync factory that needs it must become async too."
            )
        }
        #expect(!container.canResolve(O60Remote?.self))
        #expect(container.canResolveAsync(O60Remote?.self))
    }

    /// Nothing registered for the wrapped type: the missing-registration error names it and says it
    /// was asked for as an optional (the inner optional, for `T??`), sync, async and through a Lazy;
    /// a missing name or argument type lists what is registered nearby.
    @Test func anOptionalOfAMissingTypeIsTheMissingErrorNamingTheWrappedType() async throws {
        let container = container()
        let errors = [
            injectionError { try container.resolve(O60Consumer?.self) },
            injectionError { try container.resolve(O60Consumer??.self) },
            injectionError { try container.resolve(Lazy<O60Consumer?>.self).value },
            await injectionErrorAsync { try await container.resolveAsync(O60Consumer?.self) },
            await injectionErrorAsync { try await container.resolveAsync(O60Consumer??.self) },
        ]
        for error in errors {
            #expect(error?.code == .missingRegistration)
            #expect(error?.message == consumerMissing)
        }
        let named = injectionError { try container.resolve(O60Clock?.self, name: "nope") }
        #expect(named?.code == .missingRegistration)
        #expect(
            named?.message
                == "No registration for O60Clock (name: \"nope\"). Registered nearby: O60Clock; O60Clock (name:"
                + " \"named\"); O60Clock (argument: String). Fix: ask for one of those (same name and argument types),"
                + " or register O60Clock (name: \"nope\"). It was asked for as Optional<O60Clock>: an optional"
                + " service type resolves the type it wraps (did you mean O60Clock?)."
        )
        let argument = await injectionErrorAsync { try await container.resolveAsync(O60Clock?.self, argument: 3) }
        #expect(argument?.code == .missingRegistration)
        #expect(argument?.message.hasPrefix("No registration for O60Clock (argument: Int). Registered nearby:") == true)
    }

    /// `canResolve` of optionals agrees with what a resolve does.
    @Test func canResolveOfOptionalsAgreesWithResolve() {
        let container = container()
        #expect(container.canResolve(O60Clock?.self))
        #expect(container.canResolve(O60Clock??.self))
        #expect(container.canResolve(O60Clock?.self, name: "named"))
        #expect(!container.canResolve(O60Clock?.self, name: "nope"))
        #expect(container.canResolve(O60Clock?.self, argumentTypes: String.self))
        #expect(!container.canResolve(O60Clock?.self, argumentTypes: Int.self))
        #expect(!container.canResolve(O60Consumer?.self))
        #expect(!container.canResolveAsync(O60Consumer?.self))
    }

    /// The caller's configure of the optional applies to the wrapped instance; one that sets the
    /// optional to `nil` is ignored (older behaviour, the same at 8c433c9): the instance is
    /// returned.
    @Test func configureOfAnOptionalAppliesToTheWrappedInstanceAndANilIsIgnored() throws {
        let container = container()
        #expect(
            try container.resolve(O60Clock?.self, configure: { $0 = O60Clock("configured") })?.label == "configured"
        )
        #expect(
            try container.resolve(O60Clock??.self, configure: { $0 = .some(O60Clock("double")) })??.label == "double"
        )
        #expect(try container.resolve(O60Clock?.self, configure: { $0 = nil })?.label == "clock")
    }

    /// In a scope, an optional resolves the wrapped registration, or the value the scope was given
    /// for the wrapped type.
    @Test func anOptionalResolvesInAScope() throws {
        let container = container()
        let given = O60Consumer(clock: nil)
        let label = try container.withScope { try $0.resolve(O60Clock?.self)?.label }
        let value = try container.withScope(
            providing: { $0.provide(O60Consumer.self, given) },
            operation: { try $0.resolve(O60Consumer?.self) }
        )
        #expect(label == "clock")
        #expect(value === given)
    }

    /// In an async scope, `T??` resolves the value given for `T`; under overrides, the override
    /// (an async-only registration overridden by a sync one resolves sync as an optional).
    @Test func anOptionalResolvesInAnAsyncScopeAndUnderOverrides() async throws {
        let container = container()
        let given = O60Consumer(clock: nil)
        let value = try await container.withScopeAsync(
            providing: { $0.provide(O60Consumer.self, given) },
            operation: { try await $0.resolveAsync(O60Consumer??.self) }
        )
        #expect(value! === given)
        let overridden = try await container.withOverridesAsync {
            $0.register(O60Clock.self) { _ in O60Clock("over") }
        } operation: {
            try await container.resolveAsync(O60Clock?.self)?.label
        }
        let overriddenRemote = try await container.withOverridesAsync {
            $0.register(O60Remote.self) { _ in O60Remote() }
        } operation: {
            try container.resolve(O60Remote?.self)
        }
        #expect(overridden == "over")
        #expect(overriddenRemote != nil)
    }

    /// A declared registration with an optional parameter resolves the wrapped type; if nothing is
    /// registered for it, the parameter is `nil`.
    @Test func aDeclaredOptionalParameterResolvesTheWrappedType() throws {
        let container = container()
        container.register(O60Consumer.self, O60Consumer.init(clock:))
        #expect(try container.resolve(O60Consumer.self).clock?.label == "clock")

        let bare = Container()
        bare.register(O60Consumer.self, O60Consumer.init(clock:))
        #expect(try bare.resolve(O60Consumer.self).clock == nil)
    }
}
