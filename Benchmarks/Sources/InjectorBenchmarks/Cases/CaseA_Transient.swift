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

// A. A transient service without dependencies: the fixed cost of one resolve.

protocol ServiceA: AnyObject {}
final class ServiceAImpl: ServiceA {}

/// Direct construction: what a person writes, returned as the protocol from a function the
/// optimiser cannot see into.
@inline(never)
func makeServiceADirectly() -> any ServiceA {
    ServiceAImpl()
}

/// Closure wiring: a factory closure, made by a function the optimiser cannot see into.
struct ClosureWiredA {
    var makeA: () -> any ServiceA
}

@inline(never)
func makeClosureWiredA() -> ClosureWiredA {
    ClosureWiredA(makeA: { ServiceAImpl() })
}

struct TransientCase: ResolutionCase {
    let id = "A"
    let title = "transient, no dependencies"
    let target: Double? = 2

    func makeBatch(for contender: Contender) throws -> Batch {
        switch contender {
        case .injector:
            let container = InjectorContainer()
            container.register(ServiceA.self) { _ in ServiceAImpl() }
            try container.finishRegistration()
            try check(
                try container.resolve(ServiceA.self) !== container.resolve(ServiceA.self),
                "Injector: transient A resolved twice gave one instance"
            )
            return Self.injectorBatch(container)
        case .swinject:
            let container = SwinjectContainer()
            container.register(ServiceA.self) { _ in ServiceAImpl() }.inObjectScope(.transient)
            try check(
                try required(container.resolve(ServiceA.self)) !== required(container.resolve(ServiceA.self)),
                "Swinject: transient A resolved twice gave one instance"
            )
            return Self.swinjectBatch(container)
        case .direct:
            try check(
                makeServiceADirectly() is ServiceAImpl && makeServiceADirectly() !== makeServiceADirectly(),
                "Direct: not two ServiceAImpls"
            )
            return Self.directBatch()
        case .closureWired:
            let wiring = makeClosureWiredA()
            try check(wiring.makeA() !== wiring.makeA(), "Closure-wired: A made twice gave one instance")
            return Self.closureWiredBatch(wiring)
        }
    }

    // One function per contender, so that a profiler can name each batch.

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve(ServiceA.self)) }
            return checksum
        }
    }

    private static func swinjectBatch(_ container: SwinjectContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try required(container.resolve(ServiceA.self))) }
            return checksum
        }
    }

    private static func directBatch() -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(makeServiceADirectly()) }
            return checksum
        }
    }

    private static func closureWiredBatch(_ wiring: ClosureWiredA) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(wiring.makeA()) }
            return checksum
        }
    }
}
