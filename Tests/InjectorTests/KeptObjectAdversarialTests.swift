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

// A shared instance of a class is kept as itself, anything else in a box, and so is a value given
// to a scope. These tests give that rule the types and sharing it could get wrong: a class under a
// protocol, a superclass or `AnyObject`, an optional of a class, a generic class, a metatype; one
// object under two keys; values given to a scope and handed on; many tasks at once.

private protocol Greeter: AnyObject, Sendable {
    var greeting: String { get }
}
private protocol Named: Sendable {
    var name: String { get }
}
private class Clerk: Greeter, Named, @unchecked Sendable {  // only `let`s
    let greeting: String
    let name: String
    init(_ greeting: String, name: String = "clerk") {
        self.greeting = greeting
        self.name = name
    }
}
private final class HeadClerk: Clerk, @unchecked Sendable {  // only `let`s
    let office = "first floor"
}
private final class Envelope<Content: Sendable>: Sendable {
    let content: Content
    init(_ content: Content) { self.content = content }
}
/// Disposable, and records how often it was disposed.
private final class Ledger: Disposable, @unchecked Sendable {  // `count` is only touched under `lock`
    private let lock = NSLock()
    private var count = 0
    func dispose() { lock.withLock { count += 1 } }
    var disposals: Int { lock.withLock { count } }
}
private protocol Account: Disposable, AnyObject, Sendable {}
extension Ledger: Account {}
/// A disposable value, which counts its disposals in a counter it shares with its copies.
private struct Receipt: Disposable, Sendable {
    let disposals: CallCounter
    let number: Int
    func dispose() { disposals.next() }
}
/// The object two graph registrations both hand out.
private final class Token: Sendable {}
private final class Connection: Sendable {}
private final class Socket: Sendable {}
private final class Archive: Sendable {}
private final class Page: Sendable {}

// MARK: - One object under two graph keys

@Suite struct KeptObjectGraphIdentityTests {
    /// Registers graph-scoped `Token` "bound", built with a scoped `Connection`, and "plain", built
    /// with nothing, both handing out `token`; and the singleton `Archive`, which holds "plain".
    private func registerTokens(_ token: Token, in container: Container) {
        container.register(Connection.self, scope: .scoped) { _ in Connection() }
        container.register(Token.self, name: "bound", scope: .graph) { r in
            _ = try r.resolve(Connection.self)
            return token
        }
        container.register(Token.self, name: "plain", scope: .graph) { _ in token }
        container.register(Archive.self, scope: .singleton) { r in
            _ = try r.resolve(Token.self, name: "plain")
            return Archive()
        }
    }

    /// A graph instance built with no scoped instance may go to a singleton, even when it is the
    /// object another graph registration built with a scoped one, before it or after it: the mark
    /// is the other registration's.
    @Test(arguments: [["bound", "plain"], ["plain", "bound"]])
    func graphInstanceBuiltWithoutAScopedOneIsNotCaptiveWhenAnotherKeyHandsOutItsObject(
        builtInOrder names: [String]
    ) throws {
        let container = Container()
        registerTokens(Token(), in: container)
        container.register(Page.self) { r in
            for name in names { _ = try r.resolve(Token.self, name: name) }
            _ = try r.resolve(Archive.self)
            return Page()
        }
        let scope = container.makeScope()

        #expect(injectionError { try scope.resolve(Page.self) } == nil)
    }

    /// The bound registration itself is still captive in a singleton, whichever key built the
    /// object first.
    @Test func graphInstanceBuiltWithAScopedOneStaysCaptiveWhenAnotherKeyHandsOutItsObject() throws {
        let container = Container()
        let token = Token()
        registerTokens(token, in: container)
        container.register(Archive.self, name: "bound", scope: .singleton) { r in
            _ = try r.resolve(Token.self, name: "bound")
            return Archive()
        }
        container.register(Page.self) { r in
            _ = try r.resolve(Token.self, name: "plain")
            _ = try r.resolve(Token.self, name: "bound")
            _ = try r.resolve(Archive.self, name: "bound")
            return Page()
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(Page.self) })

        #expect(error.code == .captiveDependency)
        #expect(error.message.contains("which this resolution built with the scoped Connection"))
    }

    /// A captive-dependency error names the scoped instance the graph instance was built with, not
    /// the one another graph registration that hands out the same object was built with.
    @Test func captiveGraphInstanceNamesTheScopedInstanceItWasBuiltWith() throws {
        let container = Container()
        let token = Token()
        container.register(Connection.self, scope: .scoped) { _ in Connection() }
        container.register(Socket.self, scope: .scoped) { _ in Socket() }
        container.register(Token.self, name: "with connection", scope: .graph) { r in
            _ = try r.resolve(Connection.self)
            return token
        }
        container.register(Token.self, name: "with socket", scope: .graph) { r in
            _ = try r.resolve(Socket.self)
            return token
        }
        container.register(Archive.self, scope: .singleton) { r in
            _ = try r.resolve(Token.self, name: "with connection")
            return Archive()
        }
        container.register(Page.self) { r in
            _ = try r.resolve(Token.self, name: "with connection")
            _ = try r.resolve(Token.self, name: "with socket")
            _ = try r.resolve(Archive.self)
            return Page()
        }
        let scope = container.makeScope()

        let error = try #require(injectionError { try scope.resolve(Page.self) })

        #expect(error.code == .captiveDependency)
        #expect(error.message.contains("which this resolution built with the scoped Connection:"))
    }
}

// MARK: - Service types around the class rule

@Suite struct KeptObjectServiceTypeTests {
    @Test func subclassRegisteredAsItsSuperclassIsKeptAsItselfInEveryLifetime() throws {
        let container = Container()
        container.register(Clerk.self, name: "scoped", scope: .scoped) { _ in HeadClerk("scoped") }
        container.register(Clerk.self, name: "singleton", scope: .singleton) { _ in HeadClerk("singleton") }
        container.register(Clerk.self, name: "weak", scope: .weak) { _ in HeadClerk("weak") }
        container.register(Clerk.self, name: "instance", instance: HeadClerk("instance"), ownedBy: .caller)
        let scope = container.makeScope()

        for name in ["scoped", "singleton", "weak", "instance"] {
            let first = try scope.resolve(Clerk.self, name: name)
            #expect(first.greeting == name)
            #expect((first as? HeadClerk)?.office == "first floor")
            #expect(try scope.resolve(Clerk.self, name: name) === first)
        }
    }

    @Test func classUnderAProtocolExistentialKeepsItsConformanceInEveryLifetime() throws {
        let container = Container()
        container.register((any Named).self, name: "scoped", scope: .scoped) { _ in Clerk("", name: "scoped") }
        container.register((any Named).self, name: "singleton", scope: .singleton) { _ in
            Clerk("", name: "singleton")
        }
        container.register((any Named).self, name: "weak", scope: .weak) { _ in Clerk("", name: "weak") }
        container.register((any Named).self, name: "graph", scope: .graph) { _ in Clerk("", name: "graph") }
        let scope = container.makeScope()

        for name in ["scoped", "singleton", "weak", "graph"] {
            let first = try scope.resolve((any Named).self, name: name)
            #expect(first.name == name)
            if name != "graph" {
                #expect(try scope.resolve((any Named).self, name: name) as AnyObject === first as AnyObject)
            }
        }
    }

    @Test func classBoundExistentialKeepsItsConformanceAsSingletonAndRegisteredInstance() throws {
        let container = Container()
        container.register((any Greeter).self, scope: .singleton) { _ in HeadClerk("hello") }
        container.register((any Greeter).self, name: "given", instance: Clerk("hi"), ownedBy: .caller)

        let singleton = try container.resolve((any Greeter).self)

        #expect(singleton.greeting == "hello")
        #expect(try container.makeScope().resolve((any Greeter).self) === singleton)
        #expect(try container.resolve((any Greeter).self, name: "given").greeting == "hi")
    }

    @Test func anyObjectServiceComesBackAsTheSameObject() throws {
        let container = Container()
        container.register((any AnyObject & Sendable).self, name: "scoped", scope: .scoped) { _ in Clerk("scoped") }
        container.register((any AnyObject & Sendable).self, name: "singleton", scope: .singleton) { _ in
            Clerk("singleton")
        }
        container.register((any AnyObject & Sendable).self, name: "weak", scope: .weak) { _ in Clerk("weak") }
        let scope = container.makeScope()

        for name in ["scoped", "singleton", "weak"] {
            let first = try scope.resolve((any AnyObject & Sendable).self, name: name)
            #expect((first as? Clerk)?.greeting == name)
            #expect(try scope.resolve((any AnyObject & Sendable).self, name: name) === first)
        }
    }

    @Test func optionalOfAClassComesBackAsNilOrTheSameObject() throws {
        let container = Container()
        let made = CallCounter()
        container.register(Clerk?.self, name: "none", scope: .scoped) { _ in
            made.next()
            return nil
        }
        container.register(Clerk?.self, name: "some", scope: .singleton) { _ in Clerk("present") }
        container.register(Clerk?.self, name: "graph", scope: .graph) { _ in nil }
        let scope = container.makeScope()

        #expect(try scope.resolve(Clerk?.self, name: "none") == nil)
        #expect(try scope.resolve(Clerk?.self, name: "none") == nil)
        #expect(made.count == 1)
        let some = try #require(try scope.resolve(Clerk?.self, name: "some"))
        #expect(some.greeting == "present")
        #expect(try container.resolve(Clerk?.self, name: "some") === some)
        #expect(try scope.resolve(Clerk?.self, name: "graph") == nil)
    }

    @Test func genericClassAndMetatypeComeBackIntact() throws {
        let container = Container()
        container.register(Envelope<String>.self, scope: .scoped) { _ in Envelope("letter") }
        container.register(Envelope<Int>.self, scope: .singleton) { _ in Envelope(42) }
        container.register(Clerk.Type.self, scope: .scoped) { _ in HeadClerk.self }
        let scope = container.makeScope()

        let letter = try scope.resolve(Envelope<String>.self)
        #expect(letter.content == "letter")
        #expect(try scope.resolve(Envelope<String>.self) === letter)
        #expect(try scope.resolve(Envelope<Int>.self).content == 42)
        #expect(try scope.resolve(Clerk.Type.self) == HeadClerk.self)
    }

    /// A weak class or class-bound existential lives while something holds it, and is built anew
    /// once nothing does.
    @Test func weakClassAndClassBoundExistentialAreRebuiltOnceReleased() throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clerk.self, scope: .weak) { _ in Clerk("weak #\(built.next())") }
        container.register((any Greeter).self, scope: .weak) { _ in Clerk("greeter #\(built.next())") }

        var clerk: Clerk? = try container.resolve(Clerk.self)
        var greeter: (any Greeter)? = try container.resolve((any Greeter).self)
        #expect(try container.resolve(Clerk.self) === clerk)
        #expect(try container.resolve((any Greeter).self) === greeter)
        #expect(built.count == 2)
        weak let releasedClerk = clerk
        weak let releasedGreeter = greeter
        clerk = nil
        greeter = nil

        #expect(releasedClerk == nil)
        #expect(releasedGreeter == nil)
        #expect(try container.resolve(Clerk.self).greeting == "weak #3")
        #expect(try container.resolve((any Greeter).self).greeting == "greeter #4")
    }
}

// MARK: - One object under two keys, and values given to a scope

@Suite struct KeptObjectSharingTests {
    /// One disposable object that two scoped registrations both hand out is disposed once.
    @Test func oneObjectScopedUnderTwoKeysIsDisposedOnce() throws {
        let container = Container()
        let ledger = Ledger()
        container.register(Ledger.self, name: "a", scope: .scoped) { _ in ledger }
        container.register(Ledger.self, name: "b", scope: .scoped) { _ in ledger }
        let scope = container.makeScope()

        #expect(try scope.resolve(Ledger.self, name: "a") === ledger)
        #expect(try scope.resolve(Ledger.self, name: "b") === ledger)
        try scope.close()

        #expect(ledger.disposals == 1)
    }

    /// One object given under two keys, handed on by a scoped factory under a third: not disposed.
    @Test func oneObjectGivenUnderTwoKeysAndHandedOnIsNotDisposed() throws {
        let container = Container()
        container.register(Ledger.self, name: "kept", scope: .scoped) { r in try r.resolve(Ledger.self, name: "b") }
        let given = Ledger()
        let scope = container.makeScope { values in
            values.provide(Ledger.self, name: "a", given)
            values.provide(Ledger.self, name: "b", given)
        }

        #expect(try scope.resolve(Ledger.self, name: "a") === given)
        #expect(try scope.resolve(Ledger.self, name: "kept") === given)
        try scope.close()

        #expect(given.disposals == 0)
    }

    /// A scope's first value handed on while it was given others too, and a value given as a
    /// class-bound existential among others handed on as its class: neither is disposed.
    @Test func valuesGivenAmongOthersAndHandedOnAreNotDisposed() throws {
        let container = Container()
        container.register(Ledger.self, name: "first", scope: .scoped) { r in try r.resolve(Ledger.self) }
        container.register(Ledger.self, name: "existential", scope: .scoped) { r in
            try #require(r.resolve((any Account).self) as? Ledger)
        }
        let first = Ledger()
        let existential = Ledger()
        let scope = container.makeScope { values in
            values.provide(Ledger.self, first)
            values.provide((@Sendable () -> Int).self) { 7 }
            values.provide((any Account).self, existential)
        }

        #expect(try scope.resolve(Ledger.self, name: "first") === first)
        #expect(try scope.resolve(Ledger.self, name: "existential") === existential)
        #expect(try scope.resolve((@Sendable () -> Int).self)() == 7)
        try scope.close()

        #expect(first.disposals == 0)
        #expect(existential.disposals == 0)
    }

    /// A disposable value (a struct) given to a scope and handed on is not disposed; one a factory
    /// makes anew, equal in type only, is.
    @Test func disposableValueGivenAndHandedOnIsNotDisposed() throws {
        let container = Container()
        let givenDisposals = CallCounter()
        let madeDisposals = CallCounter()
        container.register(Receipt.self, name: "handed on", scope: .scoped) { r in try r.resolve(Receipt.self) }
        container.register(Receipt.self, name: "made", scope: .scoped) { _ in
            Receipt(disposals: madeDisposals, number: 2)
        }
        let scope = container.makeScope { values in
            values.provide(Receipt.self, Receipt(disposals: givenDisposals, number: 1))
            values.provide(String.self, "trace")
        }

        #expect(try scope.resolve(Receipt.self, name: "handed on").number == 1)
        #expect(try scope.resolve(Receipt.self, name: "made").number == 2)
        try scope.close()

        #expect(givenDisposals.count == 0)
        #expect(madeDisposals.count == 1)
    }

    /// A value replaced by a second `provide` for its key is no longer the scope's: resolving the
    /// key gives the second, and only the second is spared disposal when a factory hands it on.
    @Test func valueReplacedBySecondProvideIsNoLongerGiven() throws {
        let container = Container()
        let replaced = Ledger()
        let replacement = Ledger()
        container.register(Ledger.self, name: "replaced", scope: .scoped) { _ in replaced }
        container.register(Ledger.self, name: "replacement", scope: .scoped) { r in try r.resolve(Ledger.self) }
        let scope = container.makeScope { values in
            values.provide(Ledger.self, replaced)
            values.provide(Ledger.self, replacement)
        }

        #expect(try scope.resolve(Ledger.self) === replacement)
        #expect(try scope.resolve(Ledger.self, name: "replaced") === replaced)
        #expect(try scope.resolve(Ledger.self, name: "replacement") === replacement)
        try scope.close()

        #expect(replaced.disposals == 1)
        #expect(replacement.disposals == 0)
    }

    /// A value given as `AnyObject` is the given object.
    @Test func valueGivenAsAnyObjectIsTheGivenObject() throws {
        let container = Container()
        container.register(Ledger.self, scope: .scoped) { r in
            try #require(r.resolve((any AnyObject & Sendable).self) as? Ledger)
        }
        let given = Ledger()
        let scope = container.makeScope { $0.provide((any AnyObject & Sendable).self, given) }

        #expect(try scope.resolve((any AnyObject & Sendable).self) === given)
        #expect(try scope.resolve(Ledger.self) === given)
        try scope.close()

        #expect(given.disposals == 0)
    }
}

// MARK: - Overrides and validation

@Suite struct KeptObjectSideStoreTests {
    @Test func scopedAndSingletonClassesUnderOverridesAreOnePerCallAndScope() throws {
        let container = Container()
        container.register(Clerk.self, scope: .scoped) { _ in Clerk("real") }
        container.register((any Greeter).self, scope: .singleton) { _ in Clerk("real singleton") }
        let scope = container.makeScope()

        let (clerk, greeter) = try container.withOverrides {
            $0.register(Clerk.self, scope: .scoped) { _ in HeadClerk("fake") }
            $0.register((any Greeter).self, scope: .singleton) { _ in HeadClerk("fake singleton") }
        } operation: {
            let clerk = try scope.resolve(Clerk.self)
            let greeter = try scope.resolve((any Greeter).self)
            #expect(try scope.resolve(Clerk.self) === clerk)
            #expect(try container.resolve((any Greeter).self) === greeter)
            return (clerk, greeter)
        }

        #expect(clerk is HeadClerk)
        #expect(greeter.greeting == "fake singleton")
        #expect(try scope.resolve(Clerk.self).greeting == "real")
        #expect(try container.resolve((any Greeter).self).greeting == "real singleton")
    }

    @Test func validationLeavesNoClassInstanceBehindForRealResolves() throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clerk.self, scope: .singleton) { _ in Clerk("singleton #\(built.next())") }
        container.register(Envelope<Clerk>.self, scope: .scoped) { r in try Envelope(r.resolve(Clerk.self)) }
        container.register(Token.self, scope: .graph) { _ in Token() }

        _ = try container.validate()
        let builtInValidation = built.count
        let scope = container.makeScope()
        let envelope = try scope.resolve(Envelope<Clerk>.self)

        #expect(envelope.content.greeting == "singleton #\(builtInValidation + 1)")
        #expect(try container.resolve(Clerk.self) === envelope.content)
        #expect(try scope.resolve(Envelope<Clerk>.self) === envelope)
    }
}

// MARK: - Many tasks at once

@Suite struct KeptObjectConcurrencyTests {
    private static let tasks = 16

    @Test func coldScopedClassIsBuiltOnceForManyTasks() async throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clerk.self, scope: .scoped) { _ in
            built.next()
            usleep(2_000)
            return HeadClerk("scoped")
        }
        let scope = container.makeScope()

        let objects = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask { ObjectIdentifier(try scope.resolve(Clerk.self)) }
            }
            return try await group.reduce(into: Set()) { $0.insert($1) }
        }

        #expect(objects.count == 1)
        #expect(built.count == 1)
        #expect(objects.first == ObjectIdentifier(try scope.resolve(Clerk.self)))
    }

    @Test func coldAsyncScopedClassIsBuiltOnceForManyTasks() async throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clerk.self, scope: .scoped) { _ async in
            built.next()
            try? await Task.sleep(for: .milliseconds(2))
            return HeadClerk("async scoped")
        }
        let scope = container.makeScope()

        let detached = (0..<Self.tasks / 2).map { _ in
            Task.detached { ObjectIdentifier(try await scope.resolveAsync(Clerk.self)) }
        }
        async let first = scope.resolveAsync(Clerk.self)
        async let second = scope.resolveAsync(Clerk.self)
        var objects: Set<ObjectIdentifier> = [ObjectIdentifier(try await first), ObjectIdentifier(try await second)]
        for task in detached { objects.insert(try await task.value) }

        #expect(objects.count == 1)
        #expect(built.count == 1)
        try await scope.closeAsync()
    }

    @Test func coldSingletonClassAndExistentialAreBuiltOnceForManyTasks() async throws {
        let container = Container()
        let built = CallCounter()
        container.register(Clerk.self, scope: .singleton) { _ in
            built.next()
            usleep(2_000)
            return Clerk("sync")
        }
        container.register((any Greeter).self, scope: .singleton) { _ async in
            built.next()
            try? await Task.sleep(for: .milliseconds(2))
            return Clerk("async")
        }

        let (clerks, greeters) = try await withThrowingTaskGroup(of: (ObjectIdentifier, ObjectIdentifier).self) {
            group in
            for index in 0..<Self.tasks {
                group.addTask {
                    let scope = container.makeScope()
                    let clerk =
                        index.isMultiple(of: 2) ? try container.resolve(Clerk.self) : try scope.resolve(Clerk.self)
                    let greeter = try await scope.resolveAsync((any Greeter).self)
                    return (ObjectIdentifier(clerk), ObjectIdentifier(greeter))
                }
            }
            return try await group.reduce(into: (Set<ObjectIdentifier>(), Set<ObjectIdentifier>())) {
                $0.0.insert($1.0)
                $0.1.insert($1.1)
            }
        }

        #expect(clerks.count == 1)
        #expect(greeters.count == 1)
        #expect(built.count == 2)
        #expect(try await container.resolveAsync((any Greeter).self).greeting == "async")
    }
}
