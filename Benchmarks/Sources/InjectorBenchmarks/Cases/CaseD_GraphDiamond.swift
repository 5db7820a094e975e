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

import Injector
import Swinject

// D. A graph-scoped diamond: A → B, C; B, C → D, with one D shared within one resolve. Timed in
// two variants that build the same objects:
// - all four services `.graph` (Injector `.graph`, Swinject `.graph`): the diamond issue 9
//   measures, and sets its target on;
// - only the shared D `.graph`, A, B and C transient: case D as it was before issue 9.

protocol DiamondA: AnyObject {
    var b: any DiamondB { get }
    var c: any DiamondC { get }
}
protocol DiamondB: AnyObject { var d: any DiamondD { get } }
protocol DiamondC: AnyObject { var d: any DiamondD { get } }
protocol DiamondD: AnyObject {}

final class DiamondAImpl: DiamondA {
    let b: any DiamondB
    let c: any DiamondC
    init(b: any DiamondB, c: any DiamondC) {
        self.b = b
        self.c = c
    }
}
final class DiamondBImpl: DiamondB {
    let d: any DiamondD
    init(d: any DiamondD) { self.d = d }
}
final class DiamondCImpl: DiamondC {
    let d: any DiamondD
    init(d: any DiamondD) { self.d = d }
}
final class DiamondDImpl: DiamondD {}

/// Direct construction: D made once and passed to B and C, as a person writes it, returned as the
/// protocol from a function the optimiser cannot see into.
@inline(never)
func makeDiamondDirectly() -> any DiamondA {
    let d = DiamondDImpl()
    return DiamondAImpl(b: DiamondBImpl(d: d), c: DiamondCImpl(d: d))
}

/// Closure wiring: A's factory makes D once and passes it to B's and C's.
struct ClosureWiredDiamond {
    var makeA: () -> any DiamondA
}

@inline(never)
func makeClosureWiredDiamond() -> ClosureWiredDiamond {
    let makeD: () -> any DiamondD = { DiamondDImpl() }
    let makeB: (any DiamondD) -> any DiamondB = { DiamondBImpl(d: $0) }
    let makeC: (any DiamondD) -> any DiamondC = { DiamondCImpl(d: $0) }
    return ClosureWiredDiamond(makeA: {
        let d = makeD()
        return DiamondAImpl(b: makeB(d), c: makeC(d))
    })
}

/// What the two D cases share: the registrations (they differ only in the lifetimes of A, B and
/// C) and the check. Direct construction and closure wiring are the same for both.
enum Diamond {
    static func injectorContainer(allGraph: Bool) throws -> InjectorContainer {
        func outer<Service>(_: Service.Type) -> ServiceScope<Service> { allGraph ? .graph : .transient }
        let container = InjectorContainer()
        container.register(DiamondD.self, scope: .graph) { _ in DiamondDImpl() }
        container.register(DiamondC.self, scope: outer(DiamondC.self)) { r in
            try DiamondCImpl(d: r.resolve(DiamondD.self))
        }
        container.register(DiamondB.self, scope: outer(DiamondB.self)) { r in
            try DiamondBImpl(d: r.resolve(DiamondD.self))
        }
        container.register(DiamondA.self, scope: outer(DiamondA.self)) { r in
            try DiamondAImpl(b: r.resolve(DiamondB.self), c: r.resolve(DiamondC.self))
        }
        try container.finishRegistration()
        try check(container.resolve(DiamondA.self), container.resolve(DiamondA.self), "Injector")
        return container
    }

    static func swinjectContainer(allGraph: Bool) throws -> SwinjectContainer {
        let outer: ObjectScope = allGraph ? .graph : .transient
        let container = SwinjectContainer()
        container.register(DiamondD.self) { _ in DiamondDImpl() }.inObjectScope(.graph)
        container.register(DiamondC.self) { r in DiamondCImpl(d: r.resolve(DiamondD.self)!) }.inObjectScope(outer)
        container.register(DiamondB.self) { r in DiamondBImpl(d: r.resolve(DiamondD.self)!) }.inObjectScope(outer)
        container.register(DiamondA.self) { r in
            DiamondAImpl(b: r.resolve(DiamondB.self)!, c: r.resolve(DiamondC.self)!)
        }.inObjectScope(outer)
        try check(required(container.resolve(DiamondA.self)), required(container.resolve(DiamondA.self)), "Swinject")
        return container
    }

    /// D is shared within one resolve, and the next resolve makes a new graph.
    static func check(_ first: any DiamondA, _ second: any DiamondA, _ who: String) throws {
        try InjectorBenchmarks.check(first.b.d === first.c.d, "\(who): B and C got different D within one resolve")
        try InjectorBenchmarks.check(first.b.d !== second.b.d, "\(who): two resolves shared one graph-scoped D")
        try InjectorBenchmarks.check(first !== second, "\(who): two resolves shared one A")
    }
}

/// D with all four services `.graph`: the diamond issue 9 measures, and sets its target on.
struct GraphDiamondCase: ResolutionCase {
    let id = "D"
    let title = "diamond, all 4 `.graph` (A → B, C → shared D)"
    let target: Double? = 2.5

    func makeBatch(for contender: Contender) throws -> Batch {
        switch contender {
        case .injector: return Self.injectorBatch(try Diamond.injectorContainer(allGraph: true))
        case .swinject: return Self.swinjectBatch(try Diamond.swinjectContainer(allGraph: true))
        case .direct:
            try Diamond.check(makeDiamondDirectly(), makeDiamondDirectly(), "Direct")
            return Self.directBatch()
        case .closureWired:
            let wiring = makeClosureWiredDiamond()
            try Diamond.check(wiring.makeA(), wiring.makeA(), "Closure-wired")
            return Self.closureWiredBatch(wiring)
        }
    }

    // One function per contender (and per variant of D), so that a profiler can name each batch.

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve(DiamondA.self)) }
            return checksum
        }
    }

    private static func swinjectBatch(_ container: SwinjectContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try required(container.resolve(DiamondA.self))) }
            return checksum
        }
    }

    private static func directBatch() -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(makeDiamondDirectly()) }
            return checksum
        }
    }

    private static func closureWiredBatch(_ wiring: ClosureWiredDiamond) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(wiring.makeA()) }
            return checksum
        }
    }
}

/// D as it was before issue 9: only the shared D `.graph`; A, B and C transient. No target.
struct SharedLeafDiamondCase: ResolutionCase {
    let id = "D"
    let title = "diamond, only D `.graph`, A, B, C transient (D before issue 9)"

    func makeBatch(for contender: Contender) throws -> Batch {
        switch contender {
        case .injector: return Self.injectorBatch(try Diamond.injectorContainer(allGraph: false))
        case .swinject: return Self.swinjectBatch(try Diamond.swinjectContainer(allGraph: false))
        case .direct:
            try Diamond.check(makeDiamondDirectly(), makeDiamondDirectly(), "Direct")
            return Self.directBatch()
        case .closureWired:
            let wiring = makeClosureWiredDiamond()
            try Diamond.check(wiring.makeA(), wiring.makeA(), "Closure-wired")
            return Self.closureWiredBatch(wiring)
        }
    }

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve(DiamondA.self)) }
            return checksum
        }
    }

    private static func swinjectBatch(_ container: SwinjectContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try required(container.resolve(DiamondA.self))) }
            return checksum
        }
    }

    private static func directBatch() -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(makeDiamondDirectly()) }
            return checksum
        }
    }

    private static func closureWiredBatch(_ wiring: ClosureWiredDiamond) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(wiring.makeA()) }
            return checksum
        }
    }
}
