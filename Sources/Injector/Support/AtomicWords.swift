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

// The one home of Injector's atomics: every atomic operation, and the memory it works on, is here.

import InjectorAtomics

/// Pointer-sized words read and written atomically, in one allocation of their own: the state
/// Injector keeps without a lock.
///
/// The words are the C11 atomics of the `InjectorAtomics` target, which need no more than the
/// platforms Injector supports (the standard library's `Synchronization` needs macOS 15 and iOS 18),
/// and which ThreadSanitizer understands. A C atomic needs an address that never moves, which a Swift
/// stored property does not promise: the words live in memory allocated for them, freed with this
/// value. An owner keeps all the words it needs in one `AtomicWords`, a `let` (one allocation,
/// however many words), and reaches each with ``word(_:)`` in a computed property of its own:
/// `let atomics = AtomicWords(count: 2)`, then `var state: AtomicWord<Int> { atomics.word(0) }`.
/// (A ``PublishedReference`` keeps its owner's words beside its own, in its allocation.)
///
/// Every operation is inlined down to the C function of the one memory order asked for, itself
/// `static inline`: the code that runs is the instruction that order needs, and no call. (Only the
/// load is inlinable: it is the one that inlinable resolve code runs.)
@usableFromInline
struct AtomicWords: ~Copyable, @unchecked Sendable {  // the words are only reached atomically
    @usableFromInline let base: UnsafeMutablePointer<injector_atomic_word>
    @usableFromInline let count: Int

    /// `count` words, each holding 0: `0`, `false` or `nil`.
    init(count: Int) {
        precondition(count > 0, "AtomicWords(count: \(count))")
        base = .allocate(capacity: count)
        self.count = count
        for index in 0..<count { injector_atomic_word_init(base + index, 0) }
    }

    deinit {
        base.deallocate()
    }

    /// Word `index`, holding a `Value`: valid while these words live, so never kept apart from them.
    @inlinable func word<Value: AtomicWordValue>(_ index: Int) -> AtomicWord<Value> {
        assert(index >= 0 && index < count, "word \(index) of \(count)")
        return AtomicWord(address: base + index)
    }
}

/// One word of an ``AtomicWords``, holding a `Value`: the word's address, made by
/// ``AtomicWords/word(_:)`` where it is used.
///
/// An order that has no C function of its own for an operation runs as the next stronger one that
/// has (the operations have the orders Injector uses, and the strongest).
@usableFromInline @frozen
struct AtomicWord<Value: AtomicWordValue>: @unchecked Sendable {
    @usableFromInline let address: UnsafeMutablePointer<injector_atomic_word>

    @inlinable init(address: UnsafeMutablePointer<injector_atomic_word>) {
        self.address = address
    }

    @inlinable @inline(__always)
    func load(ordering: AtomicLoadOrdering) -> Value {
        let word =
            switch ordering {
            case .relaxed: injector_atomic_word_load_relaxed(address)
            case .acquiring: injector_atomic_word_load_acquire(address)
            }
        return Value(atomicWord: word)
    }

    @inline(__always)
    func store(_ value: Value, ordering: AtomicStoreOrdering) {
        switch ordering {
        case .relaxed: injector_atomic_word_store_relaxed(address, value.atomicWord)
        case .releasing: injector_atomic_word_store_release(address, value.atomicWord)
        }
    }

    /// Stores `value`, returning the value before.
    @inline(__always)
    func exchange(_ value: Value, ordering: AtomicUpdateOrdering) -> Value {
        let word =
            switch ordering {
            case .relaxed, .releasing, .acquiringAndReleasing:
                injector_atomic_word_exchange_acq_rel(address, value.atomicWord)
            case .sequentiallyConsistent: injector_atomic_word_exchange_seq_cst(address, value.atomicWord)
            }
        return Value(atomicWord: word)
    }

    /// Stores `desired` if the word holds `expected` (strong: it fails only when the word holds
    /// another value), and returns whether it did, with the value the word held.
    @inline(__always)
    func compareExchange(
        expected: Value,
        desired: Value,
        ordering: AtomicUpdateOrdering
    ) -> (exchanged: Bool, original: Value) {
        var original = expected.atomicWord
        let exchanged =
            switch ordering {
            case .relaxed, .releasing, .acquiringAndReleasing:
                injector_atomic_word_compare_exchange_acq_rel(address, &original, desired.atomicWord)
            case .sequentiallyConsistent:
                injector_atomic_word_compare_exchange_seq_cst(address, &original, desired.atomicWord)
            }
        return (exchanged, Value(atomicWord: original))
    }
}

extension AtomicWord where Value: FixedWidthInteger {
    /// Adds `operand`, wrapping around, and returns the value before.
    @inline(__always) @discardableResult
    func add(_ operand: Value, ordering: AtomicUpdateOrdering) -> Value {
        let word =
            switch ordering {
            case .relaxed: injector_atomic_word_fetch_add_relaxed(address, operand.atomicWord)
            case .releasing: injector_atomic_word_fetch_add_release(address, operand.atomicWord)
            case .acquiringAndReleasing: injector_atomic_word_fetch_add_acq_rel(address, operand.atomicWord)
            case .sequentiallyConsistent: injector_atomic_word_fetch_add_seq_cst(address, operand.atomicWord)
            }
        return Value(atomicWord: word)
    }

    /// Subtracts `operand`, wrapping around, and returns the value before.
    @inline(__always) @discardableResult
    func subtract(_ operand: Value, ordering: AtomicUpdateOrdering) -> Value {
        add(0 &- operand, ordering: ordering)
    }

    /// Sets the bits of `operand`, and returns the value before.
    @inline(__always) @discardableResult
    func bitwiseOr(_ operand: Value, ordering: AtomicUpdateOrdering) -> Value {
        let word =
            switch ordering {
            case .relaxed, .releasing: injector_atomic_word_fetch_or_release(address, operand.atomicWord)
            case .acquiringAndReleasing, .sequentiallyConsistent:
                injector_atomic_word_fetch_or_seq_cst(address, operand.atomicWord)
            }
        return Value(atomicWord: word)
    }
}

/// The memory order of an atomic load.
@usableFromInline @frozen
enum AtomicLoadOrdering {
    case relaxed
    /// Sees every write that came before the store (or update) that wrote the value it reads,
    /// when that one was releasing.
    case acquiring
}

/// The memory order of an atomic store.
enum AtomicStoreOrdering {
    case relaxed
    /// Publishes every write before it to a thread whose acquiring load reads what it stored.
    case releasing
}

/// The memory order of an atomic read-modify-write operation (exchange, compare-exchange, add,
/// bitwise or).
enum AtomicUpdateOrdering {
    case relaxed
    case releasing
    case acquiringAndReleasing
    case sequentiallyConsistent
}

/// A value an ``AtomicWord`` can hold: one that is a word's bits.
@usableFromInline
protocol AtomicWordValue {
    /// The value whose bits `atomicWord` is.
    init(atomicWord: Int)
    /// The value's bits.
    var atomicWord: Int { get }
}

extension Int: AtomicWordValue {
    @inlinable init(atomicWord: Int) { self = atomicWord }
    @inlinable var atomicWord: Int { self }
}

extension UInt: AtomicWordValue {
    @inlinable init(atomicWord: Int) { self.init(bitPattern: atomicWord) }
    @inlinable var atomicWord: Int { Int(bitPattern: self) }
}

extension Bool: AtomicWordValue {
    @inlinable init(atomicWord: Int) { self = atomicWord != 0 }
    @inlinable var atomicWord: Int { self ? 1 : 0 }
}

/// A reference an ``AtomicWord`` can hold, as its object's address, when it is optional (`nil` is 0).
@usableFromInline
protocol AtomicWordReference {
    /// The reference to the object at `opaque`, an address that `opaque` gave.
    init(opaque: UnsafeRawPointer)
    /// The object's address.
    var opaque: UnsafeMutableRawPointer { get }
}

extension Optional: AtomicWordValue where Wrapped: AtomicWordReference {
    @inlinable init(atomicWord: Int) {
        self = UnsafeRawPointer(bitPattern: atomicWord).map(Wrapped.init(opaque:))
    }

    @inlinable var atomicWord: Int { Int(bitPattern: self?.opaque) }
}
