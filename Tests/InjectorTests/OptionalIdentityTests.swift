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

// Identity looks inside optionals: an object, or a value, wrapped in an optional by one key and
// not by another is one instance. A scope never disposes a value it was given or a singleton,
// whichever wrapping it was given or registered with and handed on with; an object recorded for
// disposal under several wrappings is disposed once. Weak registrations are unchanged.

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
/// A disposable value, which counts its disposals in a counter it shares with its copies.
private struct Receipt: Disposable, Sendable {
    let disposals: CallCounter
    let number: Int
    func dispose() { disposals.next() }
}
private final class Cache: Sendable {}
private final class Holder: Sendable {
    let ledger: Ledger?
    init(_ ledger: Ledger?) { self.ledger = ledger }
}

@Suite struct OptionalIdentityTests {
    /// A value given as an optional of its class, handed on as its class by a scoped factory, is
    /// still the given value: the scope does not dispose it. (Its identity is the object inside the
    /// optional.)
    @Test func valueGivenAsAnOptionalOfItsClassAndHandedOnIsNotDisposed() throws {
        let container = Container()
        container.register(Ledger?.self, providedByScope: nil)
        container.register(Ledger.self, scope: .scoped) { r in
            let given = try r.resolve(Ledger?.self)
            return try #require(given)
        }
        let given = Ledger()
        let scope = container.makeScope { $0.provide(Ledger?.self, given) }

        #expect(try scope.resolve(Ledger.self) === given)
        try scope.close()

        #expect(given.disposals == 0)
    }

    /// The other way round: a value given as its class, handed on wrapped in an optional by a scoped
    /// factory, is not disposed either.
    @Test func valueGivenAsItsClassAndHandedOnAsAnOptionalIsNotDisposed() throws {
        let container = Container()
        container.register(Ledger.self, providedByScope: nil)
        container.register(Ledger?.self, scope: .scoped) { r in Optional(try r.resolve(Ledger.self)) }
        let given = Ledger()
        let scope = container.makeScope { $0.provide(Ledger.self, given) }

        #expect(try scope.resolve(Ledger?.self) === given)
        try scope.close()

        #expect(given.disposals == 0)
    }

    /// A value given as an optional, among several values, handed on as its class: the same, where
    /// the scope compares it with each value rather than with the first one's identity.
    @Test func valueGivenAsAnOptionalAmongSeveralAndHandedOnIsNotDisposed() throws {
        let container = Container()
        container.register(Ledger.self, scope: .scoped) { r in
            try #require(try r.resolve(Ledger?.self, name: "given"))
        }
        let given = Ledger()
        let other = Ledger()
        let scope = container.makeScope { values in
            values.provide(Ledger.self, name: "other", other)
            values.provide(Ledger?.self, name: "given", given)
        }

        #expect(try scope.resolve(Ledger.self) === given)
        try scope.close()

        #expect(given.disposals == 0)
        #expect(other.disposals == 0)
    }

    /// How the container owns the object a scoped factory hands on.
    enum ContainerOwned: CaseIterable, Sendable {
        case singleton, registeredInstance
    }

    /// An object the container owns (a singleton, or an instance registered for it to own),
    /// registered as an optional of its class and handed on as its class by a scoped factory, is the
    /// container's: the scope does not dispose it; the container does, once.
    @Test(arguments: ContainerOwned.allCases)
    func optionalTheContainerOwnsHandedOnAsItsClassIsDisposedByTheContainerOnly(_ owned: ContainerOwned) throws {
        let container = Container()
        let ledger = Ledger()
        switch owned {
        case .singleton: container.register(Ledger?.self, scope: .singleton) { _ in ledger }
        case .registeredInstance: container.register(Ledger?.self, instance: ledger, ownedBy: .container)
        }
        container.register(Ledger.self, scope: .scoped) { r in try #require(try r.resolve(Ledger?.self)) }
        let scope = container.makeScope()

        #expect(try scope.resolve(Ledger.self) === ledger)
        try scope.close()
        #expect(ledger.disposals == 0)

        try container.shutdown()
        #expect(ledger.disposals == 1)
    }

    /// A singleton of a class, handed on wrapped in an optional by a scoped factory: the same.
    @Test func singletonHandedOnAsAnOptionalIsDisposedByTheContainerOnly() throws {
        let container = Container()
        let ledger = Ledger()
        container.register(Ledger.self, scope: .singleton) { _ in ledger }
        container.register(Ledger?.self, scope: .scoped) { r in Optional(try r.resolve(Ledger.self)) }
        let scope = container.makeScope()

        #expect(try scope.resolve(Ledger?.self) === ledger)
        try scope.close()
        #expect(ledger.disposals == 0)

        try container.shutdown()
        #expect(ledger.disposals == 1)
    }

    /// What a scoped registration of an optional builds is the scope's: disposed once when it
    /// closes, also when a second scoped registration hands the same object on as its class.
    @Test func scopedOptionalItBuiltIsDisposedOnceWhenTheScopeCloses() throws {
        let container = Container()
        container.register(Ledger?.self, scope: .scoped) { _ in Ledger() }
        container.register(Ledger.self, scope: .scoped) { r in try #require(try r.resolve(Ledger?.self)) }
        let scope = container.makeScope()

        let ledger = try scope.resolve(Ledger.self)
        #expect(try scope.resolve(Ledger?.self) === ledger)
        try scope.close()

        #expect(ledger.disposals == 1)
    }

    @Test func valueGivenAsDoubleOptionalAndHandedOnAsItsClassIsNotDisposed() throws {
        let container = Container()
        container.register(Ledger??.self, providedByScope: nil)
        container.register(Ledger.self, scope: .scoped) { r in
            let given: Ledger?? = try r.resolve(Ledger??.self)
            return try #require(given ?? nil)
        }
        let given = Ledger()
        let scope = container.makeScope { $0.provide(Ledger??.self, .some(.some(given))) }

        #expect(try scope.resolve(Ledger.self) === given)
        try scope.close()

        #expect(given.disposals == 0)
    }

    @Test func valueGivenAsItsClassAndHandedOnAsADoubleOptionalIsNotDisposed() throws {
        let container = Container()
        container.register(Ledger.self, providedByScope: nil)
        container.register(Ledger??.self, scope: .scoped) { r in .some(.some(try r.resolve(Ledger.self))) }
        let given = Ledger()
        let scope = container.makeScope { $0.provide(Ledger.self, given) }

        let handed: Ledger?? = try scope.resolve(Ledger??.self)
        #expect((handed ?? nil) === given)
        try scope.close()

        #expect(given.disposals == 0)
    }

    @Test func valueGivenAsAnOptionalExistentialAndHandedOnAsItsClassIsNotDisposed() throws {
        let container = Container()
        container.register(Ledger.self, scope: .scoped) { r in
            try #require(try r.resolve((any Account)?.self) as? Ledger)
        }
        let given = Ledger()
        let other = Ledger()
        let scope = container.makeScope { values in
            values.provide((any Account)?.self, given)
            values.provide(Ledger.self, name: "other", other)
        }

        #expect(try scope.resolve(Ledger.self) === given)
        try scope.close()

        #expect(given.disposals == 0)
        #expect(other.disposals == 0)
    }

    @Test func valueGivenAsItsClassAndHandedOnAsAnOptionalExistentialIsNotDisposed() throws {
        let container = Container()
        container.register((any Account)?.self, scope: .scoped) { r in try r.resolve(Ledger.self) }
        container.register((any Named).self, scope: .scoped) { r in try r.resolve(Ledger.self) }
        let given = Ledger()
        let scope = container.makeScope { $0.provide(Ledger.self, given) }

        #expect(try scope.resolve((any Account)?.self) === given)
        #expect(try scope.resolve((any Named).self) as AnyObject === given)
        try scope.close()

        #expect(given.disposals == 0)
    }

    @Test func doubleOptionalSingletonHandedOnAsAnExistentialIsDisposedByTheContainerOnly() throws {
        let container = Container()
        let ledger = Ledger()
        container.register(Ledger??.self, scope: .singleton) { _ in .some(.some(ledger)) }
        container.register((any Account).self, scope: .scoped) { r in
            let found: Ledger?? = try r.resolve(Ledger??.self)
            return try #require(found ?? nil)
        }
        let scope = container.makeScope()

        #expect(try scope.resolve((any Account).self) === ledger)
        try scope.close()
        #expect(ledger.disposals == 0)

        try container.shutdown()
        #expect(ledger.disposals == 1)
    }

    /// The singleton is built in the very resolution that hands it on, and has a hook, which runs
    /// when that resolution completes: it is unpublished when the scope would take charge of it.
    /// (One without hooks is published as soon as its factory returns, as in
    /// `singletonHandedOnAsAnOptionalIsDisposedByTheContainerOnly`.)
    @Test func coldOptionalSingletonHandedOnInTheResolutionThatBuildsItIsNotTheScopes() throws {
        let container = Container()
        let ledger = Ledger()
        container.register(Ledger?.self, scope: .singleton) { _ in ledger }
            .onResolved { _, _ in }
        container.register(Ledger.self, scope: .scoped) { r in try #require(try r.resolve(Ledger?.self)) }
        container.register(Holder.self) { r in
            Holder(try r.resolve(Ledger.self))
        }
        let scope = container.makeScope()

        #expect(try scope.resolve(Holder.self).ledger === ledger)
        try scope.close()
        #expect(ledger.disposals == 0)

        try container.shutdown()
        #expect(ledger.disposals == 1)
    }

    @Test func registeredInstanceOwnedByTheCallerHandedOnAsAnOptionalIsNeverDisposed() throws {
        let container = Container()
        let ledger = Ledger()
        container.register(Ledger.self, instance: ledger, ownedBy: .caller)
        container.register(Ledger?.self, scope: .scoped) { r in try r.resolve(Ledger.self) }
        container.register(Ledger??.self, scope: .graph) { r in try r.resolve(Ledger.self) }
        let scope = container.makeScope()

        #expect(try scope.resolve(Ledger?.self) === ledger)
        let graph: Ledger?? = try scope.resolve(Ledger??.self)
        #expect((graph ?? nil) === ledger)
        try scope.close()
        try container.shutdown()

        #expect(ledger.disposals == 0)
    }

    /// One object recorded by a scoped `Ledger??`, a scoped `Ledger` and a scoped `any Account`:
    /// disposed once.
    @Test func oneObjectRecordedUnderThreeWrappingsIsDisposedOnce() throws {
        let container = Container()
        container.register(Ledger??.self, scope: .scoped) { _ in .some(.some(Ledger())) }
        container.register(Ledger.self, scope: .scoped) { r in
            let made: Ledger?? = try r.resolve(Ledger??.self)
            return try #require(made ?? nil)
        }
        container.register((any Account).self, scope: .scoped) { r in try r.resolve(Ledger.self) }
        container.register((any Account)?.self, scope: .transient) { r in try r.resolve((any Account).self) }
        let scope = container.makeScope()

        let ledger = try scope.resolve(Ledger.self)
        #expect(try scope.resolve((any Account).self) === ledger)
        #expect(try scope.resolve((any Account)?.self) === ledger)
        try scope.close()

        #expect(ledger.disposals == 1)
    }

    /// The same among more than sixteen records, where the bag finds an object's last record with
    /// a dictionary rather than pairwise.
    @Test func oneObjectUnderTwoWrappingsAmongManyRecordsIsDisposedOnce() throws {
        let container = Container()
        for index in 0..<20 {
            container.register(Ledger.self, name: "other \(index)", scope: .scoped) { _ in Ledger() }
        }
        container.register(Ledger?.self, scope: .scoped) { _ in Ledger() }
        container.register(Ledger.self, scope: .scoped) { r in try #require(try r.resolve(Ledger?.self)) }
        let scope = container.makeScope()

        var others: [Ledger] = []
        for index in 0..<10 { others.append(try scope.resolve(Ledger.self, name: "other \(index)")) }
        let ledger = try scope.resolve(Ledger.self)
        for index in 10..<20 { others.append(try scope.resolve(Ledger.self, name: "other \(index)")) }
        try scope.close()

        #expect(ledger.disposals == 1)
        #expect(others.allSatisfy { $0.disposals == 1 })
    }

    /// A weak instance handed on as an optional by a scoped registration is not the scope's.
    @Test func weakInstanceHandedOnAsAnOptionalIsNotDisposedByTheScope() throws {
        let container = Container()
        container.register(Ledger.self, scope: .weak) { _ in Ledger() }
        container.register(Ledger?.self, scope: .scoped) { r in try r.resolve(Ledger.self) }
        let scope = container.makeScope()

        let held = try scope.resolve(Ledger.self)
        #expect(try scope.resolve(Ledger?.self) === held)
        try scope.close()

        #expect(held.disposals == 0)
    }

    /// A weak registration of an optional is still refused: nothing holds an optional weakly.
    @Test func weakRegistrationOfAnOptionalStillNeedsAnObject() throws {
        let container = Container()
        container.register(Ledger?.self, scope: .weak) { _ in Ledger() }

        let error = try #require(injectionError { try container.resolve(Ledger?.self) })

        #expect(error.code == .weakScopeNeedsObject)
        #expect(
            error.message
                == "Optional<Ledger> has the weak scope, but its factory made a value of type Optional<Ledger>, which is not a"
                + " class instance: nothing can hold it weakly. Fix: return a class instance, or register it as"
                + " .singleton or .transient."
        )
    }

    /// A weak class-bound existential is rebuilt once released, resolved through a resolver.
    @Test func weakExistentialThroughAResolverIsRebuiltOnceReleased() throws {
        let container = Container()
        let built = CallCounter()
        container.register((any Account).self, scope: .weak) { _ in Ledger("weak #\(built.next())") }
        container.register(Holder.self) { r in Holder(try r.resolve((any Account).self) as? Ledger) }

        var first: Holder? = try container.resolve(Holder.self)
        #expect(try container.resolve(Holder.self).ledger === first?.ledger)
        weak let released = first?.ledger
        first = nil

        #expect(released == nil)
        #expect(try container.resolve(Holder.self).ledger?.name == "weak #2")
    }

    /// An optional singleton built under overrides, in their store, handed on by a scoped
    /// registration: the scope does not dispose it; the overrides' store does, once.
    @Test func optionalSingletonBuiltUnderOverridesHandedOnIsNotTheScopes() throws {
        let container = Container()
        let built = Locked.make([Ledger]())
        container.register(Ledger?.self, scope: .singleton) { _ in
            let ledger = Ledger()
            built.withLock { $0.append(ledger) }
            return ledger
        }
        container.register(Ledger.self, scope: .scoped) { r in try #require(try r.resolve(Ledger?.self)) }
        container.register(Cache.self) { _ in Cache() }

        try container.withOverrides {
            $0.register(Cache.self) { _ in Cache() }
        } operation: {
            let scope = container.makeScope()
            let ledger = try scope.resolve(Ledger.self)
            try scope.close()
            #expect(ledger.disposals == 0)
        }

        let ledgers = built.withLock { $0 }
        #expect(ledgers.count == 1)
        #expect(ledgers.allSatisfy { $0.disposals == 1 })
    }

    /// Validation builds in its sandbox and disposes what it built once, an object recorded under
    /// two wrappings included.
    @Test func validationDisposesAnObjectBuiltUnderTwoWrappingsOnce() throws {
        let container = Container()
        let built = Locked.make([Ledger]())
        container.register(Ledger?.self, scope: .scoped) { _ in
            let ledger = Ledger()
            built.withLock { $0.append(ledger) }
            return ledger
        }
        container.register(Ledger.self, scope: .scoped) { r in try #require(try r.resolve(Ledger?.self)) }
        container.register(Ledger??.self, name: "singleton", scope: .singleton) { _ in
            let ledger = Ledger()
            built.withLock { $0.append(ledger) }
            return ledger
        }
        container.register(Ledger.self, name: "from singleton", scope: .scoped) { r in
            let found: Ledger?? = try r.resolve(Ledger??.self, name: "singleton")
            return try #require(found ?? nil)
        }

        _ = try container.validate()

        let ledgers = built.withLock { $0 }
        #expect(!ledgers.isEmpty)
        #expect(ledgers.map(\.disposals) == Array(repeating: 1, count: ledgers.count))
    }

    /// A disposable value given as an optional and handed on as itself is the given value too: the
    /// scope does not dispose it.
    @Test func disposableValueGivenAsAnOptionalAndHandedOnIsNotDisposed() throws {
        let container = Container()
        let disposals = CallCounter()
        container.register(Receipt.self, scope: .scoped) { r in try #require(try r.resolve(Receipt?.self)) }
        let scope = container.makeScope { $0.provide(Receipt?.self, Receipt(disposals: disposals, number: 1)) }

        #expect(try scope.resolve(Receipt.self).number == 1)
        try scope.close()

        #expect(disposals.count == 0)
    }

    /// And a disposable value singleton registered as an optional, handed on as itself: the
    /// container's, disposed by it alone.
    @Test func disposableValueSingletonHandedOnOutOfItsOptionalIsDisposedByTheContainerOnly() throws {
        let container = Container()
        let disposals = CallCounter()
        container.register(Receipt?.self, scope: .singleton) { _ in Receipt(disposals: disposals, number: 1) }
        container.register(Receipt.self, scope: .scoped) { r in try #require(try r.resolve(Receipt?.self)) }
        let scope = container.makeScope()

        #expect(try scope.resolve(Receipt.self).number == 1)
        try scope.close()
        #expect(disposals.count == 0)

        try container.shutdown()
        #expect(disposals.count == 1)
    }

    @Test func manyScopesGivenOptionalsAndSharingAnOptionalSingletonDisposeNoneOfThem() async throws {
        let container = Container()
        let singleton = Ledger("singleton")
        container.register(Ledger?.self, name: "shared", scope: .singleton) { _ in
            usleep(1_000)
            return singleton
        }
        container.register(Ledger.self, name: "shared", scope: .scoped) { r in
            try #require(try r.resolve(Ledger?.self, name: "shared"))
        }
        container.register(Ledger.self, scope: .scoped) { r in try #require(try r.resolve(Ledger?.self)) }
        container.register(Holder.self) { r in
            _ = try r.resolve(Ledger.self, name: "shared")
            return Holder(try r.resolve(Ledger.self))
        }

        let given = (0..<32).map { Ledger("given \($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for ledger in given {
                group.addTask {
                    let scope = container.makeScope { $0.provide(Ledger?.self, ledger) }
                    let holder =
                        index(of: ledger).isMultiple(of: 2)
                        ? try scope.resolve(Holder.self) : try await scope.resolveAsync(Holder.self)
                    #expect(holder.ledger === ledger)
                    try await scope.closeAsync()
                }
            }
            try await group.waitForAll()
        }
        func index(of ledger: Ledger) -> Int { given.firstIndex { $0 === ledger } ?? 0 }

        #expect(given.allSatisfy { $0.disposals == 0 })
        #expect(singleton.disposals == 0)
        try await container.shutdownAsync()
        #expect(singleton.disposals == 1)
    }
}
