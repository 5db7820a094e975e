import Synchronization

/// A shared instance in a class box, so it can be published through an atomic reference.
final class InstanceBox<Service>: @unchecked Sendable {
    let value: Service
    init(_ value: Service) { self.value = value }
}

/// Where a singleton lives once built. Reading it is one atomic load: no lock, no allocation.
final class SingletonSlot<Service>: Sendable {
    private let reference = AtomicLazyReference<InstanceBox<Service>>()

    var instance: Service? { reference.load()?.value }

    /// Publishes `box`; the first publication wins (there is only one: construction is serialised).
    func publish(_ box: InstanceBox<Service>) { _ = reference.storeIfNil(box) }
}

/// Where a weak registration's instance lives while something else holds it.
final class WeakSlot: Sendable {
    private struct Reference { weak var object: AnyObject? }
    private let reference = Locked.make(Reference())

    var object: AnyObject? { reference.withLock { $0.object } }

    func publish(_ object: AnyObject) { reference.withLock { $0.object = object } }
}
