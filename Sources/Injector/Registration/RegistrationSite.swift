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
    let fileID: StaticString
    /// 32 bits, so that a site packs into 24 bytes with the file's 17.
    let line: UInt32

    init(fileID: StaticString, line: UInt) {
        self.fileID = fileID
        self.line = UInt32(truncatingIfNeeded: line)
    }

    var description: String { "\(fileID):\(line)" }
}
