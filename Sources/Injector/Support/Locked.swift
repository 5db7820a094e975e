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

/// Mutable state behind a pthread mutex.
///
/// The mutex is tail-allocated in the same object as the state, so its address never moves (a
/// `pthread_mutex_t` stored inline in a Swift property may be moved or copied by the compiler), as
/// swift-nio's `NIOLock` does. pthread mutexes rather than `Synchronization.Mutex`, because
/// ThreadSanitizer on Linux understands them. The recursive variant serves singleton construction,
/// where a factory on the lock-holding thread builds further singletons.
///
/// `package`, not internal: the routing layer keeps its route table behind the same lock rather
/// than a second copy of this unsafe code.
@usableFromInline
package struct Locked<State>: @unchecked Sendable {
    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    package static func make(_ state: State, recursive: Bool = false) -> Locked<State> {
        let storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in state }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            guard recursive else {
                // Default attributes: no attribute object to make and destroy (a request's scope
                // makes two of these locks).
                let status = pthread_mutex_init(mutex, nil)
                precondition(status == 0, "pthread_mutex_init failed with \(status)")
                return
            }
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            let status = pthread_mutex_init(mutex, &attributes)
            precondition(status == 0, "pthread_mutex_init failed with \(status)")
            pthread_mutexattr_destroy(&attributes)
        }
        return Locked(storage: storage)
    }

    /// Identifies the lock: copies of one `Locked` share it.
    var identity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// Takes the lock; pair with `unlock()`. Prefer `withLock` where the critical section is structured.
    func lock() {
        let status = storage.withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
        precondition(status == 0, "pthread_mutex_lock failed with \(status)")
    }

    /// Releases the lock taken by `lock()`.
    func unlock() {
        let status = storage.withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
        precondition(status == 0, "pthread_mutex_unlock failed with \(status)")
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// Not for a `Locked<Void>`, whose empty state shares its address with the mutex: use `lock()`
    /// and `unlock()`, or ThreadSanitizer reports the access to the state as a race with `lock()`.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try storage.withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
    }
}
