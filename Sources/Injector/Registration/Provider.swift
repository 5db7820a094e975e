/// What the registry holds for one key: the factory, its scope, where it was registered, and any
/// problem recorded against the key (a duplicate or a late registration).
///
/// Providers are immutable, so resolution reads them without a lock. Amending a registration (adding
/// a hook, recording a duplicate) replaces the provider in the registry with a copy that shares the
/// original's instance storage.
class AnyProvider: @unchecked Sendable {
    let key: ServiceKey
    let scope: Scope
    let site: RegistrationSite
    /// A duplicate or late registration of this key: resolving it throws.
    let conflict: Conflict?
    /// A `Preparation<Service>` with the registration's hooks and checks, or `nil` when there are none.
    let preparation: AnyObject?

    init(key: ServiceKey, scope: Scope, site: RegistrationSite, conflict: Conflict?, preparation: AnyObject?) {
        self.key = key
        self.scope = scope
        self.site = site
        self.conflict = conflict
        self.preparation = preparation
    }

    /// A copy with `conflict` recorded; subclasses keep their factory and instance storage.
    func copy(conflict: Conflict?, preparation: AnyObject?) -> AnyProvider {
        fatalError("AnyProvider is abstract")
    }
}

/// The provider for a service whose factory takes the arguments `Argument…` at resolve time.
///
/// Its key (service type and argument types) is what the registry is indexed by, so a lookup with a
/// key built from `Service` and `Argument…` always finds a provider of exactly this type.
final class Provider<Service, each Argument>: AnyProvider, @unchecked Sendable {
    typealias Factory = @Sendable (Resolver, repeat each Argument) throws -> Service

    let factory: Factory
    /// The instance of a singleton registration, once published; `nil` for other scopes.
    let singleton: SingletonSlot<Service>?
    /// The instance of a weak registration, while something holds it; `nil` for other scopes.
    let weakSlot: WeakSlot?

    init(key: ServiceKey, scope: Scope, site: RegistrationSite, factory: @escaping Factory) {
        self.factory = factory
        singleton = scope.kind == .singleton ? SingletonSlot() : nil
        weakSlot = scope.kind == .weak ? WeakSlot() : nil
        super.init(key: key, scope: scope, site: site, conflict: nil, preparation: nil)
    }

    private init(copying original: Provider, conflict: Conflict?, preparation: AnyObject?) {
        factory = original.factory
        singleton = original.singleton
        weakSlot = original.weakSlot
        super.init(
            key: original.key, scope: original.scope, site: original.site,
            conflict: conflict, preparation: preparation)
    }

    override func copy(conflict: Conflict?, preparation: AnyObject?) -> AnyProvider {
        Provider(copying: self, conflict: conflict, preparation: preparation)
    }

    /// The registration's hooks and checks, typed.
    var typedPreparation: Preparation<Service>? {
        preparation.map { unsafeDowncast($0, to: Preparation<Service>.self) }
    }
}

/// A duplicate or late registration recorded against a key.
struct Conflict: Sendable {
    /// Every site that registered the key, in order.
    let sites: [RegistrationSite]
    /// Whether a registration came after ``Container/finishRegistration()``.
    let isLate: Bool
}
