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

#ifndef ALLOC_COUNTER_H
#define ALLOC_COUNTER_H

#include <stddef.h>

/// Number of heap allocations (malloc, calloc, realloc) made by the calling
/// thread since it started. Subtract two readings to count the allocations of
/// a piece of code that runs on one thread.
unsigned long long alloc_counter_thread_allocations(void);

/// Whether this process's malloc is really routed through the counter (it is
/// when the executable's own malloc interposes glibc's, as on Linux/glibc).
int alloc_counter_is_active(void);

/// Bytes currently allocated from the heap (glibc `mallinfo2`: in-use arena
/// bytes plus mmapped blocks), or 0 where that is not available.
size_t alloc_counter_heap_in_use(void);

#endif
