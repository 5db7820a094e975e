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

// A view model, on the main actor as the module's default says: it calls the container's async
// calls that take a closure, which run in its isolation and so may use its state.
import Injector

final class EditorModel {
    private let container: Container
    private(set) var saved: [String] = []

    init(container: Container) { self.container = container }

    /// Edits in a session of its own: the draft is the session's, discarded when it closes.
    func edit(_ text: String) async throws -> Draft {
        try await container.withScopeAsync(tag: .session) { session in
            let draft = try session.resolve(Draft.self)
            draft.text = text
            self.saved.append(draft.text)  // the model's own state, from the closure
            return draft
        }
    }

    /// Reads the clock, through a configure closure that uses the model's state.
    func stamp() async throws -> String {
        let clock = try await container.resolveAsync((any Clock).self) { _ in self.saved.append("stamped") }
        return clock.now
    }

    /// Runs `operation` with the clock replaced, as a test does.
    func withFixedClock<Result>(_ now: String, _ operation: () async throws -> Result) async throws -> Result {
        try await container.withOverridesAsync {
            $0.register((any Clock).self, replacesExisting: true) { _ in FixedClock(now: now) }
        } operation: {
            self.saved.append("overridden")
            return try await operation()
        }
    }
}

/// A clock a test fixes.
nonisolated struct FixedClock: Clock {
    let now: String
}
