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

/// Number formatting for the tables (no Foundation, same output everywhere).
enum Format {
    /// `1234567` → `"1,234,567"`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index).isMultiple(of: 3) { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// `value` rounded to `decimals` places, e.g. `fixed(3.14159, 2)` → `"3.14"`.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value.magnitude * scale).rounded())
        let whole = grouped(scaled / Int(scale))
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + whole }
        let fraction = String(scaled % Int(scale))
        return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// About three significant digits: `3.14`, `31.4`, `314`, `3,142`.
    static func measurement(_ value: Double) -> String {
        switch value.magnitude {
        case ..<10: fixed(value, 2)
        case ..<100: fixed(value, 1)
        default: fixed(value, 0)
        }
    }

    /// A ratio: `2.46×`.
    static func ratio(_ value: Double) -> String {
        measurement(value) + "×"
    }

    /// A target beside a measured ratio: `≤ 1.50× ✓` when `value` meets it, `≤ 1.50× ✗` when not,
    /// `≤ 1.50×` alone when the run is not judged (smoke). `unit: " ns"` prints `≤ 150 ns ✓`.
    static func target(_ value: Double?, atMost limit: Double, unit: String = "×", judged: Bool) -> String {
        let target = "≤ " + measurement(limit) + unit
        guard judged else { return target }
        return target + (meets(value, limit) ? " ✓" : " ✗")
    }

    /// Whether a measured value is within its limit (a missing one is not).
    static func meets(_ value: Double?, _ limit: Double) -> Bool {
        guard let value, value.isFinite else { return false }
        return value <= limit
    }

    /// An allocation count per operation: `3`, or `3.02` when it is not a whole number.
    static func count(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        return hundredths.truncatingRemainder(dividingBy: 100) == 0 ? fixed(value, 0) : fixed(value, 2)
    }

    /// `"1 repetition"`, `"15 repetitions"`.
    static func plural(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }
}
