import Synchronization

/// How many `withOverrides` calls are running in the whole process. While there are none, a lookup
/// pays one relaxed atomic load for overrides, and reads no task-local value.
@usableFromInline let activeOverrideCount = Atomic<Int>(0)

/// Whether some task may be running with overrides.
@inlinable var overridesMayBeActive: Bool { activeOverrideCount.load(ordering: .relaxed) != 0 }

/// The overrides a task resolves with: registrations that take precedence over a container's (and
/// its children's and scopes') for the length of a `withOverrides` call, in that task and the tasks
/// it starts.
final class ActiveOverrides: Sendable {
    @TaskLocal static var bound: ActiveOverrides?

    /// The overrides in effect for the current task, if any.
    static var current: ActiveOverrides? { overridesMayBeActive ? bound : nil }

    /// The container the overrides apply to, with its children and scopes.
    let target: Container
    /// The override registrations.
    let registrations: Container
    /// The singletons and weak instances resolved while the overrides are in effect: built afresh,
    /// so that each sees the overrides and none outlives them.
    let store = InstanceStore()
    /// Overrides in effect around these ones, which they extend.
    let outer: ActiveOverrides?

    init(target: Container, registrations: Container, outer: ActiveOverrides?) {
        self.target = target
        self.registrations = registrations
        self.outer = outer
    }

    /// The override for `key` when looking up from `lookup`, if there is one.
    func provider(for key: LookupKey, lookup: Container) -> Unmanaged<AnyProvider>? {
        if lookup.descends(from: target), let provider = registrations.registeredProvider(for: key) { return provider }
        return outer?.provider(for: key, lookup: lookup)
    }
}

extension Container {
    /// Whether this container is `ancestor` or one of its children, at any depth.
    func descends(from ancestor: Container) -> Bool {
        var current: Container? = self
        while let container = current {
            if container === ancestor { return true }
            current = container.parent
        }
        return false
    }
}
