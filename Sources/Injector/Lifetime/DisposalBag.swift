/// The disposable instances an owner (a lifetime scope, a container's singletons, a set of test
/// overrides) took charge of, in the order they were completed; disposed in reverse, exactly once.
@usableFromInline
final class DisposalBag: @unchecked Sendable {
    private struct Entry {
        let key: ServiceKey
        let sync: (() throws -> Void)?
        let async: (() async throws -> Void)?
    }

    private struct State {
        var entries: [Entry] = []
        /// The class instances recorded, so that one recorded twice is disposed once.
        var recordedObjects: Set<ObjectIdentifier> = []
    }

    private let state = Locked.make(State())

    /// Takes charge of `instance`, made for `key`, if it is disposable.
    func record(_ instance: Any, key: ServiceKey) {
        let sync = (instance as? any Disposable).map { disposable in { try disposable.dispose() } }
        let async = (instance as? any AsyncDisposable).map { disposable in { try await disposable.dispose() } }
        guard sync != nil || async != nil else { return }
        let object = weakReferenceable(instance).map(ObjectIdentifier.init)
        state.withLock { state in
            if let object, !state.recordedObjects.insert(object).inserted { return }
            state.entries.append(Entry(key: key, sync: sync, async: async))
        }
    }

    /// The services of the instances only an async disposal can dispose.
    var asyncOnlyKeys: [ServiceKey] {
        state.withLock { $0.entries.filter { $0.sync == nil }.map(\.key) }
    }

    /// Disposes every instance recorded, last completed first, and forgets them.
    ///
    /// - Throws: ``InjectionError/Code/asyncDisposalRequired`` before disposing anything when an
    ///   instance is only ``AsyncDisposable``; ``InjectionError/Code/disposalFailed`` listing every
    ///   disposal that threw, after all of them ran.
    func disposeAll(of owner: String, asyncSpelling: String) throws {
        let entries = try state.withLock { state in
            let asyncOnly = state.entries.filter { $0.sync == nil }.map(\.key)
            guard asyncOnly.isEmpty else {
                throw InjectionError.asyncDisposalRequired(asyncOnly, owner: owner, asyncSpelling: asyncSpelling)
            }
            return Self.take(&state)
        }
        var failures: [InjectionError] = []
        for entry in entries.reversed() {
            do { try entry.sync!() } catch { failures.append(.disposalFailed(entry.key, error: error)) }
        }
        try Self.report(failures, of: owner)
    }

    /// Disposes every instance that a sync disposal can dispose, last completed first; keeps the
    /// others.
    func disposeDisposableSynchronously(of owner: String) throws {
        let entries = state.withLock { state in
            defer { state.entries.removeAll { $0.sync != nil } }
            return state.entries.filter { $0.sync != nil }
        }
        var failures: [InjectionError] = []
        for entry in entries.reversed() {
            do { try entry.sync!() } catch { failures.append(.disposalFailed(entry.key, error: error)) }
        }
        try Self.report(failures, of: owner)
    }

    /// Disposes every instance recorded, last completed first, asynchronously where it can be.
    func disposeAll(of owner: String) async throws {
        let entries = state.withLock { Self.take(&$0) }
        var failures: [InjectionError] = []
        for entry in entries.reversed() {
            do {
                if let async = entry.async { try await async() } else { try entry.sync!() }
            } catch {
                failures.append(.disposalFailed(entry.key, error: error))
            }
        }
        try Self.report(failures, of: owner)
    }

    private static func take(_ state: inout State) -> [Entry] {
        defer { state = State() }
        return state.entries
    }

    private static func report(_ failures: [InjectionError], of owner: String) throws {
        guard !failures.isEmpty else { return }
        throw InjectionError.disposalsFailed(failures, owner: owner)
    }
}
