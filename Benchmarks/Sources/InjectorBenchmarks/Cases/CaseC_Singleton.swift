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

/// Hand-written wiring: an accessor closure returning an instance made at start-up.
struct HandWiredShared {
    var shared: () -> any SharedService
}

@inline(never)
func makeHandWiredShared() -> HandWiredShared {
    let instance = SharedServiceImpl()
    return HandWiredShared(shared: { instance })
}

struct SingletonCase: ResolutionCase {
    let id = "C"
    let title = "existing singleton"

    func makeBatch(for contender: Contender) throws -> Batch {
        switch contender {
        case .injector:
            let container = InjectorContainer()
            container.register(SharedService.self, scope: .singleton) { _ in SharedServiceImpl() }
            try container.finishRegistration()
            let first = try container.resolve(SharedService.self)  // created before timing
            try check(first === container.resolve(SharedService.self), "Injector: singleton made twice")
            return { iterations in
                var checksum: UInt = 0
                for _ in 0..<iterations { checksum &+= identity(try container.resolve(SharedService.self)) }
                return checksum
            }
        case .swinject:
            let container = SwinjectContainer()
            container.register(SharedService.self) { _ in SharedServiceImpl() }.inObjectScope(.container)
            let first = try required(container.resolve(SharedService.self))
            try check(first === required(container.resolve(SharedService.self)), "Swinject: singleton made twice")
            return { iterations in
                var checksum: UInt = 0
                for _ in 0..<iterations { checksum &+= identity(try required(container.resolve(SharedService.self))) }
                return checksum
            }
        case .handWritten:
            let wiring = makeHandWiredShared()
            return { iterations in
                var checksum: UInt = 0
                for _ in 0..<iterations { checksum &+= identity(wiring.shared()) }
                return checksum
            }
        }
    }
}
