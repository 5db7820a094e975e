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
import Injector
import Synchronization

// Each endpoint's request opens a scope and resolves its endpoint: a scoped service holding a
// `.weak` helper (rebuilt for each request, since the request's scope is the only holder) and three
// scoped workers that each do a little CPU work in their factories. The two endpoints share no
// registration. Wall time of the same number of requests per thread (per task) is compared.

let sink = Atomic<Int>(0)

/// Whether a worker's factory waits (as for I/O) rather than computes: with `WORK=sleep`, the
/// figures show how much construction is serialised whatever the machine's load.
let sleeps = ProcessInfo.processInfo.environment["WORK"] == "sleep"

/// About 50 µs of CPU work, or a 200 µs wait.
func work() {
    if sleeps {
        usleep(200)
        return
    }
    var x = 0
    for i in 0..<60_000 { x = x &* 31 &+ i }
    sink.wrappingAdd(x & 1, ordering: .relaxed)
}

final class Helper: Sendable {}
final class Worker: Sendable {
    init() { work() }
}
final class Endpoint: Sendable {
    let helper: Helper
    let workers: [Worker]
    init(helper: Helper, workers: [Worker]) {
        self.helper = helper
        self.workers = workers
    }
}

/// Registers endpoint `name`: sync factories, or async ones (the helper and endpoint async).
func registerEndpoint(_ name: String, in container: Container, async: Bool) {
    for index in 0..<3 {
        container.register(Worker.self, name: "\(name)-\(index)", scope: .scoped) { _ in Worker() }
    }
    if async {
        container.register(Helper.self, name: name, scope: .weak) { _ async in Helper() }
        container.register(Endpoint.self, name: name, scope: .scoped) { r async throws in
            let helper = try await r.resolveAsync(Helper.self, name: name)
            let workers = try (0..<3).map { try r.resolve(Worker.self, name: "\(name)-\($0)") }
            return Endpoint(helper: helper, workers: workers)
        }
    } else {
        container.register(Helper.self, name: name, scope: .weak) { _ in Helper() }
        container.register(Endpoint.self, name: name, scope: .scoped) { r in
            let helper = try r.resolve(Helper.self, name: name)
            let workers = try (0..<3).map { try r.resolve(Worker.self, name: "\(name)-\($0)") }
            return Endpoint(helper: helper, workers: workers)
        }
    }
}

let requests = sleeps ? 200 : 2_000
let endpoints = ["a", "b", "c", "d", "e", "f", "g", "h"]

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

/// Serves `requests` requests of `endpoint` on the calling thread.
func serve(_ endpoint: String, from container: Container) throws {
    for _ in 0..<requests {
        let scope = container.makeScope()
        _ = try scope.resolve(Endpoint.self, name: endpoint)
        try scope.close()
    }
}

/// Serves `requests` requests of `endpoint` in the calling task.
func serveAsync(_ endpoint: String, from container: Container) async throws {
    for _ in 0..<requests {
        let scope = container.makeScope()
        _ = try await scope.resolveAsync(Endpoint.self, name: endpoint)
        try await scope.closeAsync()
    }
}

/// Wall time of `count` threads, each serving its own endpoint.
func threads(_ count: Int, container: Container) async -> Double {
    await seconds {
        let group = DispatchGroup()
        for endpoint in endpoints.prefix(count) {
            group.enter()
            Thread {
                try! serve(endpoint, from: container)
                group.leave()
            }.start()
        }
        group.wait()
    }
}

/// Wall time of `count` tasks, each serving its own endpoint.
func tasks(_ count: Int, container: Container) async throws -> Double {
    try await seconds {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for endpoint in endpoints.prefix(count) {
                group.addTask { try await serveAsync(endpoint, from: container) }
            }
            try await group.waitForAll()
        }
    }
}

func best(of runs: Int, _ body: () async throws -> Double) async rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs { times.append(try await body()) }
    return times.min()!
}

let sync = Container()
let asyncContainer = Container()
for endpoint in endpoints {
    registerEndpoint(endpoint, in: sync, async: false)
    registerEndpoint(endpoint, in: asyncContainer, async: true)
}
try sync.finishRegistration()
try asyncContainer.finishRegistration()
_ = await threads(2, container: sync)  // warm up

let cores = ProcessInfo.processInfo.activeProcessorCount
print("cores: \(cores), work: \(sleeps ? "sleep" : "cpu"), \(requests) requests per thread or task")
let one = await best(of: 5) { await threads(1, container: sync) }
let two = await best(of: 5) { await threads(2, container: sync) }
print(String(format: "sync threads      1: %.3f s  2: %.3f s  ratio 2/1: %.2f", one, two, two / one))
for (name, container) in [("sync regs, ", sync), ("async regs,", asyncContainer)] {
    let one = try await best(of: 5) { try await tasks(1, container: container) }
    let two = try await best(of: 5) { try await tasks(2, container: container) }
    let eight = try await best(of: 5) { try await tasks(8, container: container) }
    print(
        name
            + String(
                format:
                    " tasks 1: %.3f s  2: %.3f s  8: %.3f s  ratio 2/1: %.2f  8/1: %.2f (%d cores: %.2f is perfect)",
                one,
                two,
                eight,
                two / one,
                eight / one,
                cores,
                8 / Double(min(cores, 8))
            )
    )
}
