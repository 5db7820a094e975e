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
import Testing

@testable import Injector

// Helpers shared by the test files. The services a suite registers stay private to its file:
// their names appear in the error messages the tests check.

/// Runs `body` and returns the `InjectionError` it threw, or `nil` if it threw nothing.
///
/// Any other error is recorded as an issue (and `nil` returned), so that
/// `try #require(injectionError { … })` fails naming the error that was thrown instead.
func injectionError<T>(
    _ body: () throws -> T,
    sourceLocation: SourceLocation = #_sourceLocation
) -> InjectionError? {
    do {
        _ = try body()
        return nil
    } catch {
        return expectInjectionError(error, sourceLocation: sourceLocation)
    }
}

/// Runs the async `body` and returns the `InjectionError` it threw, or `nil` if it threw nothing;
/// any other error is recorded as an issue, as ``injectionError(_:sourceLocation:)`` does.
func injectionErrorAsync<T>(
    _ body: () async throws -> T,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> InjectionError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return expectInjectionError(error, sourceLocation: sourceLocation)
    }
}

/// How a resolve ended, in a value that can be handed back from another thread: what it resolved,
/// the `InjectionError` it threw, or any other error, described.
enum ResolveResult<Value: Sendable>: Sendable {
    case resolved(Value)
    case failed(InjectionError)
    case failedOtherwise(String)

    /// The outcome of running `body`.
    init(_ body: () throws -> Value) {
        do {
            self = .resolved(try body())
        } catch let error as InjectionError {
            self = .failed(error)
        } catch {
            self = .failedOtherwise("\(type(of: error)): \(error)")
        }
    }
}

/// Runs `body` on a new Foundation thread with `stackSize` bytes of stack, and waits for it without
/// blocking a cooperative thread.
func runOnThread<Result: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = stackSize
        thread.start()
    }
}

/// `error` as an `InjectionError`, or `nil` after recording an issue that names what it is.
private func expectInjectionError(_ error: any Error, sourceLocation: SourceLocation) -> InjectionError? {
    if let error = error as? InjectionError { return error }
    Issue.record("expected an InjectionError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
    return nil
}

/// A disposable service that records its class name in `log` when disposed: subclasses, private to
/// their test file, give the names the tests expect.
class Tracked: Disposable, @unchecked Sendable {  // only `let`s of Sendable types
    let log: EventLog
    init(_ log: EventLog) { self.log = log }
    func dispose() throws { log.record("\(type(of: self))") }
}

/// Receives what a container reports to its diagnostics handler, from any thread.
final class ReceivedProblems: Sendable {
    private let problems = Locked.make([InjectionError]())
    func receive(_ problem: InjectionError) { problems.withLock { $0.append(problem) } }
    var received: [InjectionError] { problems.withLock { $0 } }
}

/// A value behind an `NSLock`, read and written from any thread: what the tests use where they
/// would otherwise use `Synchronization`'s `Mutex` or `Atomic`, which need macOS 15 / iOS 18, above
/// the package's platforms. An `NSLock` is a pthread mutex, which ThreadSanitizer understands (it
/// misreads `Mutex.withLock` on Linux). Independent of the library's own `Locked`, so a test of the
/// library's locking does not lean on it.
final class Guarded<Value>: @unchecked Sendable {  // `value` is only touched under `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    /// The value now.
    var current: Value { withLock { $0 } }

    /// Replaces the value.
    func set(_ newValue: Value) { withLock { $0 = newValue } }
}

extension Guarded where Value == Int {
    /// Adds `amount` and returns the new value.
    @discardableResult
    func add(_ amount: Int) -> Int {
        withLock {
            $0 &+= amount
            return $0
        }
    }
}

/// Counts calls from any thread (factories, hooks, tasks).
final class CallCounter: Sendable {
    private let value = Guarded(0)

    /// Counts one call and returns the new count (1 for the first call), which doubles as a serial
    /// number telling instances apart even after an address is reused.
    @discardableResult
    func next() -> Int { value.add(1) }

    /// The calls counted so far.
    var count: Int { value.current }
}

/// An ordered record of what ran, written from any thread.
final class EventLog: @unchecked Sendable {  // `recorded` is only touched under `lock`
    private let lock = NSLock()
    private var recorded: [String] = []

    func record(_ event: String) { lock.withLock { recorded.append(event) } }

    /// The events recorded so far, in order.
    var events: [String] { lock.withLock { recorded } }

    /// How many times `event` was recorded.
    func count(_ event: String) -> Int { events.filter { $0 == event }.count }

    /// How many times each event was recorded, whatever the order.
    var counts: [String: Int] { events.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
}

/// Keeps a `Resolver` handed to a factory or hook, to use it after its resolution has ended.
final class KeptResolver: @unchecked Sendable {  // `kept` is only touched under `lock`
    private let lock = NSLock()
    private var kept: Resolver?

    func keep(_ resolver: Resolver) { lock.withLock { kept = resolver } }

    /// The resolver kept last, if any.
    var resolver: Resolver? { lock.withLock { kept } }
}

/// A one-shot event that tasks await: `wait()` returns once `signal()` has been called, at once if
/// it already was.
final class Signal: @unchecked Sendable {  // `state` is only touched under `lock`
    private let lock = NSLock()
    private var signalled = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func signal() {
        let waiting: [CheckedContinuation<Void, Never>] = lock.withLock {
            signalled = true
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lock.withLock {
                if !signalled { waiters.append(continuation) }
                return signalled
            }
            if done { continuation.resume() }
        }
    }
}

/// The result of `body`, or `nil` (with an issue recorded) if it has not finished within `seconds`:
/// a hang fails the test instead of the run. `body` is left running then.
///
/// The limit only bounds a hang: a passing test never waits for it. It is generous because the
/// whole suite runs at once on the cooperative pool, whose two threads on a small machine can be
/// busy with other tests for seconds; a limit a starved test can reach fails good code.
func withWatchdog<Result: Sendable>(
    seconds: Double = 30,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> Result
) async -> Result? {
    let finished = FirstOfTwo()
    let result: Result? = await withCheckedContinuation { (continuation: CheckedContinuation<Result?, Never>) in
        let timer = Task {
            // Cancelled once the body has finished: then the body's result must win, even if this
            // task runs before the body's task claims it.
            do { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) } catch { return }
            if finished.claim() { continuation.resume(returning: nil) }
        }
        Task {
            let result = await body()
            timer.cancel()
            if finished.claim() { continuation.resume(returning: result) }
        }
    }
    if result == nil { Issue.record("did not finish within \(seconds) s", sourceLocation: sourceLocation) }
    return result
}

/// Tells the first of two racers that it came first.
private final class FirstOfTwo: Sendable {
    private let done = Guarded(false)

    func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

/// An async disposal that takes a while and says whether a cancellation cut it short: "flushed",
/// or "cancelled".
final class SlowFlush: AsyncDisposable, Sendable {
    let started = Signal()
    let outcome = Guarded("not run")

    func disposeAsync() async throws {
        started.signal()
        do {
            try await Task.sleep(for: .seconds(3))  // so that the cancellation lands during it, even under load
            outcome.set("flushed")
        } catch {
            outcome.set("cancelled")
            throw error
        }
    }
}
