import Injector
import Swinject

// Both libraries name their central types `Container` and `Resolver`; the cases use these
// aliases so that every file can import both modules.

/// Injector's container.
typealias InjectorContainer = Injector.Container
/// Swinject's container (not thread-safe: case G uses `synchronize()`).
typealias SwinjectContainer = Swinject.Container
/// What Swinject's `synchronize()` returns and its factories receive.
typealias SwinjectResolver = Swinject.Resolver
