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

/// Which side-by-side table a comparison row belongs to.
enum Section: Int, CaseIterable {
    case resolution, registration

    var title: String {
        switch self {
        case .resolution: "Resolution (median ns per operation)"
        case .registration: "Registration of N distinct services (case F)"
        }
    }
}

/// A target of issue 9 §3: the most one of Injector's measurements may be (lower is better).
///
/// Targets live here, in the benchmark, never in unit tests; they are printed beside the
/// measurement, marked ✓ or ✗ (not in a smoke run), and never fail a run.
struct Target {
    /// What the limit applies to.
    enum Measure {
        /// Injector's value ÷ direct construction's, in the same row.
        case overDirect
        /// Injector's own value, in the row's unit (ns per registration, or a ratio already).
        case injectorValue
    }

    var measure: Measure
    var limit: Double
    /// How the limit prints after its number: `"×"` for ratios, `" ns"` for times.
    var unit = "×"

    static func overDirect(_ limit: Double) -> Target { Target(measure: .overDirect, limit: limit) }
}

/// One line of a side-by-side table: the same measurement for each contender (lower is better).
struct ComparisonRow {
    var label: String
    var unit: String
    var values: [Contender: Double]
    /// Allocations per unit of the row; empty when not counted.
    var allocations: [Contender: Double]
    /// Printed beside the ratios, marked ✓ or ✗; `nil` for none.
    var target: Target?
    /// `false` for a row whose values are already ratios (case F's flatness): the ratio columns
    /// stay empty.
    var showsRatios = true

    init(
        label: String,
        unit: String,
        values: [Contender: Double],
        allocations: [Contender: Double] = [:],
        target: Target? = nil
    ) {
        self.label = label
        self.unit = unit
        self.values = values
        self.allocations = allocations
        self.target = target
    }

    init(label: String, unit: String, _ comparison: Comparison<Contender>, target: Target? = nil) {
        self.init(
            label: label,
            unit: unit,
            values: comparison.nanosecondsPerOperation,
            allocations: comparison.allocationsPerOperation,
            target: target
        )
    }

    /// The value the target judges: Injector ÷ direct, or Injector's own value.
    var judgedValue: Double? {
        guard let target, let injector = values[.injector] else { return nil }
        switch target.measure {
        case .overDirect:
            guard let direct = values[.direct], direct > 0 else { return nil }
            return injector / direct
        case .injectorValue:
            return injector
        }
    }
}

/// Case G for one side: the same batch from one thread and from two.
struct ScalingRow {
    /// The contender, and for Injector whether `finishRegistration()` was called.
    var label: String
    /// Shares nothing between threads (direct construction), so it shows whether the second core
    /// was free.
    var isControl = false
    /// The most ``wallRatio`` may be; `nil` for none.
    var target: Double?
    /// Operations each thread ran.
    var operationsPerThread: Int
    /// Median wall time of one thread doing the work once, ns.
    var oneThreadNanoseconds: Double
    /// Median wall time of two threads each doing the work once (twice the work), ns.
    var twoThreadsNanoseconds: Double
    /// Median over repetitions of (two-thread wall time) / (one-thread wall time).
    var wallRatio: Double
}

/// A ratio between two columns of a ``RatioTable``, with an optional target (lower is better).
struct RatioColumn {
    /// The column heading, e.g. `"Router ÷ resolve"`.
    var title: String
    /// Indices into ``RatioTable/columns``.
    var numerator: Int
    var denominator: Int
    /// The most the ratio may be; printed beside it, marked ✓ or ✗. `nil` for none.
    var target: Double?
}

/// One line of a ``RatioTable``: the same measurement for each of its columns (lower is better).
struct RatioRow {
    var label: String
    /// One value per column, in column order.
    var values: [Double]
    /// Allocations per operation, in column order; empty when not counted.
    var allocations: [Double]

    /// A row from a comparison keyed by the table's sides, taken in `keys` order.
    init<Key: Hashable>(label: String, keys: [Key], _ comparison: Comparison<Key>) {
        self.label = label
        values = keys.map { comparison.nanosecondsPerOperation[$0] ?? .nan }
        allocations =
            comparison.allocationsPerOperation.isEmpty
            ? [] : keys.map { comparison.allocationsPerOperation[$0] ?? .nan }
    }
}

/// A table of its own for a case whose sides are not the three contenders (case I): named
/// columns, the ratios between them and their targets, and a footnote saying how it is measured.
struct RatioTable {
    var title: String
    var columns: [String]
    var ratios: [RatioColumn]
    var rows: [RatioRow]
    /// A footnote (Markdown list item) printed with the others; `nil` for none.
    var note: String?
}

/// What a case hands to the table printer.
enum Report {
    case comparison(Section, [ComparisonRow])
    case scaling([ScalingRow])
    case ratios([RatioTable])
}
