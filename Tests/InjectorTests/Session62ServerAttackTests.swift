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

import Dispatch
import Foundation
import Testing

@testable import Injector

// Attacks of a demanding server / CLI user: cancellation mid-factory, failures half-way, scopes
// closed and containers shut down while resolves run, weak instances under contention, deep
// chains on small stacks, disposers and hooks that re-enter.

private final class S62Slow: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private final class S62Disposable: Disposable, Sendable {
    let serial: Int
    let disposals: CallCounter
    init(serial: Int, disposals: CallCounter) {
        self.serial = serial
        self.disposals = disposals
    }
    func dispose() throws { disposals.next() }
}

private final class S62Connection: Disposable, Sendable {
    let log: EventLog
    let name: String
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func dispose() throws { log.record("dispose \(name)") }
}

private final class S62WeakThing: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private struct S62Link: Sendable { let below: Int }

private protocol S62Readiness: AnyObject, Sendable { var isReady: Bool { get } }
private final class S62Prepared: S62Readiness, Sendable {
    let ready = Guarded(false)
    var isReady: Bool { ready.current }
}

private final class S62AsyncResource: AsyncDisposable, Sendable {
    let disposals: CallCounter
    init(made: CallCounter, disposals: CallCounter) {
        made.next()
        self.disposals = disposals
    }
    func disposeAsync() async throws {
        await Task.yield()
        disposals.next()
    }
}

private protocol S62Resource: Sendable {}
private final class S62Node: Sendable {
    let next: S62Node?
    init(next: S62Node?) { self.next = next }
}

@Suite struct Session62ServerAttackTests {
    /// A task waiting for an async singleton that another task is building is not that task: when
    /// the builder is cancelled and its factory throws, the waiter is not cancelled, so it builds
    /// the singleton itself (a failed construction publishes nothing and the next resolve builds
    /// anew), and the instance is then shared.
    @Test func aWaiterForAnAsyncSingletonWhoseBuilderIsCancelledBuildsItItself() async throws {
        let container = Container()
        let calls = CallCounter()
        let started = Signal()
        container.register(S62Slow.self, scope: .singleton) { _ async throws in
            let serial = calls.next()
            if serial == 1 {
                started.signal()
                try await Task.sleep(nanoseconds: 20_000_000_000)
            }
            return S62Slow(serial: serial)
        }
        let result = await withWatchdog(seconds: 15) { () -> [String] in
            let builder = Task { try await container.resolveAsync(S62Slow.self) }
            await started.wait()
            let waiter = Task { try await container.resolveAsync(S62Slow.self).serial }
            try? await Task.sleep(nanoseconds: 100_000_000)
            builder.cancel()
            let builderOutcome = await outcome { try await builder.value }
            let waiterOutcome: String
            do { waiterOutcome = "serial \(try await waiter.value)" } catch {
                waiterOutcome = "error \((error as? InjectionError)?.code.description ?? "\(error)")"
            }
            let again = (try? await container.resolveAsync(S62Slow.self).serial).map { "again \($0)" } ?? "again failed"
            return ["\(builderOutcome)", waiterOutcome, again]
        }
        let outcomes = try #require(result)
        #expect(outcomes[1] == "serial 2", "\(outcomes)")
        #expect(outcomes[2] == "again 2", "\(outcomes)")
        #expect(calls.count == 2)
    }

    /// Holders that hold a weak instance at the same moment hold the same one: it is shared for as
    /// long as something holds it, even while others release it and it is rebuilt.
    @Test func concurrentHoldersOfAWeakInstanceShareOne() async throws {
        let container = Container()
        let serials = CallCounter()
        container.register(S62WeakThing.self, scope: .weak) { _ in S62WeakThing(serial: serials.next()) }
        let held = Guarded([Int: Int]())  // serial -> holders now
        let violations = Guarded([String]())
        let bodies: [@Sendable () -> Void] = (0..<6).map { _ in
            {
                for _ in 0..<3000 {
                    guard let thing = try? container.resolve(S62WeakThing.self) else {
                        violations.withLock { $0.append("resolve failed") }
                        return
                    }
                    held.withLock { held in
                        let others = held.filter { $0.key != thing.serial && $0.value > 0 }
                        if !others.isEmpty { violations.withLock { $0.append("\(thing.serial) with \(others)") } }
                        held[thing.serial, default: 0] += 1
                    }
                    held.withLock { $0[thing.serial]! -= 1 }
                    withExtendedLifetime(thing) {}
                }
            }
        }
        #expect(await onThreads(seconds: 60, bodies))
        let seen = violations.current
        #expect(seen.isEmpty, "\(seen.prefix(5)) of \(seen.count); built \(serials.count)")
    }

    /// A scope closed (retried while `scopeInUse`) while threads resolve disposable services from
    /// it disposes every instance a resolve from it returned, exactly once; a resolve after the
    /// close throws `scopeClosed`.
    @Test func closingAScopeWhileThreadsResolveFromItDisposesEverythingReturnedOnce() async throws {
        for _ in 0..<30 {
            let container = Container()
            let disposals = CallCounter()
            let serials = CallCounter()
            container.register(S62Disposable.self, scope: .scoped) { _ in
                S62Disposable(serial: serials.next(), disposals: disposals)
            }
            container.register(S62Disposable.self, name: "t") { _ in
                S62Disposable(serial: serials.next(), disposals: disposals)
            }
            let scope = container.makeScope()
            let returned = CallCounter()
            let otherErrors = Guarded([String]())
            let closed = Guarded(false)
            var bodies: [@Sendable () -> Void] = (0..<3).map { _ in
                {
                    for index in 0..<200 {
                        do {
                            _ =
                                try index.isMultiple(of: 2)
                                ? scope.resolve(S62Disposable.self) : scope.resolve(S62Disposable.self, name: "t")
                            returned.next()
                        } catch let error as InjectionError where error.code == .scopeClosed {
                            return
                        } catch {
                            otherErrors.withLock { $0.append("\(error)") }
                        }
                    }
                }
            }
            bodies.append {
                while true {
                    do {
                        try scope.close()
                        closed.set(true)
                        return
                    } catch let error as InjectionError where error.code == .scopeInUse {
                        continue
                    } catch {
                        otherErrors.withLock { $0.append("close: \(error)") }
                        return
                    }
                }
            }
            #expect(await onThreads(seconds: 30, bodies))
            #expect(otherErrors.current.isEmpty, "\(otherErrors.current.prefix(3))")
            #expect(closed.current)
            // Every instance made was disposed once (a scoped one returned many times counts once).
            #expect(disposals.count == serials.count, "made \(serials.count), disposed \(disposals.count)")
        }
    }

    /// A container with `S62Link` registered under the names "0" … "levels - 1", each level
    /// declaring the next by name (`using: Resolved(S62Link.self, name:)`), the last a leaf.
    private static func declaredChain(levels: Int, scope: Scope = .transient) -> Container {
        let container = Container()
        for level in 0..<levels {
            if level == levels - 1 {
                container.register(S62Link.self, name: String(level), scope: ServiceScope(scope)) { _ in
                    S62Link(below: 0)
                }
            } else {
                container.register(
                    S62Link.self,
                    name: String(level),
                    scope: ServiceScope(scope),
                    using: Resolved(S62Link.self, name: String(level + 1)),
                    make: { next in S62Link(below: next.below + 1) }
                )
            }
        }
        return container
    }

    /// A 5,000-deep chain of declared registrations: finishing registration links them, and a
    /// resolve on a 256 KiB thread gives the chain or `resolutionTooDeep`, never a crash.
    @Test(arguments: [Scope.transient, Scope.singleton])
    func aDeepDeclaredChainOnASmallStackEndsInAValueOrResolutionTooDeep(scope: Scope) async throws {
        let container = Self.declaredChain(levels: 5_000, scope: scope)
        let finished = await runOnThread(stackSize: 256 << 10) { ResolveResult { try container.finishRegistration() } }
        if case .resolved = finished {} else { Issue.record("finishRegistration: \(finished)") }
        let outcome = await runOnThread(stackSize: 256 << 10) {
            ResolveResult { try container.resolve(S62Link.self, name: "0").below }
        }
        switch outcome {
        case .resolved(let below): #expect(below == 4_999)
        case .failed(let error): #expect(error.code == .resolutionTooDeep, "\(error.message.prefix(400))")
        case .failedOtherwise(let description): Issue.record("\(description)")
        }
    }

    /// The same when the weak instance is first built by the scope's resolve, and another holder
    /// takes it from the container while the scope is open.
    @Test func aScopeDoesNotDisposeAWeakInstanceItFirstBuiltThroughATransient() throws {
        let container = Container()
        let log = EventLog()
        container.register(S62Connection.self, name: "pooled", scope: .weak) { _ in S62Connection("pooled", log: log) }
        container.register(S62Connection.self) { r in try r.resolve(S62Connection.self, name: "pooled") }
        let scope = container.makeScope()
        let viaScope = try scope.resolve(S62Connection.self)
        let holder = try container.resolve(S62Connection.self, name: "pooled")
        #expect(viaScope === holder)
        try scope.close()
        #expect(log.events.isEmpty, "the scope disposed a weak instance another holder uses: \(log.events)")
        withExtendedLifetime(holder) {}
    }

    /// While a shared instance's `onResolved` hook runs on one thread, threads that ask for it under
    /// its own key or a forwarded one (`implements`), directly or as a `Lazy`, wait for the hook and
    /// never receive it half-prepared.
    @Test(arguments: [Scope.singleton, Scope.weak, Scope.scoped])
    func nobodyReceivesASharedInstanceBeforeItsHookHasRun(scope lifetime: Scope) async throws {
        for _ in 0..<5 {
            let container = Container()
            let hookStarted = DispatchSemaphore(value: 0)
            let made = CallCounter()
            container.register(S62Prepared.self, scope: ServiceScope(lifetime)) { _ in
                made.next()
                return S62Prepared()
            }
            .onResolved { _, prepared in
                hookStarted.signal()
                Thread.sleep(forTimeInterval: 0.05)
                prepared.ready.set(true)
            }
            .implements(S62Readiness.self)
            let scope = container.makeScope()
            let resolving: any Resolving & Sendable = lifetime == .scoped ? scope : container
            let seen = Guarded([String]())
            let keep = Guarded([AnyObject]())
            var bodies: [@Sendable () -> Void] = [
                {
                    do {
                        let p = try resolving.resolve(S62Prepared.self)
                        keep.withLock { $0.append(p) }
                    } catch { seen.withLock { $0.append("first: \(error)") } }
                }
            ]
            for kind in 0..<3 {
                bodies.append {
                    _ = waited(for: hookStarted, seconds: 10)
                    hookStarted.signal()
                    do {
                        let ready: Bool
                        switch kind {
                        case 0:
                            let p = try resolving.resolve(S62Prepared.self)
                            keep.withLock { $0.append(p) }
                            ready = p.ready.current
                        case 1:
                            let p = try resolving.resolve(S62Readiness.self)
                            keep.withLock { $0.append(p) }
                            ready = p.isReady
                        default:
                            let p = try resolving.resolve(Lazy<S62Prepared>.self).value
                            keep.withLock { $0.append(p) }
                            ready = p.ready.current
                        }
                        if !ready { seen.withLock { $0.append("kind \(kind) got it before its hook ended") } }
                    } catch {
                        seen.withLock { $0.append("kind \(kind): \(error)") }
                    }
                }
            }
            #expect(await onThreads(seconds: 20, bodies))
            #expect(seen.current.isEmpty, "\(seen.current)")
            #expect(made.count == 1)
            #expect(Set(keep.current.map(ObjectIdentifier.init)).count == 1)
            try? await scope.closeAsync()
        }
    }
    /// Checks a chain's outcome: the whole chain, or `resolutionTooDeep`.
    private static func expectChainOrTooDeep(
        _ outcome: ResolveResult<Int>,
        levels: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch outcome {
        case .resolved(let below): #expect(below == levels - 1, sourceLocation: sourceLocation)
        case .failed(let error):
            #expect(
                error.code == .resolutionTooDeep,
                "\(error.code): \(error.message.prefix(300))",
                sourceLocation: sourceLocation
            )
            #expect(error.message.count < 4_000, "message of \(error.message.count)", sourceLocation: sourceLocation)
        case .failedOtherwise(let description): Issue.record("\(description)", sourceLocation: sourceLocation)
        }
    }

    /// 5,000 transients whose `onResolved` hooks each resolve the next level through a captured
    /// container, on a 256 KiB thread.
    @Test func aDeepChainOfHooksThroughACapturedContainerOnASmallStack() async throws {
        let levels = 5_000
        let container = Container()
        let reached = Guarded(0)
        for level in 0..<levels {
            container.register(S62Link.self, name: String(level)) { _ in S62Link(below: level) }
                .onResolved { _, _ in
                    reached.withLock { $0 = max($0, level) }
                    if level < levels - 1 { _ = try container.resolve(S62Link.self, name: String(level + 1)) }
                }
        }
        let outcome = await runOnThread(stackSize: 256 << 10) {
            ResolveResult { () -> Int in
                _ = try container.resolve(S62Link.self, name: "0")
                return reached.current
            }
        }
        Self.expectChainOrTooDeep(outcome, levels: levels)
    }
}
