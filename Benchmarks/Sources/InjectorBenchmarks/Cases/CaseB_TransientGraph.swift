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

// B. A transient graph of four objects, each behind a protocol: A → B, C; B → D.
// Case G reuses this graph from one and from two threads.

protocol TreeA: AnyObject { var b: any TreeB { get } }
protocol TreeB: AnyObject { var d: any TreeD { get } }
protocol TreeC: AnyObject {}
protocol TreeD: AnyObject {}

final class TreeAImpl: TreeA {
    let b: any TreeB
    let c: any TreeC
    init(b: any TreeB, c: any TreeC) {
        self.b = b
        self.c = c
    }
}
final class TreeBImpl: TreeB {
    let d: any TreeD
    init(d: any TreeD) { self.d = d }
}
final class TreeCImpl: TreeC {}
final class TreeDImpl: TreeD {}

/// Direct construction: the graph as a person writes it, returned as the protocol from a function
/// the optimiser cannot see into.
@inline(never)
func makeTreeDirectly() -> any TreeA {
    TreeAImpl(b: TreeBImpl(d: TreeDImpl()), c: TreeCImpl())
}

/// Closure wiring: one factory closure per type, each calling the ones it needs.
struct ClosureWiredTree {
    var makeA: () -> any TreeA
}

@inline(never)
func makeClosureWiredTree() -> ClosureWiredTree {
    let makeD: () -> any TreeD = { TreeDImpl() }
    let makeC: () -> any TreeC = { TreeCImpl() }
    let makeB: () -> any TreeB = { TreeBImpl(d: makeD()) }
    return ClosureWiredTree(makeA: { TreeAImpl(b: makeB(), c: makeC()) })
}

struct TransientGraphCase: ResolutionCase {
    let id = "B"
    let title = "transient graph of 4 (A → B, C; B → D)"
    let target: Double? = 2

    func makeBatch(for contender: Contender) throws -> Batch {
        try Self.makeBatch(for: contender, threadSafe: false)
    }

    /// - Parameters:
    ///   - threadSafe: use Swinject's synchronized resolver (case G); Injector, direct construction
    ///     and the closures are thread-safe as they are.
    ///   - finishRegistration: whether Injector's `finishRegistration()` is called (case G times
    ///     both: an open registry takes another path).
    static func makeBatch(for contender: Contender, threadSafe: Bool, finishRegistration: Bool = true) throws -> Batch {
        switch contender {
        case .injector:
            let container = InjectorContainer()
            container.register(TreeD.self) { _ in TreeDImpl() }
            container.register(TreeC.self) { _ in TreeCImpl() }
            container.register(TreeB.self) { r in try TreeBImpl(d: r.resolve(TreeD.self)) }
            container.register(TreeA.self) { r in try TreeAImpl(b: r.resolve(TreeB.self), c: r.resolve(TreeC.self)) }
            if finishRegistration { try container.finishRegistration() }
            try checkTree(try container.resolve(TreeA.self), "Injector")
            return injectorBatch(container)
        case .swinject:
            let container = SwinjectContainer()
            container.register(TreeD.self) { _ in TreeDImpl() }.inObjectScope(.transient)
            container.register(TreeC.self) { _ in TreeCImpl() }.inObjectScope(.transient)
            container.register(TreeB.self) { r in TreeBImpl(d: r.resolve(TreeD.self)!) }.inObjectScope(.transient)
            container.register(TreeA.self) { r in
                TreeAImpl(b: r.resolve(TreeB.self)!, c: r.resolve(TreeC.self)!)
            }.inObjectScope(.transient)
            let resolver: any SwinjectResolver = threadSafe ? container.synchronize() : container
            try checkTree(try required(resolver.resolve(TreeA.self)), "Swinject")
            return swinjectBatch(resolver)
        case .direct:
            try checkTree(makeTreeDirectly(), "Direct")
            return directBatch()
        case .closureWired:
            let wiring = makeClosureWiredTree()
            try checkTree(wiring.makeA(), "Closure-wired")
            return closureWiredBatch(wiring)
        }
    }

    // One function per contender, so that a profiler can name each batch.

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve(TreeA.self)) }
            return checksum
        }
    }

    private static func swinjectBatch(_ resolver: any SwinjectResolver) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try required(resolver.resolve(TreeA.self))) }
            return checksum
        }
    }

    private static func directBatch() -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(makeTreeDirectly()) }
            return checksum
        }
    }

    private static func closureWiredBatch(_ wiring: ClosureWiredTree) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(wiring.makeA()) }
            return checksum
        }
    }

    /// B's D is wired, and C is there.
    static func checkTree(_ a: any TreeA, _ who: String) throws {
        try check(a.b.d is TreeDImpl, "\(who): A → B → D is not wired")
        try check((a as? TreeAImpl)?.c is TreeCImpl, "\(who): A → C is not wired")
    }
}
