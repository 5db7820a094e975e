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

/// One benchmark: a letter, a title, and a way to measure every contender.
///
/// To add a case, write a type conforming to this protocol (or to ``ResolutionCase`` when it
/// times one operation) in `Cases/`, and list it in ``allCases``.
protocol BenchmarkCase: Sendable {
    /// The letter shown in the table, e.g. `"A"`.
    var id: String { get }
    /// What the case measures, in a few words.
    var title: String { get }
    /// Sets up, checks and measures every contender.
    func run(_ settings: Settings) throws -> Report
}

/// A case that times the same single operation (usually one top-level resolve) per contender.
///
/// Each case returns every contender's batch from a function of its own (`injectorBatch`,
/// `swinjectBatch`, `directBatch`, `closureWiredBatch`), so that a profiler can tell the batches
/// apart by name (`Scripts/instruction-counts.sh`).
protocol ResolutionCase: BenchmarkCase {
    /// The most Injector ÷ direct construction may be (issue 9 §3); `nil` for none.
    var target: Double? { get }
    /// Sets the contender up outside timing (container, registrations, `finishRegistration()`),
    /// checks that one operation builds the expected object graph, and returns the batch to time.
    func makeBatch(for contender: Contender) throws -> Batch
}

extension ResolutionCase {
    var target: Double? { nil }

    func run(_ settings: Settings) throws -> Report {
        let batches = try Contender.allCases.map { ($0, try makeBatch(for: $0)) }
        let comparison = try Harness.compare(batches, settings)
        let row = ComparisonRow(
            label: "\(id). \(title)",
            unit: "ns/op",
            comparison,
            target: target.map(Target.overDirect)
        )
        return .comparison(.resolution, [row])
    }
}

/// A wrong object graph or a failed resolve. Fails the run (smoke mode included).
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

/// Throws unless `condition` holds: each case checks that all contenders do the same work.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw BenchmarkError(description: message()) }
}

/// Unwraps a Swinject result (`nil` when a registration is missing).
func required<T>(_ value: T?, _ what: String = "\(T.self)") throws -> T {
    guard let value else { throw BenchmarkError(description: "Swinject could not resolve \(what)") }
    return value
}
