/// A lock for async code: waiting for it suspends the task rather than blocking the thread, and it
/// may be released on another thread than the one that took it (a task moves between threads at
/// each `await`).
///
/// It is held by an owner, an async resolution, rather than by a thread; taking it again for the
/// same owner does not wait. Waiters are served in the order they came.
final class AsyncLock: Sendable {
    private struct State {
        var owner: ObjectIdentifier?
        var waiters: [(owner: ObjectIdentifier, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked.make(State())

    /// Takes the lock for `owner`, waiting while another owner holds it.
    ///
    /// - Returns: `true` when it was taken now (pair with `unlock()`); `false` when `owner` already
    ///   held it.
    func lock(for owner: ObjectIdentifier) async -> Bool {
        let taken: Bool? = state.withLock { state in
            if state.owner == nil {
                state.owner = owner
                return true
            }
            return state.owner == owner ? false : nil
        }
        if let taken { return taken }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let takenNow = state.withLock { state in
                if state.owner == nil {
                    state.owner = owner
                    return true
                }
                state.waiters.append((owner, continuation))
                return false
            }
            if takenNow { continuation.resume() }
        }
        return true
    }

    /// Releases the lock, handing it to the first waiter, if any.
    func unlock() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.owner = nil
                return nil
            }
            let next = state.waiters.removeFirst()
            state.owner = next.owner
            return next.continuation
        }
        next?.resume()
    }
}
