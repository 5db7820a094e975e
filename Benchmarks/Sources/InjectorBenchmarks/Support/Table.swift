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

/// Prints the results as Markdown, ready to paste into a README.
struct MarkdownTable {
    var headers: [String]
    /// `true` for columns to right-align (numbers).
    var numeric: [Bool]
    var rows: [[String]] = []

    func render() -> String {
        let separator = numeric.map { $0 ? "---:" : "---" }
        return ([headers, separator] + rows)
            .map { "| " + $0.joined(separator: " | ") + " |" }
            .joined(separator: "\n")
    }
}

enum Table {
    /// A side-by-side table: one column per contender, Injector ÷ direct and its target, the other
    /// two ratios, then allocations. Targets are marked ✓ or ✗ only when `judged` (never in a smoke
    /// run, whose numbers mean nothing).
    ///
    /// The unit gets a column of its own only when the rows do not share one.
    static func comparison(_ rows: [ComparisonRow], judged: Bool) -> MarkdownTable {
        let units = Set(rows.map(\.unit))
        let showUnit = units.count > 1
        let showAllocations = rows.contains { !$0.allocations.isEmpty }
        var headers = ["Case"] + (showUnit ? ["Unit"] : [])
        headers += Contender.allCases.map(\.title)
        headers += ["Injector ÷ direct", "Target", "Injector ÷ closure-wired", "Swinject ÷ Injector"]
        if showAllocations {
            headers.append("Allocations (\(Contender.allCases.map(\.initial).joined(separator: " / ")))")
        }
        let firstNumber = showUnit ? 2 : 1
        var table = MarkdownTable(headers: headers, numeric: headers.indices.map { $0 >= firstNumber })

        for row in rows {
            var cells = [row.label] + (showUnit ? [row.unit] : [])
            cells += Contender.allCases.map { row.values[$0].map(Format.measurement) ?? "–" }
            cells.append(row.showsRatios ? ratio(row.values[.injector], row.values[.direct]) : "–")
            cells.append(
                row.target.map {
                    Format.target(row.judgedValue, atMost: $0.limit, unit: $0.unit, judged: judged)
                } ?? "–"
            )
            cells.append(row.showsRatios ? ratio(row.values[.injector], row.values[.closureWired]) : "–")
            cells.append(row.showsRatios ? ratio(row.values[.swinject], row.values[.injector]) : "–")
            if showAllocations {
                cells.append(
                    row.allocations.isEmpty
                        ? "–"
                        : Contender.allCases.map { row.allocations[$0].map(Format.count) ?? "–" }.joined(
                            separator: " / "
                        )
                )
            }
            table.rows.append(cells)
        }
        return table
    }

    /// Case G: one row per side, with the wall ratio's target where it has one.
    static func scaling(_ rows: [ScalingRow], judged: Bool) -> MarkdownTable {
        var table = MarkdownTable(
            headers: [
                "Contender", "Ops per thread", "1 thread: wall ms", "2 threads (2× work): wall ms",
                "1 thread: Mops/s", "2 threads: Mops/s", "Wall ratio 2 ÷ 1", "Target",
            ],
            numeric: [false, true, true, true, true, true, true, true]
        )
        for row in rows {
            let operations = Double(row.operationsPerThread)
            table.rows.append([
                row.label,
                Format.grouped(row.operationsPerThread),
                Format.measurement(row.oneThreadNanoseconds / 1e6),
                Format.measurement(row.twoThreadsNanoseconds / 1e6),
                Format.measurement(operations / row.oneThreadNanoseconds * 1e3),
                Format.measurement(2 * operations / row.twoThreadsNanoseconds * 1e3),
                Format.ratio(row.wallRatio),
                row.target.map { Format.target(row.wallRatio, atMost: $0, judged: judged) } ?? "–",
            ])
        }
        return table
    }

    /// A table of named sides (case I): one column per side, then each ratio, followed by its
    /// target when it has one, then allocations. Targets are marked ✓ or ✗ only when `judged`
    /// (never in a smoke run, whose numbers mean nothing).
    static func ratios(_ table: RatioTable, judged: Bool) -> MarkdownTable {
        let showAllocations = table.rows.contains { !$0.allocations.isEmpty }
        var headers = ["Case"] + table.columns
        for column in table.ratios {
            headers.append(column.title)
            if column.target != nil { headers.append("Target") }
        }
        if showAllocations { headers.append("Allocations (\(table.columns.joined(separator: " / ")))") }
        var markdown = MarkdownTable(headers: headers, numeric: headers.indices.map { $0 >= 1 })

        for row in table.rows {
            var cells = [row.label] + row.values.map(Format.measurement)
            for column in table.ratios {
                let value = row.values[column.numerator] / row.values[column.denominator]
                cells.append(ratio(row.values[column.numerator], row.values[column.denominator]))
                if let target = column.target { cells.append(Format.target(value, atMost: target, judged: judged)) }
            }
            if showAllocations {
                cells.append(row.allocations.isEmpty ? "–" : row.allocations.map(Format.count).joined(separator: " / "))
            }
            markdown.rows.append(cells)
        }
        return markdown
    }

    private static func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
        guard let numerator, let denominator, denominator > 0 else { return "–" }
        return Format.ratio(numerator / denominator)
    }
}
