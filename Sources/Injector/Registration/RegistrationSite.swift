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

/// Where a registration was written: `#fileID:#line`, named in duplicate-registration errors, with
/// what made it when that was not a `register` call of the user's.
struct RegistrationSite: Sendable, CustomStringConvertible {
    let fileID: StaticString
    let line: UInt32
    /// What made the registration, if not a `register` call of the user's.
    let origin: RegistrationOrigin?

    init(fileID: StaticString, line: UInt, origin: RegistrationOrigin? = nil) {
        self.fileID = fileID
        self.line = UInt32(truncatingIfNeeded: line)
        self.origin = origin
    }

    var description: String {
        guard let origin else { return "\(fileID):\(line)" }
        return "\(fileID):\(line) by \(origin.call)"
    }
}
