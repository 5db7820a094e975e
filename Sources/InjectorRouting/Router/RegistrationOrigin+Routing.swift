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

import Injector

// What the router tells the container of its registrations, for the container's messages: a
// duplicate, a cycle or a failure found by `container.validate()` or a resolve speaks of the route
// or adapter the user wrote, and gives a fix the router has.

extension RegistrationOrigin {
    /// A route registered with a closure (which is its factory) or a module route.
    static let route = RegistrationOrigin(call: "router.register", duplicateFix: routeDuplicateFix)

    /// A route type: `The route DraftRoute of Editor threw`.
    static func route(named name: String) -> RegistrationOrigin {
        RegistrationOrigin(
            call: "router.register",
            maker: "route \(name)",
            duplicateFix: routeDuplicateFix
        )
    }

    /// An adapter: it resolves the protocol it is adapted to and casts.
    static let adapter = RegistrationOrigin(
        call: "router.adapt",
        maker: "adapter",
        cycleAdvice: "Each of these is adapted to the next, so none of them leads to a route. Fix: adapt one of "
            + "them to a protocol that has a route of its own.",
        duplicateFix: "Fix: a protocol is served by one registration: its route, one adapter, or a register call. "
            + "Remove the adapter, or the registration it duplicates.",
        isReplaceable: false
    )

    private static let routeDuplicateFix =
        "Fix: remove all but one; or pass replacesExisting: true to the one meant to replace the others "
        + "(router.register takes it too), as a test does when it swaps in a double."
}
