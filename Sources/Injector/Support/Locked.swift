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

import InjectorAtomics

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Mutable state behind a pthread mutex.
///
/// The mutex is tail-allocated in the same object as the state (a ``LockedBuffer``), so its address
/// never moves (a `pthread_mutex_t` stored inline in a Swift property may be moved or copied by the
/// compiler), as swift-nio's `NIOLock` does. pthread mutexes rather than `Synchronization.Mutex`,
/// because ThreadSanitizer on Linux understands them.
///
/// `package`, not internal: the routing layer keeps its route table behind the same lock rather
/// than a second copy of this unsafe code.
package struct Locked<State>: @unchecked Sendable {
    private let storage: LockedBuffer<LockedBufferHeader<Void, State>>

    package static func make(_ state: State) -> Locked<State> {
        Locked(storage: LockedBuffer.make(state, fixed: ()))
    }

    /// Takes the lock; pair with `unlock()`. Prefer `withLock` where the critical section is structured.
    func lock() { storage.lock() }

    /// Releases the lock taken by `lock()`.
    func unlock() { storage.unlock() }

    /// Runs `body` with exclusive access to the state.
    ///
    /// Not for a `Locked<Void>`, whose empty state shares its address with the mutex: use `lock()`
    /// and `unlock()`, or ThreadSanitizer reports the access to the state as a race with `lock()`.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

/// An object holding state and the pthread mutex that guards it, in one allocation: the storage of
/// a ``Locked``, and the base class of the store a lifetime scope makes for every request
/// (`InstanceStore`), which would otherwise cost an object for the store and another for its lock.
/// Beside the mutex, at an address that never moves either, an atomic word its owner reads and
/// writes without the lock (`word`): a lifetime scope's state, which would otherwise cost an
/// allocation of its own.
///
/// Made with `make(_:fixed:)`, on this class or a subclass; a subclass adds no stored
/// property (a `ManagedBuffer`'s cannot): what it keeps goes in `State`, reached under the lock
/// with `withLock(_:)`, or in `Fixed`, set by `make` and read without the lock by the subclass, on
/// its concrete contents (a read through the generic contents copies them whole, state and all).
/// Two parts, not one, so that the lock's exclusive access to the state never overlaps a read of
/// the fixed part (ThreadSanitizer reports an access to a whole struct as overlapping a read of
/// any of its fields, and the language's rules agree).
///
/// The two parts are kept in a struct of the buffer's `Contents` type: a generic
/// ``LockedBufferHeader``, or a struct of a subclass's own, which a subclass made for every request
/// (`InstanceStore`) uses so that freeing it destroys a concrete struct, field by field, rather than
/// through the value witnesses of a generic one and of each of its parts.
///
/// The standard library makes every `ManagedBuffer` non-`Sendable`, subclasses included, so a
/// `Sendable` owner keeps one in a `nonisolated(unsafe) let`: sound, since its state is reached only
/// under its lock, and its fixed part never changes.
@usableFromInline
package class LockedBuffer<Contents: LockedBufferContents>: ManagedBuffer<Contents, LockedBufferTail> {
    package typealias Fixed = Contents.Fixed
    package typealias State = Contents.State

    /// Makes an instance of the class this is called on, holding `state` and `fixed`. (Autoclosures:
    /// the state is made in place, where a value would be copied in, a retain for each reference in
    /// it.)
    @inline(__always)  // its autoclosures inlined too: a request's scope makes a store
    package final class func make(
        _ state: @autoclosure () -> State,
        fixed: @autoclosure () -> Fixed
    ) -> Self {
        let buffer = unsafeDowncast(
            create(minimumCapacity: 1) { _ in Contents(fixed: fixed(), state: state()) },
            to: self
        )
        buffer.withUnsafeMutablePointerToElements { tail in
            injector_atomic_word_init(tail.pointer(to: \.word)!, 0)
            let mutex = tail.pointer(to: \.mutex)!
            #if canImport(Glibc) || canImport(Musl)
            // Default attributes: the value of `PTHREAD_MUTEX_INITIALIZER`, all zeros in glibc and
            // musl, which POSIX makes equivalent to `pthread_mutex_init(mutex, nil)` without its
            // checks (Swift does not import the macro). A request's scope makes one.
            mutex.initialize(to: pthread_mutex_t())
            #else
            // Default attributes: no attribute object to make and destroy.
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed with \(status)")
            #endif
        }
        return buffer
    }

    deinit {
        pthread_mutex_destroy(mutex)
    }

    /// The mutex, first in the tail.
    private final var mutex: UnsafeMutablePointer<pthread_mutex_t> {
        withUnsafeMutablePointerToElements { $0.pointer(to: \.mutex)! }
    }

    /// The word beside the mutex, 0 when made: valid while the buffer lives, reached only atomically.
    final var word: AtomicWord<Int> {
        withUnsafeMutablePointerToElements { AtomicWord(address: $0.pointer(to: \.word)!) }
    }

    /// Takes the lock; pair with `unlock()`. Prefer `withLock` where the critical section is structured.
    final func lock() {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed with \(status)")
    }

    /// Releases the lock taken by `lock()`.
    final func unlock() {
        let status = pthread_mutex_unlock(mutex)
        precondition(status == 0, "pthread_mutex_unlock failed with \(status)")
    }

    /// Runs `body` with exclusive access to the state.
    final func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try withUnsafeMutablePointerToHeader { try body(&$0.pointee.state) }
    }
}

/// What a ``LockedBuffer`` holds besides its mutex: a fixed part, set by `make` and never changed,
/// read without the lock, and a state, reached under it. Stored properties, both: the state is
/// reached apart from the fixed part.
@usableFromInline
package protocol LockedBufferContents {
    associatedtype Fixed
    associatedtype State
    init(fixed: Fixed, state: State)
    var state: State { get set }
}

/// What a ``LockedBuffer`` holds besides its mutex, for any fixed part and state.
package struct LockedBufferHeader<Fixed, State>: LockedBufferContents {
    /// Set by `make`, never changed: read without the lock.
    package let fixed: Fixed
    /// Reached under the lock.
    package var state: State

    package init(fixed: Fixed, state: State) {
        self.fixed = fixed
        self.state = state
    }
}

/// What a ``LockedBuffer`` keeps after its contents: the mutex, then its owner's atomic word.
@usableFromInline
package struct LockedBufferTail {
    var mutex: pthread_mutex_t
    var word: injector_atomic_word
}
