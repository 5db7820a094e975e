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

// Adversarial tests of resolve-time arguments passed to factories by address (f212a19): `Provider`
// is generic over the service alone, and its factory reads `(Argument…)` from a `BorrowedValues`,
// borrowed on the stack by a sync resolve and copied to the heap by an async one. Every shape of
// argument, one to six of them, lifetimes of class arguments (released exactly once, after the
// factory read them), nested and recursive resolves (the cycle check reads the arguments of outer
// frames), scopes, children, overrides, registrations made from generic code, and concurrency.

// MARK: - Argument shapes

/// Counts its deinit, and records it in `log`, so that a leak or an early or double release shows.
private final class AbaProbe: Sendable {
    let id: Int
    let deinits: CallCounter
    let log: EventLog?
    init(id: Int, deinits: CallCounter, log: EventLog? = nil) {
        self.id = id
        self.deinits = deinits
        self.log = log
    }
    deinit {
        deinits.next()
        log?.record("deinit \(id)")
    }
}

/// Larger than three words, with a heap string and a class reference inside.
private struct AbaBig: Sendable {
    var a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int
    var label: String
    var probe: AbaProbe?

    init(seed: Int, probe: AbaProbe? = nil) {
        a = seed
        b = seed &+ 1
        c = seed &+ 2
        d = seed &+ 3
        e = seed &+ 4
        f = seed &+ 5
        g = seed &+ 6
        h = seed &+ 7
        label = "big value number \(seed), long enough to live on the heap"
        self.probe = probe
    }

    func matches(seed: Int) -> Bool {
        [a, b, c, d, e, f, g, h] == (0..<8).map { seed &+ $0 }
            && label == "big value number \(seed), long enough to live on the heap"
    }
}

/// Not `Hashable`: the cycle check cannot compare it.
private struct AbaOpaque: Sendable {
    let level: Int
    let payload: [Int]
}

private enum AbaEnum: Sendable {
    case empty
    case small(Int8)
    case big(AbaBig)
    case pair(String, AbaProbe)
}

private protocol AbaShape: Sendable { var area: Double { get } }
private struct AbaSquare: AbaShape {
    let side: Double
    var area: Double { side * side }
}
private final class AbaCircle: AbaShape {
    let radius: Double
    let probe: AbaProbe?
    init(radius: Double, probe: AbaProbe? = nil) {
        self.radius = radius
        self.probe = probe
    }
    var area: Double { 3 * radius * radius }
}
/// An existential with a payload too large for its inline buffer.
private struct AbaWideShape: AbaShape {
    let big: AbaBig
    var area: Double { Double(big.a) }
}

/// What a factory hands back: whatever it was given.
private struct AbaEcho<Value>: @unchecked Sendable {
    let value: Value
}

private struct AbaSix: @unchecked Sendable {
    let int: Int
    let string: String
    let big: AbaBig
    let shape: any AbaShape
    let optional: Double?
    let function: @Sendable (Int) -> Int
}

private final class AbaNode: Sendable {
    let value: Int
    let children: [AbaNode]
    init(value: Int, children: [AbaNode]) {
        self.value = value
        self.children = children
    }
    var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}

private final class AbaLeafDep: Sendable {}
private final class AbaDeclaredUser: Sendable {
    let dep: AbaLeafDep
    init(dep: AbaLeafDep) { self.dep = dep }
}
private final class AbaDeclaredWithArgument: Sendable {
    let big: AbaBig
    let dep: AbaLeafDep
    init(big: AbaBig, dep: AbaLeafDep) {
        self.big = big
        self.dep = dep
    }
}

private typealias AbaShapeType = any AbaShape.Type

/// Registered from generic code: the factory is made for a `T` the registration does not know.
private func registerEcho<T>(_ container: Container, _: T.Type, name: String? = nil) {
    container.register(AbaEcho<T>.self, name: name) { (_, value: T) in AbaEcho(value: value) }
}

/// An async registration made from generic code, whose factory suspends before reading.
private func registerEchoAsync<T>(_ container: Container, _: T.Type) {
    container.register(AbaEcho<T>.self) { (_, value: T) async throws in
        await Task.yield()
        try await Task.sleep(nanoseconds: 1_000)
        return AbaEcho(value: value)
    }
}

/// Resolved from generic code too.
private func resolveEcho<T>(_ container: Container, _ value: T, name: String? = nil) throws -> T {
    try container.resolve(AbaEcho<T>.self, name: name, argument: value).value
}

/// Registered from code generic over a pack: the argument tuple is a type made at run time.
private func registerPack<each T>(_ container: Container, _: repeat (each T).Type) {
    @Sendable func make(_: Resolver, _ values: repeat each T) -> AbaEcho<(repeat each T)> {
        AbaEcho(value: (repeat each values))
    }
    container.register(AbaEcho<(repeat each T)>.self, factory: make)
}

/// Lets a factory reach the container it is registered in, without keeping it alive.
private final class AbaContainerRef: @unchecked Sendable {  // set once, before any resolve
    weak var container: Container?
}

@Suite struct ArgumentsByAddressAttackTests {

    // MARK: - Shapes of one argument

    @Test func everyShapeOfOneArgumentArrivesIntactThroughAClosureRegistration() throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<AbaBig>.self) { (_, v: AbaBig) in AbaEcho(value: v) }
        container.register(AbaEcho<AbaEnum>.self) { (_, v: AbaEnum) in AbaEcho(value: v) }
        container.register(AbaEcho<any AbaShape>.self) { (_, v: any AbaShape) in AbaEcho(value: v) }
        container.register(AbaEcho<@Sendable (Int) -> Int>.self) { (_, v: @escaping @Sendable (Int) -> Int) in
            AbaEcho(value: v)
        }
        container.register(AbaEcho<AbaShapeType>.self) { (_, v: AbaShapeType) in AbaEcho(value: v) }
        container.register(AbaEcho<Int?>.self) { (_, v: Int?) in AbaEcho(value: v) }
        container.register(AbaEcho<AbaProbe?>.self) { (_, v: AbaProbe?) in AbaEcho(value: v) }
        container.register(AbaEcho<Void>.self) { (_, v: Void) in AbaEcho(value: v) }
        container.register(AbaEcho<String>.self) { (_, v: String) in AbaEcho(value: v) }
        container.register(AbaEcho<(Int, String)>.self) { (_, v: (Int, String)) in AbaEcho(value: v) }
        container.register(AbaEcho<[String: [Int]]>.self) { (_, v: [String: [Int]]) in AbaEcho(value: v) }
        container.register(AbaEcho<AnyHashable>.self) { (_, v: AnyHashable) in AbaEcho(value: v) }
        container.register(AbaEcho<Int8>.self) { (_, v: Int8) in AbaEcho(value: v) }

        do {
            let probe = AbaProbe(id: 1, deinits: deinits)
            let big = try container.resolve(AbaEcho<AbaBig>.self, argument: AbaBig(seed: 40, probe: probe)).value
            #expect(big.matches(seed: 40))
            #expect(big.probe === probe)
        }
        #expect(deinits.count == 1)

        for (index, value) in [
            AbaEnum.empty, .small(-7), .big(AbaBig(seed: 9)), .pair("p", AbaProbe(id: 2, deinits: deinits)),
        ]
        .enumerated() {
            let echoed = try container.resolve(AbaEcho<AbaEnum>.self, argument: value).value
            switch (index, echoed) {
            case (0, .empty): break
            case (1, .small(let n)): #expect(n == -7)
            case (2, .big(let b)): #expect(b.matches(seed: 9))
            case (3, .pair(let s, let p)): #expect(s == "p" && p.id == 2)
            default: Issue.record("case \(index) came back as \(echoed)")
            }
        }
        #expect(deinits.count == 2)

        let shapes: [any AbaShape] = [AbaSquare(side: 3), AbaCircle(radius: 2), AbaWideShape(big: AbaBig(seed: 77))]
        let areas = try shapes.map {
            try container.resolve(AbaEcho<any AbaShape>.self, argument: $0 as any AbaShape).value.area
        }
        #expect(areas == [9, 12, 77])
        let circle = try container.resolve(AbaEcho<any AbaShape>.self, argument: shapes[1] as any AbaShape).value
        #expect(circle as? AbaCircle === shapes[1] as? AbaCircle)

        let offset = 1000
        let function = try container.resolve(
            AbaEcho<@Sendable (Int) -> Int>.self,
            argument: { @Sendable in $0 + offset }
        )
        #expect(function.value(5) == 1005)

        let metatype = try container.resolve(AbaEcho<AbaShapeType>.self, argument: AbaCircle.self as AbaShapeType)
        let metatypeValue: AbaShapeType = metatype.value
        #expect(ObjectIdentifier(metatypeValue) == ObjectIdentifier(AbaCircle.self))

        #expect(try container.resolve(AbaEcho<Int?>.self, argument: Int?.none).value == nil)
        #expect(try container.resolve(AbaEcho<Int?>.self, argument: Int?.some(-1)).value == -1)
        do {
            let probe = AbaProbe(id: 3, deinits: deinits)
            #expect(try container.resolve(AbaEcho<AbaProbe?>.self, argument: Optional(probe)).value === probe)
            #expect(try container.resolve(AbaEcho<AbaProbe?>.self, argument: AbaProbe?.none).value == nil)
        }
        #expect(deinits.count == 3)

        _ = try container.resolve(AbaEcho<Void>.self, argument: ())
        #expect(try container.resolve(AbaEcho<String>.self, argument: "").value == "")
        #expect(try container.resolve(AbaEcho<String>.self, argument: "short").value == "short")
        let long = String(repeating: "long string é ", count: 100)
        #expect(try container.resolve(AbaEcho<String>.self, argument: long).value == long)

        let tuple = try container.resolve(AbaEcho<(Int, String)>.self, argument: (7, "seven")).value
        #expect(tuple == (7, "seven"))

        let dictionary = ["a": [1, 2], "b": []]
        #expect(try container.resolve(AbaEcho<[String: [Int]]>.self, argument: dictionary).value == dictionary)
        #expect(try container.resolve(AbaEcho<AnyHashable>.self, argument: AnyHashable("h")).value == AnyHashable("h"))
        #expect(try container.resolve(AbaEcho<Int8>.self, argument: Int8(-128)).value == -128)
    }

    @Test func everyShapeOfOneArgumentArrivesIntactThroughAnAsyncResolveThatSuspends() async throws {
        let container = Container()
        let deinits = CallCounter()
        registerEchoAsync(container, AbaBig.self)
        registerEchoAsync(container, AbaEnum.self)
        registerEchoAsync(container, (any AbaShape).self)
        registerEchoAsync(container, Void.self)
        registerEchoAsync(container, (Int, String).self)
        registerEchoAsync(container, String?.self)
        registerEchoAsync(container, AbaShapeType.self)

        do {
            let probe = AbaProbe(id: 1, deinits: deinits)
            let big = try await container.resolveAsync(AbaEcho<AbaBig>.self, argument: AbaBig(seed: 5, probe: probe))
                .value
            #expect(big.matches(seed: 5) && big.probe === probe)
            #expect(deinits.count == 0)
        }
        #expect(deinits.count == 1)

        let echoed = try await container.resolveAsync(AbaEcho<AbaEnum>.self, argument: AbaEnum.big(AbaBig(seed: 3)))
            .value
        guard case .big(let b) = echoed else {
            Issue.record("came back as \(echoed)")
            return
        }
        #expect(b.matches(seed: 3))
        let wide = try await container.resolveAsync(
            AbaEcho<any AbaShape>.self,
            argument: AbaWideShape(big: AbaBig(seed: 12)) as any AbaShape
        ).value
        #expect((wide as? AbaWideShape)?.big.matches(seed: 12) == true)
        _ = try await container.resolveAsync(AbaEcho<Void>.self, argument: ())
        #expect(try await container.resolveAsync(AbaEcho<(Int, String)>.self, argument: (1, "one")).value == (1, "one"))
        #expect(try await container.resolveAsync(AbaEcho<String?>.self, argument: String?.none).value == nil)
        #expect(try await container.resolveAsync(AbaEcho<String?>.self, argument: String?("x")).value == "x")
        let metatype = try await container.resolveAsync(
            AbaEcho<AbaShapeType>.self,
            argument: AbaSquare.self as AbaShapeType
        ).value
        let metatypeValue: AbaShapeType = metatype
        #expect(ObjectIdentifier(metatypeValue) == ObjectIdentifier(AbaSquare.self))
    }

    @Test func aRegistrationMadeFromGenericCodeReadsWhatAConcreteOrGenericResolvePasses() throws {
        let container = Container()
        registerEcho(container, Int.self)
        registerEcho(container, AbaBig.self)
        registerEcho(container, (Int, String).self)
        registerEcho(container, Void.self)
        registerEcho(container, Double?.self)
        registerEcho(container, (any AbaShape).self)
        registerEcho(container, Int.Type.self)
        registerEcho(container, AbaOpaque.self, name: "named")

        #expect(try container.resolve(AbaEcho<Int>.self, argument: 41).value == 41)
        #expect(try resolveEcho(container, 42) == 42)
        #expect(try container.resolve(AbaEcho<AbaBig>.self, argument: AbaBig(seed: 8)).value.matches(seed: 8))
        #expect(try resolveEcho(container, AbaBig(seed: 9)).matches(seed: 9))
        #expect(try container.resolve(AbaEcho<(Int, String)>.self, argument: (2, "two")).value == (2, "two"))
        #expect(try resolveEcho(container, (3, "three")) == (3, "three"))
        _ = try resolveEcho(container, ())
        #expect(try resolveEcho(container, Double?.some(1.5)) == 1.5)
        #expect(try resolveEcho(container, AbaSquare(side: 2) as any AbaShape).area == 4)
        #expect(try resolveEcho(container, Int.self) == Int.self)
        #expect(try resolveEcho(container, AbaOpaque(level: 1, payload: [4, 5]), name: "named").payload == [4, 5])
        // Two arguments are another key than one tuple argument.
        let error = try #require(
            injectionError { try container.resolve(AbaEcho<(Int, String)>.self, arguments: 2, "two") }
        )
        #expect(error.code == .missingRegistration)
    }

    // MARK: - One to six arguments

    @Test func oneToSixArgumentsOfMixedShapesArriveInOrderSyncAndAsync() async throws {
        let container = Container()
        container.register(AbaEcho<Int>.self) { (_, a: Int) in AbaEcho(value: a) }
        container.register(AbaEcho<[Int]>.self) { (_, a: Int, b: Int8) in AbaEcho(value: [a, Int(b)]) }
        container.register(AbaEcho<String>.self) { (_, a: String, b: AbaBig, c: Int?) in
            AbaEcho(value: "\(a)|\(b.matches(seed: b.a))|\(b.a)|\(String(describing: c))")
        }
        container.register(AbaEcho<Double>.self) { (_, a: Double, b: Void, c: (Int, Int), d: any AbaShape) in
            AbaEcho(value: a + Double(c.0 * 10 + c.1) + d.area)
        }
        container.register(AbaEcho<[String]>.self) { (_, a: String, b: String, c: String, d: String, e: String) in
            AbaEcho(value: [a, b, c, d, e])
        }
        container.register(AbaSix.self) {
            (
                _,
                int: Int,
                string: String,
                big: AbaBig,
                shape: any AbaShape,
                optional: Double?,
                function: @escaping @Sendable (Int) -> Int
            ) in
            AbaSix(int: int, string: string, big: big, shape: shape, optional: optional, function: function)
        }
        container.register(AbaSix.self, name: "async") {
            (
                _,
                int: Int,
                string: String,
                big: AbaBig,
                shape: any AbaShape,
                optional: Double?,
                function: @escaping @Sendable (Int) -> Int
            ) async in
            await Task.yield()
            return AbaSix(int: int, string: string, big: big, shape: shape, optional: optional, function: function)
        }

        #expect(try container.resolve(AbaEcho<Int>.self, arguments: 1).value == 1)
        #expect(try container.resolve(AbaEcho<[Int]>.self, arguments: 1, Int8(2)).value == [1, 2])
        #expect(
            try container.resolve(AbaEcho<String>.self, arguments: "s", AbaBig(seed: 6), Int?.some(3)).value
                == "s|true|6|Optional(3)"
        )
        #expect(
            try container.resolve(AbaEcho<Double>.self, arguments: 0.5, (), (1, 2), AbaSquare(side: 1) as any AbaShape)
                .value == 13.5
        )
        #expect(
            try container.resolve(AbaEcho<[String]>.self, arguments: "a", "b", "c", "d", "e").value == [
                "a", "b", "c", "d", "e",
            ]
        )

        for name in [nil, "async"] as [String?] {
            let six: AbaSix
            if name == nil {
                six = try container.resolve(
                    AbaSix.self,
                    arguments: 6,
                    "six",
                    AbaBig(seed: 60),
                    AbaCircle(radius: 1) as any AbaShape,
                    Double?.some(0.25),
                    { @Sendable in $0 * 2 }
                )
            } else {
                six = try await container.resolveAsync(
                    AbaSix.self,
                    name: name,
                    arguments: 6,
                    "six",
                    AbaBig(seed: 60),
                    AbaCircle(radius: 1) as any AbaShape,
                    Double?.some(0.25),
                    { @Sendable in $0 * 2 }
                )
            }
            #expect(six.int == 6)
            #expect(six.string == "six")
            #expect(six.big.matches(seed: 60))
            #expect(six.shape.area == 3)
            #expect(six.optional == 0.25)
            #expect(six.function(21) == 42)
        }
    }

    // MARK: - Lifetimes of class arguments

    @Test func aClassArgumentIsReleasedExactlyOnceAfterASyncResolveAndNotBeforeTheFactoryReadIt() throws {
        let container = Container()
        let deinits = CallCounter()
        let log = EventLog()
        container.register(AbaEcho<Int>.self) { (_, probe: AbaProbe, big: AbaBig) in
            log.record("read \(probe.id) \(big.probe?.id ?? -1)")
            return AbaEcho(value: probe.id + (big.probe?.id ?? 0))
        }
        for round in 0..<50 {
            weak var weakProbe: AbaProbe?
            weak var weakInner: AbaProbe?
            do {
                let probe = AbaProbe(id: round, deinits: deinits, log: log)
                let inner = AbaProbe(id: 1000 + round, deinits: deinits, log: log)
                weakProbe = probe
                weakInner = inner
                let echoed = try container.resolve(
                    AbaEcho<Int>.self,
                    arguments: probe,
                    AbaBig(seed: round, probe: inner)
                )
                #expect(echoed.value == 1000 + 2 * round)
                withExtendedLifetime((probe, inner)) {
                    #expect(deinits.count == 2 * round)
                }
            }
            #expect(weakProbe == nil && weakInner == nil)
            #expect(deinits.count == 2 * round + 2)
        }
        let events = log.events
        for round in 0..<50 {
            let read = try #require(events.firstIndex(of: "read \(round) \(1000 + round)"))
            let released = try #require(events.firstIndex(of: "deinit \(round)"))
            #expect(read < released)
            #expect(log.count("deinit \(round)") == 1)
            #expect(log.count("deinit \(1000 + round)") == 1)
        }
    }

    @Test func aClassArgumentIsReleasedExactlyOnceAfterAnAsyncResolveThatSuspendsWhileHoldingIt() async throws {
        let container = Container()
        let deinits = CallCounter()
        let log = EventLog()
        container.register(AbaEcho<Int>.self) { (_, probe: AbaProbe, e: AbaEnum) async throws in
            try await Task.sleep(nanoseconds: 100_000)
            await Task.yield()
            guard case .pair(let s, let inner) = e else { throw CancellationError() }
            log.record("read \(probe.id) \(s) \(inner.id)")
            return AbaEcho(value: probe.id + inner.id)
        }
        // A sync factory resolved through an async resolve reads the heap copy too.
        container.register(AbaEcho<String>.self) { (_, probe: AbaProbe) in
            log.record("sync read \(probe.id)")
            return AbaEcho(value: "\(probe.id)")
        }
        for round in 0..<20 {
            weak var weakProbe: AbaProbe?
            do {
                let probe = AbaProbe(id: round, deinits: deinits, log: log)
                weakProbe = probe
                let inner = AbaProbe(id: 500 + round, deinits: deinits, log: log)
                let echoed = try await container.resolveAsync(
                    AbaEcho<Int>.self,
                    arguments: probe,
                    AbaEnum.pair("r\(round)", inner)
                )
                #expect(echoed.value == 500 + 2 * round)
                let text = try await container.resolveAsync(AbaEcho<String>.self, argument: probe)
                #expect(text.value == "\(round)")
                withExtendedLifetime((probe, inner)) {
                    #expect(deinits.count == 2 * round)
                }
            }
            #expect(weakProbe == nil)
            #expect(deinits.count == 2 * round + 2)
        }
        for round in 0..<20 {
            #expect(log.count("deinit \(round)") == 1)
            #expect(log.count("deinit \(500 + round)") == 1)
            #expect(log.count("read \(round) r\(round) \(500 + round)") == 1)
        }
    }

    @Test func anArgumentTheServiceKeepsLivesAsLongAsTheServiceAndIsReleasedOnce() async throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<AbaBig>.self) { (_, big: AbaBig) in AbaEcho(value: big) }
        container.register(AbaEcho<AbaProbe>.self) { (_, probe: AbaProbe) async in AbaEcho(value: probe) }
        var kept: AbaEcho<AbaBig>? = try container.resolve(
            AbaEcho<AbaBig>.self,
            argument: AbaBig(seed: 1, probe: AbaProbe(id: 1, deinits: deinits))
        )
        var keptAsync: AbaEcho<AbaProbe>? = try await container.resolveAsync(
            AbaEcho<AbaProbe>.self,
            argument: AbaProbe(id: 2, deinits: deinits)
        )
        #expect(deinits.count == 0)
        #expect(kept?.value.probe?.id == 1 && keptAsync?.value.id == 2)
        kept = nil
        #expect(deinits.count == 1)
        keptAsync = nil
        #expect(deinits.count == 2)
        _ = (kept, keptAsync)
    }

    @Test func aFactoryThatThrowsReleasesItsClassArgumentsExactlyOnceSyncAndAsync() async throws {
        struct Refused: Error {}
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<Int>.self) { (_, probe: AbaProbe, big: AbaBig) throws -> AbaEcho<Int> in
            _ = (probe.id, big.probe?.id)
            throw Refused()
        }
        container.register(AbaEcho<Int>.self, name: "async") {
            (_, probe: AbaProbe, big: AbaBig) async throws -> AbaEcho<Int> in
            await Task.yield()
            _ = (probe.id, big.probe?.id)
            throw Refused()
        }
        for _ in 0..<10 {
            let error = injectionError {
                try container.resolve(
                    AbaEcho<Int>.self,
                    arguments: AbaProbe(id: 1, deinits: deinits),
                    AbaBig(seed: 1, probe: AbaProbe(id: 2, deinits: deinits))
                )
            }
            #expect(error?.code == .factoryFailed)
            let asyncError = await injectionErrorAsync {
                try await container.resolveAsync(
                    AbaEcho<Int>.self,
                    name: "async",
                    arguments: AbaProbe(id: 3, deinits: deinits),
                    AbaBig(seed: 1, probe: AbaProbe(id: 4, deinits: deinits))
                )
            }
            #expect(asyncError?.code == .factoryFailed)
        }
        #expect(deinits.count == 40)
    }

    @Test func configureSeesTheInstanceMadeFromTheArgumentsAndTheArgumentsAreReleasedOnce() throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<[Int]>.self) { (_, p: AbaProbe, big: AbaBig) in AbaEcho(value: [p.id, big.a]) }
        let echoed = try container.resolve(
            AbaEcho<[Int]>.self,
            arguments: AbaProbe(id: 4, deinits: deinits),
            AbaBig(seed: 9)
        ) { echo in echo = AbaEcho(value: echo.value + [1]) }
        #expect(echoed.value == [4, 9, 1])
        #expect(deinits.count == 1)
    }

    // MARK: - Nested resolves

    @Test func argumentsOfOuterFramesSurviveNestedResolvesWithArgumentsSync() throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<String>.self, name: "leaf") { (_, big: AbaBig, p: AbaProbe) in
            AbaEcho(value: "leaf:\(big.matches(seed: big.a)):\(big.a):\(p.id)")
        }
        container.register(AbaEcho<String>.self, name: "middle") { (r, big: AbaBig, e: AbaEnum) in
            let before = big.a
            let leaf = try r.resolve(
                AbaEcho<String>.self,
                name: "leaf",
                arguments: AbaBig(seed: big.a * 10),
                AbaProbe(id: big.a, deinits: deinits)
            )
            let again = try r.resolve(
                AbaEcho<String>.self,
                name: "leaf",
                arguments: big,
                AbaProbe(id: -1, deinits: deinits)
            )
            guard case .big(let inner) = e else { throw CancellationError() }
            return AbaEcho(
                value: "middle:\(before == big.a && big.matches(seed: big.a)):\(inner.a) \(leaf.value) \(again.value)"
            )
        }
        container.register(AbaEcho<String>.self, name: "top") { (r, s: String, big: AbaBig) in
            let middle = try r.resolve(
                AbaEcho<String>.self,
                name: "middle",
                arguments: AbaBig(seed: 2),
                AbaEnum.big(AbaBig(seed: 3))
            )
            return AbaEcho(value: "top:\(s):\(big.matches(seed: 1)) \(middle.value)")
        }
        let result = try container.resolve(AbaEcho<String>.self, name: "top", arguments: "t", AbaBig(seed: 1)).value
        #expect(result == "top:t:true middle:true:3 leaf:true:20:2 leaf:true:2:-1")
        #expect(deinits.count == 2)
    }

    @Test func argumentsOfOuterFramesSurviveNestedAsyncResolvesThatSuspend() async throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<String>.self, name: "leaf") { (_, big: AbaBig, p: AbaProbe) async throws in
            try await Task.sleep(nanoseconds: 50_000)
            return AbaEcho(value: "leaf:\(big.matches(seed: big.a)):\(big.a):\(p.id)")
        }
        container.register(AbaEcho<String>.self, name: "syncLeaf") { (_, big: AbaBig) in
            AbaEcho(value: "syncLeaf:\(big.a)")
        }
        container.register(AbaEcho<String>.self, name: "top") { (r, s: String, big: AbaBig, p: AbaProbe) async throws in
            await Task.yield()
            let leaf = try await r.resolveAsync(
                AbaEcho<String>.self,
                name: "leaf",
                arguments: AbaBig(seed: 20),
                AbaProbe(id: 7, deinits: deinits)
            )
            let syncLeaf = try r.resolve(AbaEcho<String>.self, name: "syncLeaf", arguments: AbaBig(seed: 30))
            try await Task.sleep(nanoseconds: 50_000)
            return AbaEcho(value: "top:\(s):\(big.matches(seed: 1)):\(p.id) \(leaf.value) \(syncLeaf.value)")
        }
        for _ in 0..<10 {
            let result = try await container.resolveAsync(
                AbaEcho<String>.self,
                name: "top",
                arguments: "t",
                AbaBig(seed: 1),
                AbaProbe(id: 1, deinits: deinits)
            ).value
            #expect(result == "top:t:true:1 leaf:true:20:7 syncLeaf:30")
        }
        #expect(deinits.count == 20)
    }

    // MARK: - Recursion and the cycle check

    /// A tree resolved by depth: each level resolves the one below twice, with other arguments.
    private static func registerTree(_ container: Container, async: Bool) {
        if async {
            container.register(AbaNode.self) { (r, depth: Int, tag: String) async throws in
                await Task.yield()
                guard depth > 0 else { return AbaNode(value: 0, children: []) }
                let left = try await r.resolveAsync(AbaNode.self, arguments: depth - 1, tag + "L")
                let right = try await r.resolveAsync(AbaNode.self, arguments: depth - 1, tag + "R")
                return AbaNode(value: depth, children: [left, right])
            }
        } else {
            container.register(AbaNode.self) { (r, depth: Int, tag: String) in
                guard depth > 0 else { return AbaNode(value: 0, children: []) }
                let left = try r.resolve(AbaNode.self, arguments: depth - 1, tag + "L")
                let right = try r.resolve(AbaNode.self, arguments: depth - 1, tag + "R")
                return AbaNode(value: depth, children: [left, right])
            }
        }
    }

    @Test func recursionWithOtherArgumentsBuildsATreeSyncAndAsync() async throws {
        let sync = Container()
        Self.registerTree(sync, async: false)
        #expect(try sync.resolve(AbaNode.self, arguments: 8, "").count == 511)
        let async = Container()
        Self.registerTree(async, async: true)
        #expect(try await async.resolveAsync(AbaNode.self, arguments: 6, "").count == 127)
    }

    @Test func deepRecursionPastTheIndexedDepthWithOtherArgumentsSucceedsAndWithEqualOnesIsACycle() async throws {
        // 0 ... 60 resolve the level below; at the bottom, `closing` resolves `closing` again: a
        // cycle, found in the index of a deep stack (past 32 entries), which compares the arguments
        // of every outer frame.
        let container = Container()
        container.register(AbaEcho<Int>.self) { (r, level: Int, big: AbaBig, closing: Int?) in
            #expect(big.matches(seed: level))
            if level == 0 {
                if let closing {
                    return try r.resolve(AbaEcho<Int>.self, arguments: closing, AbaBig(seed: closing), Int?.none)
                }
                return AbaEcho(value: 0)
            }
            let below = try r.resolve(AbaEcho<Int>.self, arguments: level - 1, AbaBig(seed: level - 1), closing)
            return AbaEcho(value: below.value + level)
        }
        #expect(try container.resolve(AbaEcho<Int>.self, arguments: 60, AbaBig(seed: 60), Int?.none).value == 1830)
        // level 0 with closing 45 resolves (45, big 45, nil): not on the stack (the frame above has
        // closing 45), so it recurses to 0 with nil and ends.
        #expect(
            try container.resolve(AbaEcho<Int>.self, arguments: 60, AbaBig(seed: 60), Int?.some(45)).value == 1830
                + 1035
        )

        // A frame whose arguments equal an outer one's: Hashable arguments make a cycle.
        let cyclic = Container()
        cyclic.register(AbaEcho<Int>.self) { (r, level: Int, back: Int) in
            if level == 0 { return try r.resolve(AbaEcho<Int>.self, arguments: back, back) }
            return try r.resolve(AbaEcho<Int>.self, arguments: level - 1, back)
        }
        // 50, 50 → 49, 50 → … → 0, 50 → 50, 50: the outermost frame again.
        let error = try #require(injectionError { try cyclic.resolve(AbaEcho<Int>.self, arguments: 50, 50) })
        #expect(error.code == .circularDependency)
        let shallow = try #require(injectionError { try cyclic.resolve(AbaEcho<Int>.self, arguments: 3, 3) })
        #expect(shallow.code == .circularDependency)

        let cyclicAsync = Container()
        cyclicAsync.register(AbaEcho<Int>.self) { (r, level: Int, back: Int) async throws in
            await Task.yield()
            if level == 0 { return try await r.resolveAsync(AbaEcho<Int>.self, arguments: back, back) }
            return try await r.resolveAsync(AbaEcho<Int>.self, arguments: level - 1, back)
        }
        let asyncError = try #require(
            await injectionErrorAsync { try await cyclicAsync.resolveAsync(AbaEcho<Int>.self, arguments: 40, 40) }
        )
        #expect(asyncError.code == .circularDependency)
    }

    @Test func equalArgumentsOfEveryHashableShapeAreACycleAndOtherOnesAreNot() throws {
        let container = Container()
        // Resolves itself once with `next`, if given: equal to what it was given is a cycle.
        container.register(AbaEcho<Int>.self) { (r, s: String, t: (Int8?), h: AnyHashable, next: String?) in
            if let next { return try r.resolve(AbaEcho<Int>.self, arguments: next, t, h, String?.none) }
            return AbaEcho(value: 1)
        }
        let long = String(repeating: "x", count: 300)
        #expect(
            try container.resolve(
                AbaEcho<Int>.self,
                arguments: long,
                Int8?.some(1),
                AnyHashable(1),
                String?.some(long + "y")
            ).value == 1
        )
        // The nested frame is (long, 1, 1, nil), the outer one (long, 1, 1, long): not equal.
        #expect(
            try container.resolve(AbaEcho<Int>.self, arguments: long, Int8?.some(1), AnyHashable(1), String?.some(long))
                .value == 1
        )

        let cyclic = Container()
        cyclic.register(AbaEcho<Int>.self) { (r, s: String, t: Int8?, h: AnyHashable) in
            try r.resolve(AbaEcho<Int>.self, arguments: String(s), t, h)
        }
        let error = try #require(
            injectionError { try cyclic.resolve(AbaEcho<Int>.self, arguments: long, Int8?.none, AnyHashable("h")) }
        )
        #expect(error.code == .circularDependency)
    }

    @Test func aValueArgumentThatIsNotHashableRecursesAndEqualOnesMeetTheStackGuard() throws {
        let container = Container()
        container.register(AbaEcho<Int>.self) { (r, v: AbaOpaque) in
            #expect(v.payload == Array(0..<v.level))
            guard v.level > 0 else { return AbaEcho(value: 0) }
            let below = try r.resolve(
                AbaEcho<Int>.self,
                argument: AbaOpaque(level: v.level - 1, payload: Array(0..<(v.level - 1)))
            )
            return AbaEcho(value: below.value + 1)
        }
        #expect(
            try container.resolve(AbaEcho<Int>.self, argument: AbaOpaque(level: 40, payload: Array(0..<40))).value == 40
        )

        // The same not-Hashable argument again and again is taken as other arguments: no cycle is
        // found, and the stack guard ends it.
        let endless = Container()
        endless.register(AbaEcho<Int>.self) { (r, v: AbaOpaque) in
            try r.resolve(AbaEcho<Int>.self, argument: v)
        }
        let error = try #require(
            injectionError { try endless.resolve(AbaEcho<Int>.self, argument: AbaOpaque(level: 1, payload: [1])) }
        )
        #expect(error.code == .resolutionTooDeep)
    }

    // MARK: - Scopes, children, overrides

    @Test func argumentRegistrationsResolveIntactFromAScopeAChildAndWithinOverrides() async throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<String>.self) { (_, big: AbaBig, p: AbaProbe) in
            AbaEcho(value: "root:\(big.matches(seed: big.a)):\(big.a):\(p.id)")
        }
        container.register(AbaEcho<String>.self, name: "async") { (_, big: AbaBig, p: AbaProbe) async in
            await Task.yield()
            return AbaEcho(value: "rootAsync:\(big.matches(seed: big.a)):\(big.a):\(p.id)")
        }
        let scope = container.makeScope()
        #expect(
            try scope.resolve(AbaEcho<String>.self, arguments: AbaBig(seed: 1), AbaProbe(id: 1, deinits: deinits)).value
                == "root:true:1:1"
        )
        #expect(
            try await scope.resolveAsync(
                AbaEcho<String>.self,
                name: "async",
                arguments: AbaBig(seed: 2),
                AbaProbe(id: 2, deinits: deinits)
            )
            .value == "rootAsync:true:2:2"
        )
        try await scope.closeAsync()

        let child = container.makeChild()
        #expect(
            try child.resolve(AbaEcho<String>.self, arguments: AbaBig(seed: 3), AbaProbe(id: 3, deinits: deinits)).value
                == "root:true:3:3"
        )
        let shadowing = container.makeChild()
        shadowing.register(AbaEcho<String>.self) { (_, big: AbaBig, p: AbaProbe) in
            AbaEcho(value: "child:\(big.matches(seed: big.a)):\(big.a):\(p.id)")
        }
        #expect(
            try shadowing.resolve(AbaEcho<String>.self, arguments: AbaBig(seed: 4), AbaProbe(id: 4, deinits: deinits))
                .value
                == "child:true:4:4"
        )

        let overridden = try container.withOverrides {
            $0.register(AbaEcho<String>.self) { (_, big: AbaBig, p: AbaProbe) in
                AbaEcho(value: "override:\(big.matches(seed: big.a)):\(big.a):\(p.id)")
            }
        } operation: {
            try child.resolve(AbaEcho<String>.self, arguments: AbaBig(seed: 5), AbaProbe(id: 5, deinits: deinits)).value
        }
        #expect(overridden == "override:true:5:5")

        let overriddenAsync = try await container.withOverridesAsync {
            $0.register(AbaEcho<String>.self, name: "async") { (_, big: AbaBig, p: AbaProbe) async throws in
                try await Task.sleep(nanoseconds: 10_000)
                return AbaEcho(value: "overrideAsync:\(big.matches(seed: big.a)):\(big.a):\(p.id)")
            }
        } operation: {
            try await container.resolveAsync(
                AbaEcho<String>.self,
                name: "async",
                arguments: AbaBig(seed: 6),
                AbaProbe(id: 6, deinits: deinits)
            ).value
        }
        #expect(overriddenAsync == "overrideAsync:true:6:6")
        #expect(deinits.count == 6)
    }

    // MARK: - Declared registrations

    @Test func aDeclaredRegistrationWithAnArgumentReadsItIntactAndReleasesItOnce() async throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaLeafDep.self) { _ in AbaLeafDep() }
        container.register(AbaDeclaredWithArgument.self, argument: AbaBig.self, AbaDeclaredWithArgument.init)
        container.register(AbaEcho<String>.self, argument: AbaEnum.self, using: Resolved(AbaLeafDep.self)) {
            (e: AbaEnum, _: AbaLeafDep) async -> AbaEcho<String> in
            await Task.yield()
            if case .pair(let s, let p) = e { return AbaEcho(value: "\(s):\(p.id)") }
            return AbaEcho(value: "other")
        }
        container.register(AbaEcho<Int>.self, argument: (any AbaShape).self, using: Resolved(AbaLeafDep.self)) {
            (shape: any AbaShape, _: AbaLeafDep) in AbaEcho(value: Int(shape.area))
        }
        do {
            let made = try container.resolve(
                AbaDeclaredWithArgument.self,
                argument: AbaBig(seed: 11, probe: AbaProbe(id: 1, deinits: deinits))
            )
            #expect(made.big.matches(seed: 11) && made.big.probe?.id == 1)
            #expect(deinits.count == 0)
        }
        #expect(deinits.count == 1)
        #expect(
            try await container.resolveAsync(
                AbaEcho<String>.self,
                argument: AbaEnum.pair("p", AbaProbe(id: 2, deinits: deinits))
            ).value
                == "p:2"
        )
        #expect(deinits.count == 2)
        #expect(
            try container.resolve(AbaEcho<Int>.self, argument: AbaWideShape(big: AbaBig(seed: 33)) as any AbaShape)
                .value == 33
        )
    }

    @Test func aRegistrationWithoutArgumentsIsResolvedFromDeclaredParametersAndFromAnArgumentFactory() async throws {
        let container = Container()
        let made = CallCounter()
        container.register(AbaLeafDep.self) { _ in
            made.next()
            return AbaLeafDep()
        }
        container.register(AbaDeclaredUser.self, AbaDeclaredUser.init)
        container.register(AbaEcho<AbaDeclaredUser>.self) { (r, big: AbaBig) in
            #expect(big.matches(seed: 2))
            return AbaEcho(value: try r.resolve(AbaDeclaredUser.self))
        }
        container.register(AbaEcho<Int>.self) { (r, big: AbaBig) async throws in
            let user = try await r.resolveAsync(AbaDeclaredUser.self)
            await Task.yield()
            _ = user
            return AbaEcho(value: big.a)
        }
        _ = try container.resolve(AbaDeclaredUser.self)
        _ = try await container.resolveAsync(AbaDeclaredUser.self)
        _ = try container.resolve(AbaEcho<AbaDeclaredUser>.self, argument: AbaBig(seed: 2))
        #expect(try await container.resolveAsync(AbaEcho<Int>.self, argument: AbaBig(seed: 3)).value == 3)
        #expect(made.count == 4)
        _ = try container.validate()
    }

    // MARK: - Concurrency

    @Test func manyThreadsResolvingTheSameArgumentRegistrationEachGetTheirOwnArguments() async throws {
        let container = Container()
        let deinits = CallCounter()
        let wrong = CallCounter()
        container.register(AbaEcho<Int>.self) { (r, id: Int, big: AbaBig, p: AbaProbe) in
            if !big.matches(seed: id) || p.id != id { wrong.next() }
            if id % 3 == 0 {
                // A nested resolve with other arguments in the middle.
                let nested = try r.resolve(AbaEcho<String>.self, arguments: AbaBig(seed: -id), "n\(id)")
                if nested.value != "n\(id):\(-id)" { wrong.next() }
            }
            if !big.matches(seed: id) || p.id != id { wrong.next() }
            return AbaEcho(value: id)
        }
        container.register(AbaEcho<String>.self) { (_, big: AbaBig, s: String) in
            AbaEcho(value: "\(s):\(big.matches(seed: big.a) ? big.a : Int.min)")
        }
        let threads = 4
        let perThread = 400
        let bodies: [@Sendable () -> Void] = (0..<threads).map { thread in
            {
                for i in 0..<perThread {
                    let id = thread * 100_000 + i
                    let value = try? container.resolve(
                        AbaEcho<Int>.self,
                        arguments: id,
                        AbaBig(seed: id),
                        AbaProbe(id: id, deinits: deinits)
                    ).value
                    if value != id { wrong.next() }
                }
            }
        }
        #expect(await onThreads(bodies))
        #expect(wrong.count == 0)
        #expect(deinits.count == threads * perThread)
    }

    @Test func manyTasksResolvingTheSameAsyncArgumentRegistrationEachGetTheirOwnArguments() async throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<Int>.self) { (r, id: Int, big: AbaBig, p: AbaProbe) async throws in
            await Task.yield()
            guard big.matches(seed: id), p.id == id else { return AbaEcho(value: -1) }
            try await Task.sleep(nanoseconds: UInt64(id % 7) * 10_000)
            let nested = try await r.resolveAsync(AbaEcho<String>.self, arguments: AbaBig(seed: id * 2), "n")
            guard nested.value == "n:\(id * 2)", big.matches(seed: id), p.id == id else { return AbaEcho(value: -2) }
            return AbaEcho(value: id)
        }
        container.register(AbaEcho<String>.self) { (_, big: AbaBig, s: String) async in
            await Task.yield()
            return AbaEcho(value: "\(s):\(big.matches(seed: big.a) ? big.a : Int.min)")
        }
        let count = 300
        let results = await withWatchdog(seconds: 120) {
            await withTaskGroup(of: (Int, Int?).self) { group in
                for id in 0..<count {
                    group.addTask {
                        let value = try? await container.resolveAsync(
                            AbaEcho<Int>.self,
                            arguments: id,
                            AbaBig(seed: id),
                            AbaProbe(id: id, deinits: deinits)
                        ).value
                        return (id, value)
                    }
                }
                var results: [(Int, Int?)] = []
                for await result in group { results.append(result) }
                return results
            }
        }
        let all = try #require(results)
        #expect(all.count == count)
        #expect(all.filter { $0.0 != $0.1 }.isEmpty)
        #expect(deinits.count == count)
    }

    @Test func concurrentSyncResolvesThroughAScopeAndAChildWithGenericRegistrations() async throws {
        let container = Container()
        registerEcho(container, AbaBig.self)
        registerEcho(container, (any AbaShape).self)
        let child = container.makeChild()
        let scope = child.makeScope()
        let wrong = CallCounter()
        let bodies: [@Sendable () -> Void] = (0..<4).map { thread in
            {
                for i in 0..<300 {
                    let seed = thread * 10_000 + i
                    let big = (try? scope.resolve(AbaEcho<AbaBig>.self, argument: AbaBig(seed: seed)))?.value
                    if big?.matches(seed: seed) != true { wrong.next() }
                    let shape =
                        (try? child.resolve(
                            AbaEcho<any AbaShape>.self,
                            argument: AbaWideShape(big: AbaBig(seed: seed)) as any AbaShape
                        ))?
                        .value
                    if shape?.area != Double(seed) { wrong.next() }
                }
            }
        }
        #expect(await onThreads(bodies))
        #expect(wrong.count == 0)
        try await scope.closeAsync()
    }

    // MARK: - More edges

    @Test func aRegistrationGenericOverAPackReadsZeroOneTupleAndManyArguments() throws {
        let many = Container()
        registerPack(many, Int.self, String.self, AbaBig.self, Int8.self)
        let value = try many.resolve(
            AbaEcho<(Int, String, AbaBig, Int8)>.self,
            arguments: 1,
            "a",
            AbaBig(seed: 4),
            Int8(-3)
        ).value
        #expect(value.0 == 1 && value.1 == "a" && value.2.matches(seed: 4) && value.3 == -3)

        let tuple = Container()
        registerPack(tuple, (Int, String).self)
        #expect(try tuple.resolve(AbaEcho<(Int, String)>.self, argument: (5, "five")).value == (5, "five"))
        let twoError = try #require(
            injectionError { try tuple.resolve(AbaEcho<(Int, String)>.self, arguments: 5, "five") }
        )
        #expect(twoError.code == .missingRegistration)

        let none = Container()
        registerPack(none)
        _ = try none.resolve(AbaEcho<Void>.self)

        let one = Container()
        registerPack(one, AbaBig.self)
        #expect(try one.resolve(AbaEcho<AbaBig>.self, argument: AbaBig(seed: 6)).value.matches(seed: 6))
    }

    @Test func overAlignedAndOddlySizedArgumentsArriveIntactSyncAndAsync() async throws {
        let container = Container()
        container.register(AbaEcho<String>.self) {
            (_, a: Int8, b: SIMD4<Double>, c: Bool, d: SIMD16<UInt8>, e: (Int8, Double), f: Int16) in
            AbaEcho(value: "\(a) \(b) \(c) \(d[15]) \(e.0) \(e.1) \(f)")
        }
        container.register(AbaEcho<String>.self, name: "async") {
            (_, a: Int8, b: SIMD4<Double>, c: Bool, d: SIMD16<UInt8>, e: (Int8, Double), f: Int16) async in
            await Task.yield()
            return AbaEcho(value: "\(a) \(b) \(c) \(d[15]) \(e.0) \(e.1) \(f)")
        }
        var d = SIMD16<UInt8>(repeating: 1)
        d[15] = 99
        let expected = "-1 SIMD4<Double>(1.0, 2.0, 3.0, 4.0) true 99 7 0.5 -300"
        #expect(
            try container.resolve(
                AbaEcho<String>.self,
                arguments: Int8(-1),
                SIMD4<Double>(1, 2, 3, 4),
                true,
                d,
                (Int8(7), 0.5),
                Int16(-300)
            )
            .value == expected
        )
        #expect(
            try await container.resolveAsync(
                AbaEcho<String>.self,
                name: "async",
                arguments: Int8(-1),
                SIMD4<Double>(1, 2, 3, 4),
                true,
                d,
                (Int8(7), 0.5),
                Int16(-300)
            ).value == expected
        )
    }

    @Test func aSyncFactoryRunInAnAsyncResolveThatResolvesItselfThroughTheContainerComparesItsArguments() async throws {
        let container = Container()
        let ref = AbaContainerRef()
        ref.container = container
        // Resolves itself through the container (a nested resolution), with `next` as the level.
        container.register(AbaEcho<Int>.self) { (_, level: Int, next: Int) in
            guard level != next, let container = ref.container else { return AbaEcho(value: level) }
            return AbaEcho(value: try container.resolve(AbaEcho<Int>.self, arguments: next, next).value + 100)
        }
        #expect(try await container.resolveAsync(AbaEcho<Int>.self, arguments: 1, 2).value == 102)
        #expect(try container.resolve(AbaEcho<Int>.self, arguments: 1, 2).value == 102)

        let cyclic = Container()
        let cyclicRef = AbaContainerRef()
        cyclicRef.container = cyclic
        cyclic.register(AbaEcho<Int>.self) { (_, level: Int, big: String) in
            guard let container = cyclicRef.container else { return AbaEcho(value: -1) }
            return try container.resolve(AbaEcho<Int>.self, arguments: level, big)
        }
        let error = try #require(
            await injectionErrorAsync { try await cyclic.resolveAsync(AbaEcho<Int>.self, arguments: 3, "x") }
        )
        #expect(error.code == .circularDependency)
        let syncError = try #require(injectionError { try cyclic.resolve(AbaEcho<Int>.self, arguments: 3, "x") })
        #expect(syncError.code == .circularDependency)
    }

    @Test func cancellingAnAsyncResolveWhoseFactoryHoldsArgumentsReleasesThemOnce() async throws {
        let container = Container()
        let deinits = CallCounter()
        let started = Signal()
        container.register(AbaEcho<Int>.self) { (_, p: AbaProbe, big: AbaBig) async throws in
            started.signal()
            try await Task.sleep(nanoseconds: 30_000_000_000)
            return AbaEcho(value: p.id + big.a)
        }
        let task = Task {
            try await container.resolveAsync(
                AbaEcho<Int>.self,
                arguments: AbaProbe(id: 1, deinits: deinits),
                AbaBig(seed: 1, probe: AbaProbe(id: 2, deinits: deinits))
            )
        }
        #expect(await awaited(started))
        task.cancel()
        let result = await task.result
        #expect(throws: (any Error).self) { try result.get() }
        #expect(deinits.count == 2)
    }

    @Test func aSharedScopeWithArgumentsIsRefusedAndItsArgumentsAreReleasedOnce() async throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<Int>.self, scope: .singleton) { (_, p: AbaProbe) in AbaEcho(value: p.id) }
        container.register(AbaEcho<Int>.self, name: "async", scope: .singleton) { (_, p: AbaProbe) async in
            AbaEcho(value: p.id)
        }
        let error = try #require(
            injectionError { try container.resolve(AbaEcho<Int>.self, argument: AbaProbe(id: 1, deinits: deinits)) }
        )
        #expect(error.code == .sharedScopeWithArguments)
        let asyncError = try #require(
            await injectionErrorAsync {
                try await container.resolveAsync(
                    AbaEcho<Int>.self,
                    name: "async",
                    argument: AbaProbe(id: 2, deinits: deinits)
                )
            }
        )
        #expect(asyncError.code == .sharedScopeWithArguments)
        #expect(deinits.count == 2)
    }

    @Test func aResolverKeptPastItsResolutionRefusesAResolveWithArguments() throws {
        let container = Container()
        let kept = KeptResolver()
        let deinits = CallCounter()
        container.register(AbaEcho<Int>.self) { (r, p: AbaProbe) in
            kept.keep(r)
            return AbaEcho(value: p.id)
        }
        #expect(try container.resolve(AbaEcho<Int>.self, argument: AbaProbe(id: 1, deinits: deinits)).value == 1)
        let resolver = try #require(kept.resolver)
        let error = try #require(
            injectionError { try resolver.resolve(AbaEcho<Int>.self, argument: AbaProbe(id: 2, deinits: deinits)) }
        )
        #expect(error.code == .resolverOutlivedResolution)
        #expect(deinits.count == 2)
    }

    // MARK: - Keys and layouts

    @Test func oneServiceUnderManyArgumentLayoutsReadsEachWithItsOwnTypes() async throws {
        let container = Container()
        container.register(AbaEcho<String>.self) { (_, v: Int) in AbaEcho(value: "Int \(v)") }
        container.register(AbaEcho<String>.self) { (_, v: Int8) in AbaEcho(value: "Int8 \(v)") }
        container.register(AbaEcho<String>.self) { (_, v: String) in AbaEcho(value: "String \(v)") }
        container.register(AbaEcho<String>.self) { (_, a: Int, b: Int) in AbaEcho(value: "Int,Int \(a) \(b)") }
        container.register(AbaEcho<String>.self) { (_, t: (Int, Int)) in AbaEcho(value: "(Int,Int) \(t.0) \(t.1)") }
        container.register(AbaEcho<String>.self) { (_, v: AbaBig) in
            AbaEcho(value: "AbaBig \(v.matches(seed: v.a)) \(v.a)")
        }
        container.register(AbaEcho<String>.self) { (_, v: Int?) in AbaEcho(value: "Int? \(String(describing: v))") }
        let child = container.makeChild()
        child.register(AbaEcho<String>.self) { (_, v: Int8) in AbaEcho(value: "child Int8 \(v)") }

        #expect(try container.resolve(AbaEcho<String>.self, argument: 1).value == "Int 1")
        #expect(try container.resolve(AbaEcho<String>.self, argument: Int8(2)).value == "Int8 2")
        #expect(try container.resolve(AbaEcho<String>.self, argument: "3").value == "String 3")
        #expect(try container.resolve(AbaEcho<String>.self, arguments: 4, 5).value == "Int,Int 4 5")
        #expect(try container.resolve(AbaEcho<String>.self, argument: (6, 7)).value == "(Int,Int) 6 7")
        #expect(try container.resolve(AbaEcho<String>.self, argument: AbaBig(seed: 8)).value == "AbaBig true 8")
        #expect(try container.resolve(AbaEcho<String>.self, argument: Int?.some(9)).value == "Int? Optional(9)")
        #expect(try child.resolve(AbaEcho<String>.self, argument: Int8(10)).value == "child Int8 10")
        #expect(try child.resolve(AbaEcho<String>.self, argument: 11).value == "Int 11")
        #expect(
            try await child.resolveAsync(AbaEcho<String>.self, argument: AbaBig(seed: 12)).value == "AbaBig true 12"
        )
        // A key of other static types finds nothing: an Int16 is not read as an Int, a UInt8 not as an Int8.
        let wide = try #require(injectionError { try container.resolve(AbaEcho<String>.self, argument: Int16(1)) })
        #expect(wide.code == .missingRegistration)
        let unsigned = try #require(injectionError { try container.resolve(AbaEcho<String>.self, argument: UInt8(1)) })
        #expect(unsigned.code == .missingRegistration)
        let double = try #require(
            injectionError { try container.resolve(AbaEcho<String>.self, argument: Int??.some(1)) }
        )
        #expect(double.code == .missingRegistration)
    }

    @Test func aReplacedAndADuplicatedArgumentRegistrationReadTheirArgumentsOrAreRefused() throws {
        let container = Container()
        let deinits = CallCounter()
        container.register(AbaEcho<String>.self) { (_, a: AbaBig, p: AbaProbe) in AbaEcho(value: "first \(a.a) \(p.id)")
        }
        container.register(AbaEcho<String>.self, replacesExisting: true) { (_, a: AbaBig, p: AbaProbe) in
            AbaEcho(value: "second \(a.matches(seed: a.a)) \(a.a) \(p.id)")
        }
        #expect(
            try container.resolve(AbaEcho<String>.self, arguments: AbaBig(seed: 1), AbaProbe(id: 2, deinits: deinits))
                .value
                == "second true 1 2"
        )
        container.register(AbaEcho<Int>.self) { (_, p: AbaProbe) in AbaEcho(value: p.id) }
        container.register(AbaEcho<Int>.self) { (_, p: AbaProbe) in AbaEcho(value: -p.id) }
        let error = try #require(
            injectionError { try container.resolve(AbaEcho<Int>.self, argument: AbaProbe(id: 3, deinits: deinits)) }
        )
        #expect(error.code == .duplicateRegistration)
        #expect(deinits.count == 2)
    }

    // MARK: - Deferred resolves

    /// Holds a `Lazy` made inside a factory that takes arguments.
    private final class AbaHolder: @unchecked Sendable {
        let lazy: Lazy<AbaEcho<String>>
        let seen: Int
        init(lazy: Lazy<AbaEcho<String>>, seen: Int) {
            self.lazy = lazy
            self.seen = seen
        }
    }

    @Test func aLazyMadeInAnArgumentFactoryResolvesLaterWithoutItsFramesAndWithinItWithThem() throws {
        let container = Container()
        container.register(AbaEcho<String>.self) { r in
            let holder = try r.resolve(AbaHolder.self, arguments: 1, 1, false)
            return AbaEcho(value: "lazy \(holder.seen)")
        }
        container.register(AbaHolder.self) { (r, a: Int, b: Int, now: Bool) in
            let lazy = try r.resolve(Lazy<AbaEcho<String>>.self)
            if now { _ = try lazy.value }
            return AbaHolder(lazy: lazy, seen: a + b)
        }
        // Resolved later: a resolution of its own, with none of the holder's frames.
        let holder = try container.resolve(AbaHolder.self, arguments: 1, 1, false)
        #expect(try holder.lazy.value.value == "lazy 2")
        // Resolved within the factory: (2, 2, true) → lazy → (1, 1, false), other arguments.
        let now = try container.resolve(AbaHolder.self, arguments: 2, 2, true)
        #expect(now.seen == 4)
        #expect(try now.lazy.value.value == "lazy 2")
    }
}
