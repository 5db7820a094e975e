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

/// One gate per shared instance that a family of async resolutions is building: a top-level async
/// resolution and every resolution started within its async factories, in their tasks or in child
/// tasks (`async let`), which take the construction lock within it and so run at the same time.
///
/// The first of the family to ask for an instance builds it; the others wait at its gate and then
/// share what it built, so that the factory runs once however the family asks. If the builder
/// fails, the gate opens empty and the next one to ask builds.
final class ConstructionGates: Sendable {
    private struct Gate {
        let builder: ObjectIdentifier
        var built: AnyObject?
        var waiters: [UInt64: WaiterContinuation] = [:]
    }

    private struct State {
        var gates: [ResolutionContext.SharedInstanceKey: Gate] = [:]
        var lastWaiterID: UInt64 = 0
    }

    private let state = Locked.make(State())

    /// The instance kept under `key` once a resolution of the family other than `builder` has
    /// built it, waiting while it builds; or `nil` when `builder` is to build it (then pair with
    /// `open(_:by:with:)`).
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    func pass(_ key: ResolutionContext.SharedInstanceKey, by builder: ObjectIdentifier) async throws -> AnyObject? {
        while true {
            let id: UInt64? = state.withLock { state in
                guard let gate = state.gates[key], gate.built == nil, gate.builder != builder else { return nil }
                state.lastWaiterID &+= 1
                return state.lastWaiterID
            }
            guard let id else {
                // No gate (claim it), an open one, or this builder's own (a cycle, found by the caller).
                return state.withLock { state in
                    if let gate = state.gates[key] { return gate.built }
                    state.gates[key] = Gate(builder: builder)
                    return nil
                }
            }
            try await wait(at: key, id: id)
        }
    }

    /// Opens the gate of `key` that `builder` claimed: with the instance it built, or with none when
    /// it failed, so that the next one to ask builds it.
    func open(_ key: ResolutionContext.SharedInstanceKey, by builder: ObjectIdentifier, with built: AnyObject?) {
        let waiters: [WaiterContinuation] = state.withLock { state in
            guard let gate = state.gates[key], gate.builder == builder, gate.built == nil else { return [] }
            if let built {
                state.gates[key] = Gate(builder: builder, built: built)
            } else {
                state.gates[key] = nil
            }
            return Array(gate.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func wait(at key: ResolutionContext.SharedInstanceKey, id: UInt64) async throws {
        try await state.waitUnlessCancelled { state, continuation in
            guard state.gates[key] != nil, state.gates[key]?.built == nil else { return false }
            state.gates[key]!.waiters[id] = continuation
            return true
        } dequeue: { state in
            state.gates[key]?.waiters.removeValue(forKey: id)
        }
    }
}
