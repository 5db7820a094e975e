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

// Counts heap allocations per thread by defining malloc, calloc and realloc in
// the executable. On Linux the dynamic linker binds every library's calls to
// these definitions (the executable comes first in symbol lookup), and they
// forward to glibc's real implementations (`__libc_malloc`, ...), so nothing
// is loaded with LD_PRELOAD and no dlsym bootstrap problem arises.
//
// The counter is thread-local, so the multi-threaded case pays no shared
// cache-line traffic for it. Frees and the aligned variants (posix_memalign,
// aligned_alloc) are not counted: Swift objects with ordinary alignment are
// allocated with malloc.
#include "AllocCounter.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc systems

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

// initial-exec: a plain %fs-relative access, no __tls_get_addr call (and no malloc) on the hot path.
static __thread unsigned long long thread_allocations __attribute__((tls_model("initial-exec")));
// Set by the first malloc that comes through here; only read after that, so the two threads of
// case G do not bounce its cache line between cores.
static volatile int counter_active;

void *malloc(size_t size) {
    thread_allocations++;
    if (__builtin_expect(!counter_active, 0)) counter_active = 1;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    thread_allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    thread_allocations++;
    return __libc_realloc(pointer, size);
}

unsigned long long alloc_counter_thread_allocations(void) {
    return thread_allocations;
}

int alloc_counter_is_active(void) {
    return counter_active;
}

size_t alloc_counter_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

#else

unsigned long long alloc_counter_thread_allocations(void) { return 0; }
int alloc_counter_is_active(void) { return 0; }
size_t alloc_counter_heap_in_use(void) { return 0; }

#endif
