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

/// A continuation that a waiter leaves in a lock's state, resumed when it may go on.
typealias WaiterContinuation = CheckedContinuation<Void, any Error>

extension Locked {
    /// Suspends the task until the continuation that `enqueue` leaves in the state is resumed,
    /// unless the task is cancelled first: then it throws `CancellationError` at once.
    ///
    /// - Parameters:
    ///   - enqueue: Under the lock: keeps the continuation in the state and returns `true`, or
    ///     returns `false` when there is no need to wait any more (the task goes on at once).
    ///   - dequeue: Under the lock, when the task is cancelled: removes the continuation from the
    ///     state and returns it, if it is still there (not yet resumed).
    /// - Throws: `CancellationError` when the task is cancelled before it is resumed.
    func waitUnlessCancelled(
        enqueue: (inout State, WaiterContinuation) -> Bool,
        dequeue: @escaping @Sendable (inout State) -> WaiterContinuation?
    ) async throws {
        let cancelledEarly = CancellationMark()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: WaiterContinuation) in
                let queued: Bool? = withLock { state in
                    cancelledEarly.isSet ? nil : enqueue(&state, continuation)
                }
                switch queued {
                case true?: break
                case false?: continuation.resume()
                case nil: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiter: WaiterContinuation? = withLock { state in
                if let waiter = dequeue(&state) { return waiter }
                cancelledEarly.set()  // not queued yet (or resumed already, which this cannot undo)
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// Tells a wait that its task was cancelled before the wait was queued. Set and read under the
/// lock the wait is queued in.
private final class CancellationMark: Sendable {
    /// The word of `value`.
    private let atomics = AtomicWords(count: 1)
    private var value: AtomicWord<Bool> { atomics.word(0) }

    var isSet: Bool { value.load(ordering: .relaxed) }

    func set() { value.store(true, ordering: .relaxed) }
}
