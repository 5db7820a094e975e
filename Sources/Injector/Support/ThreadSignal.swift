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

/// Wakes one waiting thread: a flag behind a pthread mutex and condition variable (which
/// ThreadSanitizer understands). A signal given before the wait is not lost.
final class ThreadSignal: @unchecked Sendable {
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
