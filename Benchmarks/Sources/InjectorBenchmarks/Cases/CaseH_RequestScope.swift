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

// H. One request: open a scope, resolve a handler twice (a transient depending on the request's
// scoped context and on a singleton), close the scope, disposing the context.

final class RequestState: Disposable {
    private(set) var isDisposed = false
    func dispose() { isDisposed = true }
}

final class RequestHandler {
    let state: RequestState
    let shared: any SharedService
    init(state: RequestState, shared: any SharedService) {
        self.state = state
        self.shared = shared
    }
}

/// Swinject's per-request storage: a custom object scope, reset after each request.
extension ObjectScope {
    static let benchmarkRequest = ObjectScope(storageFactory: PermanentStorage.init, description: "request")
}

/// Direct construction: what a person writes by hand for a request. The request's state is made at
/// its start and passed to both handlers, the singleton is the one stored at start-up (case C's
/// ``DirectSingleton``), and the state is disposed at the end. Out of line, the handlers returned,
/// so the optimiser can neither delete the work nor keep the objects on the stack.
@inline(never)
func handleRequestDirectly(_ root: DirectSingleton) -> (RequestHandler, RequestHandler) {
    let state = RequestState()
    defer { state.dispose() }
    return (RequestHandler(state: state, shared: root.instance), RequestHandler(state: state, shared: root.instance))
}

/// Closure wiring: a closure for the request's state, and one for a handler given the state; the
/// request's end disposes the state.
struct ClosureWiredRequests {
    var makeState: () -> RequestState
    var makeHandler: (RequestState) -> RequestHandler

    func handle() -> (RequestHandler, RequestHandler) {
        let state = makeState()
        defer { state.dispose() }
        return (makeHandler(state), makeHandler(state))
    }
}

@inline(never)
func makeClosureWiredRequests() -> ClosureWiredRequests {
    let shared: any SharedService = SharedServiceImpl()
    return ClosureWiredRequests(
        makeState: { RequestState() },
        makeHandler: { RequestHandler(state: $0, shared: shared) }
    )
}

struct RequestScopeCase: ResolutionCase {
    let id = "H"
    let title = "request scope: open, 2 resolves, close"

    func makeBatch(for contender: Contender) throws -> Batch {
        switch contender {
        case .injector:
            let container = InjectorContainer()
            container.register(SharedService.self, scope: .singleton) { _ in SharedServiceImpl() }
            container.register(RequestState.self, scope: .scoped) { _ in RequestState() }
            container.register(RequestHandler.self) { r in
                try RequestHandler(state: r.resolve(RequestState.self), shared: r.resolve(SharedService.self))
            }
            try container.finishRegistration()
            try checkRequest {
                let scope = container.makeScope()
                let handlers = try (scope.resolve(RequestHandler.self), scope.resolve(RequestHandler.self))
                try scope.close()
                return handlers
            }
            return Self.injectorBatch(container)
        case .swinject:
            let container = SwinjectContainer()
            container.register(SharedService.self) { _ in SharedServiceImpl() }.inObjectScope(.container)
            container.register(RequestState.self) { _ in RequestState() }.inObjectScope(.benchmarkRequest)
            container.register(RequestHandler.self) { r in
                RequestHandler(state: r.resolve(RequestState.self)!, shared: r.resolve(SharedService.self)!)
            }.inObjectScope(.transient)
            try checkRequest {
                let handlers = try (
                    required(container.resolve(RequestHandler.self)), required(container.resolve(RequestHandler.self))
                )
                handlers.0.state.dispose()  // Swinject has no disposal: the request's end does it by hand
                container.resetObjectScope(.benchmarkRequest)
                return handlers
            }
            return Self.swinjectBatch(container)
        case .direct:
            let root = DirectSingleton()
            try checkRequest { handleRequestDirectly(root) }
            return Self.directBatch(root)
        case .closureWired:
            let wiring = makeClosureWiredRequests()
            try checkRequest { wiring.handle() }
            return Self.closureWiredBatch(wiring)
        }
    }

    // One function per contender, so that a profiler can name each batch.

    private static func injectorBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations {
                let scope = container.makeScope()
                checksum &+= identity(try scope.resolve(RequestHandler.self))
                checksum &+= identity(try scope.resolve(RequestHandler.self))
                try scope.close()
            }
            return checksum
        }
    }

    private static func swinjectBatch(_ container: SwinjectContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations {
                let first = try required(container.resolve(RequestHandler.self))
                checksum &+= identity(first)
                checksum &+= identity(try required(container.resolve(RequestHandler.self)))
                first.state.dispose()
                container.resetObjectScope(.benchmarkRequest)
            }
            return checksum
        }
    }

    private static func directBatch(_ root: DirectSingleton) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations {
                let (first, second) = handleRequestDirectly(root)
                checksum &+= identity(first) &+ identity(second)
            }
            return checksum
        }
    }

    private static func closureWiredBatch(_ wiring: ClosureWiredRequests) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations {
                let (first, second) = wiring.handle()
                checksum &+= identity(first) &+ identity(second)
            }
            return checksum
        }
    }

    /// Checks that one request shares its state between handlers and disposes it at the end.
    private func checkRequest(_ request: () throws -> (RequestHandler, RequestHandler)) throws {
        let (first, second) = try request()
        try check(first !== second, "handlers are transient")
        try check(first.state === second.state, "one request shares its state")
        try check(first.state.isDisposed, "the request's state is disposed at its end")
        let (next, _) = try request()
        try check(next.state !== first.state, "each request has its own state")
    }
}
