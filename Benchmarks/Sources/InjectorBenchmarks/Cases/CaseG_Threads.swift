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
//
// The wall-time ratio compares two threads doing twice the work with one thread doing it
// once: 1.0 means perfect scaling on two cores, 2.0 means the threads take turns.

struct ThreadsCase: BenchmarkCase {
    let id = "G"
    let title = "case B from 1 and 2 threads, shared container"

    func run(_ settings: Settings) throws -> Report {
        var batches: [(Contender, Batch)] = []
        var iterations: [Contender: Int] = [:]
        for contender in Contender.allCases {
            let batch = try TransientGraphCase.makeBatch(for: contender, threadSafe: true)
            batches.append((contender, batch))
            var sizing = settings
            sizing.targetBatchNanoseconds = settings.threadBatchNanoseconds
            sizing.fixedIterations = settings.fixedThreadIterations
            iterations[contender] = try Harness.iterations(for: batch, sizing)
        }

        var one: [Contender: [Double]] = [:]
        var two: [Contender: [Double]] = [:]
        var ratios: [Contender: [Double]] = [:]
        for _ in 0..<settings.threadRepetitions {
            for (contender, batch) in batches {
                let count = iterations[contender]!
                let single = Double(try Threads.wallTime([batch], iterations: count))
                let double = Double(try Threads.wallTime([batch, batch], iterations: count))
                one[contender, default: []].append(single)
                two[contender, default: []].append(double)
                ratios[contender, default: []].append(double / single)
            }
        }
        return .scaling(
            batches.map { contender, _ in
                ScalingRow(
                    contender: contender,
                    operationsPerThread: iterations[contender]!,
                    oneThreadNanoseconds: Harness.median(one[contender]!),
                    twoThreadsNanoseconds: Harness.median(two[contender]!),
                    wallRatio: Harness.median(ratios[contender]!)
                )
            }
        )
    }
}
