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

/// A type a route parameter can be read as, with RouteParameters/value(_:as:).
///
/// `String`, `Int`, `Double`, `Bool` and `UUID` conform. Conform a type of yours to read
/// parameters as it:
///
/// ```swift
/// extension NoteID: RouteParameterValue {
///     init?(routeParameter text: String) { self.init(rawValue: text) }
/// }
/// ```
public protocol RouteParameterValue {
    /// Reads a value from a parameter's text, or returns `nil` when the text is not one.
    init?(routeParameter text: String)
}

extension String: RouteParameterValue {
    /// The text itself.
    public init?(routeParameter text: String) { self = text }
}

extension Int: RouteParameterValue {
    /// A decimal integer such as `42` or `-7`.
    public init?(routeParameter text: String) { self.init(text) }
}

extension Double: RouteParameterValue {
    /// A finite decimal number such as `1.5`, `-2` or `1e3`; not `nan` or `inf`, which a link never
    /// means, nor a hexadecimal one such as `0x10`, which `Double("0x10")` would read as 16.
    public init?(routeParameter text: String) {
        guard text.utf8.allSatisfy({ Self.decimalCharacters.contains($0) }), let value = Double(text), value.isFinite
        else { return nil }
        self = value
    }

    private static let decimalCharacters = Set("0123456789+-.eE".utf8)
}

extension Bool: RouteParameterValue {
    /// `true`, `false`, `1`, `0`, `yes` or `no`, in any case.
    public init?(routeParameter text: String) {
        switch text.lowercased() {
        case "true", "1", "yes": self = true
        case "false", "0", "no": self = false
        default: return nil
        }
    }
}

extension UUID: RouteParameterValue {
    /// A UUID such as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, in any case.
    public init?(routeParameter text: String) { self.init(uuidString: text) }
}
