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

import Testing

@testable import Injector

// A shared instance is kept as an object: a class instance as itself, anything else in a box. Each
// kind of instance comes back intact from every lifetime that keeps one.

private protocol Greeter: AnyObject, Sendable {
    var greeting: String { get }
}

private final class Receptionist: Greeter, Sendable {
    let greeting: String
    init(_ greeting: String) { self.greeting = greeting }
}

/// A value wider than an existential's inline buffer, so that a box holds it out of line.
private struct Letterhead: Sendable, Equatable {
    var sender = "Injector"
    var street = "1 Main Street"
    var city = "Springfield"
    var serial = 0
}

private final class Visit: Sendable {
    let receptionist: Receptionist
    let secondLook: Receptionist
    init(receptionist: Receptionist, secondLook: Receptionist) {
        self.receptionist = receptionist
        self.secondLook = secondLook
    }
}

/// Resolves graph instances through a captured container when it goes away, and logs their serials.
private final class Farewell: @unchecked Sendable {  // only `let`s; `container` is weak
    weak var container: Container?
    let log: EventLog
    init(container: Container, log: EventLog) {
        self.container = container
        self.log = log
    }
    deinit {
        guard let container else { return }
        let letters = try? container.resolve([Letterhead].self)
        log.record(letters.map { "\($0.map(\.serial))" } ?? "failed")
    }
}

@Suite struct KeptInstanceTests {
    @Test func scopedClassInstanceIsTheSameObjectWithinAScopeOnly() throws {
        let container = Container()
        container.register(Receptionist.self, scope: .scoped) { _ in Receptionist("hello") }
        let scope = container.makeScope()
        let other = container.makeScope()

        let first = try scope.resolve(Receptionist.self)

        #expect(try scope.resolve(Receptionist.self) === first)
        #expect(try other.resolve(Receptionist.self) !== first)
        #expect(first.greeting == "hello")
    }

    @Test func scopedValueComesBackIntact() throws {
        let container = Container()
        let serials = CallCounter()
        container.register(Letterhead.self, scope: .scoped) { _ in Letterhead(serial: serials.next()) }
        let scope = container.makeScope()

        let first = try scope.resolve(Letterhead.self)

        #expect(first == Letterhead(serial: 1))
        #expect(try scope.resolve(Letterhead.self) == first)
        #expect(try container.makeScope().resolve(Letterhead.self).serial == 2)
    }

    @Test func scopedExistentialOfAClassBoundProtocolKeepsItsConformance() throws {
        let container = Container()
        container.register((any Greeter).self, scope: .scoped) { _ in Receptionist("good morning") }
        let scope = container.makeScope()

        let first = try scope.resolve((any Greeter).self)

        #expect(first.greeting == "good morning")
        #expect(try scope.resolve((any Greeter).self) === first)
    }

    @Test func scopedFunctionComesBackCallable() throws {
        let container = Container()
        container.register((@Sendable (Int) -> Int).self, scope: .scoped) { _ in { $0 * 3 } }
        let scope = container.makeScope()

        #expect(try scope.resolve((@Sendable (Int) -> Int).self)(14) == 42)
        #expect(try scope.resolve((@Sendable (Int) -> Int).self)(2) == 6)
    }

    @Test func asyncScopedClassInstanceIsTheSameObjectWithinAScope() async throws {
        let container = Container()
        container.register(Receptionist.self, scope: .scoped) { _ async in Receptionist("hi") }
        let scope = container.makeScope()

        let first = try await scope.resolveAsync(Receptionist.self)

        #expect(try await scope.resolveAsync(Receptionist.self) === first)
        try await scope.closeAsync()
    }

    @Test func singletonsOfEachKindComeBackIntact() throws {
        let container = Container()
        container.register(Receptionist.self, scope: .singleton) { _ in Receptionist("welcome") }
        container.register(Letterhead.self, scope: .singleton) { _ in Letterhead(serial: 7) }
        container.register((any Greeter).self, scope: .singleton) { _ in Receptionist("greetings") }

        let receptionist = try container.resolve(Receptionist.self)
        let greeter = try container.resolve((any Greeter).self)

        #expect(try container.makeScope().resolve(Receptionist.self) === receptionist)
        #expect(try container.resolve(Letterhead.self) == Letterhead(serial: 7))
        #expect(try container.resolve(Letterhead.self) == Letterhead(serial: 7))
        #expect(try container.resolve((any Greeter).self) === greeter)
        #expect(greeter.greeting == "greetings")
    }

    @Test func registeredInstancesOfEachKindComeBackIntact() throws {
        let container = Container()
        let receptionist = Receptionist("at your service")
        container.register(Receptionist.self, instance: receptionist, ownedBy: .caller)
        container.register(Letterhead.self, instance: Letterhead(serial: 9), ownedBy: .caller)

        #expect(try container.resolve(Receptionist.self) === receptionist)
        #expect(try container.resolve(Letterhead.self) == Letterhead(serial: 9))
    }

    @Test func graphInstanceIsSharedWithinOneResolveOnly() throws {
        let container = Container()
        container.register(Receptionist.self, scope: .graph) { _ in Receptionist("one per visit") }
        container.register(Visit.self) { r in
            try Visit(receptionist: r.resolve(Receptionist.self), secondLook: r.resolve(Receptionist.self))
        }

        let visit = try container.resolve(Visit.self)

        #expect(visit.receptionist === visit.secondLook)
        #expect(try container.resolve(Visit.self).receptionist !== visit.receptionist)
    }

    /// Graph instances of every shape (a class-bound protocol, a value too large to be kept inline,
    /// a small optional value) are built once per resolve and come back as they were built.
    @Test func graphInstancesOfEveryShapeAreBuiltOncePerResolveAndComeBackIntact() throws {
        let container = Container()
        let made = CallCounter()
        container.register((any Greeter).self, scope: .graph) { _ in
            made.next()
            return Receptionist("shape")
        }
        container.register(Letterhead.self, scope: .graph) { _ in Letterhead(serial: made.next()) }
        container.register(Int?.self, scope: .graph) { _ in made.next() }
        container.register(String.self) { r in
            let (greeter, letterhead, number) = try (
                r.resolve((any Greeter).self), r.resolve(Letterhead.self), r.resolve(Int?.self)
            )
            let same =
                try greeter === r.resolve((any Greeter).self) && letterhead == r.resolve(Letterhead.self)
                && number == r.resolve(Int?.self)
            return "\(same) \(letterhead.serial) \(number ?? 0)"
        }

        #expect(try container.resolve(String.self) == "true 2 3")
        #expect(made.count == 3)
        #expect(try container.resolve(String.self) == "true 5 6")
    }

    /// A graph instance is read back as its registration's type, without a cast: existentials (one
    /// not class-bound, wider than `Any`'s inline buffer; `Any` and `AnyObject` themselves) and a
    /// function come back as they were built.
    @Test func graphInstancesOfExistentialAndFunctionTypesComeBackAsBuilt() throws {
        let container = Container()
        let made = CallCounter()
        container.register((any Equatable & Sendable).self, scope: .graph) { _ in Letterhead(serial: made.next()) }
        container.register(Any.self, scope: .graph) { _ in made.next() }
        container.register(AnyObject.self, scope: .graph) { _ in Receptionist("\(made.next())") }
        container.register((@Sendable () -> Int).self, scope: .graph) { _ in
            let serial = made.next()
            return { serial }
        }
        container.register(String.self) { r in
            let letterhead = try r.resolve((any Equatable & Sendable).self) as? Letterhead
            let again = try r.resolve((any Equatable & Sendable).self) as? Letterhead
            let number = try r.resolve(Any.self) as? Int
            let object = try r.resolve(AnyObject.self)
            let serial = try r.resolve((@Sendable () -> Int).self)
            let same =
                try letterhead == again && number == r.resolve(Any.self) as? Int
                && object === r.resolve(AnyObject.self) && serial() == r.resolve((@Sendable () -> Int).self)()
            let greeting = (object as? Receptionist)?.greeting ?? ""
            return "\(same) \(letterhead?.serial ?? 0) \(number ?? 0) \(greeting) \(serial())"
        }

        #expect(try container.resolve(String.self) == "true 1 2 3 4")
        #expect(made.count == 4)
    }

    /// Past the few a graph keeps in an array searched linearly, its instances are found through an
    /// index, and each still comes back as the one built for its registration.
    @Test func manyGraphInstancesInOneResolveAreEachTheOneBuiltForTheirRegistration() throws {
        let container = Container()
        let names = (0..<40).map { "part \($0)" }
        for (serial, name) in names.enumerated() {
            container.register(Letterhead.self, name: name, scope: .graph) { _ in Letterhead(serial: serial) }
            container.register(Receptionist.self, name: name, scope: .graph) { _ in Receptionist(name) }
        }
        container.register([String].self) { r in
            try names.flatMap { name in
                let first = try r.resolve(Letterhead.self, name: name)
                let receptionist = try r.resolve(Receptionist.self, name: name)
                let same =
                    try first == r.resolve(Letterhead.self, name: name)
                    && receptionist === r.resolve(Receptionist.self, name: name)
                return ["\(same) \(first.serial)", receptionist.greeting]
            }
        }

        let expected = names.enumerated().flatMap { serial, name in ["true \(serial)", name] }
        #expect(try container.resolve([String].self) == expected)
    }

    /// A graph instance whose deinit, run once its resolve has ended, resolves graph instances on
    /// the same thread: that resolve has a graph of its own, and each resolve after it too.
    @Test func aGraphInstanceWhoseDeinitResolvesGraphInstancesLeavesEachResolveItsOwnGraph() throws {
        let container = Container()
        let made = CallCounter()
        let log = EventLog()
        container.register(Letterhead.self, scope: .graph) { _ in Letterhead(serial: made.next()) }
        container.register([Letterhead].self) { r in try [r.resolve(Letterhead.self), r.resolve(Letterhead.self)] }
        container.register(Farewell.self, scope: .graph) { [unowned container] _ in
            Farewell(container: container, log: log)
        }
        container.register(String.self) { r in
            _ = try r.resolve(Farewell.self)
            return try "\(r.resolve(Letterhead.self).serial) \(r.resolve(Letterhead.self).serial)"
        }

        #expect(try container.resolve(String.self) == "1 1")
        #expect(log.events == ["[2, 2]"])
        #expect(try container.resolve(String.self) == "3 3")
        #expect(log.events == ["[2, 2]", "[4, 4]"])
        #expect(try container.resolve([Letterhead].self).map(\.serial) == [5, 5])
    }
}
