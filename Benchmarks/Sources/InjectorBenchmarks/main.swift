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

// Injector benchmarks: Injector and Swinject beside direct construction and closure wiring.
//
//   swift run -c release --package-path Benchmarks InjectorBenchmarks [--smoke] [--filter TEXT] [--iterations N]
//       [--cold N]
//
// `Scripts/instruction-counts.sh` counts instructions per operation with callgrind.
//
// Prints Markdown to standard output and progress to standard error.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
    usage: InjectorBenchmarks [--smoke] [--filter TEXT] [--iterations N] [--cold N] [--depth] [--list]

      --smoke        run every case with tiny iteration counts (checks, not numbers; for CI)
      --filter TEXT  run only the case with that letter, or those whose title contains TEXT
      --iterations N use batches of N operations instead of ~10 ms ones, never repeated
                     (for profilers: valgrind --tool=callgrind …)
      --cold N       run N single operations of each contender of the cases that time one
                     operation, emptying the caches before each (`EVICT_MB`, default 6, megabytes
                     walked), and print the median time of one: what it costs a server, whose
                     other work evicts the container between requests
      --depth        time the depth budgets (a chain 1,000 and 4,000 deep, a runaway recursion, the
                     message of a failure 8,000 deep) and judge each ✓ or ✗
      --list         print each case's letter, title and type (the name a profiler sees), one a line,
                     separated by tabs, and exit
      --help         show this help
    """

/// Writes to standard error (progress and errors), keeping standard output pure Markdown.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

var settings = Settings.full
var filter: String?
var fixedIterations: Int?
var coldOperations: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--smoke":
        settings = .smokeTest
    case "--filter":
        guard let text = arguments.popFirst() else {
            printError("--filter needs a value\n\n" + usage)
            exit(2)
        }
        filter = text.lowercased()
    case "--iterations":
        guard let text = arguments.popFirst(), let count = Int(text), count > 0 else {
            printError("--iterations needs a positive number\n\n" + usage)
            exit(2)
        }
        fixedIterations = count
    case "--cold":
        guard let text = arguments.popFirst(), let count = Int(text), count > 0 else {
            printError("--cold needs a positive number\n\n" + usage)
            exit(2)
        }
        coldOperations = count
    case "--depth":
        print(DepthChecks.markdown())
        exit(0)
    case "--list":
        for benchmark in allCases { print("\(benchmark.id)\t\(benchmark.title)\t\(type(of: benchmark))") }
        exit(0)
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        printError("unknown argument: \(argument)\n\n" + usage)
        exit(2)
    }
}

if let fixedIterations {
    settings.fixedIterations = fixedIterations
    settings.fixedThreadIterations = fixedIterations
    settings.repeatsPreemptedRuns = false
}

/// A filter that is a case's letter selects that case only; anything else matches titles too.
let selected = allCases.filter { benchmark in
    guard let filter else { return true }
    if allCases.contains(where: { $0.id.lowercased() == filter }) { return benchmark.id.lowercased() == filter }
    return "\(benchmark.id). \(benchmark.title)".lowercased().contains(filter)
}
if selected.isEmpty {
    printError("no case matches --filter \(filter ?? "")")
    exit(2)
}

#if DEBUG
printError("warning: this is a debug build; use `swift run -c release` for meaningful numbers")
#endif

if let coldOperations {
    do {
        print(try ColdRun.markdown(selected, operations: coldOperations))
        exit(0)
    } catch {
        printError("error: \(error)")
        exit(2)
    }
}

var reports: [Report] = []
let started = Harness.now()
for benchmark in selected {
    // The type's name is the one a profiler sees (`TransientCase.injectorBatch(_:)`).
    printError("running \(benchmark.id). \(benchmark.title) … (\(type(of: benchmark)))")
    do {
        reports.append(try benchmark.run(settings))
    } catch {
        printError("error: case \(benchmark.id) failed: \(error)")
        exit(1)
    }
}
let seconds = Double(Harness.now() - started) / 1e9

print(Summary.markdown(reports, settings, seconds: seconds))
