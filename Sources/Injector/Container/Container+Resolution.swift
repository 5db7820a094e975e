extension Container {
    /// Resolves an instance of `service`, registered under `name` with the given argument types.
    ///
    /// ```swift
    /// let store  = try container.resolve(NoteStore.self)
    /// let pdf    = try container.resolve(Exporter.self, name: "pdf")
    /// let editor = try container.resolve(Editor.self, arguments: note, readOnly)   // dynamic injection
    /// let draft  = try container.resolve(Editor.self) { $0.title = "Draft" }     // caller's configure
    /// ```
    ///
    /// Each call is one resolution graph: ``Scope/graph`` instances are shared by everything it
    /// builds, and dropped when it returns. A published singleton is returned without a lock.
    ///
    /// - Parameters:
    ///   - service: The type to resolve; may be left out where the result's type says it.
    ///   - name: The name it was registered under, if any.
    ///   - arguments: Values for the factory's resolve-time parameters, in order.
    ///   - configure: Shapes the new instance before the registration's own hooks run (dynamic
    ///     injection). Only for ``Scope/transient`` and ``Scope/graph`` registrations: on a shared
    ///     instance it throws ``InjectionError/Code/sharedInstanceConfigured``.
    /// - Returns: The instance, made or shared as the registration's scope says.
    /// - Throws: ``InjectionError`` when the service cannot be resolved; its message says what was
    ///   asked, the path that led there, what is registered nearby, and how to fix it.
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument,
        configure: ((inout Service) throws -> Void)? = nil
    ) throws -> Service {
        let key = LookupKey(service, arguments: repeat (each Argument).self, name: name)
        let found = provider(for: key)
        // A published singleton: one atomic load, no lock, no reference count on shared objects.
        if configure == nil, let found,
            let instance = Provider<Service, repeat each Argument>.borrowing(found, { provider in
                provider.conflict == nil ? provider.singleton?.instance : nil
            })
        {
            return instance
        }
        let context = ResolutionContext.begin()
        defer { context.end() }
        let instance: Service = try context.resolve(
            key, found: found, from: self, arguments: repeat each arguments, configure: configure)
        try context.complete()
        return instance
    }

    /// Resolves an instance of `service` whose factory takes one resolve-time argument.
    ///
    /// The same as ``resolve(_:name:arguments:configure:)`` with one argument; it reads better at
    /// the call site: `try container.resolve(Editor.self, argument: note)`.
    @inlinable
    public func resolve<Service, Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument,
        configure: ((inout Service) throws -> Void)? = nil
    ) throws -> Service {
        try resolve(service, name: name, arguments: argument, configure: configure)
    }

    /// Resolves one instance per registration of `service` taking no arguments, named or not: the
    /// root container's registrations first, then each child's, each in registration order.
    ///
    /// All of them are built in one resolution graph. A key a child shadows keeps its place and
    /// resolves to the child's registration.
    ///
    /// ```swift
    /// container.register(Plugin.self, name: "spelling") { _ in SpellingPlugin() }
    /// container.register(Plugin.self, name: "word count") { _ in WordCountPlugin() }
    /// let plugins = try container.resolveAll(Plugin.self)   // [SpellingPlugin, WordCountPlugin]
    /// ```
    ///
    /// - Returns: The instances, or an empty array when there is no registration.
    /// - Throws: ``InjectionError`` when one of the registrations cannot be resolved.
    public func resolveAll<Service>(_ service: Service.Type = Service.self) throws -> [Service] {
        let context = ResolutionContext.begin()
        defer { context.end() }
        let instances = try context.resolveAll(service, from: self)
        try context.complete()
        return instances
    }
}
