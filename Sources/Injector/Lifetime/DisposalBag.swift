/// The disposable instances an owner (a lifetime scope, a container's singletons, a set of test
/// overrides) took charge of, in the order they were completed; disposed in reverse, exactly once.
@usableFromInline
final class DisposalBag: Sendable {
    /// A disposable instance, kept as it was made: it is cast to its disposal protocols again
    /// only when disposed, so that recording one allocates nothing beyond the array's growth.
    private struct Entry: @unchecked Sendable {
        let key: ServiceKey
        let instance: Any
        let isAsyncOnly: Bool
    }

    private let entries = Locked.make([Entry]())

    /// Takes charge of `instance`, made for `key`, if it is disposable.
    func record(_ instance: Any, key: ServiceKey) {
        let isSync = instance is any Disposable
        guard isSync || instance is any AsyncDisposable else { return }
        entries.withLock { $0.append(Entry(key: key, instance: instance, isAsyncOnly: !isSync)) }
    }

    /// The services of the instances only an async disposal can dispose.
    var asyncOnlyKeys: [ServiceKey] {
        entries.withLock { $0.filter(\.isAsyncOnly).map(\.key) }
    }

    /// Disposes every instance recorded, last completed first, and forgets them.
    ///
    /// - Throws: ``InjectionError/Code/asyncDisposalRequired`` before disposing anything when an
    ///   instance is only ``AsyncDisposable``; ``InjectionError/Code/disposalFailed`` listing every
    ///   disposal that threw, after all of them ran.
    func disposeAll(of owner: String, asyncSpelling: String, refusal consequence: String) throws {
        let taken = try entries.withLock { entries in
            let asyncOnly = entries.filter(\.isAsyncOnly).map(\.key)
            guard asyncOnly.isEmpty else {
                throw InjectionError.asyncDisposalRequired(
                    asyncOnly, owner: owner, asyncSpelling: asyncSpelling, consequence: consequence)
            }
            defer { entries.removeAll() }
            return entries
        }
        try Self.dispose(taken, of: owner)
    }

    /// Disposes every instance that a sync disposal can dispose, last completed first; keeps the
    /// others.
    func disposeDisposableSynchronously(of owner: String) throws {
        let taken = entries.withLock { entries in
            defer { entries.removeAll { !$0.isAsyncOnly } }
            return entries.filter { !$0.isAsyncOnly }
        }
        try Self.dispose(taken, of: owner)
    }

    /// Disposes every instance recorded, last completed first, asynchronously where it can be.
    func disposeAll(of owner: String) async throws {
        let taken = entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
        var failures: [InjectionError] = []
        var disposed: Set<ObjectIdentifier> = []
        for entry in taken.reversed() where Self.isFirstDisposal(of: entry, in: &disposed) {
            do {
                if let disposable = entry.instance as? any AsyncDisposable {
                    try await disposable.dispose()
                } else {
                    try (entry.instance as! any Disposable).dispose()
                }
            } catch {
                failures.append(.disposalFailed(entry.key, error: error))
            }
        }
        try Self.report(failures, of: owner)
    }

    private static func dispose(_ entries: [Entry], of owner: String) throws {
        var failures: [InjectionError] = []
        var disposed: Set<ObjectIdentifier> = []
        for entry in entries.reversed() where isFirstDisposal(of: entry, in: &disposed) {
            do { try (entry.instance as! any Disposable).dispose() } catch {
                failures.append(.disposalFailed(entry.key, error: error))
            }
        }
        try report(failures, of: owner)
    }

    /// Whether `entry` is the first of its instance to be disposed: a class instance recorded
    /// twice (returned by two registrations) is disposed once.
    private static func isFirstDisposal(of entry: Entry, in disposed: inout Set<ObjectIdentifier>) -> Bool {
        guard let object = weakReferenceable(entry.instance) else { return true }
        return disposed.insert(ObjectIdentifier(object)).inserted
    }

    private static func report(_ failures: [InjectionError], of owner: String) throws {
        guard !failures.isEmpty else { return }
        throw InjectionError.disposalsFailed(failures, owner: owner)
    }
}
