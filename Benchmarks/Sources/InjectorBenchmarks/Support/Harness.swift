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

import AllocCounter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `iterations` operations and returns a checksum of what they produced.
///
/// All setup (containers, registrations, `finishRegistration()`) happens before a batch is
/// made; a batch only repeats the operation under test. The checksum folds in the identity
/// of every object made, so the optimiser cannot drop the work; the harness passes it to
/// ``blackHole(_:)``.
typealias Batch = (_ iterations: Int) throws -> UInt

/// Median ns/op and allocations/op of each side of one comparison: a ``Contender`` in most cases,
/// or whatever else a case sets side by side (case I: router, container and direct construction).
struct Comparison<Key: Hashable> {
    var nanosecondsPerOperation: [Key: Double] = [:]
    var allocationsPerOperation: [Key: Double] = [:]
}

// MARK: - Keeping results alive

/// Sink for checksums. Written only from the main thread.
nonisolated(unsafe) private var sink: UInt = 0

/// Consumes a checksum in a way the optimiser has to keep.
@inline(never)
func blackHole(_ checksum: UInt) {
    sink &+= checksum
}

/// What ``blackHole(_:)`` has accumulated; printed at the end of a run so it is observable.
var blackHoleTotal: UInt { sink }

/// The address of an object, folded into checksums (cheap: no hashing).
@inline(__always)
func identity(_ object: AnyObject) -> UInt {
    UInt(bitPattern: ObjectIdentifier(object))
}

// MARK: - Clocks and counters

enum Harness {
    /// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`).
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Heap allocations made so far by the calling thread (0 where not counted).
    static func allocations() -> UInt64 {
        UInt64(alloc_counter_thread_allocations())
    }

    /// Whether allocation counts are real on this platform.
    static var countsAllocations: Bool { alloc_counter_is_active() != 0 }

    /// Bytes the allocator has handed out and not yet taken back (glibc `mallinfo2`).
    static func heapInUse() -> Int {
        Int(alloc_counter_heap_in_use())
    }

    /// CPU time of the calling thread in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUTime() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Times one batch of `iterations` operations, in nanoseconds of wall time.
    static func time(_ batch: Batch, iterations: Int) throws -> UInt64 {
        let start = now()
        let checksum = try batch(iterations)
        let elapsed = now() - start
        blackHole(checksum)
        return elapsed
    }

    /// Timed runs so far, and how many of them were run again after a preemption.
    nonisolated(unsafe) private(set) static var runCount = (timed: 0, rerun: 0)

    /// Runs `body` (a timed measurement) and runs it again, up to 4 times, while the thread spent
    /// more than 10% of the wall time off the CPU, i.e. while another process had the core: on a
    /// shared machine that keeps other people's builds out of the numbers. Single-threaded only.
    static func onCPU<T>(_ settings: Settings, _ body: () throws -> T) rethrows -> T {
        guard settings.repeatsPreemptedRuns else { return try body() }
        var attempt = 0
        while true {
            let wallStart = now()
            let cpuStart = threadCPUTime()
            let result = try body()
            let cpu = threadCPUTime() - cpuStart
            let wall = now() - wallStart
            runCount.timed += 1
            attempt += 1
            // 50 µs of slack: reading the thread's CPU clock is a system call, which skews µs runs.
            if wall <= cpu + max(cpu / 10, 50_000) || attempt == 5 { return result }
            runCount.rerun += 1
        }
    }

    /// Finds a batch size that takes about `settings.targetBatchNanoseconds`.
    ///
    /// Doubles the size until a batch takes a tenth of the target, then scales it up.
    /// The doubling runs double as warm-up (lazy caches, page faults, branch predictors).
    static func iterations(for batch: Batch, _ settings: Settings) throws -> Int {
        if let fixed = settings.fixedIterations {
            blackHole(try batch(fixed))  // warm-up
            return fixed
        }
        let target = settings.targetBatchNanoseconds
        var iterations = 1
        while true {
            let elapsed = max(try time(batch, iterations: iterations), 1)
            if elapsed >= target / 10 || iterations >= 1 << 30 {
                let scaled = Double(iterations) * Double(target) / Double(elapsed)
                return max(1, Int(scaled.rounded()))
            }
            iterations *= 2
        }
    }

    /// Measures the same operation for every contender (or every side a case compares, by `Key`).
    ///
    /// Each contender's batch is sized on its own (so every timed batch takes about the same
    /// wall time), then the repetitions alternate between contenders — Injector, Swinject, direct,
    /// closure-wired, Injector, … — so drift in machine speed hits all of them alike.
    /// Allocations are counted afterwards in one untimed batch per contender.
    static func compare<Key: Hashable>(_ batches: [(Key, Batch)], _ settings: Settings) throws -> Comparison<Key> {
        var iterations: [Key: Int] = [:]
        for (contender, batch) in batches {
            iterations[contender] = try self.iterations(for: batch, settings)
        }
        var samples: [Key: [Double]] = [:]
        for _ in 0..<settings.repetitions {
            for (contender, batch) in batches {
                let count = iterations[contender]!
                let elapsed = try onCPU(settings) { try time(batch, iterations: count) }
                samples[contender, default: []].append(Double(elapsed) / Double(count))
            }
        }
        var result = Comparison<Key>()
        for (contender, batch) in batches {
            result.nanosecondsPerOperation[contender] = median(samples[contender]!)
            if countsAllocations {
                let count = settings.allocationIterations
                let before = allocations()
                blackHole(try batch(count))
                let made = allocations() - before
                result.allocationsPerOperation[contender] = Double(made) / Double(count)
            }
        }
        return result
    }

    /// The median; for an even count, the mean of the two middle values.
    static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median of no samples")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
