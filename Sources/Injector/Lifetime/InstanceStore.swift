/// Shared instances kept apart from a container's own: one lifetime scope's scoped instances, or the
/// singletons made under test overrides or by validation. Each is keyed by its registration.
///
/// Instances are published here once the resolution that built them completes, as singletons are;
/// construction is serialised per store: by a recursive lock for sync resolutions (held until the
/// resolution ends), by a lock per registration for async ones.
@usableFromInline
final class InstanceStore: Sendable {
    @usableFromInline let constructionLock = Locked.make((), recursive: true)
    @usableFromInline let disposals = DisposalBag()
    private let instances = Locked.make([ObjectIdentifier: AnyObject]())
    private let asyncGates = Locked.make([ObjectIdentifier: AsyncLock]())

    /// The published instance (an `InstanceBox`) of `record`'s registration, if any.
    @usableFromInline func instance(of record: ProviderRecord) -> AnyObject? {
        instances.withLock { $0[ObjectIdentifier(record)] }
    }

    @usableFromInline func publish(_ box: AnyObject, of record: ProviderRecord) {
        instances.withLock { $0[ObjectIdentifier(record)] = box }
    }

    /// The lock serialising async construction of `record`'s registration in this store.
    func asyncGate(of record: ProviderRecord) -> AsyncLock {
        asyncGates.withLock { gates in
            if let gate = gates[ObjectIdentifier(record)] { return gate }
            let gate = AsyncLock()
            gates[ObjectIdentifier(record)] = gate
            return gate
        }
    }

    /// Drops every instance, once they have been disposed.
    func removeAll() {
        instances.withLock { $0.removeAll() }
    }
}
