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
/// something (a closure, a delegate, a cache) keeps a screen the user can no longer see. A scoped
/// destination, or a disposable one a lifetime scope made, which the scope keeps on purpose, is
/// checked once its route was removed and its scope closed.
public struct ViewLeak: CustomStringConvertible {
    /// The route, as messages name it: `RoutableView<EditorView>`.
    public let route: String
    /// The destination still alive, held weakly: what a handler inspects (its owners, in a memory
    /// graph) without keeping it alive longer.
    public private(set) weak var destination: AnyObject?
    /// The destination's type.
    public let destinationType: Any.Type
    /// How long after the removal (for a scoped destination, after the later of the removal and its
    /// scope's close) it was still alive.
    public let gracePeriod: Duration
    /// Whether the destination was checked from when its lifetime scope closed: a scoped one, or a
    /// disposable one the scope made.
    public let isScoped: Bool

    /// `EditorScreen of RoutableView<EditorView> is still alive 2 seconds after its route was removed`
    /// (`… was removed and its lifetime scope closed` for a scoped destination).
    public var description: String {
        "\(typeName(destinationType)) of \(route) is still alive \(gracePeriod) after its route was removed"
            + (isScoped ? " and its lifetime scope closed" : "")
            + ": something still holds it (a closure capturing it strongly, a delegate, a cache). Fix: hold it "
            + "weakly, or let go of it when the screen goes away."
    }
}

extension Router {
    /// Called with each destination still alive `leakGracePeriod` after its view route was removed,
    /// on the router's `clock`. The container keeps the destinations of singleton and weak
    /// registrations on purpose, so they are never reported, nor is one an override
    /// (`Container/withOverrides(_:operation:)`) made, whose lifetime the router does not know; a
    /// scoped destination, and a disposable one made in a lifetime scope (`resolving(in:)`), are
    /// checked once their route was removed and their lifetime scope closed, the scope having kept them
    /// until then. A screen given to `perform(onDestination:for:path:)` is checked from its removal,
    /// whatever the registration's scope: the container does not keep it.
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

    /// Checks, as `leakHandler` says, that `destination`, whose route was just removed, goes; `isGiven`
    /// for a screen given to `perform(onDestination:for:path:)`.
    @MainActor
    func checkForLeak(of destination: AnyObject, route: RouteRecord, label: String, isGiven: Bool) {
        let views = storage.views
        // An override's destination lives as the override says, which the router does not know.
        guard views.leakHandler != nil, isGiven || !route.madeByOverride else { return }
        let key = ObjectIdentifier(destination)
        let clock = clock
        let scope: LifetimeScope? = if case .scope(let scope) = source { scope } else { nil }
        // A lifetime scope keeps the disposable destinations it makes, transient ones too, to dispose them.
        let isDisposable = destination is any Disposable || destination is any AsyncDisposable
        if !isGiven, route.isScoped || (isDisposable && !route.sharesDestination && scope != nil) {
            // A scoped destination is resolved in the scope of the router that performed it.
            guard let scope, let id = views.beginLeakCheck(of: destination, awaitingScope: true)
            else { return }
            scope.afterClosing {
                let sinceClose = Self.gracePeriod(startingNowOn: clock)
                Task { @MainActor in
                    guard views.scopeClosed(forLeakCheck: id, of: key) else { return }
                    await Self.reportIfAlive(id, of: key, label: label, isScoped: true, views, sinceClose)
                }
            }
        } else if isGiven || !route.sharesDestination,  // the container keeps a singleton or weak one on purpose
            let id = views.beginLeakCheck(of: destination, awaitingScope: false)
        {
            // Counted from the removal, not from when the task starts: a test that advances a manual
            // clock at once sees the report at its next yield.
            let sinceRemoval = Self.gracePeriod(startingNowOn: clock)
            Task { @MainActor in
                await Self.reportIfAlive(id, of: key, label: label, isScoped: false, views, sinceRemoval)
            }
        }
    }

    /// A grace period that starts now on `clock`: waits until it ends, given its length.
    private static func gracePeriod<C: Clock<Duration>>(startingNowOn clock: C) -> @Sendable (Duration) async -> Void {
        let start = clock.now
        return { duration in try? await clock.sleep(until: start.advanced(by: duration), tolerance: nil) }
    }

    /// Reports the destination of check `id` (`key`) if it is still alive after the grace period,
    /// unless a route shows it again or a later removal took the check over.
    @MainActor
    private static func reportIfAlive(
        _ id: Int,
        of key: ObjectIdentifier,
        label: String,
        isScoped: Bool,
        _ views: ViewRoutingState,
        _ waitUntilEnd: @Sendable (Duration) async -> Void
    ) async {
        let gracePeriod = views.leakGracePeriod
        await waitUntilEnd(gracePeriod)
        guard let destination = views.endLeakCheck(id, of: key) else { return }
        let leak = ViewLeak(
            route: label,
            destination: destination,
            destinationType: type(of: destination),
            gracePeriod: gracePeriod,
            isScoped: isScoped
        )
        views.leakHandler?(leak)
    }
}
