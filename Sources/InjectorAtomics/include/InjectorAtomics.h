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

// The C Injector needs: a thread-local slot and a frame's address (at the end), and
// an atomic pointer-sized word over C11 <stdatomic.h>, for Injector's `AtomicWords`
// (Sources/Injector/Support/AtomicWords.swift), the one place that calls these: the
// standard library's `Synchronization` module needs macOS 15 / iOS 18, and these
// need nothing. Each operation is a `static inline` function of one memory order,
// a constant, so that it compiles, inlined into the Swift code calling it, to the
// instruction (or two) the order needs, in debug builds too. Only the operations
// Injector uses are here, in the orders it uses, and in the strongest order each
// has (sequentially consistent), which `AtomicWords` falls back on for an order
// it is asked for that has no function here.
//
// A word needs a stable address: it lives in memory that Swift allocated for it
// (`UnsafeMutablePointer`), never in a Swift stored property, which Swift may move.

#ifndef INJECTOR_ATOMICS_H
#define INJECTOR_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define INJECTOR_ATOMIC_INLINE static inline __attribute__((always_inline))

/// A pointer-sized word read and written atomically: an integer, a flag or an
/// object's address.
typedef struct {
    _Atomic(intptr_t) value;
} injector_atomic_word;

INJECTOR_ATOMIC_INLINE void injector_atomic_word_init(injector_atomic_word *word, intptr_t value) {
    atomic_init(&word->value, value);
}

// One function an operation and order, named `injector_atomic_word_<operation>_<order>`.

/// The word's value.
#define INJECTOR_ATOMIC_LOAD(order) \
    INJECTOR_ATOMIC_INLINE intptr_t injector_atomic_word_load_##order(injector_atomic_word *word) { \
        return atomic_load_explicit(&word->value, memory_order_##order); \
    }

/// Stores `value`.
#define INJECTOR_ATOMIC_STORE(order) \
    INJECTOR_ATOMIC_INLINE void injector_atomic_word_store_##order(injector_atomic_word *word, intptr_t value) { \
        atomic_store_explicit(&word->value, value, memory_order_##order); \
    }

/// Updates the word with `operand` (`exchange`: stores it; `fetch_add`: adds it, wrapping
/// around; `fetch_or`: sets its bits), returning the word's value before.
#define INJECTOR_ATOMIC_UPDATE(operation, order) \
    INJECTOR_ATOMIC_INLINE intptr_t injector_atomic_word_##operation##_##order( \
        injector_atomic_word *word, intptr_t operand \
    ) { \
        return atomic_##operation##_explicit(&word->value, operand, memory_order_##order); \
    }

/// Stores `desired` if the word holds `*expected`; otherwise puts what it holds in
/// `*expected`. Strong: fails only when the word holds another value. A failure reads
/// in `failure_order`, the strongest a load may have below `order`.
#define INJECTOR_ATOMIC_COMPARE_EXCHANGE(order, failure_order) \
    INJECTOR_ATOMIC_INLINE bool injector_atomic_word_compare_exchange_##order( \
        injector_atomic_word *word, intptr_t *expected, intptr_t desired \
    ) { \
        return atomic_compare_exchange_strong_explicit( \
            &word->value, expected, desired, memory_order_##order, memory_order_##failure_order \
        ); \
    }

INJECTOR_ATOMIC_LOAD(relaxed)
INJECTOR_ATOMIC_LOAD(acquire)

INJECTOR_ATOMIC_STORE(relaxed)
INJECTOR_ATOMIC_STORE(release)

INJECTOR_ATOMIC_UPDATE(exchange, acq_rel)
INJECTOR_ATOMIC_UPDATE(exchange, seq_cst)

INJECTOR_ATOMIC_COMPARE_EXCHANGE(acq_rel, acquire)
INJECTOR_ATOMIC_COMPARE_EXCHANGE(seq_cst, seq_cst)

INJECTOR_ATOMIC_UPDATE(fetch_add, relaxed)
INJECTOR_ATOMIC_UPDATE(fetch_add, release)
INJECTOR_ATOMIC_UPDATE(fetch_add, acq_rel)
INJECTOR_ATOMIC_UPDATE(fetch_add, seq_cst)

INJECTOR_ATOMIC_UPDATE(fetch_or, release)
INJECTOR_ATOMIC_UPDATE(fetch_or, seq_cst)

/// The resolution context the current thread keeps, or NULL (Injector's
/// `ResolutionContext+Reuse.swift`, the one place that calls these): C11 thread-local
/// storage, which every resolve reads with a load, where `pthread_getspecific` is a
/// call. Not atomic: only its own thread reads and writes it.
extern _Thread_local void *injector_thread_context;

INJECTOR_ATOMIC_INLINE void *injector_thread_context_get(void) {
    return injector_thread_context;
}

INJECTOR_ATOMIC_INLINE void injector_thread_context_set(void *context) {
    injector_thread_context = context;
}

/// The address of the calling function's frame, on the thread's real stack (where
/// AddressSanitizer may have moved its locals elsewhere): what Injector's `StackGuard`
/// compares with the stack's bounds, without taking the address of a local, which
/// would cost the caller a stack-protector check.
INJECTOR_ATOMIC_INLINE uintptr_t injector_frame_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

#undef INJECTOR_ATOMIC_LOAD
#undef INJECTOR_ATOMIC_STORE
#undef INJECTOR_ATOMIC_UPDATE
#undef INJECTOR_ATOMIC_COMPARE_EXCHANGE
#undef INJECTOR_ATOMIC_INLINE

#endif  // INJECTOR_ATOMICS_H
