//===----------------------------------------------------------------------===//
//
// This source file is part of the Injector open source project
//
// Copyright (c) 2026 the Injector project authors
// Licensed under Apache License v2.0
//
// See LICENSE.txt for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Every case, in table order. `--filter` selects among them by letter or title.
///
/// To add a case: write `Cases/CaseX_Name.swift` with a type conforming to
/// ``ResolutionCase`` (one operation timed per contender) or ``BenchmarkCase`` (anything
/// else), and list it here.
let allCases: [any BenchmarkCase] = [
    TransientCase(),  // A
    DeclaredTransientCase(),  // A, registered the declared way
    TransientGraphCase(),  // B
    DeclaredTransientGraphCase(),  // B, declared
    SingletonCase(),  // C
    GraphDiamondCase(),  // D, all four `.graph` (the target's case)
    SharedLeafDiamondCase(),  // D as before issue 9: only the shared D `.graph`
    DeclaredGraphDiamondCase(),  // D, all `.graph`, declared
    ArgumentsCase(),  // E
    RegistrationCase(),  // F
    ThreadsCase(),  // G
    RequestScopeCase(),  // H
    // I, in two halves that `--filter I` runs together and `--filter "service route"` or
    // `--filter "url lookup"` apart (a profiler wants one): `Router.makeDestination(to:
    // RoutableService<P>())` against `container.resolve(P.self)` of the same registration and
    // against direct construction; `router.to(url:as:)` among 100 and among 10,000 URL patterns.
    // Their sides are not the contenders, so they report tables of their own (`Report.ratios`),
    // with their targets.
    ServiceRouteCase(),  // I
    URLLookupCase(),  // I
    ServerRequestCase(),  // J, the server example's request
    RouteRegistrationCase(),  // K, its own table too
]
