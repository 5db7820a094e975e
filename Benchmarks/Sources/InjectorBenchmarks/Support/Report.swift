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

/// One line of a side-by-side table: the same measurement for each contender (lower is better).
struct ComparisonRow {
    var label: String
    var unit: String
    var values: [Contender: Double]
    /// Allocations per unit of the row; empty when not counted.
    var allocations: [Contender: Double]

    init(label: String, unit: String, values: [Contender: Double], allocations: [Contender: Double] = [:]) {
        self.label = label
        self.unit = unit
        self.values = values
        self.allocations = allocations
    }

    init(label: String, unit: String, _ comparison: Comparison<Contender>) {
        self.init(
            label: label,
            unit: unit,
            values: comparison.nanosecondsPerOperation,
            allocations: comparison.allocationsPerOperation
        )
    }
}

/// Case G for one contender: the same batch from one thread and from two.
struct ScalingRow {
    var contender: Contender
    /// Operations each thread ran.
    var operationsPerThread: Int
    /// Median wall time of one thread doing the work once, ns.
    var oneThreadNanoseconds: Double
    /// Median wall time of two threads each doing the work once (twice the work), ns.
    var twoThreadsNanoseconds: Double
    /// Median over repetitions of (two-thread wall time) / (one-thread wall time).
    var wallRatio: Double
}

/// What a case hands to the table printer.
enum Report {
    case comparison(Section, [ComparisonRow])
    case scaling([ScalingRow])
}
