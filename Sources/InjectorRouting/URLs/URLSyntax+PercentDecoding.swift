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

extension URLSyntax {
    /// Percent-decodes `raw`; throws `Problem/invalidPercentEncoding(_:)` when a "%" is not followed by
    /// two hexadecimal digits or the decoded bytes are not UTF-8.
    ///
    /// Text without "%" (and, where `plusIsSpace`, without "+") is returned as it is, without decoding.
    /// With `plusIsSpace` (query names and values, as in HTML forms), "+" means a space and "%2B" a plus.
    static func percentDecoded(_ raw: Substring, plusIsSpace: Bool = false) throws(Problem) -> String {
        let utf8 = raw.utf8
        let needsDecoding = utf8.contains { byte in
            byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+"))
        }
        guard needsDecoding else { return String(raw) }
        let invalid = Problem.invalidPercentEncoding(raw)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            switch byte {
            case UInt8(ascii: "%"):
                guard index < utf8.endIndex, let high = hexValue(utf8[index]) else { throw invalid }
                index = utf8.index(after: index)
                guard index < utf8.endIndex, let low = hexValue(utf8[index]) else { throw invalid }
                index = utf8.index(after: index)
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        // Not `String(validating:as:)`, which needs macOS 15 / iOS 18: decoding replaces each byte
        // that is not UTF-8 with U+FFFD, so the bytes come back unchanged exactly when they are UTF-8.
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { throw invalid }
        return text
    }

    /// The value of one hexadecimal digit, or nil.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// How `scalar` is written percent-encoded in UTF-8, such as "%20" for a space.
    static func percentEncoded(_ scalar: Unicode.Scalar) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = ""
        for byte in UTF8.encode(scalar)! {
            text.append("%")
            text.append(Character(Unicode.Scalar(digits[Int(byte >> 4)])))
            text.append(Character(Unicode.Scalar(digits[Int(byte & 0xF)])))
        }
        return text
    }
}
