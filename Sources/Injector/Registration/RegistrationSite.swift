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

/// Where a registration was written: `#fileID:#line`, named in duplicate-registration errors.
struct RegistrationSite: Sendable, CustomStringConvertible {
    /// What wrote the registration at the site.
    enum Kind: UInt8, Sendable {
        /// A `register` call, or one that registers an instance or a scope's value.
        case registration
        /// An `implements(_:)` call: the line shows another service's registration, which the
        /// message says, so that a duplicate does not seem to name the wrong line.
        case forwarding
    }

    let fileID: StaticString
    /// Declared before the line, so that it takes a byte of the file's padding.
    let kind: Kind
    /// 32 bits, so that a site packs into 24 bytes with the file's 17 and the kind's 1.
    let line: UInt32

    init(fileID: StaticString, line: UInt, kind: Kind = .registration) {
        self.fileID = fileID
        self.line = UInt32(truncatingIfNeeded: line)
        self.kind = kind
    }

    var description: String {
        switch kind {
        case .registration: "\(fileID):\(line)"
        case .forwarding: "\(fileID):\(line) by .implements"
        }
    }
}
