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

/// A destination still alive after its view route was removed and the grace period passed:
/// something (a closure, a delegate, a cache) keeps a screen the user can no longer see.
public struct ViewLeak: Sendable, CustomStringConvertible {
    /// The route, as messages name it: `RoutableView<EditorView>`.
    public let route: String
    /// The destination's type.
    public let destinationType: Any.Type
    /// How long after the removal it was still alive.
    public let gracePeriod: Duration

    /// `EditorScreen of RoutableView<EditorView> is still alive 2 seconds after its route was removed`.
    public var description: String {
        "\(typeName(destinationType)) of \(route) is still alive \(gracePeriod) after its route was removed: "
            + "something still holds it (a closure capturing it strongly, a delegate, a cache). Fix: hold it weakly, "
            + "or let go of it when the screen goes away."
    }
}

extension Router {
    /// Called with each destination still alive `leakGracePeriod` after its view route was removed,
    /// on the router's `clock`. Only transient and graph registrations are checked: the container
    /// keeps the destinations of singleton, weak and scoped registrations on purpose (a scoped one
    /// until its lifetime scope closes), so they are meant to outlive a route and are never
    /// reported.
    ///
    /// ```swift
    /// router.leakHandler = { leak in assertionFailure(leak.description) }
    /// ```
    @MainActor
    public var leakHandler: (@MainActor (ViewLeak) -> Void)? {
        get { storage.views.leakHandler }
        set { storage.views.leakHandler = newValue }
    }

    /// How long after a removal a destination may still be alive before it is reported; 2 seconds
    /// unless set.
    @MainActor
    public var leakGracePeriod: Duration {
        get { storage.views.leakGracePeriod }
        set { storage.views.leakGracePeriod = newValue }
    }

    /// Checks, after the grace period on the router's clock, that `destination` has gone.
    @MainActor
    func checkForLeak(of destination: AnyObject, route: RouteRecord, label: String) {
        // A destination the container keeps (a singleton, weak or scoped one) outlives its route on purpose.
        guard !route.sharesDestination, storage.views.leakHandler != nil else { return }
        let gracePeriod = storage.views.leakGracePeriod
        let clock = clock
        let views = storage.views
        let type: any AnyObject.Type = Swift.type(of: destination)
        Task { @MainActor [weak destination] in
            try? await clock.sleep(for: gracePeriod)
            guard destination != nil else { return }
            views.leakHandler?(ViewLeak(route: label, destinationType: type, gracePeriod: gracePeriod))
        }
    }
}
