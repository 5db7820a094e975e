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

// D. A graph-scoped diamond: A → B, C; B, C → D, with one D shared within one resolve.
// A, B and C are transient; only D is graph-scoped (Injector `.graph`, Swinject `.graph`).

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

struct GraphDiamondCase: ResolutionCase {
    let id = "D"
    let title = "graph-scoped diamond (A → B, C → shared D)"

    func makeBatch(for contender: Contender) throws -> Batch {
        switch contender {
        case .injector:
            let container = InjectorContainer()
            container.register(DiamondD.self, scope: .graph) { _ in DiamondDImpl() }
            container.register(DiamondC.self) { r in try DiamondCImpl(d: r.resolve(DiamondD.self)) }
            container.register(DiamondB.self) { r in try DiamondBImpl(d: r.resolve(DiamondD.self)) }
            container.register(DiamondA.self) { r in
                try DiamondAImpl(b: r.resolve(DiamondB.self), c: r.resolve(DiamondC.self))
            }
            try container.finishRegistration()
            try checkDiamond(container.resolve(DiamondA.self), container.resolve(DiamondA.self), "Injector")
            return Self.injectorBatch(container)
        case .swinject:
            let container = SwinjectContainer()
            container.register(DiamondD.self) { _ in DiamondDImpl() }.inObjectScope(.graph)
            container.register(DiamondC.self) { r in DiamondCImpl(d: r.resolve(DiamondD.self)!) }
                .inObjectScope(.transient)
            container.register(DiamondB.self) { r in DiamondBImpl(d: r.resolve(DiamondD.self)!) }
                .inObjectScope(.transient)
            container.register(DiamondA.self) { r in
                DiamondAImpl(b: r.resolve(DiamondB.self)!, c: r.resolve(DiamondC.self)!)
            }.inObjectScope(.transient)
            try checkDiamond(
                required(container.resolve(DiamondA.self)),
                required(container.resolve(DiamondA.self)),
                "Swinject"
            )
            return Self.swinjectBatch(container)
        case .direct:
            try checkDiamond(makeDiamondDirectly(), makeDiamondDirectly(), "Direct")
            return Self.directBatch()
        case .closureWired:
            let wiring = makeClosureWiredDiamond()
            try checkDiamond(wiring.makeA(), wiring.makeA(), "Closure-wired")
            return Self.closureWiredBatch(wiring)
        }
    }

    // One function per contender, so that a profiler can name each batch.

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

    /// D is shared within one resolve and new in the next.
    private func checkDiamond(_ first: any DiamondA, _ second: any DiamondA, _ who: String) throws {
        try check(first.b.d === first.c.d, "\(who): B and C got different D within one resolve")
        try check(first.b.d !== second.b.d, "\(who): two resolves shared one graph-scoped D")
    }
}
