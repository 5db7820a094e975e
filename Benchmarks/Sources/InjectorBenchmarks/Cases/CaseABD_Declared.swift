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

// A, B and D with Injector's registrations declared (`register(TreeA.self, TreeAImpl.init)`): the
// container resolves each initialiser's parameters. The other contenders are their cases' own.

struct DeclaredTransientCase: ResolutionCase {
    let id = "A"
    let title = "transient, declared"
    let target: Double? = 1.3

    func makeBatch(for contender: Contender) throws -> Batch {
        guard contender == .injector else { return try TransientCase().makeBatch(for: contender) }
        let container = InjectorContainer()
        container.register(ServiceA.self, ServiceAImpl.init)
        try container.finishRegistration()
        try check(
            try container.resolve(ServiceA.self) !== container.resolve(ServiceA.self),
            "Injector: declared transient A resolved twice gave one instance"
        )
        return Self.injectorBatch(container)
    }

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve(ServiceA.self)) }
            return checksum
        }
    }
}

struct DeclaredTransientGraphCase: ResolutionCase {
    let id = "B"
    let title = "transient graph of 4, declared"
    let target: Double? = 1.3

    func makeBatch(for contender: Contender) throws -> Batch {
        guard contender == .injector else { return try TransientGraphCase().makeBatch(for: contender) }
        let container = InjectorContainer()
        container.register(TreeD.self, TreeDImpl.init)
        container.register(TreeC.self, TreeCImpl.init)
        container.register(TreeB.self, TreeBImpl.init)
        container.register(TreeA.self, TreeAImpl.init)
        try container.finishRegistration()
        try TransientGraphCase.checkTree(try container.resolve(TreeA.self), "Injector")
        return Self.injectorBatch(container)
    }

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve(TreeA.self)) }
            return checksum
        }
    }
}

struct DeclaredGraphDiamondCase: ResolutionCase {
    let id = "D"
    let title = "diamond, all .graph, declared"

    func makeBatch(for contender: Contender) throws -> Batch {
        guard contender == .injector else { return try GraphDiamondCase().makeBatch(for: contender) }
        let container = InjectorContainer()
        container.register(DiamondD.self, scope: .graph, DiamondDImpl.init)
        container.register(DiamondC.self, scope: .graph, DiamondCImpl.init)
        container.register(DiamondB.self, scope: .graph, DiamondBImpl.init)
        container.register(DiamondA.self, scope: .graph, DiamondAImpl.init)
        try container.finishRegistration()
        try Diamond.check(container.resolve(DiamondA.self), container.resolve(DiamondA.self), "Injector")
        return Self.injectorBatch(container)
    }

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve(DiamondA.self)) }
            return checksum
        }
    }
}
