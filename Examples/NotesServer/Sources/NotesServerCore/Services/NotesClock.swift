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

/// The time, a container singleton: handlers stamp notes with it, the maintenance job sleeps on it.
public protocol NotesClock: Sendable {
    func now() -> Date
    func sleep(for duration: Duration) async throws
}

/// The wall clock.
public struct SystemNotesClock: NotesClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
