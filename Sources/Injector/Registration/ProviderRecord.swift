import Synchronization

/// What a registration keeps across the copies its provider goes through (amending a registration
/// replaces its provider): its identity in instance stores, the dependencies its first construction
/// resolved (the edges of the dependency graph).
@usableFromInline
final class ProviderRecord: @unchecked Sendable {  // `recordedDependencies` is only touched under `dependencyLock`
    /// One lock for every record's dependencies: they are written only until a registration's
    /// first construction completes, so a lock each would cost every registration for nothing.
    /// Taken with `lock()`, not `withLock`: a `Locked<Void>`'s empty state shares its address with
    /// the mutex, and ThreadSanitizer reads `withLock`'s access to it as a race with `lock()`.
    private static let dependencyLock = Locked.make(())

    private var recordedDependencies: [ServiceKey] = []
    /// Set once a construction has completed: from then on its dependencies are known.
    private let dependenciesKnown = Atomic<Bool>(false)
    /// The services the factory resolved, in the order it first resolved them.
    var dependencies: [ServiceKey] {
        Self.dependencyLock.lock()
        defer { Self.dependencyLock.unlock() }
        return recordedDependencies
    }

    /// Whether dependencies resolved now still need recording.
    var isRecordingDependencies: Bool { !dependenciesKnown.load(ordering: .relaxed) }

    func recordDependency(_ key: ServiceKey) {
        Self.dependencyLock.lock()
        defer { Self.dependencyLock.unlock() }
        if !recordedDependencies.contains(key) { recordedDependencies.append(key) }
    }

    /// Ends recording, after a construction completed.
    func completeRecording() {
        if isRecordingDependencies { dependenciesKnown.store(true, ordering: .relaxed) }
    }
}
