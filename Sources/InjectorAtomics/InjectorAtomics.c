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

// Every operation is `static inline`, in the header: this file gives SwiftPM a
// source to build the target from, checks that the header compiles as C, and
// defines the thread's context slot. Without debug information: valgrind, which
// counts the benchmarks' instructions, cannot read the DWARF 5 clang writes.
#include "InjectorAtomics.h"

__attribute__((nodebug)) _Thread_local void *injector_thread_context = 0;

_Static_assert(sizeof(injector_atomic_word) == sizeof(intptr_t), "an atomic word is one word");
_Static_assert(__atomic_always_lock_free(sizeof(intptr_t), 0), "an atomic word is lock-free");
