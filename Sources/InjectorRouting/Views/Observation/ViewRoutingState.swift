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

/// What one router keeps for view routing, on the main actor: the transition in flight, the
/// observers, and the leak handler with its grace period.
@MainActor
final class ViewRoutingState {
    /// The view route whose perform or removal is under way, from its start (preparation included)
    /// until its transition has ended: another view perform or removal meanwhile is unbalanced. Held
    /// weakly: a route freed in flight (its host let go of the completion uncalled) can never end it.
    private weak var inFlightRoute: AnyObject?
    private var inFlightLabel = ""
    var observers: [ViewRouteObserver] = []
    /// The routes shown for interceptors' redirects while a saved navigation is restored (`nil`
    /// otherwise): a restore that fails removes them with its own.
    var redirectsShown: [ViewRoute<Any>]?
    var leakHandler: (@MainActor (ViewLeak) -> Void)?
    var leakGracePeriod: Duration = .seconds(2)
    /// The leak check of each removed destination, by destination: one per screen, however often
    /// its route was removed (a scoped screen is the same one each time its scope shows it), and
    /// for every router, since another router (another window's) may show the screen again.
    private static var leakChecks: [ObjectIdentifier: LeakCheck] = [:]
    private static var leakCheckCount = 0
    /// How many checks were left by the last sweep of those whose screen is gone (`sweepLeakChecks()`).
    private static var leakChecksAfterSweep = 0

    /// The leak check of a screen whose route was removed.
    private struct LeakCheck {
        let id: Int
        weak var screen: AnyObject?
        /// Whether the check waits for the screen's lifetime scope to close.
        var awaitsScope: Bool
        /// Whether a route shows the screen again since the removal: then it is no leak.
        var isShown = false
    }

    nonisolated init() {}

    /// The route whose transition is in flight, as messages name it.
    var inFlight: String? { inFlightRoute == nil ? nil : inFlightLabel }

    /// Marks `route`'s transition in flight.
    func begin(_ route: AnyObject, label: String) {
        inFlightRoute = route
        inFlightLabel = label
    }

    /// Lets a route an interceptor redirected to take over the transition of the route it was
    /// redirected from.
    func handOver() { inFlightRoute = nil }

    /// Marks `route`'s transition ended, unless another route's began since (one an interceptor
    /// redirected to, say).
    func end(_ route: AnyObject) {
        if inFlightRoute === route { inFlightRoute = nil }
    }

    /// Starts the leak check of `destination`, whose route was just removed; `nil` when one still
    /// waits for its scope to close (that one now counts this removal). A check started before for
    /// the same screen is replaced: one screen, one report.
    func beginLeakCheck(of destination: AnyObject, awaitingScope: Bool) -> Int? {
        let key = ObjectIdentifier(destination)
        if awaitingScope, let check = Self.leakChecks[key], check.screen === destination, check.awaitsScope {
            Self.leakChecks[key]?.isShown = false
            return nil
        }
        sweepLeakChecks()
        Self.leakCheckCount += 1
        Self.leakChecks[key] = LeakCheck(id: Self.leakCheckCount, screen: destination, awaitsScope: awaitingScope)
        return Self.leakCheckCount
    }

    /// Forgets the checks whose screen is gone, once their number has doubled since the last sweep.
    /// A check waiting for a scope that is never closed (its maker dropped it) is ended by nothing
    /// else; once the scope has let go of the screen, it has nothing left to report.
    private func sweepLeakChecks() {
        guard Self.leakChecks.count >= max(2 * Self.leakChecksAfterSweep, 64) else { return }
        Self.leakChecks = Self.leakChecks.filter { $0.value.screen != nil }
        Self.leakChecksAfterSweep = Self.leakChecks.count
    }

    /// How many leak checks are under way, or waiting for a scope to close, in the whole process.
    static var pendingLeakChecks: Int { leakChecks.count }

    /// A route shows `destination` again: a check started by an earlier removal does not report it.
    func shows(_ destination: AnyObject) {
        let key = ObjectIdentifier(destination)
        guard Self.leakChecks[key]?.screen === destination else { return }
        Self.leakChecks[key]?.isShown = true
    }

    /// The scope of the screen of check `id` (`key`) closed: whether its grace period starts now. A
    /// screen shown again is checked when its route is removed again.
    func scopeClosed(forLeakCheck id: Int, of key: ObjectIdentifier) -> Bool {
        guard Self.leakChecks[key]?.id == id else { return false }
        guard Self.leakChecks[key]?.isShown == false else {
            Self.leakChecks[key] = nil
            return false
        }
        Self.leakChecks[key]?.awaitsScope = false
        return true
    }

    /// Ends check `id` (`key`) after its grace period: the screen, if it is still alive and may be
    /// reported (no route shows it again, and no later removal took the check over).
    func endLeakCheck(_ id: Int, of key: ObjectIdentifier) -> AnyObject? {
        guard let check = Self.leakChecks[key], check.id == id else { return nil }
        Self.leakChecks[key] = nil
        return check.isShown ? nil : check.screen
    }

    /// Tells the observers of `destination`'s type, as `Router/addObserver(for:_:)` says.
    func tell(_ event: ViewRouteEvent, destination: AnyObject, source: AnyObject?, route: String) {
        for observer in observers { observer.tell?(event, destination, source, route) }
    }

    /// Removes `observer` and lets go of its closure (and what it captures), so that it is told
    /// nothing more, also while observers are told of an event.
    func remove(_ observer: ViewRouteObserver) {
        observer.tell = nil
        observers.removeAll { $0 === observer }
    }
}
