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
    TransientGraphCase(),  // B
    SingletonCase(),  // C
    GraphDiamondCase(),  // D
    ArgumentsCase(),  // E
    RegistrationCase(),  // F
    ThreadsCase(),  // G
    RequestScopeCase(),  // H

    // ── Cases to come ─────────────────────────────────────────────────────────────────
    // I. Service route (a later issue): `Router.makeDestination(to: RoutableService<P>())`
    //    against a plain resolve of the same service. Add `ServiceRouteCase()` here.
]
