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

import Foundation

/// Operations run one at a time with the caches emptied before each (`--cold N`), as a server runs
/// them: between two requests' resolves, the rest of a request (HTTP, JSON, the database) has
/// evicted the container's code and data, so what an operation costs there is its cache misses
/// more than its instructions. The server example's `MEASUREMENTS.md` (rounds 3, 12 and 13) says
/// why; `Scripts/instruction-counts.sh --cold` counts the misses under callgrind's cache simulation.
enum ColdCaches {
    /// Megabytes walked before each operation: more than the second-level cache of this machine
    /// (2 MiB a core), and of callgrind's simulation of it. `EVICT_MB` sets it.
    static let megabytes: Int = {
        guard let text = ProcessInfo.processInfo.environment["EVICT_MB"], let value = Int(text), value > 0 else {
            return 6
        }
        return value
    }()

    /// What the walk reads and writes: allocated once, so that the walk itself allocates nothing.
    nonisolated(unsafe) private static var buffer = [UInt8](repeating: 1, count: megabytes << 20)

    /// The other work of a request, as far as the caches see it: a JSON round trip of a few
    /// records (code, above all, which the walk below would leave in the first-level instruction
    /// cache), then a read and a write of every 64-byte line of `buffer`.
    @inline(never)
    static func evict() {
        struct Record: Codable {
            var id: Int
            var title: String
            var tags: [String]
        }
        let records = (0..<20).map { Record(id: $0, title: "record \($0)", tags: ["a", "b\($0)"]) }
        if let data = try? JSONEncoder().encode(records),
            let decoded = try? JSONDecoder().decode([Record].self, from: data)
        {
            blackHole(UInt(decoded.count))
        }
        var sum: UInt8 = 0
        buffer.withUnsafeMutableBufferPointer { bytes in
            for index in stride(from: 0, to: bytes.count, by: 64) {
                sum &+= bytes[index]
                bytes[index] = sum
            }
        }
        blackHole(UInt(sum))
    }

    /// Runs `operations` single operations of `batch`, emptying the caches before each, and
    /// returns the median wall time of one, in nanoseconds (the emptying not included).
    static func medianNanoseconds(of batch: Batch, operations: Int) throws -> Double {
        var times: [Double] = []
        times.reserveCapacity(operations)
        for _ in 0..<operations {
            evict()
            times.append(Double(try Harness.time(batch, iterations: 1)))
        }
        return Harness.median(times)
    }
}

/// `--cold N`: each contender of the selected cases that time one operation, cold.
enum ColdRun {
    /// The table of median cold times, contenders in table order, with Injector ÷ direct.
    static func markdown(_ cases: [any BenchmarkCase], operations: Int) throws -> String {
        let timed = cases.compactMap { $0 as? any ResolutionCase }
        guard !timed.isEmpty else {
            throw BenchmarkError(
                description: "--cold runs the cases that time one operation, and none is selected: "
                    + Set(allCases.filter { $0 is any ResolutionCase }.map(\.id)).sorted().joined(separator: ", ")
            )
        }
        var lines = [
            "Cold operations (median ns of one operation, the caches emptied before each: "
                + "\(ColdCaches.megabytes) MB walked and a JSON round trip; \(operations) operations a contender)",
            "",
            "| Case | Injector | Swinject | Direct | Closure-wired | Injector ÷ direct |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for benchmark in cases where !(benchmark is any ResolutionCase) {
            printError("\(benchmark.id): not a case of one operation, left out of --cold")
        }
        for benchmark in timed {
            printError("running \(benchmark.id). \(benchmark.title) cold … (\(type(of: benchmark)))")
            var nanoseconds: [Contender: Double] = [:]
            for contender in Contender.allCases {
                let batch = try benchmark.makeBatch(for: contender)
                nanoseconds[contender] = try ColdCaches.medianNanoseconds(of: batch, operations: operations)
            }
            let cells = Contender.allCases.map { String(format: "%.0f", nanoseconds[$0]!) }
            let ratio = nanoseconds[.injector]! / nanoseconds[.direct]!
            lines.append(
                "| \(benchmark.id). \(benchmark.title) | " + cells.joined(separator: " | ")
                    + " | \(String(format: "%.2f", ratio))× |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
