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

// E. A service with two resolve-time arguments (an Int and a String).

protocol ArgumentService: AnyObject {
    var id: Int { get }
    var title: String { get }
}

final class ArgumentServiceImpl: ArgumentService {
    let id: Int
    let title: String
    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// Direct construction: the arguments passed to the initialiser, the service returned as the
/// protocol from a function the optimiser cannot see into.
@inline(never)
func makeArgumentServiceDirectly(id: Int, title: String) -> any ArgumentService {
    ArgumentServiceImpl(id: id, title: title)
}

/// Closure wiring: a factory closure taking the two arguments.
struct ClosureWiredArguments {
    var make: (Int, String) -> any ArgumentService
}

@inline(never)
func makeClosureWiredArguments() -> ClosureWiredArguments {
    ClosureWiredArguments(make: { ArgumentServiceImpl(id: $0, title: $1) })
}

struct ArgumentsCase: ResolutionCase {
    let id = "E"
    let title = "2 resolve-time arguments (Int, String)"
    let target: Double? = 2

    /// Short enough to be stored inline in the `String` (no allocation for any contender).
    private static let argumentTitle = "title"

    func makeBatch(for contender: Contender) throws -> Batch {
        let title = Self.argumentTitle
        switch contender {
        case .injector:
            let container = InjectorContainer()
            container.register(ArgumentService.self) { (_, id: Int, title: String) in
                ArgumentServiceImpl(id: id, title: title)
            }
            try container.finishRegistration()
            try checkArguments(container.resolve(ArgumentService.self, arguments: 7, title), "Injector")
            return Self.injectorBatch(container, title)
        case .swinject:
            let container = SwinjectContainer()
            container.register(ArgumentService.self) { (_, id: Int, title: String) in
                ArgumentServiceImpl(id: id, title: title)
            }.inObjectScope(.transient)
            try checkArguments(required(container.resolve(ArgumentService.self, arguments: 7, title)), "Swinject")
            return Self.swinjectBatch(container, title)
        case .direct:
            try checkArguments(makeArgumentServiceDirectly(id: 7, title: title), "Direct")
            return Self.directBatch(title)
        case .closureWired:
            let wiring = makeClosureWiredArguments()
            try checkArguments(wiring.make(7, title), "Closure-wired")
            return Self.closureWiredBatch(wiring, title)
        }
    }

    // One function per contender, so that a profiler can name each batch.

    private static func injectorBatch(_ container: InjectorContainer, _ title: String) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for i in 0..<iterations {
                checksum &+= identity(try container.resolve(ArgumentService.self, arguments: i, title))
            }
            return checksum
        }
    }

    private static func swinjectBatch(_ container: SwinjectContainer, _ title: String) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for i in 0..<iterations {
                checksum &+= identity(try required(container.resolve(ArgumentService.self, arguments: i, title)))
            }
            return checksum
        }
    }

    private static func directBatch(_ title: String) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for i in 0..<iterations { checksum &+= identity(makeArgumentServiceDirectly(id: i, title: title)) }
            return checksum
        }
    }

    private static func closureWiredBatch(_ wiring: ClosureWiredArguments, _ title: String) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for i in 0..<iterations { checksum &+= identity(wiring.make(i, title)) }
            return checksum
        }
    }

    private func checkArguments(_ service: any ArgumentService, _ who: String) throws {
        try check(service.id == 7 && service.title == Self.argumentTitle, "\(who): arguments did not reach the factory")
    }
}
