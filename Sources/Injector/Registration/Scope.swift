/// How long an instance made by a registration lives, and who shares it.
///
/// The default is ``transient``: a registration that says nothing shares nothing, so what its
/// factory builds is what the caller gets. Sharing is opted into at the registration site, where a
/// reader can see it.
///
/// | scope | one instance per |
/// |---|---|
/// | ``transient`` | resolve, even within one graph |
/// | ``graph`` | top-level resolve call, shared by every nested resolve of that call |
/// | ``singleton`` | container that registered it, made on first use, exactly once |
/// | ``weak`` | container, for as long as something else holds the instance |
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case transient
        case graph
        case singleton
        case weak
    }

    @usableFromInline let kind: Kind

    /// A new instance for every resolve, even within one resolution graph.
    public static let transient = Scope(kind: .transient)

    /// One instance per top-level resolve: every nested resolve of that call shares it, and nothing
    /// keeps it after the call returns. This is what makes property cycles resolve to one instance.
    public static let graph = Scope(kind: .graph)

    /// One instance per container that registered it, made on first use, exactly once even when many
    /// threads ask at the same moment. Child containers share it. Shared instances cross threads:
    /// make them `Sendable` or otherwise thread-safe.
    ///
    /// - The instance is published once the resolve that built it has completed, after its
    ///   `onResolved` hooks: no other thread sees it half-prepared. If that resolve fails, the
    ///   instance is dropped, and the next resolve builds it again.
    /// - Shared instances of one container tree are built one at a time, under a lock held until the
    ///   resolve that builds them completes: a factory must not wait for another thread that
    ///   resolves from the same tree.
    /// - A registration with resolve-time arguments is built from the arguments of the first
    ///   resolve; later resolves return that instance, whatever their arguments.
    public static let singleton = Scope(kind: .singleton)

    /// One instance per container for as long as something else holds it; once every holder has let
    /// go, the next resolve makes a new one. The factory must return a class instance. Built and
    /// published as ``singleton`` instances are.
    public static let weak = Scope(kind: .weak)

    /// The scope's name, as written at a registration: `transient`, `graph`, `singleton` or `weak`.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .graph: "graph"
        case .singleton: "singleton"
        case .weak: "weak"
        }
    }
}
