/// Every case, in table order. `--filter` selects among them by letter or title.
///
/// To add a case: write `Cases/CaseX_Name.swift` with a type conforming to
/// ``ResolutionCase`` (one operation timed per contender) or ``BenchmarkCase`` (anything
/// else), and list it here.
let allCases: [any BenchmarkCase] = [
    TransientCase(),  // A
    TransientGraphCase(),  // B
    SingletonCase(),  // C
    GraphDiamondCase(),  // D
    ArgumentsCase(),  // E
    RegistrationCase(),  // F
    ThreadsCase(),  // G

    // ── Cases to come ─────────────────────────────────────────────────────────────────
    // H. Request scope (a later issue): resolve a scoped service inside
    //    `container.makeScope()` … `scope.close()`, against Swinject's custom ObjectScope
    //    and a hand-written per-request holder. Add `RequestScopeCase()` here.
    // I. Service route (a later issue): `Router.makeDestination(to: RoutableService<P>())`
    //    against a plain resolve of the same service. Add `ServiceRouteCase()` here.
]
