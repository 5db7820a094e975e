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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The gates of sync shared constructions: one per instance slot (a singleton or weak
/// registration's slot, or a registration's place in a store), held by the thread whose resolution
/// builds the instance until that resolution ends and publishes it. Only threads that need the same
/// instance wait for each other; unrelated constructions proceed in parallel.
///
/// A gate is taken again without waiting by the thread that holds it (a resolution nested in the
/// one building, through a captured container). Every thread waiting at a gate is recorded with the
/// gate and its resolution path, so that a thread about to wait first follows the chain of waits
/// from the gate's holder: if it leads back to itself, the wait could never end, and it is refused
/// with ``InjectionError/Code/circularWait`` naming each resolution's path instead. The last thread
/// to close such a cycle is the one that finds it, since each one records its wait before blocking.
///
/// A thread waiting for a sync resolution that is part of an async one (an async resolve that met a
/// sync shared instance) stops waiting when its task is cancelled, as an async wait does. It checks
/// for cancellation every 10 ms while it waits, since sync code cannot install a cancellation
/// handler.
///
/// One table for the whole process, behind one lock held only for bookkeeping, never while a
/// factory runs: a wait-for cycle may pass through several containers.
enum InstanceGates {
    typealias Key = ResolutionContext.SharedInstanceKey

    private struct Holding {
        let thread: UInt
        var count: Int
    }

    /// A thread waiting at a gate: what it asked for and its path, for the message of a cycle.
    private struct Wait {
        let gate: Key
        let asked: ServiceKey
        let path: [ServiceKey]
        let signal: ThreadSignal
    }

    private struct State {
        var holders: [Key: Holding] = [:]
        var waits: [UInt: Wait] = [:]
    }

    private static let state = Locked.make(State())

    /// Takes the gate of `key` for the calling thread, waiting while another thread holds it.
    ///
    /// - Parameters:
    ///   - asked: The service the caller is resolving, for the message of a cycle.
    ///   - path: The caller's resolution path, up to and including `asked`.
    ///   - stopsWhenCancelled: Whether the caller stops waiting when its task is cancelled (a sync
    ///     resolution that is part of an async one).
    /// - Throws: ``InjectionError/Code/circularWait`` when the holder waits, directly or through
    ///   other threads, for a gate the calling thread holds;
    ///   ``InjectionError/Code/resolutionCancelled`` when the caller stops waiting when cancelled,
    ///   and its task is cancelled before the gate is free.
    static func enter(
        _ key: Key,
        asking asked: ServiceKey,
        path: () -> [ServiceKey],
        stopsWhenCancelled: Bool
    ) throws {
        let thread = currentThread
        var waitingPath: [ServiceKey]?
        while true {
            let outcome: Outcome = state.withLock { state in
                state.waits[thread] = nil
                guard let holding = state.holders[key] else {
                    state.holders[key] = Holding(thread: thread, count: 1)
                    return .taken
                }
                if holding.thread == thread {
                    state.holders[key]!.count += 1
                    return .taken
                }
                let ownPath = waitingPath ?? path()
                waitingPath = ownPath
                if let others = cycle(from: holding.thread, back: thread, in: state) {
                    return .cycle(others)
                }
                let signal = ThreadSignal()
                state.waits[thread] = Wait(gate: key, asked: asked, path: ownPath, signal: signal)
                return .wait(signal)
            }
            switch outcome {
            case .taken:
                return
            case .wait(let signal):
                guard stopsWhenCancelled else {
                    signal.wait()
                    continue
                }
                if !wait(for: signal, unlessCancelled: thread) {
                    throw InjectionError.resolutionCancelled(
                        asked,
                        path: waitingPath ?? path(),
                        at: key.isRealm ? .awaitingTurn : .whileAnotherBuilds
                    )
                }
            case .cycle(let others):
                throw InjectionError.circularWait(
                    asked,
                    path: waitingPath ?? path(),
                    atRealm: key.isRealm,
                    waitingFor: others.map { ($0.asked, $0.path, $0.gate.isRealm) },
                    between: "thread"
                )
            }
        }
    }

    /// Waits for `signal`, checking every 10 ms whether the calling task is cancelled: then takes
    /// `thread`'s wait out of the table and returns `false`.
    private static func wait(for signal: ThreadSignal, unlessCancelled thread: UInt) -> Bool {
        while !Task.isCancelled {
            if signal.wait(nanoseconds: 10_000_000) { return true }
        }
        state.withLock { state in
            if state.waits[thread]?.signal === signal { state.waits[thread] = nil }
        }
        return false
    }

    /// Records that `holder` holds the gate of `key`, taken `count` times, for a gate an
    /// `InstanceStore` kept until another thread came to wait at it: from now on, this table keeps
    /// it (see `InstanceStore.enter`), so that the wait is recorded and searched for cycles.
    static func adopt(_ key: Key, heldBy holder: UInt, count: Int) {
        state.withLock { state in
            precondition(state.holders[key] == nil, "a store's gate is adopted once, while no one else holds it")
            state.holders[key] = Holding(thread: holder, count: count)
        }
    }

    /// Releases the gate of `key` the calling thread took once, waking the threads waiting at it
    /// when it is free.
    static func leave(_ key: Key) {
        let woken: [ThreadSignal] = state.withLock { state in
            guard var holding = state.holders[key] else { return [] }
            holding.count -= 1
            guard holding.count == 0 else {
                state.holders[key] = holding
                return []
            }
            state.holders[key] = nil
            return state.waits.values.filter { $0.gate == key }.map(\.signal)
        }
        for signal in woken { signal.signal() }
    }

    /// What each thread now waiting at a gate that `holder` holds asked for; empty when none waits.
    ///
    /// For tests only, which poll it to let a factory go on only once another thread waits at its
    /// gate (a store's gate is here only once a second thread came to wait at it): no resolution
    /// calls it, so it costs them nothing.
    static func waits(forGatesHeldBy holder: UInt) -> [ServiceKey] {
        state.withLock { state in
            state.waits.values.filter { state.holders[$0.gate]?.thread == holder }.map(\.asked)
        }
    }

    private enum Outcome {
        case taken
        case wait(ThreadSignal)
        case cycle([Wait])
    }

    /// The waits that lead from `holder` back to `thread` (each thread waiting at a gate the next
    /// one holds), or `nil` when they do not: then waiting cannot close a cycle.
    private static func cycle(from holder: UInt, back thread: UInt, in state: State) -> [Wait]? {
        var chain: [Wait] = []
        var current = holder
        while chain.count <= state.waits.count, let wait = state.waits[current] {
            chain.append(wait)
            guard let next = state.holders[wait.gate]?.thread else { return nil }
            if next == thread { return chain }
            current = next
        }
        return nil
    }

    /// The calling thread, as gates record their holders.
    static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}

/// Wakes one waiting thread: a flag behind a pthread mutex and condition variable (which
/// ThreadSanitizer understands). A signal given before the wait is not lost.
private final class ThreadSignal: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var signalled = false  // guarded by `mutex`

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Blocks the thread until `signal()` is called (at once, if it was already).
    func wait() {
        pthread_mutex_lock(mutex)
        while !signalled { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Blocks the thread until `signal()` is called or `nanoseconds` have passed; returns whether
    /// `signal()` was called.
    func wait(nanoseconds: Int) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)  // the clock `pthread_cond_timedwait` reads
        let total = Int(deadline.tv_nsec) + nanoseconds
        deadline.tv_sec += total / 1_000_000_000
        deadline.tv_nsec = .init(total % 1_000_000_000)
        pthread_mutex_lock(mutex)
        while !signalled, pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT {}
        let signalled = signalled
        pthread_mutex_unlock(mutex)
        return signalled
    }

    func signal() {
        pthread_mutex_lock(mutex)
        signalled = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}
