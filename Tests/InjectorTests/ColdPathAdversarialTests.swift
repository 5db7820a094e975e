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

// The request's code keeps its usual answers inline and moves every other case to a function of
// its own: the scoped check's fast path, the construction stack's index for deep chains, a
// factory's failure, disposal of several records, the search for unpublished instances. These
// tests give those splits the cases the fast path must not answer: a captor further out, a hook
// preparing a singleton, tags that differ, a sandbox that accepts every tag; stacks around the
// indexed depth, going deep again; failures at every depth; disposal around the pairwise limit.

extension ScopeTag {
    fileprivate static let coldRequest: ScopeTag = "request"
    fileprivate static let coldSession: ScopeTag = "session"
}

private final class RequestToken: Sendable {}
private final class SessionToken: Sendable {}
private final class AnyScopeToken: Sendable {}
private final class TokenCache: Sendable {}
private final class TokenWatcher: Sendable {}
private final class Handler: Sendable {}
private final class RequestInfo: Sendable {}
private final class Link: Sendable {}
private final class Root: Sendable {}
private final class Step: Sendable {}
private final class Refusal: Error, CustomStringConvertible, Sendable {
    var description: String { "refused" }
}

/// A disposable that logs its name when disposed, and throws then when `fails`.
private final class Resource: Disposable, Sendable {
    let name: String
    let log: EventLog
    let fails: Bool
    init(_ name: String, log: EventLog, fails: Bool = false) {
        self.name = name
        self.log = log
        self.fails = fails
    }
    func dispose() throws {
        log.record(name)
        if fails { throw DisposalRefusal(name: name) }
    }
}
private struct DisposalRefusal: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) would not close" }
}

private func captiveMessage(
    holder: String,
    holderScope: String,
    captive: String,
    captiveScope: String,
    path: String
)
    -> String
{
    "Captive dependency: \(holder) (.\(holderScope)) depends on \(captive) (.\(captiveScope)),"
        + " which would then outlive its lifetime scope. Path: \(path)."
        + " Fix: give \(holder) a scope no longer than \(captive)'s (.\(captiveScope) or .transient),"
        + " give \(captive) a longer one, or pass \(captive) to the methods of \(holder) that use it rather than hold it."
}

// MARK: - The scoped check's fast path

@Suite struct ColdPathScopedCheckAdversarialTests {
    /// A scope with the registration's tag and nothing outliving scopes on this resolution's own
    /// stack is the fast path's case; a singleton further out, whose factory resolves through the
    /// scope it captured, still holds the scoped instance captive.
    @Test func singletonResolvingATaggedScopedServiceThroughACapturedScopeIsCaptive() throws {
        let container = Container()
        let built = CallCounter()
        container.register(RequestToken.self, scope: .scoped(to: .coldRequest)) { _ in
            built.next()
            return RequestToken()
        }
        let scope = container.makeScope(tag: .coldRequest)
        container.register(TokenCache.self, scope: .singleton) { _ in
            _ = try scope.resolve(RequestToken.self)
            return TokenCache()
        }

        let error = try #require(injectionError { try scope.resolve(TokenCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message
                == captiveMessage(
                    holder: "TokenCache",
                    holderScope: "singleton",
                    captive: "RequestToken",
                    captiveScope: "scoped(to: .request)",
                    path: "TokenCache -> RequestToken"
                )
        )
        #expect(built.count == 0, "refused before its factory runs")
        #expect(try scope.resolve(RequestToken.self) === scope.resolve(RequestToken.self))
    }

    /// A weak service's `onResolved` hook, preparing it after its factory left the stack, resolving
    /// a scoped service of the scope's own tag is refused: nothing is on the stack, the hook is.
    @Test(arguments: [Scope.singleton, .weak])
    func hookPreparingAnOutlivingServiceResolvingAMatchingScopedServiceIsCaptive(scope outliving: Scope) throws {
        let container = Container()
        container.register(RequestToken.self, scope: .scoped(to: .coldRequest)) { _ in RequestToken() }
        container.register(TokenWatcher.self, scope: outliving) { _ in TokenWatcher() }
            .onResolved { r, _ in _ = try r.resolve(RequestToken.self) }
        let scope = container.makeScope(tag: .coldRequest)

        let error = try #require(injectionError { try scope.resolve(TokenWatcher.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message == "While running an onResolved hook of TokenWatcher: "
                + captiveMessage(
                    holder: "TokenWatcher",
                    holderScope: "\(outliving)",
                    captive: "RequestToken",
                    captiveScope: "scoped(to: .request)",
                    path: "TokenWatcher -> RequestToken"
                )
        )
    }

    /// The same refusal from an async resolution: its factory is a context of its own.
    @Test func asyncSingletonResolvingAMatchingScopedServiceIsCaptive() async throws {
        let container = Container()
        container.register(RequestToken.self, scope: .scoped(to: .coldRequest)) { _ in RequestToken() }
        container.register(TokenCache.self, scope: .singleton) { r async throws in
            _ = try await r.resolveAsync(RequestToken.self)
            return TokenCache()
        }
        let scope = container.makeScope(tag: .coldRequest)

        let error = try #require(await injectionErrorAsync { try await scope.resolveAsync(TokenCache.self) })

        #expect(error.code == .captiveDependency)
        #expect(
            error.message
                == captiveMessage(
                    holder: "TokenCache",
                    holderScope: "singleton",
                    captive: "RequestToken",
                    captiveScope: "scoped(to: .request)",
                    path: "TokenCache -> RequestToken"
                )
        )
    }

    /// A registration scoped to another tag than the scope's is refused in the middle of a graph,
    /// while one scoped to the scope's tag, and an untagged one, are each built once per scope.
    @Test func tagMismatchInsideAScopeIsRefusedWhileMatchingAndUntaggedOnesAreShared() throws {
        let container = Container()
        container.register(RequestToken.self, scope: .scoped(to: .coldRequest)) { _ in RequestToken() }
        container.register(SessionToken.self, scope: .scoped(to: .coldSession)) { _ in SessionToken() }
        container.register(AnyScopeToken.self, scope: .scoped) { _ in AnyScopeToken() }
        container.register(Handler.self) { r in
            _ = try r.resolve(RequestToken.self)
            _ = try r.resolve(SessionToken.self)
            return Handler()
        }
        let request = container.makeScope(tag: .coldRequest)
        let other = container.makeScope(tag: .coldRequest)

        let error = try #require(injectionError { try request.resolve(Handler.self) })

        #expect(error.code == .scopeMismatch)
        #expect(
            error.message == "SessionToken is .scoped(to: .session), but was resolved from the scope \"request\"."
                + " Path: Handler -> SessionToken. Fix: resolve it from a scope made with"
                + " container.makeScope(tag: \"session\"), or register it as .scoped to let any scope own it."
        )
        #expect(error.resolutionPath.map(\.description) == ["Handler", "SessionToken"])
        #expect(try request.resolve(RequestToken.self) === request.resolve(RequestToken.self))
        #expect(try request.resolve(RequestToken.self) !== other.resolve(RequestToken.self))
        #expect(try request.resolve(AnyScopeToken.self) === request.resolve(AnyScopeToken.self))
        #expect(try request.resolve(AnyScopeToken.self) !== other.resolve(AnyScopeToken.self))
    }

    /// A tagged registration resolved from an untagged scope, and any scoped one from a container,
    /// are refused: no lifetime scope, or no tag, is never the fast path's case.
    @Test func taggedServiceFromAnUntaggedScopeAndScopedServiceFromAContainerAreRefused() throws {
        let container = Container()
        container.register(RequestToken.self, scope: .scoped(to: .coldRequest)) { _ in RequestToken() }
        container.register(AnyScopeToken.self, scope: .scoped) { _ in AnyScopeToken() }

        let untagged = try #require(injectionError { try container.makeScope().resolve(RequestToken.self) })
        let outside = try #require(injectionError { try container.resolve(AnyScopeToken.self) })

        #expect(untagged.code == .scopeMismatch)
        #expect(
            untagged.message == "RequestToken is .scoped(to: .request), but was resolved from an untagged scope."
                + " Fix: resolve it from a scope made with container.makeScope(tag: \"request\"), or register it"
                + " as .scoped to let any scope own it."
        )
        #expect(outside.code == .scopeMismatch)
        #expect(
            outside.message == "AnyScopeToken is .scoped, but was resolved from a container, outside any lifetime"
                + " scope, so nothing would own its instance. Fix: resolve from a lifetime scope: let scope ="
                + " container.makeScope(); try scope.resolve(…)."
        )
    }

    /// Validation's sandbox accepts every tag, and adopts the first it meets: a graph asking for
    /// services of two tags is reported, one of one tag is not.
    @Test func validationAdoptsTheFirstTagAndRefusesASecond() throws {
        let container = Container()
        container.register(RequestToken.self, scope: .scoped(to: .coldRequest)) { _ in RequestToken() }
        container.register(SessionToken.self, scope: .scoped(to: .coldSession)) { _ in SessionToken() }
        container.register(Handler.self) { r in
            _ = try r.resolve(RequestToken.self)
            _ = try r.resolve(RequestToken.self)
            _ = try r.resolve(SessionToken.self)
            return Handler()
        }

        let error = try #require(injectionError { try container.validate() })

        #expect(error.code == .validationFailed)
        let problem = try #require(error.problems.first { $0.resolutionPath.last?.description == "SessionToken" })
        #expect(problem.code == .scopeMismatch)
        #expect(
            problem.message == "SessionToken is .scoped(to: .session), but was resolved from the scope \"request\"."
                + " Path: Handler -> SessionToken. Fix: resolve it from a scope made with"
                + " container.makeScope(tag: \"session\"), or register it as .scoped to let any scope own it."
        )
        #expect(error.problems.count == 1, "RequestToken twice, and the tokens alone, are fine: \(error.problems)")
    }

    /// A value given to a scope: served in a scope of its tag, refused to a singleton, refused in a
    /// scope of another tag (which was given it too).
    @Test func valueGivenToAScopeIsRefusedToASingletonAndToAScopeOfAnotherTag() throws {
        let container = Container()
        container.register(RequestInfo.self, providedByScope: .coldRequest)
        container.register(TokenCache.self, scope: .singleton) { r in
            _ = try r.resolve(RequestInfo.self)
            return TokenCache()
        }
        let info = RequestInfo()
        let request = container.makeScope(tag: .coldRequest) { $0.provide(RequestInfo.self, info) }
        let session = container.makeScope(tag: .coldSession) { $0.provide(RequestInfo.self, info) }

        let captive = try #require(injectionError { try request.resolve(TokenCache.self) })
        let mismatch = try #require(injectionError { try session.resolve(RequestInfo.self) })

        #expect(try request.resolve(RequestInfo.self) === info)
        #expect(captive.code == .captiveDependency)
        #expect(
            captive.message
                == captiveMessage(
                    holder: "TokenCache",
                    holderScope: "singleton",
                    captive: "RequestInfo",
                    captiveScope: "scoped(to: .request)",
                    path: "TokenCache -> RequestInfo"
                )
        )
        #expect(mismatch.code == .scopeMismatch)
        #expect(mismatch.message.hasPrefix("RequestInfo is a value provided by lifetime scopes tagged \"request\""))
        #expect(mismatch.message.contains("but was resolved from the scope \"session\"."))
    }
}

// MARK: - The construction stack around its indexed depth

/// Registers `Link`s named `prefix0` … `prefix(length - 1)`, each resolving the next, the last
/// running `last`.
private func registerChain(
    _ prefix: String,
    length: Int,
    in container: Container,
    last: @escaping @Sendable (Resolver) throws -> Void = { _ in }
) {
    for index in 0..<length {
        container.register(Link.self, name: "\(prefix)\(index)") { r in
            if index == length - 1 { try last(r) } else { _ = try r.resolve(Link.self, name: "\(prefix)\(index + 1)") }
            return Link()
        }
    }
}

private func linkNames(_ prefix: String, _ range: Range<Int>) -> [String] {
    range.map { "Link (name: \"\(prefix)\($0)\")" }
}

@Suite struct ColdPathConstructionStackAdversarialTests {
    /// A chain of `depth` links whose last resolves the link at `target` again: the cycle is found
    /// whatever the depth, below, at and past the 32 entries that index the stack, and shown from
    /// where it was entered.
    @Test(arguments: [1, 2, 30, 31, 32, 33, 34, 63, 64, 65], [0, 1, 15, 31, 32, 62])
    func cycleIsFoundAtEveryDepth(depth: Int, target: Int) throws {
        guard target < depth else { return }
        let container = Container()
        registerChain("l", length: depth, in: container) { r in _ = try r.resolve(Link.self, name: "l\(target)") }

        let error = try #require(injectionError { try container.resolve(Link.self, name: "l0") })

        #expect(error.code == .circularDependency)
        let path = linkNames("l", 0..<depth) + linkNames("l", target..<(target + 1))
        let loop = path[target...].joined(separator: " -> ")
        #expect(
            error.message.hasPrefix(
                target == 0
                    ? "Circular dependency: \(loop). Each of these asks for the next"
                    : "Circular dependency: \(path.joined(separator: " -> ")). The loop is \(loop): each of these"
                        + " asks for the next"
            )
        )
        #expect(error.resolutionPath.map(\.description) == path)
    }

    /// One resolution goes 64 deep, comes back to the root, goes as deep again through the same
    /// registrations (no cycle: the index of the first pass is gone), then down a chain whose last
    /// link asks for the root (a cycle, found).
    @Test(arguments: [31, 32, 33, 64])
    func stackGoingDeepAgainFindsCyclesAndOnlyCycles(depth: Int) throws {
        let container = Container()
        registerChain("a", length: depth, in: container)
        registerChain("b", length: depth, in: container) { r in _ = try r.resolve(Root.self) }
        let passes = CallCounter()
        container.register(Root.self) { r in
            passes.next()
            for _ in 0..<3 { _ = try r.resolve(Link.self, name: "a0") }
            _ = try r.resolve(Link.self, name: "b0")
            return Root()
        }

        let error = try #require(injectionError { try container.resolve(Root.self) })

        #expect(error.code == .circularDependency)
        #expect(error.resolutionPath.map(\.description) == ["Root"] + linkNames("b", 0..<depth) + ["Root"])
        #expect(passes.count == 1)
        #expect(throws: Never.self) { try container.resolve(Link.self, name: "a0") }
    }

    /// A chain 33 deep whose bottom link resolves, one after another, chains that take the stack
    /// from 33 to 64 entries and back, then asks for its own top: a cycle found past every
    /// step up and down.
    @Test func cycleIsFoundAfterTheStackWentUpAndDownAboveTheIndexedDepth() throws {
        let container = Container()
        registerChain("up", length: 31, in: container)
        registerChain("deep", length: 33, in: container) { r in
            for _ in 0..<2 { _ = try r.resolve(Link.self, name: "up0") }
            _ = try r.resolve(Link.self, name: "deep0")
        }

        let error = try #require(injectionError { try container.resolve(Link.self, name: "deep0") })

        #expect(error.code == .circularDependency)
        #expect(error.resolutionPath.map(\.description) == linkNames("deep", 0..<33) + linkNames("deep", 0..<1))
    }

    /// A registration with arguments on the stack many times (recursion by depth): past the indexed
    /// depth it is counted once per entry, so coming back up leaves it counted right, and a
    /// registration without arguments under it still finds its own cycle.
    @Test(arguments: [31, 32, 33, 40, 64])
    func recursionThroughArgumentsPastTheIndexedDepthGoesDownAndUpRepeatedly(levels: Int) throws {
        let container = Container()
        container.register(Step.self, name: "forkless") { (r, level: Int) in
            if level < levels { _ = try r.resolve(Step.self, name: "forkless", argument: level + 1) }
            if level == levels {
                for _ in 0..<3 { _ = try r.resolve(Link.self, name: "leaf0") }
            }
            return Step()
        }
        registerChain("leaf", length: 2, in: container)
        registerChain("loop", length: 2, in: container) { r in _ = try r.resolve(Link.self, name: "loop0") }
        container.register(Step.self, name: "cyclic") { (r, level: Int) in
            if level < levels {
                _ = try r.resolve(Step.self, name: "cyclic", argument: level + 1)
            } else {
                _ = try r.resolve(Link.self, name: "leaf0")
                _ = try r.resolve(Link.self, name: "loop0")
            }
            return Step()
        }

        _ = try container.resolve(Step.self, name: "forkless", argument: 0)
        _ = try container.resolve(Step.self, name: "forkless", argument: 0)
        let error = try #require(injectionError { try container.resolve(Step.self, name: "cyclic", argument: 0) })

        #expect(error.code == .circularDependency)
        #expect(error.resolutionPath.count == levels + 1 + 3)
        #expect(
            error.resolutionPath.suffix(3).map(\.description) == linkNames("loop", 0..<2) + linkNames("loop", 0..<1)
        )
    }

    /// A registration with the same arguments deep in a recursion closes a cycle, found however
    /// deep, shown from the level it repeats.
    @Test(arguments: [(40, 35), (64, 1), (33, 32), (33, 0)])
    func recursionRepeatingItsArgumentsDeepIsACycle(levels: Int, repeated: Int) throws {
        let container = Container()
        container.register(Step.self) { (r, level: Int) in
            _ = try r.resolve(Step.self, argument: level < levels ? level + 1 : repeated)
            return Step()
        }

        let error = try #require(injectionError { try container.resolve(Step.self, argument: 0) })

        #expect(error.code == .circularDependency)
        #expect(error.resolutionPath.count == levels + 2)
        let steps = { (count: Int) in Array(repeating: "Step (argument: Int)", count: count).joined(separator: " -> ") }
        #expect(
            error.message.hasPrefix(
                repeated == 0
                    ? "Circular dependency: \(steps(levels + 2)). Each of these asks for the next"
                    : "Circular dependency: \(steps(levels + 2)). The loop is \(steps(levels - repeated + 2)): each"
                        + " of these asks for the next"
            )
        )
    }
}

// MARK: - A factory's failure

@Suite struct ColdPathFactoryFailureAdversarialTests {
    /// A factory that throws at any depth fails the resolve with its error, its path and its code;
    /// the stack is left empty, so the next resolve, as deep, succeeds, and no cycle is seen.
    @Test(arguments: [1, 2, 31, 32, 33, 64])
    func factoryThrowingAtAnyDepthFailsWithItsPathAndLeavesTheStackEmpty(depth: Int) throws {
        let container = Container()
        let refuse = CallCounter()
        registerChain("f", length: depth, in: container) { _ in
            if refuse.next() == 1 { throw Refusal() }
        }

        let error = try #require(injectionError { try container.resolve(Link.self, name: "f0") })

        #expect(error.code == .factoryFailed)
        let path = linkNames("f", 0..<depth)
        #expect(
            error.message == "The factory of \(path.last!) threw: refused."
                + (depth > 1 ? " Path: \(path.joined(separator: " -> "))." : "")
                + " The error is the underlyingError; fix the factory or what it depends on."
        )
        #expect(error.resolutionPath.map(\.description) == path)
        #expect(error.underlyingError is Refusal)
        #expect(throws: Never.self) { try container.resolve(Link.self, name: "f0") }
    }

    /// Shared instances built before a factory threw, and the hooks queued for them, are dropped:
    /// the next resolve builds them again and runs their hooks once, and the scope disposes only
    /// what that resolve built.
    @Test(arguments: [Scope.scoped, .singleton, .graph])
    func sharedInstancesBuiltBeforeAFactoryThrewAreDroppedWithTheirHooks(shared: Scope) throws {
        let container = Container()
        let log = EventLog()
        let built = CallCounter()
        let hooked = CallCounter()
        let refuse = CallCounter()
        container.register(Resource.self, scope: shared) { _ in Resource("shared \(built.next())", log: log) }
            .onResolved { _, _ in hooked.next() }
        container.register(Handler.self) { r in
            _ = try r.resolve(Resource.self)
            _ = try r.resolve(Link.self, name: "h0")
            return Handler()
        }
        registerChain("h", length: 34, in: container) { r in
            _ = try r.resolve(Resource.self)
            if refuse.next() == 1 { throw Refusal() }
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(Handler.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.resolutionPath.map(\.description) == ["Handler"] + linkNames("h", 0..<34))
        #expect(hooked.count == 0, "the failed resolve's hooks never ran")

        _ = try scope.resolve(Handler.self)
        #expect(built.count == 2)
        #expect(hooked.count == 1)
        try scope.close()
        try container.shutdown()
        #expect(log.events.filter { $0 == "shared 1" }.count <= 1)
        #expect(log.count("shared 2") == 1)
    }

    /// A factory that catches the failure of what it resolved completes; what the failed part
    /// built is dropped: its hooks never run, and a shared instance it built is not published, so
    /// the next ask builds it again, once.
    @Test(arguments: [1, 33])
    func hooksAndSharedInstancesOfACaughtFailureAreDropped(depth: Int) throws {
        let container = Container()
        let built = CallCounter()
        let hooked = EventLog()
        container.register(TokenWatcher.self) { _ in TokenWatcher() }
            .onResolved { _, _ in hooked.record("watcher") }
        container.register(AnyScopeToken.self, scope: .scoped) { _ in
            built.next()
            return AnyScopeToken()
        }
        .onResolved { _, _ in hooked.record("token") }
        registerChain("c", length: depth, in: container) { r in
            _ = try r.resolve(TokenWatcher.self)
            _ = try r.resolve(AnyScopeToken.self)
            throw Refusal()
        }
        container.register(Handler.self) { r in
            let failure = injectionError { try r.resolve(Link.self, name: "c0") }
            #expect(failure?.code == .factoryFailed)
            #expect(failure?.resolutionPath.map(\.description) == ["Handler"] + linkNames("c", 0..<depth))
            _ = try r.resolve(AnyScopeToken.self)
            return Handler()
        }
        let scope = container.makeScope()

        _ = try scope.resolve(Handler.self)

        #expect(hooked.events == ["token"])
        #expect(built.count == 2)
        #expect(try scope.resolve(AnyScopeToken.self) === scope.resolve(AnyScopeToken.self))
        #expect(built.count == 2)
    }

    /// A failure inside a resolution through a captured container, caught by the factory around it,
    /// leaves both stacks as they were: the outer resolve completes, and its own cycle is still seen.
    @Test func failureCaughtAcrossACapturedContainerLeavesBothStacksUsable() throws {
        let container = Container()
        registerChain("inner", length: 33, in: container) { _ in throw Refusal() }
        registerChain("outer", length: 33, in: container) { _ in
            let inner = injectionError { try container.resolve(Link.self, name: "inner0") }
            #expect(inner?.code == .factoryFailed)
            // The path leads from the outermost resolution, through the captured container.
            #expect(
                inner?.resolutionPath.map(\.description)
                    == ["Root"] + linkNames("outer", 0..<33) + linkNames("inner", 0..<33)
            )
        }
        container.register(Root.self) { r in
            _ = try r.resolve(Link.self, name: "outer0")
            _ = try r.resolve(Root.self)
            return Root()
        }

        let error = try #require(injectionError { try container.resolve(Root.self) })

        #expect(error.code == .circularDependency)
        #expect(error.resolutionPath.map(\.description) == ["Root", "Root"])
    }

    /// An `InjectionError` from a resolve inside a factory keeps its code, message and path.
    @Test func injectionErrorThrownThroughAFactoryKeepsItsCodeAndMessage() throws {
        let container = Container()
        registerChain("m", length: 40, in: container) { r in _ = try r.resolve(TokenWatcher.self) }

        let error = try #require(injectionError { try container.resolve(Link.self, name: "m0") })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message == "No registration for TokenWatcher, needed by "
                + (linkNames("m", 0..<40) + ["TokenWatcher (missing)"]).joined(separator: " -> ")
                + ". Nothing is registered for TokenWatcher under any name or arguments. Fix: register it, e.g."
                + " container.register(TokenWatcher.self) { r in … }, in this container or one of its parents."
        )
        #expect(error.resolutionPath.map(\.description) == linkNames("m", 0..<40) + ["TokenWatcher"])
    }
}

// MARK: - Disposing several records

@Suite struct ColdPathDisposalAdversarialTests {
    /// A scope disposes what it owns last completed first, whether it owns one instance, two, the
    /// 16 compared pairwise, or more, found through an index.
    @Test(arguments: [1, 2, 16, 17, 40])
    func scopeDisposesItsInstancesLastCompletedFirst(count: Int) throws {
        let container = Container()
        let log = EventLog()
        for index in 0..<count {
            container.register(Resource.self, name: "\(index)", scope: .scoped) { _ in Resource("\(index)", log: log) }
        }
        let scope = container.makeScope()
        for index in 0..<count { _ = try scope.resolve(Resource.self, name: "\(index)") }

        try scope.close()

        #expect(log.events == (0..<count).reversed().map { "\($0)" })
    }

    /// One object returned by two registrations is recorded twice and disposed once, where its
    /// last record puts it.
    @Test(arguments: [2, 16, 17, 40])
    func objectRecordedTwiceIsDisposedOnceAtItsLastRecord(records: Int) throws {
        let container = Container()
        let log = EventLog()
        let twice = Resource("twice", log: log)
        container.register(Resource.self, name: "first", scope: .scoped) { _ in twice }
        container.register(Resource.self, name: "again", scope: .scoped) { _ in twice }
        for index in 0..<(records - 2) {
            container.register(Resource.self, name: "\(index)", scope: .scoped) { _ in Resource("\(index)", log: log) }
        }
        let scope = container.makeScope()
        _ = try scope.resolve(Resource.self, name: "first")
        let middle = (records - 2) / 2
        for index in 0..<middle { _ = try scope.resolve(Resource.self, name: "\(index)") }
        _ = try scope.resolve(Resource.self, name: "again")
        for index in middle..<(records - 2) { _ = try scope.resolve(Resource.self, name: "\(index)") }

        try scope.close()

        let expected =
            (middle..<(records - 2)).reversed().map { "\($0)" } + ["twice"]
            + (0..<middle).reversed().map { "\($0)" }
        #expect(log.events == expected)
    }

    /// Every disposal runs when some throw; the error counts the disposals that ran and lists the
    /// failures in disposal order, an object recorded twice counted once.
    @Test(arguments: [1, 2, 16, 17, 40])
    func failingDisposalsAreCountedAndListedInDisposalOrder(count: Int) throws {
        let container = Container()
        let log = EventLog()
        let failing = Set((0..<count).filter { $0 % 3 == 0 })
        for index in 0..<count {
            container.register(Resource.self, name: "\(index)", scope: .scoped) { _ in
                Resource("\(index)", log: log, fails: failing.contains(index))
            }
        }
        let twice = Resource("twice", log: log, fails: true)
        container.register(Resource.self, name: "first", scope: .scoped) { _ in twice }
        container.register(Resource.self, name: "again", scope: .scoped) { _ in twice }
        let scope = container.makeScope(tag: .coldRequest)
        _ = try scope.resolve(Resource.self, name: "first")
        for index in 0..<count { _ = try scope.resolve(Resource.self, name: "\(index)") }
        _ = try scope.resolve(Resource.self, name: "again")

        let error = try #require(injectionError { try scope.close() })

        let order = ["twice"] + (0..<count).reversed().map { "\($0)" }
        let failed = order.filter { $0 == "twice" || failing.contains(Int($0) ?? -1) }
        #expect(log.events == order)
        #expect(error.code == .disposalFailed)
        let outcome =
            failed.count < order.count
            ? "\(failed.count) of \(order.count) disposals threw; every other instance was disposed"
            : "all \(failed.count) disposals threw"
        let keys = failed.map { $0 == "twice" ? "again" : $0 }
        #expect(
            error.message == "Disposing what the scope \"request\" owned: \(outcome).\n"
                + zip(keys, failed).map { key, name in
                    "- Disposing Resource (name: \"\(key)\") threw: \(name) would not close."
                        + " The error is the underlyingError."
                }.joined(separator: "\n")
        )
        #expect(error.problems.map(\.code) == Array(repeating: .disposalFailed, count: failed.count))
    }
}
