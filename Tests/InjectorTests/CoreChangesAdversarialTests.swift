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

// Adversarial tests of the unnamed-key lookup fast path (`Container.provider(for:)`, the provider
// table's probe) and of the construction stack's borrowed resolve-time arguments (cycle versus
// recursion, the index past 32 entries, nested and async resolutions).

// MARK: - Services (their names appear in the messages checked)

private final class Label: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

private final class Other: Sendable {}
private final class Absent: Sendable {}

private final class Knot: Sendable {}
private final class Hop: Sendable {}

/// An argument that is not `Hashable`.
private final class Ticket: Sendable {}

/// A `Hashable` class whose distinct instances may be equal.
private final class Badge: Hashable, Sendable {
    let id: Int
    init(id: Int) { self.id = id }
    static func == (lhs: Badge, rhs: Badge) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

private struct Refused: Error, CustomStringConvertible {
    var description: String { "refused" }
}

// MARK: - Helpers

/// Runs `body` on a thread of its own with `stackSize` bytes of stack; its result, or `nil` if it
/// did not end within `seconds`.
private func onSmallStack<Result: Sendable>(
    stackSize: Int = 256 << 10,
    seconds: Double = 60,
    _ body: @escaping @Sendable () -> Result
) async -> Result? {
    let result = Guarded<Result?>(nil)
    let done = Signal()
    let thread = Thread {
        result.set(body())
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    return await awaited(done, seconds: seconds) ? result.current : nil
}

/// The start of the message of the cycle that `path` shows, looping from `loopStart`.
private func cyclePrefix(_ path: [String], loopStart: Int) -> String {
    let whole = described(path)
    if loopStart == 0 { return "Circular dependency: \(whole). Each of these asks for the next in its factory" }
    let loop = described(Array(path[loopStart...]))
    return "Circular dependency: \(whole). The loop is \(loop): each of these asks for the next in its factory"
}

/// A path as messages write it: whole, or its first and last eight services when long.
private func described(_ path: [String]) -> String {
    let whole = path.joined(separator: " -> ")
    guard whole.utf8.count > 2_000, path.count > 16 else { return whole }
    let first = path.prefix(8).joined(separator: " -> ")
    let last = path.suffix(8).joined(separator: " -> ")
    return "\(first) -> … (\(path.count - 16) more) -> \(last)"
}

private let knotIntString = "Knot (arguments: Int, String)"
private let knotInt = "Knot (argument: Int)"

// MARK: - Lookups

@Suite(.timeLimit(.minutes(2))) struct CoreChangesAdversarialLookupTests {
    /// The unnamed key, the key named "" and other names of one type are different registrations,
    /// each found as registered, before and after `finishRegistration()`.
    @Test(arguments: [false, true])
    func unnamedEmptyNamedAndNamedKeysOfOneTypeAreDistinct(finished: Bool) throws {
        let container = Container()
        container.register(Label.self, name: "") { _ in Label("empty") }
        container.register(Label.self, name: "a") { _ in Label("a") }
        container.register(Label.self) { _ in Label("unnamed") }
        container.register(Label.self, name: "b") { _ in Label("b") }
        if finished { try container.finishRegistration() }

        for _ in 0..<3 {
            #expect(try container.resolve(Label.self).text == "unnamed")
            #expect(try container.resolve(Label.self, name: "").text == "empty")
            #expect(try container.resolve(Label.self, name: "a").text == "a")
            #expect(try container.resolve(Label.self, name: "b").text == "b")
        }
        let error = try #require(injectionError { try container.resolve(Label.self, name: "c") })
        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("Label (name: \"c\")"))
    }

    /// Only the key named "" is registered: the unnamed key is missing, and the other way round.
    @Test func theEmptyNameIsNotTheUnnamedKey() throws {
        let onlyEmpty = Container()
        onlyEmpty.register(Label.self, name: "") { _ in Label("empty") }
        let onlyUnnamed = Container()
        onlyUnnamed.register(Label.self) { _ in Label("unnamed") }

        #expect(try onlyEmpty.resolve(Label.self, name: "").text == "empty")
        #expect(injectionError { try onlyEmpty.resolve(Label.self) }?.code == .missingRegistration)
        #expect(injectionError { try onlyEmpty.resolve(Label?.self) }?.code == .missingRegistration)
        #expect(try onlyUnnamed.resolve(Label.self).text == "unnamed")
        #expect(injectionError { try onlyUnnamed.resolve(Label.self, name: "") }?.code == .missingRegistration)
        #expect(injectionError { try onlyUnnamed.resolve(Label?.self, name: "") }?.code == .missingRegistration)
    }

    /// A key registered only in the parent is found from the child and grandchild; a child's own
    /// registration shadows it there and not in the parent, named and unnamed alike, even when the
    /// child had looked the key up (and published its registry) before registering it.
    @Test func childShadowsItsParentAfterHavingLookedTheKeyUpInIt() throws {
        let parent = Container()
        parent.register(Label.self) { _ in Label("parent") }
        parent.register(Label.self, name: "n") { _ in Label("parent n") }
        parent.register(Other.self) { _ in Other() }
        let child = parent.makeChild()
        let grandchild = child.makeChild()

        #expect(try child.resolve(Label.self).text == "parent")
        #expect(try grandchild.resolve(Label.self).text == "parent")
        #expect(try child.resolve(Label.self, name: "n").text == "parent n")

        child.register(Label.self) { _ in Label("child") }
        child.register(Label.self, name: "n") { _ in Label("child n") }

        #expect(try child.resolve(Label.self).text == "child")
        #expect(try child.resolve(Label.self, name: "n").text == "child n")
        #expect(try grandchild.resolve(Label.self).text == "child")
        #expect(try grandchild.resolve(Label.self, name: "n").text == "child n")
        #expect(try parent.resolve(Label.self).text == "parent")
        #expect(try parent.resolve(Label.self, name: "n").text == "parent n")
        _ = try grandchild.resolve(Other.self)
        #expect(injectionError { try grandchild.resolve(Absent?.self) }?.code == .missingRegistration)
        let error = try #require(injectionError { try grandchild.resolve(Absent.self) })
        #expect(error.code == .missingRegistration)
        #expect(
            error.message == "No registration for Absent. Nothing is registered for Absent under any name or"
                + " arguments. Fix: register it, e.g. container.register(Absent.self) { r in … }, in this container"
                + " or one of its parents."
        )
    }

    /// Thousands of registrations of one type (named, forcing the table to grow many times) and
    /// the unnamed one, registered last: each found, in a parent and in a child shadowing half.
    @Test func thousandsOfNamedRegistrationsOfOneTypeAndTheUnnamedOneAreEachFound() throws {
        let count = 3000
        let parent = Container()
        for index in 0..<count {
            parent.register(Label.self, name: "n\(index)") { _ in Label("p\(index)") }
            if index.isMultiple(of: 500) {
                // Lookups between registrations publish snapshots of every size.
                #expect(try parent.resolve(Label.self, name: "n\(index)").text == "p\(index)")
                #expect(!parent.canResolve(Label.self))
            }
        }
        parent.register(Label.self) { _ in Label("unnamed") }
        parent.register(Label.self, name: "") { _ in Label("empty") }
        let child = parent.makeChild()
        for index in stride(from: 0, to: count, by: 2) {
            child.register(Label.self, name: "n\(index)") { _ in Label("c\(index)") }
        }
        try parent.finishRegistration()
        try child.finishRegistration()

        for index in 0..<count {
            #expect(try parent.resolve(Label.self, name: "n\(index)").text == "p\(index)")
            let expected = index.isMultiple(of: 2) ? "c\(index)" : "p\(index)"
            #expect(try child.resolve(Label.self, name: "n\(index)").text == expected)
        }
        #expect(try parent.resolve(Label.self).text == "unnamed")
        #expect(try child.resolve(Label.self).text == "unnamed")
        #expect(try child.resolve(Label.self, name: "").text == "empty")
        #expect(injectionError { try child.resolve(Label.self, name: "n\(count)") }?.code == .missingRegistration)
        #expect(!child.canResolve(Other.self))
    }

    /// Optional, `Lazy` and `ServiceProvider` of a key registered nowhere in the lineage.
    @Test func deferredAndOptionalResolutionOfAMissingKey() throws {
        let parent = Container()
        parent.register(Label.self, name: "x") { _ in Label("x") }
        let child = parent.makeChild()
        try parent.finishRegistration()
        try child.finishRegistration()

        let optional = try #require(injectionError { try child.resolve(Label?.self) })
        #expect(optional.code == .missingRegistration)
        #expect(
            optional.message == "No registration for Label. Registered nearby: Label (name: \"x\"). Fix: ask for one"
                + " of those (same name and argument types), or register Label. It was asked for as Optional<Label>:"
                + " an optional service type resolves the type it wraps (did you mean Label?)."
        )
        #expect(try child.resolve(Label?.self, name: "x")?.text == "x")
        let lazy = injectionError { try child.resolve(Lazy<Label>.self).value }
        #expect(lazy?.code == .missingRegistration)
        #expect(lazy?.message.contains("Label") == true)
        let provider = injectionError { try child.resolve(ServiceProvider<Label>.self).resolve() }
        #expect(provider?.code == .missingRegistration)
        #expect(try child.resolve(Lazy<Label>.self, name: "x").value.text == "x")
        #expect(try child.resolve(ServiceProvider<Label>.self, name: "x").resolve().text == "x")
    }

    /// Registrations made after `finishRegistration()` while other threads resolve keys registered
    /// before: those keep resolving; each late key reports the late registration.
    @Test func lateRegistrationsWhileOtherThreadsResolve() async throws {
        let container = Container()
        container.register(Label.self) { _ in Label("early") }
        container.register(Label.self, name: "early") { _ in Label("early named") }
        try container.finishRegistration()
        let wrong = CallCounter()
        let stop = Guarded(false)

        let readers: [@Sendable () -> Void] = (0..<3).map { _ in
            {
                while !stop.current {
                    if (try? container.resolve(Label.self).text) != "early" { wrong.next() }
                    if (try? container.resolve(Label.self, name: "early").text) != "early named" { wrong.next() }
                }
            }
        }
        let writer: @Sendable () -> Void = {
            for index in 0..<300 {
                container.register(Label.self, name: "late\(index)") { _ in Label("late") }
            }
            stop.set(true)
        }
        #expect(await onThreads(readers + [writer]))

        #expect(wrong.count == 0)
        #expect(try container.resolve(Label.self).text == "early")
        for index in [0, 150, 299] {
            let error = try #require(injectionError { try container.resolve(Label.self, name: "late\(index)") })
            #expect(error.code == .registrationAfterFinish)
        }
    }

    /// Before `finishRegistration()`, threads register keys of their own while resolving them and
    /// a shared one: each finds its own registration at once, and the shared one throughout.
    @Test func registrationsRacingLookupsBeforeFinishAreEachFound() throws {
        let container = Container()
        container.register(Label.self) { _ in Label("shared") }
        let wrong = CallCounter()
        DispatchQueue.concurrentPerform(iterations: 6) { thread in
            for index in 0..<300 {
                let name = "t\(thread)-\(index)"
                container.register(Label.self, name: name) { _ in Label(name) }
                if (try? container.resolve(Label.self, name: name).text) != name { wrong.next() }
                if (try? container.resolve(Label.self).text) != "shared" { wrong.next() }
            }
        }
        #expect(wrong.count == 0)
        try container.finishRegistration()
        for thread in 0..<6 {
            for index in 0..<300 {
                #expect(try container.resolve(Label.self, name: "t\(thread)-\(index)").text == "t\(thread)-\(index)")
            }
        }
    }

    /// While one thread runs with an override of the unnamed key, other threads resolving it see
    /// the registration, and the overriding one sees its override throughout; after, no one does.
    @Test func anOverrideInOneThreadIsSeenThereAndNowhereElse() async throws {
        let container = Container()
        container.register(Label.self) { _ in Label("base") }
        container.register(Label.self, name: "n") { _ in Label("base n") }
        try container.finishRegistration()
        let entered = DispatchSemaphore(value: 0)
        let readersDone = Guarded(0)
        let wrong = Guarded([String]())

        let overriding: @Sendable () -> Void = {
            do {
                try container.withOverrides {
                    $0.register(Label.self) { _ in Label("override") }
                } operation: {
                    for _ in 0..<3 { entered.signal() }
                    var rounds = 0
                    while readersDone.current < 3 || rounds < 1000 {
                        rounds += 1
                        let seen = try container.resolve(Label.self).text
                        if seen != "override" { wrong.withLock { $0.append("overrider saw \(seen)") } }
                        let named = try container.resolve(Label.self, name: "n").text
                        if named != "base n" { wrong.withLock { $0.append("overrider saw \(named) for n") } }
                    }
                }
            } catch {
                wrong.withLock { $0.append("overrider threw \(error)") }
            }
        }
        let readers: [@Sendable () -> Void] = (0..<3).map { _ in
            {
                _ = waited(for: entered, seconds: 10)
                for _ in 0..<2000 {
                    let seen = (try? container.resolve(Label.self).text) ?? "error"
                    if seen != "base" { wrong.withLock { $0.append("reader saw \(seen)") } }
                }
                readersDone.add(1)
            }
        }
        #expect(await onThreads([overriding] + readers))

        #expect(wrong.current.isEmpty)
        #expect(try container.resolve(Label.self).text == "base")
    }

    /// An override on the parent comes first for a key the child registers itself (the child's
    /// own table would answer the unnamed lookup); one on the child does not reach the parent.
    @Test func anOverrideOnTheParentComesBeforeTheChildsOwnRegistration() throws {
        let parent = Container()
        parent.register(Label.self) { _ in Label("parent") }
        let child = parent.makeChild()
        child.register(Label.self) { _ in Label("child") }
        try parent.finishRegistration()
        try child.finishRegistration()
        #expect(try child.resolve(Label.self).text == "child")

        let seen = try parent.withOverrides {
            $0.register(Label.self) { _ in Label("override") }
        } operation: {
            [
                try child.resolve(Label.self).text, try parent.resolve(Label.self).text,
                try child.makeChild().resolve(Label.self).text,
            ]
        }
        #expect(seen == ["override", "override", "override"])
        let fromChild = try child.withOverrides {
            $0.register(Label.self) { _ in Label("child override") }
        } operation: {
            [try child.resolve(Label.self).text, try parent.resolve(Label.self).text]
        }
        #expect(fromChild == ["child override", "parent"])
        #expect(try child.resolve(Label.self).text == "child")
    }

    /// The async form: a task with an override sees it, in its child tasks too; tasks and threads
    /// outside it do not.
    @Test func anAsyncOverrideIsSeenInItsTaskAndChildTasksOnly() async throws {
        let container = Container()
        container.register(Label.self) { _ in Label("base") }
        try container.finishRegistration()
        let inside = Signal()
        let outsideDone = Signal()
        let wrong = Guarded([String]())

        async let overridden: [String] = container.withOverridesAsync {
            $0.register(Label.self) { _ in Label("override") }
        } operation: {
            inside.signal()
            var seen: [String] = []
            for _ in 0..<200 {
                async let child = container.resolve(Label.self).text
                seen.append(try container.resolve(Label.self).text)
                seen.append(try await child)
            }
            await outsideDone.wait()
            seen.append(try await container.resolveAsync(Label.self).text)
            return seen
        }
        #expect(await awaited(inside))
        #expect(
            await onThreads(
                (0..<2).map { _ in
                    {
                        for _ in 0..<2000 {
                            let seen = (try? container.resolve(Label.self).text) ?? "error"
                            if seen != "base" { wrong.withLock { $0.append(seen) } }
                        }
                    }
                }
            )
        )
        outsideDone.signal()
        let seen = try await overridden
        #expect(Set(seen) == ["override"])
        #expect(seen.count == 401)
        #expect(wrong.current.isEmpty)
        #expect(try container.resolve(Label.self).text == "base")
    }
}

// MARK: - Arguments

@Suite(.timeLimit(.minutes(2))) struct CoreChangesAdversarialArgumentTests {
    /// A re-entry with equal arguments is a cycle, shown from the level that repeats; other
    /// arguments are a recursion that completes.
    @Test func equalArgumentsReenteredAreACycleOtherArgumentsARecursion() throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) in
            if level < 3 { _ = try r.resolve(Knot.self, arguments: level + 1, tag) }
            if level == 3, tag == "loop" { _ = try r.resolve(Knot.self, arguments: 1, tag) }
            if level == 3, tag == "near" { _ = try r.resolve(Knot.self, arguments: 1, "other") }
            return Knot()
        }

        _ = try container.resolve(Knot.self, arguments: 0, "near")
        let error = try #require(injectionError { try container.resolve(Knot.self, arguments: 0, "loop") })
        #expect(error.code == .circularDependency)
        let path = Array(repeating: knotIntString, count: 5)
        #expect(error.resolutionPath.map(\.description) == path)
        #expect(error.message.hasPrefix(cyclePrefix(path, loopStart: 1)))
        // Nothing stale: the recursion still completes, and the cycle is found again the same.
        _ = try container.resolve(Knot.self, arguments: 0, "near")
        #expect(injectionError { try container.resolve(Knot.self, arguments: 0, "loop") }?.message == error.message)
    }

    /// Distinct instances of a `Hashable` class that are equal are equal arguments: a cycle.
    @Test func equalButDistinctHashableInstancesAreACycle() throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, badge: Badge) in
            _ = try r.resolve(Knot.self, argument: Badge(id: badge.id))
            return Knot()
        }
        let error = try #require(injectionError { try container.resolve(Knot.self, argument: Badge(id: 7)) })
        #expect(error.code == .circularDependency)
        let path = Array(repeating: "Knot (argument: Badge)", count: 2)
        #expect(error.message.hasPrefix(cyclePrefix(path, loopStart: 0)))
    }

    /// A re-entry with an argument that is `nil` (an optional `Hashable`) is with equal arguments:
    /// a cycle, as with any other equal value.
    @Test func reentryWithANilOptionalArgumentIsACycle() async throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, value: Int?) in
            _ = try r.resolve(Knot.self, argument: value)
            return Knot()
        }
        let some = await onSmallStack {
            injectionError { try container.resolve(Knot.self, argument: Int?.some(1)) }?.code
        }
        #expect(some == .circularDependency)
        let none = await onSmallStack { injectionError { try container.resolve(Knot.self, argument: Int?.none) }?.code }
        #expect(none == .circularDependency)
    }

    /// Arguments not all `Hashable` (a class instance among them) are taken as other arguments: the
    /// re-entry recurses until the stack guard refuses it, on a small stack, an error and no crash.
    @Test func nonHashableArgumentsRecurseToTooDeepOnASmallStack() async throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, ticket: Ticket, level: Int) in
            _ = try r.resolve(Knot.self, arguments: ticket, level)
            return Knot()
        }
        let error = await onSmallStack {
            injectionError { try container.resolve(Knot.self, arguments: Ticket(), 1) }
        }
        #expect(error??.code == .resolutionTooDeep)
        #expect(error??.message.contains("Knot (arguments: Ticket, Int)") == true)
    }

    /// A recursion 5,000 deep through arguments on a thread with 256 KiB of stack is refused with
    /// `resolutionTooDeep`, twice, and leaves the container clean for a short one after.
    @Test func recursionFiveThousandDeepOnASmallStackIsTooDeepAndLeavesNothingBehind() async throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) in
            if level < 5000 { _ = try r.resolve(Knot.self, arguments: level + 1, tag) }
            return Knot()
        }
        container.register(Knot.self, name: "short") { (r: Resolver, level: Int) in
            if level < 12 { _ = try r.resolve(Knot.self, name: "short", argument: level + 1) }
            return Knot()
        }
        let codes = await onSmallStack {
            [injectionError { try container.resolve(Knot.self, name: "short", argument: 0) }?.code]
                + (0..<2).map { _ in injectionError { try container.resolve(Knot.self, arguments: 0, "deep") }?.code }
                + [injectionError { try container.resolve(Knot.self, name: "short", argument: 0) }?.code]
        }
        #expect(codes == [nil, .resolutionTooDeep, .resolutionTooDeep, nil])
    }

    /// Around the 32-entry index threshold, with two registrations alternating on the stack (so
    /// entries without the repeated registration sit between), a repeat near the top or near the
    /// bottom is a cycle shown from the level it repeats.
    @Test(arguments: [(31, 0), (32, 0), (33, 0), (33, 32), (40, 1), (40, 39), (64, 0), (64, 63), (64, 31), (100, 50)])
    func repeatAroundTheIndexThresholdWithAlternatingRegistrationsIsACycle(levels: Int, repeated: Int) throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int) in
            _ = try r.resolve(Hop.self, argument: level)
            return Knot()
        }
        container.register(Hop.self) { (r: Resolver, level: Int) in
            _ = try r.resolve(Knot.self, argument: level < levels ? level + 1 : repeated)
            return Hop()
        }

        for _ in 0..<2 {
            let error = try #require(injectionError { try container.resolve(Knot.self, argument: 0) })
            #expect(error.code == .circularDependency)
            let hop = "Hop (argument: Int)"
            let path = (0...levels).flatMap { _ in [knotInt, hop] } + [knotInt]
            #expect(error.resolutionPath.map(\.description) == path)
            #expect(error.message.hasPrefix(cyclePrefix(path, loopStart: 2 * repeated)))
        }
    }

    /// Deep recursions that come back up past the threshold many times, then one that repeats:
    /// the index is left right (no false cycle, and the true one found where it is).
    @Test(arguments: [33, 40, 64])
    func recursionsGoingUpAndDownPastTheThresholdLeaveTheIndexRight(levels: Int) throws {
        let container = Container()
        // A tree by depth: some levels (around the threshold and at the bottom) resolve the next
        // twice, with the same arguments each time, so the stack crosses the threshold repeatedly.
        let forks: Set<Int> = [1, 30, 31, 32, 33, levels - 2, levels - 1]
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) in
            if level < levels {
                _ = try r.resolve(Knot.self, arguments: level + 1, tag)
                if forks.contains(level) { _ = try r.resolve(Knot.self, arguments: level + 1, tag) }
            } else if tag == "repeat" {
                _ = try r.resolve(Knot.self, arguments: levels - 1, tag)
            }
            return Knot()
        }
        container.register(Hop.self) { (r: Resolver, width: Int) in
            for level in [levels - 3, 0, levels - 1, levels / 2] { _ = try r.resolve(Knot.self, arguments: level, "x") }
            return Hop()
        }
        _ = try container.resolve(Knot.self, arguments: levels - 12, "x")
        _ = try container.resolve(Hop.self, argument: 0)
        let error = try #require(injectionError { try container.resolve(Knot.self, arguments: 0, "repeat") })
        #expect(error.code == .circularDependency)
        let path = Array(repeating: knotIntString, count: levels + 2)
        #expect(error.message.hasPrefix(cyclePrefix(path, loopStart: levels - 1)))
        _ = try container.resolve(Knot.self, arguments: 0, "x")
    }

    /// A factory throwing halfway down a deep chain with arguments fails the resolve; the same
    /// container then resolves the whole chain, and a real cycle is found where it is.
    @Test(arguments: [20, 40, 70])
    func aFactoryThrowingDeepInAnArgumentChainLeavesTheStackClean(failAt: Int) throws {
        let container = Container()
        let armed = Guarded(true)
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) in
            if level == failAt, armed.current { throw Refused() }
            if level < 80 { _ = try r.resolve(Knot.self, arguments: level + 1, tag) }
            if level == 80, tag == "loop" { _ = try r.resolve(Knot.self, arguments: failAt, tag) }
            return Knot()
        }

        let failure = try #require(injectionError { try container.resolve(Knot.self, arguments: 0, "a") })
        #expect(failure.code == .factoryFailed)
        #expect(failure.resolutionPath.count == failAt + 1)
        #expect(failure.message.hasPrefix("The factory of \(knotIntString) threw: refused."))
        armed.set(false)
        _ = try container.resolve(Knot.self, arguments: 0, "a")
        _ = try container.resolve(Knot.self, arguments: 0, "a")
        let cycle = try #require(injectionError { try container.resolve(Knot.self, arguments: 0, "loop") })
        #expect(cycle.code == .circularDependency)
        #expect(cycle.message.hasPrefix(cyclePrefix(Array(repeating: knotIntString, count: 82), loopStart: failAt)))
    }

    /// Inside a sync factory, a nested resolve through the captured container re-entering the
    /// outer construction with equal arguments is a cycle; with other arguments, a recursion.
    @Test func nestedResolveThroughTheContainerWithEqualArgumentsIsACycle() throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) in
            let captured = try r.container
            if level < 3 { _ = try captured.resolve(Knot.self, arguments: level + 1, tag) }
            if level == 3, tag == "loop" { _ = try captured.resolve(Knot.self, arguments: 0, tag) }
            if level == 3, tag == "mixed" { _ = try r.resolve(Knot.self, arguments: 2, tag) }
            return Knot()
        }

        _ = try container.resolve(Knot.self, arguments: 0, "fine")
        let loop = try #require(injectionError { try container.resolve(Knot.self, arguments: 0, "loop") })
        #expect(loop.code == .circularDependency)
        #expect(loop.message.hasPrefix(cyclePrefix(Array(repeating: knotIntString, count: 5), loopStart: 0)))
        let mixed = try #require(injectionError { try container.resolve(Knot.self, arguments: 0, "mixed") })
        #expect(mixed.code == .circularDependency)
        #expect(mixed.message.hasPrefix(cyclePrefix(Array(repeating: knotIntString, count: 5), loopStart: 2)))
        _ = try container.resolve(Knot.self, arguments: 0, "fine")
    }

    /// Nested resolves through the captured container, 40 deep (each its own nested resolution
    /// past the threshold), repeating arguments from the fifth level: a cycle from there.
    @Test func deepNestedResolvesRepeatingArgumentsAreACycleFromTheRepeat() throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int) in
            let next = level < 40 ? level + 1 : 5
            if level.isMultiple(of: 2) {
                _ = try r.container.resolve(Knot.self, argument: next)
            } else {
                _ = try r.resolve(Knot.self, argument: next)
            }
            return Knot()
        }
        let error = try #require(injectionError { try container.resolve(Knot.self, argument: 0) })
        #expect(error.code == .circularDependency)
        let path = Array(repeating: knotInt, count: 42)
        #expect(error.resolutionPath.map(\.description) == path)
        #expect(error.message.hasPrefix(cyclePrefix(path, loopStart: 5)))
    }

    /// Async factories with arguments re-entering with equal arguments, through the resolver, is
    /// a cycle; other arguments a recursion that completes.
    @Test func asyncReentryWithEqualArgumentsThroughTheResolverIsACycle() async throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) async throws in
            if level < 3 { _ = try await r.resolveAsync(Knot.self, arguments: level + 1, tag) }
            if level == 3, tag == "loop" { _ = try await r.resolveAsync(Knot.self, arguments: 1, tag) }
            return Knot()
        }
        _ = try await container.resolveAsync(Knot.self, arguments: 0, "fine")
        let error = try #require(
            await injectionErrorAsync { try await container.resolveAsync(Knot.self, arguments: 0, "loop") }
        )
        #expect(error.code == .circularDependency)
        #expect(error.message.hasPrefix(cyclePrefix(Array(repeating: knotIntString, count: 5), loopStart: 1)))
        _ = try await container.resolveAsync(Knot.self, arguments: 0, "fine")
    }

    /// An async factory re-entering its own construction with equal arguments through the
    /// captured container, in its task or in an `async let` child task, closes a cycle.
    @Test(arguments: [false, true])
    func asyncReentryThroughTheCapturedContainerIsACycle(inChildTask: Bool) async throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) async throws in
            let captured = try r.container
            let next = level < 3 ? level + 1 : 0
            if inChildTask {
                async let child = captured.resolveAsync(Knot.self, arguments: next, tag)
                _ = try await child
            } else {
                _ = try await captured.resolveAsync(Knot.self, arguments: next, tag)
            }
            return Knot()
        }
        let error = try #require(
            await withWatchdog(seconds: 30) {
                await injectionErrorAsync { try await container.resolveAsync(Knot.self, arguments: 0, "loop") }
            } ?? nil
        )
        #expect(error.code == .circularDependency)
        #expect(error.message.hasPrefix("Circular dependency: "))
        #expect(error.message.contains(knotIntString))
    }

    /// A sync registration with arguments resolved inside an async resolution: recursion with
    /// other arguments completes; equal ones are a cycle from where they repeat.
    @Test func syncArgumentRegistrationInsideAnAsyncResolution() async throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) in
            if level < 40 { _ = try r.resolve(Knot.self, arguments: level + 1, tag) }
            if level == 40, tag == "loop" { _ = try r.resolve(Knot.self, arguments: 35, tag) }
            return Knot()
        }
        container.register(Hop.self) { (r: Resolver, tag: String) async throws in
            _ = try await r.resolveAsync(Knot.self, arguments: 0, tag)
            _ = try r.resolve(Knot.self, arguments: 0, tag)
            return Hop()
        }
        _ = try await container.resolveAsync(Hop.self, argument: "fine")
        let error = try #require(
            await injectionErrorAsync { try await container.resolveAsync(Hop.self, argument: "loop") }
        )
        #expect(error.code == .circularDependency)
        let path = ["Hop (argument: String)"] + Array(repeating: knotIntString, count: 42)
        #expect(error.resolutionPath.map(\.description) == path)
        #expect(error.message.hasPrefix(cyclePrefix(path, loopStart: 36)))
    }

    /// A sync registration with arguments built within an async resolution, re-entered with equal
    /// arguments through the captured container: a cycle, with the loop on its path, which starts
    /// at the async service (the sync factory's resolves through the container nest in the async
    /// resolution).
    @Test func syncArgumentReentryThroughTheContainerWithinAnAsyncResolutionIsACycle() async throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) in
            let captured = try r.container
            if level < 3 { _ = try captured.resolve(Knot.self, arguments: level + 1, tag) }
            if level == 3, tag == "loop" { _ = try captured.resolve(Knot.self, arguments: 1, tag) }
            return Knot()
        }
        container.register(Hop.self) { (r: Resolver, tag: String) async throws in
            _ = try await r.resolveAsync(Knot.self, arguments: 0, tag)
            return Hop()
        }
        _ = try await container.resolveAsync(Hop.self, argument: "fine")
        let error = try #require(
            await injectionErrorAsync { try await container.resolveAsync(Hop.self, argument: "loop") }
        )
        #expect(error.code == .circularDependency)
        let loop = Array(repeating: knotIntString, count: 4)
        #expect(error.resolutionPath.map(\.description) == ["Hop (argument: String)", knotIntString] + loop)
        #expect(error.message.contains("The loop is \(loop.joined(separator: " -> ")): each"))
    }

    /// An override's registration with arguments re-entering itself with equal arguments is a
    /// cycle, other arguments a recursion, while the registration it overrides is untouched.
    @Test func anOverridingRegistrationWithArgumentsFindsItsOwnCycle() throws {
        let container = Container()
        container.register(Knot.self) { (_: Resolver, _: Int) in Knot() }
        try container.finishRegistration()
        let error = try container.withOverrides {
            $0.register(Knot.self) { (r: Resolver, level: Int) in
                _ = try r.resolve(Knot.self, argument: level < 3 ? level + 1 : 0)
                return Knot()
            }
        } operation: {
            injectionError { try container.resolve(Knot.self, argument: 0) }
        }
        #expect(error?.code == .circularDependency)
        #expect(error?.message.hasPrefix(cyclePrefix(Array(repeating: knotInt, count: 5), loopStart: 0)) == true)
        _ = try container.resolve(Knot.self, argument: 0)
    }

    /// An async factory with arguments that throws deep in a chain leaves the resolution clean:
    /// the next async resolve completes and finds a real cycle where it is.
    @Test func asyncFactoryThrowingDeepLeavesNoStaleEntries() async throws {
        let container = Container()
        let armed = Guarded(true)
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) async throws in
            if level == 35, armed.current { throw Refused() }
            if level < 50 { _ = try await r.resolveAsync(Knot.self, arguments: level + 1, tag) }
            if level == 50, tag == "loop" { _ = try await r.resolveAsync(Knot.self, arguments: 10, tag) }
            return Knot()
        }
        let failure = try #require(
            await injectionErrorAsync { try await container.resolveAsync(Knot.self, arguments: 0, "a") }
        )
        #expect(failure.code == .factoryFailed)
        armed.set(false)
        _ = try await container.resolveAsync(Knot.self, arguments: 0, "a")
        let cycle = try #require(
            await injectionErrorAsync { try await container.resolveAsync(Knot.self, arguments: 0, "loop") }
        )
        #expect(cycle.code == .circularDependency)
        #expect(cycle.message.hasPrefix(cyclePrefix(Array(repeating: knotIntString, count: 52), loopStart: 10)))
    }

    /// Many threads each run deep recursions (past the threshold) and cycles with arguments on one
    /// container at once: each sees its own stack only.
    @Test func threadsRecursingThroughArgumentsAtOnceSeeOnlyTheirOwnStacks() async throws {
        let container = Container()
        container.register(Knot.self) { (r: Resolver, level: Int, tag: String) in
            if level < 45 { _ = try r.resolve(Knot.self, arguments: level + 1, tag) }
            if level == 45, tag.hasPrefix("loop") { _ = try r.resolve(Knot.self, arguments: 20, tag) }
            return Knot()
        }
        try container.finishRegistration()
        let wrong = Guarded([String]())
        let bodies: [@Sendable () -> Void] = (0..<4).map { thread in
            {
                for round in 0..<60 {
                    let tag = round.isMultiple(of: 3) ? "loop\(thread)" : "t\(thread)"
                    let error = injectionError { try container.resolve(Knot.self, arguments: 0, tag) }
                    let expected: InjectionError.Code? = tag.hasPrefix("loop") ? .circularDependency : nil
                    if error?.code != expected { wrong.withLock { $0.append("\(tag): \(String(describing: error))") } }
                    if let error, error.resolutionPath.count != 47 {
                        wrong.withLock { $0.append("\(tag): path \(error.resolutionPath.count)") }
                    }
                }
            }
        }
        #expect(await onThreads(bodies))
        #expect(wrong.current.isEmpty)
    }
}
