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

// C. A singleton that already exists: the cost of a cached hit.

protocol SharedService: AnyObject, Sendable {}
final class SharedServiceImpl: SharedService {}

/// Direct construction's singleton: an instance made at start-up and kept where a person keeps it,
/// in a stored property of the app's composition root (an object).
final class DirectSingleton: Sendable {
    let instance: any SharedService = SharedServiceImpl()
}

/// Reading the stored instance, returned through the protocol (+1, as a resolve returns it) from a
/// function the optimiser cannot see into. Without `owned2guarantee.never` the optimiser returns
/// the instance at +0, finds the call free of effects and hoists it out of the timed loop: the
/// batch then times nothing (callgrind saw one call per batch).
@inline(never)
@_semantics("optimize.sil.specialize.owned2guarantee.never")
func sharedServiceDirectly(_ root: DirectSingleton) -> any SharedService {
    root.instance
}

/// Closure wiring: an accessor closure returning an instance made at start-up.
struct ClosureWiredShared {
    var shared: () -> any SharedService
}

@inline(never)
func makeClosureWiredShared() -> ClosureWiredShared {
    let instance = SharedServiceImpl()
    return ClosureWiredShared(shared: { instance })
}

struct SingletonCase: ResolutionCase {
    let id = "C"
    let title = "existing singleton"
    let target: Double? = 1.5

    func makeBatch(for contender: Contender) throws -> Batch {
        switch contender {
        case .injector:
            let container = InjectorContainer()
            container.register(SharedService.self, scope: .singleton) { _ in SharedServiceImpl() }
            try container.finishRegistration()
            let first = try container.resolve(SharedService.self)  // created before timing
            try check(first === container.resolve(SharedService.self), "Injector: singleton made twice")
            return Self.injectorBatch(container)
        case .swinject:
            let container = SwinjectContainer()
            container.register(SharedService.self) { _ in SharedServiceImpl() }.inObjectScope(.container)
            let first = try required(container.resolve(SharedService.self))
            try check(first === required(container.resolve(SharedService.self)), "Swinject: singleton made twice")
            return Self.swinjectBatch(container)
        case .direct:
            let root = DirectSingleton()
            try check(sharedServiceDirectly(root) === sharedServiceDirectly(root), "Direct: singleton made twice")
            return Self.directBatch(root)
        case .closureWired:
            let wiring = makeClosureWiredShared()
            try check(wiring.shared() === wiring.shared(), "Closure-wired: singleton made twice")
            return Self.closureWiredBatch(wiring)
        }
    }

    // One function per contender, so that a profiler can name each batch.

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve(SharedService.self)) }
            return checksum
        }
    }

    private static func swinjectBatch(_ container: SwinjectContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try required(container.resolve(SharedService.self))) }
            return checksum
        }
    }

    private static func directBatch(_ root: DirectSingleton) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(sharedServiceDirectly(root)) }
            return checksum
        }
    }

    private static func closureWiredBatch(_ wiring: ClosureWiredShared) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(wiring.shared()) }
            return checksum
        }
    }
}
