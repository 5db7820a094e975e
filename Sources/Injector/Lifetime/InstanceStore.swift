/// Shared instances kept apart from a container's own: one lifetime scope's scoped instances, or the
/// singletons made under test overrides or by validation. Each is keyed by its registration.
///
/// Instances are published here once the resolution that built them completes, as singletons are;
/// construction is serialised per store: by a recursive lock for sync resolutions (held until the
/// resolution ends), by a lock per registration for async ones.
@usableFromInline
final class InstanceStore: Sendable {
    private struct State {
        /// `InstanceBox`es, keyed by registration.
        var instances: [ObjectIdentifier: AnyObject] = [:]
        var asyncGates: [ObjectIdentifier: AsyncLock] = [:]
    }

    @usableFromInline let constructionLock = Locked.make((), recursive: true)
    @usableFromInline let disposals = DisposalBag()
    private let state = Locked.make(State())

    /// The published instance (an `InstanceBox`) of `record`'s registration, if any.
    @usableFromInline func instance(of record: ProviderRecord) -> AnyObject? {
        state.withLock { $0.instances[ObjectIdentifier(record)] }
    }

    @usableFromInline func publish(_ box: AnyObject, of record: ProviderRecord) {
        state.withLock { $0.instances[ObjectIdentifier(record)] = box }
    }

    /// The lock serialising async construction of `record`'s registration in this store.
    func asyncGate(of record: ProviderRecord) -> AsyncLock {
        state.withLock { state in
            if let gate = state.asyncGates[ObjectIdentifier(record)] { return gate }
            let gate = AsyncLock()
            state.asyncGates[ObjectIdentifier(record)] = gate
            return gate
        }
    }

    /// Drops every instance, once they have been disposed.
    func removeAll() {
        state.withLock { $0 = State() }
    }
}
