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

// Attacks on the construction stack's deep index and the identity it keeps for the innermost entry
// (`ConstructionStack.innermostIdentity`): recursions through arguments that cross 31, 32 and 33
// entries up and down, cycles closed on the innermost, the 31st, 32nd or outermost entry, entries
// without arguments or with arguments that are not `Hashable` in between, errors caught deep down,
// resolves that fail and the next one on the same thread, nested, async and concurrent resolutions.
//
// A test describes what the factories do as a tree of resolves (`Plan`); a model (`compile`) works
// out, from the path alone, which resolve closes a cycle (and from where) and which completes, and
// every factory checks what each of its resolves gave against it.

// MARK: - Services (their names appear in the messages checked)

private final class A: Sendable {}
private final class B: Sendable {}
private final class C: Sendable {}
private final class N: Sendable {}

/// An argument that is not `Hashable`.
private final class Ticket: Sendable {}

/// A `Hashable` argument whose instances the test can watch go away.
private final class Badge: Hashable, Sendable {
    let id: Int
    init(id: Int) { self.id = id }
    static func == (lhs: Badge, rhs: Badge) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A `Hashable` argument whose instances all have the same hash: only `==` tells them apart.
private struct Colliding: Hashable, Sendable {
    let id: Int
    static func == (lhs: Colliding, rhs: Colliding) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// A weak reference, to see whether an argument is still kept.
private struct Watched: @unchecked Sendable {  // read only on the thread that resolved
    weak var badge: Badge?
}

private struct Refused: Error, CustomStringConvertible {
    var description: String { "refused" }
}

// MARK: - Plans and the model

/// One construction: `A` takes an `Int` (and `D`, `A` named "twin", another registration with the
/// same argument), `B` an `Int` and a `String`, `C` an `Int` and a `Ticket` (never the same
/// arguments), `N` none (registered under several names, each its own).
private struct Entry: Equatable, Sendable, CustomStringConvertible {
    enum Kind: Sendable { case a, b, c, d, n }
    var kind: Kind
    var value: Int
    var text = ""

    static func a(_ value: Int) -> Entry { Entry(kind: .a, value: value) }
    static func b(_ value: Int, _ text: String) -> Entry { Entry(kind: .b, value: value, text: text) }
    static func c(_ value: Int) -> Entry { Entry(kind: .c, value: value) }
    static func d(_ value: Int) -> Entry { Entry(kind: .d, value: value) }
    static func n(_ name: Int) -> Entry { Entry(kind: .n, value: name) }

    var key: String {
        switch kind {
        case .a: "A (argument: Int)"
        case .b: "B (arguments: Int, String)"
        case .c: "C (arguments: Int, Ticket)"
        case .d: "A (name: \"twin\", argument: Int)"
        case .n: "N (name: \"n\(value)\")"
        }
    }

    var description: String { "\(kind)(\(value)\(text.isEmpty ? "" : ", \(text)"))" }

    /// Whether resolving `self` while `other` is under construction closes a cycle.
    func isSameConstruction(as other: Entry) -> Bool {
        kind == other.kind && kind != .c && value == other.value && text == other.text
    }
}

/// A resolve, what its factory then resolves, and how it ends.
private struct Plan: Sendable {
    var entry: Entry
    var calls: [Plan] = []
    /// Whether the factory goes on after a resolve of its throws (else it rethrows).
    var catches = true
    /// Whether the factory throws `Refused` instead of resolving anything.
    var refuses = false
    /// Whether this resolve goes through the captured container (a nested resolution).
    var throughContainer = false

    init(_ entry: Entry, catches: Bool = true, through container: Bool = false, _ calls: [Plan] = []) {
        self.entry = entry
        self.catches = catches
        self.throughContainer = container
        self.calls = calls
    }

    /// `entries` each resolving the next, the last resolving `then`.
    static func chain(_ entries: [Entry], catches: Bool = true, then: [Plan] = []) -> Plan {
        entries.reversed().reduce(nil as Plan?) { inner, entry in
            Plan(entry, catches: catches, inner.map { [$0] } ?? then)
        }!
    }

    /// A factory that throws.
    static func refusing(_ entry: Entry) -> Plan {
        var plan = Plan(entry)
        plan.refuses = true
        return plan
    }
}

/// How a resolve ends: built, a cycle (the whole path, and where its loop starts), or a factory's
/// `Refused` (its path).
private enum Expected: Equatable, Sendable {
    case built
    case cycle([String], loopStart: Int)
    case refused([String])
}

/// What the factory of a resolve does; a class only to be shared with the factories.
private final class Node: Sendable {
    let calls: [Call]
    let catches: Bool
    let refuses: Bool

    init(calls: [Call], catches: Bool, refuses: Bool) {
        self.calls = calls
        self.catches = catches
        self.refuses = refuses
    }
}

/// A resolve a factory makes, its node (`nil` when no factory is to run), and how it should end.
private struct Call: Sendable {
    let entry: Entry
    let throughContainer: Bool
    let node: Node?
    let expected: Expected
}

/// The model: how `plan` ends, resolved with `path` under construction, and the factories it runs
/// (counted in `factories`). A re-entry with the same construction is a cycle from where it is
/// (each construction is on the path once: a second would have been a cycle); a factory that does
/// not catch ends with the first error it meets.
private func compile(_ plan: Plan, under path: [Entry] = [], factories: inout Int) -> Call {
    let keys = (path + [plan.entry]).map(\.key)
    func call(_ node: Node?, _ expected: Expected) -> Call {
        Call(entry: plan.entry, throughContainer: plan.throughContainer, node: node, expected: expected)
    }
    if let start = path.firstIndex(where: { plan.entry.isSameConstruction(as: $0) }) {
        return call(nil, .cycle(keys, loopStart: start))
    }
    factories += 1
    if plan.refuses { return call(Node(calls: [], catches: plan.catches, refuses: true), .refused(keys)) }
    var calls: [Call] = []
    var outcome = Expected.built
    for inner in plan.calls {
        let innerCall = compile(inner, under: path + [plan.entry], factories: &factories)
        calls.append(innerCall)
        if innerCall.expected != .built, !plan.catches {
            outcome = innerCall.expected
            break
        }
    }
    return call(Node(calls: calls, catches: plan.catches, refuses: false), outcome)
}

// MARK: - Running plans

/// What the factories of one thread (or task) share: the node of the factory to run next, how many
/// ran, and what went otherwise than the model says. Touched by one thread or task at a time.
private final class Run: @unchecked Sendable {
    @TaskLocal static var current: Run?

    var next: Node?
    var factories = 0
    var wrong: [String] = []
    let label: String

    init(_ label: String) { self.label = label }

    /// The node of the factory starting now.
    func start() throws -> Node {
        guard let node = next else {
            wrong.append("\(label): a factory ran that the model does not run")
            throw Refused()
        }
        next = nil
        factories += 1
        if node.refuses { throw Refused() }
        return node
    }

    /// Checks how `call` ended (`error`, or built) against the model.
    func check(_ call: Call, _ error: InjectionError?) {
        let described = "\(label): \(call.entry)"
        switch (call.expected, error) {
        case (.built, nil):
            return
        case (.built, let error?):
            wrong.append("\(described): expected built, got \(error.code): \(brief(error.message))")
        case (_, nil):
            wrong.append("\(described): expected \(call.expected), got built")
        case (.cycle(let path, let loopStart), let error?):
            let prefix = cyclePrefix(path, loopStart: loopStart)
            if error.code != .circularDependency || error.resolutionPath.map(\.description) != path
                || !error.message.hasPrefix(prefix)
            {
                wrong.append("\(described): expected \(brief(prefix)), got \(error.code): \(brief(error.message))")
            }
        case (.refused(let path), let error?):
            if error.code != .factoryFailed || error.resolutionPath.map(\.description) != path
                || !(error.underlyingError is Refused)
            {
                wrong.append("\(described): expected refused at \(path.count), got \(error.code): \(error.message)")
            }
        }
    }

    /// Runs `call` through `source`, sync, and checks how it ended.
    func perform(_ call: Call, through source: any Resolving) throws {
        next = call.node
        do {
            switch call.entry.kind {
            case .a: _ = try source.resolve(A.self, argument: call.entry.value)
            case .b: _ = try source.resolve(B.self, arguments: call.entry.value, call.entry.text)
            case .c: _ = try source.resolve(C.self, arguments: call.entry.value, Ticket())
            case .d: _ = try source.resolve(A.self, name: "twin", argument: call.entry.value)
            case .n: _ = try source.resolve(N.self, name: "n\(call.entry.value)")
            }
            check(call, nil)
        } catch let error as InjectionError {
            check(call, error)
            throw error
        }
    }

    /// Runs `call` through `source`, async, and checks how it ended.
    func performAsync(_ call: Call, through source: any Resolving) async throws {
        next = call.node
        do {
            switch call.entry.kind {
            case .a: _ = try await source.resolveAsync(A.self, argument: call.entry.value)
            case .b: _ = try await source.resolveAsync(B.self, arguments: call.entry.value, call.entry.text)
            case .c: _ = try await source.resolveAsync(C.self, arguments: call.entry.value, Ticket())
            case .d: _ = try await source.resolveAsync(A.self, name: "twin", argument: call.entry.value)
            case .n: _ = try await source.resolveAsync(N.self, name: "n\(call.entry.value)")
            }
            check(call, nil)
        } catch let error as InjectionError {
            check(call, error)
            throw error
        }
    }
}

/// What every sync factory does: its node's resolves, in order.
private func play(_ r: Resolver) throws {
    guard let run = Run.current else { throw Refused() }
    let node = try run.start()
    for call in node.calls {
        do {
            try run.perform(call, through: call.throughContainer ? try r.container : r)
        } catch {
            if !node.catches { throw error }
        }
    }
}

/// What every async factory does.
private func playAsync(_ r: Resolver) async throws {
    guard let run = Run.current else { throw Refused() }
    let node = try run.start()
    for call in node.calls {
        do {
            try await run.performAsync(call, through: r)
        } catch {
            if !node.catches { throw error }
        }
    }
}

private let nameCount = 12

/// A container whose registrations run `play` (or `playAsync`).
private func makeContainer(async: Bool = false) -> Container {
    let container = Container()
    if async {
        for name in [nil, "twin"] {
            container.register(A.self, name: name) { (r: Resolver, _: Int) async throws in
                try await playAsync(r)
                return A()
            }
        }
        container.register(B.self) { (r: Resolver, _: Int, _: String) async throws in
            try await playAsync(r)
            return B()
        }
        container.register(C.self) { (r: Resolver, _: Int, _: Ticket) async throws in
            try await playAsync(r)
            return C()
        }
        for name in 0..<nameCount {
            container.register(N.self, name: "n\(name)") { (r: Resolver) async throws in
                try await playAsync(r)
                return N()
            }
        }
    } else {
        for name in [nil, "twin"] {
            container.register(A.self, name: name) { (r: Resolver, _: Int) in
                try play(r)
                return A()
            }
        }
        container.register(B.self) { (r: Resolver, _: Int, _: String) in
            try play(r)
            return B()
        }
        container.register(C.self) { (r: Resolver, _: Int, _: Ticket) in
            try play(r)
            return C()
        }
        for name in 0..<nameCount {
            container.register(N.self, name: "n\(name)") { r in
                try play(r)
                return N()
            }
        }
    }
    return container
}

/// Resolves `plans` one after the other on this thread from `container`, and returns what went
/// otherwise than the model says (a factory's resolve, a top-level resolve, or the count of
/// factories run).
private func mismatches(of plans: [Plan], in container: Container, label: String = "") -> [String] {
    let run = Run(label)
    var expectedFactories = 0
    Run.$current.withValue(run) {
        for plan in plans {
            let call = compile(plan, factories: &expectedFactories)
            try? run.perform(call, through: container)
        }
    }
    if run.factories != expectedFactories {
        run.wrong.append("\(label): \(run.factories) factories ran, the model runs \(expectedFactories)")
    }
    return run.wrong
}

/// `mismatches(of:in:label:)`, async: every resolve through `resolveAsync`.
private func mismatchesAsync(of plans: [Plan], in container: Container, label: String = "") async -> [String] {
    let run = Run(label)
    var expectedFactories = 0
    let calls = plans.map { compile($0, factories: &expectedFactories) }
    await Run.$current.withValue(run) {
        for call in calls { try? await run.performAsync(call, through: container) }
    }
    if run.factories != expectedFactories {
        run.wrong.append("\(label): \(run.factories) factories ran, the model runs \(expectedFactories)")
    }
    return run.wrong
}

/// `mismatches(of:in:label:)` on a thread with a large stack, so that deep plans meet no stack guard.
private func mismatchesOnLargeStack(of plans: [Plan], in container: Container) async -> [String] {
    await runOnThread(stackSize: 32 << 20) { mismatches(of: plans, in: container) }
}

/// The start of `message`, enough to tell what went wrong.
private func brief(_ message: String) -> String {
    message.count > 300 ? message.prefix(300) + "…" : message
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

/// `A(first)`, `A(first + 1)`, … for `depths`: a recursion through other arguments.
private func aChain(_ depths: Range<Int>, offset: Int = 0) -> [Entry] {
    depths.map { .a($0 + offset) }
}

// MARK: - Plans built to cross the thresholds

/// The depths where the index starts, around which the tests go up and down.
private let thresholdDepths = [29, 30, 31, 32, 33, 34]

/// A recursion of `A` to depth 45, back up to `depth` entries, down again with other arguments to
/// depth 50, and there a resolve of the construction at each of `repeated` (an index on the path)
/// and of near misses (the same `Int` for `B` with another `String`, for `C`, and an `A` not on the
/// path).
private func downUpDown(backTo depth: Int, repeated: [Int], catches: Bool = true) -> Plan {
    let second = aChain(depth..<50, offset: 1000)
    let path = aChain(0..<depth) + second
    let repeats = repeated.map { Plan(path[$0]) }
    let misses = [Plan(.b(path[31].value, "x")), Plan(.c(path[31].value)), Plan(.a(path.last!.value + 1))]
    return .chain(
        aChain(0..<depth),
        catches: catches,
        then: [.chain(aChain(depth..<45)), .chain(second, catches: catches, then: misses + repeats + misses)]
    )
}

// MARK: - Tests

@Suite(.timeLimit(.minutes(3))) struct DeepArgumentIdentityAttackTests {
    /// The model itself, pinned once by hand: a recursion of 41 `A`s whose last resolves the 32nd
    /// again is a cycle from depth 31 with this exact path and message.
    @Test func aRepeatOfTheEntryAtDepth31IsACycleFromThere() throws {
        let container = makeContainer()
        let run = Run("")
        let error = Run.$current.withValue(run) {
            let plan = Plan.chain(aChain(0..<41), catches: false, then: [Plan(.a(31))])
            var factories = 0
            let call = compile(plan, factories: &factories)
            return injectionError { try run.perform(call, through: container) }
        }
        let path = Array(repeating: "A (argument: Int)", count: 42)
        #expect(error?.code == .circularDependency)
        #expect(error?.resolutionPath.map(\.description) == path)
        let loop = Array(repeating: "A (argument: Int)", count: 11).joined(separator: " -> ")
        #expect(error?.message.hasPrefix("Circular dependency: ") == true)
        #expect(error?.message.contains("The loop is \(loop): each of these asks") == true)
        #expect(run.wrong.isEmpty)
        #expect(run.factories == 41)
    }

    /// Down past the threshold, back up to exactly 29…34 entries, down again with other arguments:
    /// a repeat of the innermost entry, of the ones at depth 0, 30, 31, 32, 33, of the one where the
    /// stack came back to, and of the one just below it is a cycle from there; near misses
    /// (another `String`, a `Ticket`, an `A` not on the path) recurse.
    @Test(arguments: thresholdDepths)
    func aRecursionBackUpToTheThresholdAndDownAgainFindsEachRepeatWhereItIs(depth: Int) async throws {
        let repeated = [49, 0, 30, 31, 32, 33, depth, depth - 1, 48, 47]
        let plan = downUpDown(backTo: depth, repeated: repeated)
        let wrong = await mismatchesOnLargeStack(of: [plan, plan], in: makeContainer())
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// A repeat closed on the innermost entry right at the thresholds: the resolve at depth 30…34
    /// re-entering its own construction (the innermost), then the one at the previous depth.
    @Test(arguments: thresholdDepths)
    func aReentryOfTheInnermostRightAtTheThresholdIsACycle(depth: Int) async throws {
        let entries = aChain(0..<depth + 1)
        let plans = [
            Plan.chain(entries, then: [Plan(entries[depth]), Plan(entries[depth - 1]), Plan(.a(depth + 1))]),
            Plan.chain(entries, then: [Plan(.a(depth + 1), [Plan(entries[depth])]), Plan(entries[depth])]),
        ]
        let wrong = await mismatchesOnLargeStack(of: plans, in: makeContainer())
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// A registration met for the first time deep down (its arguments' identity not worked out
    /// when it is pushed), under one whose identity was, with the same argument types (`A` and `A`
    /// named "twin"): the identity kept for the innermost is its own, not its parent's, so a resolve
    /// of it with its parent's arguments recurses, and one with its own arguments, deeper, is a
    /// cycle.
    @Test(arguments: thresholdDepths + [40])
    func aRegistrationFirstMetDeepUnderAnotherWithTheSameArgumentTypesKeepsItsOwnIdentity(depth: Int) async throws {
        let entries = aChain(0..<depth)
        let parent = entries[depth - 1]
        let twin = Entry.d(500)
        let plans = [
            Plan.chain(entries, then: [Plan(twin, [Plan(.d(parent.value)), Plan(twin)])]),
            .chain(entries, then: [.chain([twin, .a(9000), .a(9001)], then: [Plan(twin), Plan(.d(parent.value))])]),
            .chain(entries, then: [Plan(.d(parent.value), [Plan(parent), Plan(.a(9000), [Plan(.d(parent.value))])])]),
        ]
        let wrong = await mismatchesOnLargeStack(of: plans, in: makeContainer())
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
        let asyncWrong = await mismatchesAsync(of: plans, in: makeContainer(async: true))
        #expect(asyncWrong.isEmpty, "\(asyncWrong.prefix(3))")
    }

    /// Two registrations alternating (`A(n)` → `B(n, s)` → `A(n + 1)` …), deep, with `N`s (no
    /// arguments) and `C`s (arguments not `Hashable`) interleaved: repeats of an `A`, a `B` or an
    /// `N` at the thresholds are cycles; `B` with the `Int` of one on the path and another `String`,
    /// and `C` with the same arguments again, recurse.
    @Test(arguments: [(60, 29), (60, 31), (60, 32), (60, 33), (40, 0), (100, 64)])
    func alternatingRegistrationsWithEntriesWithoutIdentityFindTheirCycles(levels: Int, repeated: Int) async throws {
        var entries: [Entry] = []
        for level in 0..<levels {
            switch level % 7 {
            case 3 where level / 7 < nameCount: entries.append(.n(level / 7))
            case 5: entries.append(.c(level))
            default: entries.append(level.isMultiple(of: 2) ? .a(level) : .b(level, "s\(level % 3)"))
            }
        }
        let near = entries[repeated]
        let repeats = [Plan(near), Plan(entries[31]), Plan(entries[32]), Plan(entries[levels - 1])]
        let misses = [Plan(.b(near.value, "other")), Plan(.c(near.value)), Plan(.c(entries[levels - 1].value))]
        let plans = [Plan.chain(entries, then: misses + repeats + misses), Plan.chain(entries, then: repeats)]
        let wrong = await mismatchesOnLargeStack(of: plans, in: makeContainer())
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// A factory deep down catches the cycle a resolve of its closed, then recurses deeper with
    /// other arguments (crossing the thresholds again below it) and closes another cycle there:
    /// each is found where it is, and no construction is left behind.
    @Test(arguments: [30, 31, 32, 33, 40])
    func aCycleCaughtDeepDownLeavesTheStackRightForTheNextResolves(depth: Int) async throws {
        let entries = aChain(0..<depth)
        let deeper = aChain(0..<40, offset: 500)
        let afterwards = Plan.chain(deeper, then: [Plan(entries[depth - 1]), Plan(deeper[35]), Plan(deeper[0])])
        let plan = Plan.chain(
            entries,
            then: [Plan(entries[0]), Plan(entries[depth - 1]), afterwards, Plan(entries[31 % depth]), afterwards]
        )
        let wrong = await mismatchesOnLargeStack(of: [plan, plan], in: makeContainer())
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// A construction made in a branch the stack has left (deep or shallow), or in an earlier
    /// resolve on the same thread, is not on the stack any more: resolving it again deep down, with
    /// the same arguments or without any (`N`), is a recursion, not a cycle.
    @Test(arguments: [(5, 40), (20, 33), (30, 32), (31, 33), (32, 34), (33, 40), (1, 64)])
    func aConstructionOfABranchLeftIsNotACycleDeepDown(fork: Int, depth: Int) async throws {
        let shared = aChain(0..<fork)
        var first = aChain(fork..<depth, offset: 1000)
        first[(fork + depth) / 2 - fork] = .n(3)
        var second = aChain(fork..<depth, offset: 2000)
        second[second.count - 1] = .b(7, "x")
        let revisits = first.map { Plan($0) } + [Plan(.n(3)), Plan(second[0])]
        let plans = [
            Plan.chain(shared, then: [.chain(first), .chain(second, then: revisits)]),
            .chain(aChain(0..<depth, offset: 3000), then: (first + shared).map { Plan($0) }),
        ]
        let wrong = await mismatchesOnLargeStack(of: plans, in: makeContainer())
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// Resolves on one thread (whose resolution context is reused) that fail deep, past and at the
    /// thresholds, uncaught, then resolves whose cycle is elsewhere: nothing leaks from one resolve
    /// to the next (a stale identity would miss the cycle or see one that is not there).
    @Test(arguments: [31, 32, 33, 40])
    func aResolveFailingDeepLeavesNothingForTheNextOnTheSameThread(failAt: Int) async throws {
        let failing = Plan.chain(aChain(0..<failAt), catches: false, then: [.refusing(.a(failAt))])
        let failingCycle = Plan.chain(aChain(0..<failAt + 5), catches: false, then: [Plan(.a(failAt))])
        let cycleAt35 = Plan.chain(aChain(0..<45), then: [Plan(.a(35))])
        let builtPast = Plan.chain(aChain(0..<45, offset: 1))
        let plans = [failing, cycleAt35, failingCycle, builtPast, failing, failing, cycleAt35, builtPast]
        let wrong = await mismatchesOnLargeStack(of: plans, in: makeContainer())
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// Nested resolutions through the captured container inside a deep chain (each with its own
    /// stack, starting again below the thresholds): repeats of entries of the outer resolutions and
    /// of the nested one are cycles from where they are on the whole path.
    @Test(arguments: [[20], [31], [32], [33], [10, 31, 33], [31, 32, 60]])
    func nestedResolutionsInADeepChainFindRepeatsOnTheWholePath(nestedAt: [Int]) async throws {
        let entries = aChain(0..<70)
        let leaf = [0, 20, 31, 32, 33, 60, 69].map { Plan(entries[$0]) } + [Plan(.a(70))]
        var plan = Plan.chain(entries, then: leaf)
        for depth in nestedAt { plan = through(plan, at: depth) }
        let wrong = await mismatchesOnLargeStack(of: [plan, plan], in: makeContainer())
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")

        func through(_ plan: Plan, at depth: Int) -> Plan {
            var plan = plan
            if depth == 0 {
                plan.throughContainer = true
            } else {
                plan.calls[0] = through(plan.calls[0], at: depth - 1)
            }
            return plan
        }
    }

    /// The same plans, async (every factory async, every resolve `resolveAsync`): the stack of an
    /// async resolution is the same structure.
    @Test(arguments: thresholdDepths)
    func asyncRecursionsAcrossTheThresholdFindEachRepeatWhereItIs(depth: Int) async throws {
        let plans = [
            downUpDown(backTo: depth, repeated: [49, 0, 31, 32, depth, depth - 1]),
            .chain(aChain(0..<depth), catches: false, then: [.refusing(.a(depth))]),
            .chain(aChain(0..<60), then: [Plan(.a(35)), Plan(.a(depth)), Plan(.a(61))]),
        ]
        let wrong = await mismatchesAsync(of: plans, in: makeContainer(async: true))
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// Random trees of resolves, seeded, that widen around a depth near the thresholds (so the
    /// stack goes up and down across them many times), with repeats aimed at the innermost entry,
    /// at depth 30…33 and the outermost, near misses, entries without arguments or identity,
    /// factories that throw, factories that rethrow, and nested resolutions: every resolve ends as
    /// the model says, on one thread, several plans in a row.
    @Test(arguments: 0..<12)
    func randomTreesAcrossTheThresholdsEndAsTheModelSays(seed: Int) async throws {
        var generator = PlanGenerator(seed: UInt64(seed))
        let plans = (0..<6).map { _ in generator.plan() }
        let wrong = await mismatchesOnLargeStack(of: plans, in: makeContainer())
        #expect(wrong.isEmpty, "seed \(seed): \(wrong.prefix(3))")
    }

    /// The same random trees, async (no nested resolutions: an async resolution's nested ones take
    /// the constructions they inherit as cycles whatever their arguments).
    @Test(arguments: 0..<6)
    func asyncRandomTreesAcrossTheThresholdsEndAsTheModelSays(seed: Int) async throws {
        var generator = PlanGenerator(seed: UInt64(seed) + 1000, maxDepth: 80, nestedRate: 0)
        let plans = (0..<4).map { _ in generator.plan() }
        let wrong = await mismatchesAsync(of: plans, in: makeContainer(async: true))
        #expect(wrong.isEmpty, "seed \(seed): \(wrong.prefix(3))")
    }

    /// No argument outlives its resolve, whatever depth the stack reached (the identity kept for
    /// the innermost entry and the index's keys hold `AnyHashable`s of the arguments): checked on
    /// the resolving thread, whose resolution context is kept for the next resolve.
    @Test(arguments: [30, 31, 32, 33, 40])
    func noArgumentIsKeptOnceItsResolveReturns(levels: Int) async throws {
        let container = Container()
        let made = Guarded([Watched]())
        container.register(A.self) { (r: Resolver, badge: Badge) in
            if badge.id < levels {
                let next = Badge(id: badge.id + 1)
                made.withLock { $0.append(Watched(badge: next)) }
                _ = try r.resolve(A.self, argument: next)
            }
            return A()
        }
        let kept = await runOnThread(stackSize: 32 << 20) {
            do {
                _ = try container.resolve(A.self, argument: Badge(id: 0))
            } catch {
                return -1
            }
            return made.current.filter { $0.badge != nil }.count
        }
        #expect(made.current.count == levels)
        #expect(kept == 0)
    }

    /// Arguments whose hashes all collide, deep past the index: the index tells constructions apart
    /// by their arguments, not their hashes. A repeat is a cycle from where it is; none, a recursion.
    @Test(arguments: [(40, 31), (40, 32), (40, 0), (40, 39), (33, 31), (64, 50), (40, nil)] as [(Int, Int?)])
    func argumentsWhoseHashesCollideAreToldApartPastTheIndex(levels: Int, repeated: Int?) async throws {
        let container = Container()
        container.register(A.self) { (r: Resolver, value: Colliding) in
            if value.id < levels {
                _ = try r.resolve(A.self, argument: Colliding(id: value.id + 1))
            } else if let repeated {
                _ = try r.resolve(A.self, argument: Colliding(id: repeated))
            }
            return A()
        }
        let error = await runOnThread(stackSize: 32 << 20) {
            injectionError { try container.resolve(A.self, argument: Colliding(id: 0)) }
        }
        guard let repeated else { return #expect(error == nil) }
        let path = Array(repeating: "A (argument: Colliding)", count: levels + 2)
        #expect(error?.code == .circularDependency)
        #expect(error?.resolutionPath.map(\.description) == path)
        #expect(error?.message.hasPrefix(cyclePrefix(path, loopStart: repeated)) == true)
    }

    /// A factory deep down catches the `resolutionTooDeep` a recursion below it met (on a small
    /// stack), then resolves again: a repeat of its own construction, of one past the index and of
    /// one below it are cycles from where they are; other arguments recurse. The next resolve on
    /// the thread is clean.
    @Test func aFactoryCatchingTooDeepDeepDownThenResolvingFindsCyclesWhereTheyAre() async throws {
        let container = Container()
        let found = Guarded([String]())
        container.register(A.self) { (r: Resolver, level: Int, tag: String) in
            guard tag == "catch", level == 40 else {
                if tag == "down" || level < 40 { _ = try r.resolve(A.self, arguments: level + 1, tag) }
                return A()
            }
            do {
                _ = try r.resolve(A.self, arguments: level + 1, "down")
            } catch let error as InjectionError {
                found.withLock { $0.append("\(error.code)") }
            }
            for repeated in [40, 35, 31, 10] {
                let error = injectionError { try r.resolve(A.self, arguments: repeated, tag) }
                let code = error?.code == .circularDependency ? "cycle" : String(describing: error?.code)
                found.withLock { $0.append("\(code) \(error?.resolutionPath.count ?? 0)") }
                let path = Array(repeating: "A (arguments: Int, String)", count: 42)
                if error?.message.hasPrefix(cyclePrefix(path, loopStart: repeated)) != true {
                    found.withLock { $0.append("message \(repeated)") }
                }
            }
            return A()
        }
        let outcome = await runOnThread(stackSize: 2 << 20) {
            (
                injectionError { try container.resolve(A.self, arguments: 0, "catch") },
                injectionError { try container.resolve(A.self, arguments: 0, "fine") }
            )
        }
        #expect(outcome.0 == nil && outcome.1 == nil, "\(String(describing: outcome.0?.message.prefix(300)))")
        #expect(found.current == ["resolutionTooDeep"] + Array(repeating: "cycle 42", count: 4))
    }

    /// Three threads resolve random trees from one container at once, each on its own resolution
    /// context: each sees its own stack only.
    @Test func threadsResolvingRandomTreesAtOnceEachEndAsTheModelSays() async throws {
        let container = makeContainer()
        let wrong = Guarded([String]())
        let bodies: [@Sendable () -> Void] = (0..<3).map { thread in
            {
                var generator = PlanGenerator(seed: UInt64(2000 + thread))
                for round in 0..<8 {
                    let found = mismatches(of: [generator.plan()], in: container, label: "thread \(thread) #\(round)")
                    wrong.withLock { $0 += found }
                }
            }
        }
        #expect(await onThreads(stackSize: 32 << 20, bodies))  // stacks for the deepest plans
        #expect(wrong.current.isEmpty, "\(wrong.current.prefix(3))")
    }
}

// MARK: - Random plans

/// SplitMix64: a small seeded generator, so that a failing seed fails again.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random plans: a chain down to a depth near the thresholds (or deeper), a tree widening there, and
/// short branches below; at each resolve, now and then a repeat of a construction on the path or a
/// near miss.
private struct PlanGenerator {
    var rng: SplitMix
    let maxDepth: Int
    let nestedRate: Double
    private var budget = 0
    /// The constructions planned so far, in this plan and earlier ones.
    private var history: [Entry] = []
    private var band = 0...0

    init(seed: UInt64, maxDepth: Int = 120, nestedRate: Double = 0.04) {
        rng = SplitMix(state: seed)
        self.maxDepth = maxDepth
        self.nestedRate = nestedRate
    }

    private mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < probability }

    /// A plan of a few hundred resolves.
    mutating func plan() -> Plan {
        let centre = [29, 30, 31, 32, 33, 34, 40, 64].randomElement(using: &rng)!
        band = centre - 2...centre + 2
        budget = 400
        return plan(fresh(on: []), under: [])
    }

    private mutating func plan(_ entry: Entry, under path: [Entry]) -> Plan {
        budget -= 1
        history.append(entry)
        var plan = Plan(entry, catches: chance(0.8), through: chance(nestedRate))
        let depth = path.count
        if depth > 0, chance(0.015) {
            plan.refuses = true
            return plan
        }
        guard budget > 0, depth < maxDepth else { return plan }
        let here = path + [entry]
        let count =
            depth < band.lowerBound
            ? (chance(0.85) ? 1 : 2) : band.contains(depth) ? Int.random(in: 0...3, using: &rng) : (chance(0.6) ? 1 : 0)
        for _ in 0..<count {
            if chance(0.25) { plan.calls.append(Plan(aimed(at: here), through: chance(nestedRate))) }
            let next = fresh(on: here)
            if here.contains(where: next.isSameConstruction) {
                plan.calls.append(Plan(next, through: chance(nestedRate)))
            } else {
                plan.calls.append(self.plan(next, under: here))
            }
        }
        return plan
    }

    /// A construction that is probably not on `path` (`B`'s arguments and `N`'s names collide now
    /// and then).
    private mutating func fresh(on path: [Entry]) -> Entry {
        let roll = Int.random(in: 0..<100, using: &rng)
        switch roll {
        case 0..<38: return .a(Int.random(in: 0..<1_000_000, using: &rng))
        case 38..<45: return .d(Int.random(in: 0..<1_000_000, using: &rng))
        case 45..<75: return .b(Int.random(in: 0..<40, using: &rng), chance(0.5) ? "x" : "y")
        case 75..<88: return .c(Int.random(in: 0..<40, using: &rng))
        default: return .n(Int.random(in: 0..<nameCount, using: &rng))
        }
    }

    /// A repeat of a construction on `path` (the innermost, one at depth 30…33, the outermost, or
    /// any), or a near miss of one (another `String`, or the same `Int` for `C`), or a construction
    /// made earlier (in a branch since left, or an earlier plan) that may no longer be on the path.
    private mutating func aimed(at path: [Entry]) -> Entry {
        if !history.isEmpty, chance(0.3) { return history.randomElement(using: &rng)! }
        let depths = [path.count - 1, path.count - 1, 30, 31, 32, 33, 0, Int.random(in: 0..<path.count, using: &rng)]
        let depth = min(depths.randomElement(using: &rng)!, path.count - 1)
        let target = path[depth]
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return .b(target.value, target.text == "x" ? "z" : "x")
        case 1: return .c(target.value)
        case 2: return .d(target.value)
        default: return target
        }
    }
}
