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

import Dispatch
import Foundation
import Injector
import Testing

// Helpers for tests where threads and tasks race: outcomes recorded from anywhere, bounded waits,
// and threads of their own under a watchdog.

/// What one resolve gave: the type of the instance, or the injection error.
typealias ResolveOutcome = Result<String, InjectionError>

/// Runs an async resolve and records what it gave.
func outcome(_ body: () async throws -> Any) async -> ResolveOutcome {
    do {
        return .success("\(type(of: try await body()))")
    } catch let error as InjectionError {
        return .failure(error)
    } catch {
        return .success("unexpected \(error)")
    }
}

/// Runs a sync resolve and records what it gave.
func syncOutcome(_ body: () throws -> Any) -> ResolveOutcome {
    do {
        return .success("\(type(of: try body()))")
    } catch let error as InjectionError {
        return .failure(error)
    } catch {
        return .success("unexpected \(error)")
    }
}

/// The errors among `outcomes`.
func failures(_ outcomes: [ResolveOutcome]) -> [InjectionError] {
    outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
}

/// The outcome of each thread's resolve, recorded from any thread.
final class Outcomes: @unchecked Sendable {  // `recorded` is only touched under `lock`
    private let lock = NSLock()
    private var recorded: [ResolveOutcome] = []

    func record(_ body: () throws -> Any) { add(syncOutcome(body)) }

    func add(_ outcome: ResolveOutcome) { lock.withLock { recorded.append(outcome) } }

    var all: [ResolveOutcome] { lock.withLock { recorded } }
    var errors: [InjectionError] { failures(all) }
    var values: [String] { all.compactMap { if case .success(let value) = $0 { value } else { nil } } }
}

/// Runs each body on a thread of its own (not the cooperative pool, which blocking would starve),
/// with `stackSize` bytes of stack, and returns whether all of them ended within `seconds`; a
/// watchdog fails the test otherwise.
func onThreads(
    seconds: Double = 30,
    stackSize: Int = 1 << 20,
    _ bodies: [@Sendable () -> Void]
) async -> Bool {
    let done = bodies.map { _ in Signal() }
    for (body, signal) in zip(bodies, done) {
        let thread = Thread {
            body()
            signal.signal()
        }
        thread.stackSize = stackSize
        thread.start()
    }
    return await withWatchdog(seconds: seconds) {
        for signal in done { await signal.wait() }
        return true
    } ?? false
}

/// Waits (blocking) for `semaphore` at most `seconds`; whether it was signalled.
///
/// The limit, like those of `waitedUntil` and `awaitedUntil`, only bounds a broken test: what is
/// waited for is often a task of the cooperative pool, whose two threads on a small machine can be
/// busy with other tests for seconds (see `withWatchdog`). A limit a starved test can reach makes a
/// factory go on before the other side arrived, and fails good code.
func waited(for semaphore: DispatchSemaphore, seconds: Double = 30) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

/// Waits (suspending) until `signal` was given, at most `seconds` (see `withWatchdog`); whether it
/// was.
func awaited(
    _ signal: Signal,
    seconds: Double = 30,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
    await withWatchdog(seconds: seconds, sourceLocation: sourceLocation) {
        await signal.wait()
        return true
    } ?? false
}

/// Waits (blocking) until `condition` holds, checking it every millisecond, at most `seconds`;
/// whether it held. For a thread of a test's own that must not go on until another has reached a
/// point only the library sees (say, a wait at a gate): the condition decides, not the time.
func waitedUntil(seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        guard Date() < deadline else { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}

/// Waits (suspending, not blocking a thread of the cooperative pool) until `condition` holds,
/// checking it every millisecond, at most `seconds`; whether it held.
func awaitedUntil(seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(seconds))
    while !condition() {
        guard clock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Runs each job of the tasks that prefer it on a thread of its own: tasks that block their thread
/// (waiting at a sync gate) then do not starve the cooperative pool, which has two threads here.
final class ThreadPerJobExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
