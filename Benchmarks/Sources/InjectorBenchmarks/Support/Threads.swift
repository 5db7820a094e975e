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
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a batch on a new OS thread and keeps its checksum.
///
/// `@unchecked Sendable`: the batch is handed to exactly one thread, and `checksum` is read
/// only after `pthread_join`, which orders the write before the read.
private final class ThreadJob: @unchecked Sendable {
    let batch: Batch
    let iterations: Int
    var checksum: UInt = 0
    var error: (any Error)?

    init(batch: @escaping Batch, iterations: Int) {
        self.batch = batch
        self.iterations = iterations
    }

    func run() {
        do { checksum = try batch(iterations) } catch { self.error = error }
    }
}

enum Threads {
    /// Starts one OS thread per batch, each running `iterations` operations of its batch, waits
    /// for all, and returns the wall time in nanoseconds (thread start-up included; it is tens
    /// of microseconds against batches of tens of milliseconds).
    static func wallTime(_ batches: [Batch], iterations: Int) throws -> UInt64 {
        let jobs = batches.map { ThreadJob(batch: $0, iterations: iterations) }
        let start = Harness.now()
        var threads: [pthread_t] = []
        for job in jobs {
            #if canImport(Glibc)
            var thread = pthread_t()
            #else
            var thread: pthread_t?
            #endif
            let context = Unmanaged.passRetained(job).toOpaque()
            let status = pthread_create(
                &thread,
                nil,
                { context in
                    #if canImport(Glibc)
                    let job = Unmanaged<ThreadJob>.fromOpaque(context!).takeRetainedValue()
                    #else
                    let job = Unmanaged<ThreadJob>.fromOpaque(context).takeRetainedValue()
                    #endif
                    job.run()
                    return nil
                },
                context
            )
            guard status == 0 else { throw BenchmarkError(description: "pthread_create failed: \(status)") }
            #if canImport(Glibc)
            threads.append(thread)
            #else
            threads.append(thread!)
            #endif
        }
        for thread in threads { pthread_join(thread, nil) }
        let elapsed = Harness.now() - start
        for job in jobs {
            if let error = job.error { throw error }
            blackHole(job.checksum)
        }
        return elapsed
    }
}
