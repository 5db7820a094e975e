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

// G. Case B's transient graph resolved from one thread and from two threads at once, on one
// shared container (Swinject through its synchronized resolver, the only thread-safe way).
// Injector is timed twice: after `finishRegistration()`, and with its registry left open.
//
// The wall-time ratio compares two threads doing twice the work with one thread doing it
// once: 1.0 means perfect scaling on two cores, 2.0 means the threads take turns.

struct ThreadsCase: BenchmarkCase {
    let id = "G"
    let title = "case B from 1 and 2 threads, shared container"

    /// Target (issue 9 §3) for Injector, with and without `finishRegistration()`: two threads on
    /// twice the work take at most this many times the wall time of one.
    static let target = 1.15

    /// One row of the table: who, whether it is the control, its target and its batch.
    private struct Side {
        var label: String
        var isControl = false
        var target: Double?
        var batch: Batch
    }

    private func sides() throws -> [Side] {
        [
            Side(
                label: "Injector, `finishRegistration()` called",
                target: Self.target,
                batch: try TransientGraphCase.makeBatch(for: .injector, threadSafe: true)
            ),
            Side(
                label: "Injector, open registry",
                target: Self.target,
                batch: try TransientGraphCase.makeBatch(for: .injector, threadSafe: true, finishRegistration: false)
            ),
            Side(label: "Swinject", batch: try TransientGraphCase.makeBatch(for: .swinject, threadSafe: true)),
            Side(
                label: "Direct",
                isControl: true,
                batch: try TransientGraphCase.makeBatch(for: .direct, threadSafe: true)
            ),
            Side(label: "Closure-wired", batch: try TransientGraphCase.makeBatch(for: .closureWired, threadSafe: true)),
        ]
    }

    func run(_ settings: Settings) throws -> Report {
        let sides = try sides()
        var sizing = settings
        sizing.targetBatchNanoseconds = settings.threadBatchNanoseconds
        sizing.fixedIterations = settings.fixedThreadIterations
        let iterations = try sides.map { try Harness.iterations(for: $0.batch, sizing) }

        var one = [[Double]](repeating: [], count: sides.count)
        var two = one
        var ratios = one
        for _ in 0..<settings.threadRepetitions {
            for (index, side) in sides.enumerated() {
                let single = Double(try Threads.wallTime([side.batch], iterations: iterations[index]))
                let double = Double(try Threads.wallTime([side.batch, side.batch], iterations: iterations[index]))
                one[index].append(single)
                two[index].append(double)
                ratios[index].append(double / single)
            }
        }
        return .scaling(
            sides.indices.map { index in
                ScalingRow(
                    label: sides[index].label,
                    isControl: sides[index].isControl,
                    target: sides[index].target,
                    operationsPerThread: iterations[index],
                    oneThreadNanoseconds: Harness.median(one[index]),
                    twoThreadsNanoseconds: Harness.median(two[index]),
                    wallRatio: Harness.median(ratios[index])
                )
            }
        )
    }
}
