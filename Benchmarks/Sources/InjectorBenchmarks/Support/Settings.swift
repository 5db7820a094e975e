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

/// How long and how often to measure.
struct Settings: Sendable {
    /// Timed repetitions per contender; the median is reported.
    var repetitions: Int
    /// Each timed batch is sized to take about this long (full mode).
    var targetBatchNanoseconds: UInt64
    /// Fixed batch size instead of calibration (`--smoke`, `--iterations`).
    var fixedIterations: Int?
    /// Operations run once more, untimed, to count allocations per operation.
    var allocationIterations: Int
    /// Case G: repetitions of the one-thread/two-thread pair.
    var threadRepetitions: Int
    /// Case G: each thread's batch is sized to take about this long from one thread.
    var threadBatchNanoseconds: UInt64
    /// Case G: fixed iterations per thread instead of calibration (`--smoke`, `--iterations`).
    var fixedThreadIterations: Int?
    /// Whether a timed run is repeated when another process took the core (see `Harness.onCPU`).
    /// Off with `--iterations`, so that a profiler sees a known number of operations.
    var repeatsPreemptedRuns = true
    /// `true` for `--smoke`: every case runs, with tiny counts, and no number means anything.
    var smoke: Bool

    static let full = Settings(
        repetitions: 15,
        targetBatchNanoseconds: 10_000_000,
        fixedIterations: nil,
        allocationIterations: 1_000,
        threadRepetitions: 9,
        threadBatchNanoseconds: 50_000_000,
        fixedThreadIterations: nil,
        smoke: false
    )
    static let smokeTest = Settings(
        repetitions: 2,
        targetBatchNanoseconds: 0,
        fixedIterations: 20,
        allocationIterations: 10,
        threadRepetitions: 1,
        threadBatchNanoseconds: 0,
        fixedThreadIterations: 200,
        repeatsPreemptedRuns: false,
        smoke: true
    )
}
