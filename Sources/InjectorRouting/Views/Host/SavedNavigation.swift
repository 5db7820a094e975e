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

/// What a `HeadlessNavigationHost` shows, as a value to save and restore: the screens routes showed,
/// each with its route and the transition from the screen it was shown from, in the order they were
/// shown. Made by `HeadlessNavigationHost/savedNavigation()`, shown again by
/// `HeadlessNavigationHost/restore(_:through:)`.
public struct SavedNavigation: Codable, Sendable, Equatable {
    /// One screen or view a route showed.
    public struct Screen: Codable, Sendable, Equatable {
        /// The view protocol its route was performed by, by name (`EditorView`); `nil` when it was
        /// opened by URL.
        public let view: String?
        /// The URL it was opened by, which carries its parameters; `nil` when it was performed by protocol.
        public let url: String?
        /// The style its route was performed with, as asked (`show`, not the push it became).
        public let style: ViewTransitionStyle
        /// The screen it was shown from: `0` for the host's root (a split screen's primary), `1` for a
        /// split screen's detail the host was made with, `n + 2` for `screens[n]`.
        public let source: Int
    }

    /// The screens routes showed, in the order they were shown: each after the one it was shown from.
    public let screens: [Screen]
}

/// The route a transition shows its destination for, as saved navigation names it, or why it cannot
/// be named: what `ViewRoute` hands the host with each transition.
enum SavedRoute {
    /// A `SavedNavigation/Screen`'s `view` and `url`.
    case route(view: String?, url: String?)
    /// Completes `SignInScreen (presented modally from HomeScreen) …`.
    case unsaved(because: String)
}

// Saving what the host shows, and showing it again on a fresh host: each screen's route is performed
// again through the router, as it was the first time.

extension HeadlessNavigationHost {
    /// What the host shows, as a value to encode and show again with ``restore(_:through:)``: each
    /// screen a route showed, with that route (its view protocol, or the URL that opened it) and its
    /// transition, in the order they were shown. The screens the host was made with are not in it:
    /// the restoring host is made with its own.
    ///
    /// - Throws: `RoutingError` with code `RoutingError/Code/invalidConfiguration`, naming every
    ///   screen that no route can show again as it is: one shown without a route, by a view module
    ///   route or after a caller's `prepareDestination` (closures a value cannot hold), one given to
    ///   `perform(onDestination:for:path:)`, or one whose source is no longer shown. Nothing is saved
    ///   then, rather than a navigation that restores differently.
    public func savedNavigation() throws -> SavedNavigation {
        // Each screen's number as a source: the host's own top-level screens, then the saved ones; -1
        // for a screen not saved, whose own screens are then left out of the error.
        var positions: [ObjectIdentifier: Int] = [:]
        for (position, root) in roots.enumerated() where root.requested == nil {
            positions[ObjectIdentifier(root)] = position
        }
        var screens: [SavedNavigation.Screen] = []
        var unsaved: [String] = []
        for node in nodes.values.sorted(by: { $0.order < $1.order }) {
            guard let requested = node.requested else { continue }
            positions[ObjectIdentifier(node)] = -1
            let why: String
            switch (node.savedRoute, node.source.flatMap { positions[ObjectIdentifier($0)] }) {
            case (.unsaved(let reason), _): why = reason
            case (nil, _): why = "was not shown by a route"
            case (_, nil): why = "was shown from a screen that is no longer shown"
            case (_, let source?) where source < 0: continue
            case (.route(let view, let url), let source?):
                screens.append(SavedNavigation.Screen(view: view, url: url, style: requested, source: source))
                positions[ObjectIdentifier(node)] = screens.count + 1
                continue
            }
            unsaved.append("\(node.name) (\(node.arrivalDescription)) \(why)")
        }
        guard unsaved.isEmpty else { throw RoutingError.unsavedScreens(unsaved) }
        return SavedNavigation(screens: screens)
    }

    /// Shows `saved` again on this host, made as the one that saved it (with its own root), through
    /// `router`, whose host this is: performs each screen's route again, in order, with the same
    /// transition from the same screen. Transitions complete at once meanwhile.
    ///
    /// Nothing is shown unless everything is: every route is looked up first (a view protocol by
    /// name, a URL by the router's patterns); if a perform then fails, the routes performed before it
    /// are removed, last first (even if a removal hook throws), with the one an interceptor redirected
    /// it to and showed, and its error is thrown.
    ///
    /// - Returns: The routes performed, in the order of `saved`'s screens, to remove them later.
    /// - Throws: `RoutingError`: `RoutingError/Code/invalidProtocol` naming every route the router has
    ///   no view route (or several) for; `RoutingError/Code/invalidConfiguration` when a screen is
    ///   shown from one this host does not have, or when `router`'s host is another; or the error of
    ///   the perform that failed.
    @discardableResult
    public func restore(_ saved: SavedNavigation, through router: Router) throws -> [ViewRoute<Any>] {
        guard router.host === self else { throw router.reported(.restoredThroughAnotherHost(router.host)) }
        let table = router.storage.table
        let views = Set(table.records.keys).union(table.adapters.keys).filter { $0.kind == .view }
        var requests: [RouteRequest] = []
        var missing: [String] = []
        for (index, screen) in saved.screens.enumerated() {
            let route = screen.url.map { "the URL \"\($0)\"" } ?? "RoutableView<\(screen.view ?? "")>"
            guard (0..<index + 2).contains(screen.source), screen.source != 1 || roots.count == 2 else {
                throw router.reported(.savedNavigationMisfit(route, source: screen.source))
            }
            let named = views.filter { $0.description == screen.view }
            // By its URL if it was opened by one, else by its protocol's name, which one route must have.
            let found =
                screen.url == nil
                ? named.first.map { RouteRequest(key: $0, action: .performRoute) }
                : screen.url.flatMap { try? router.request(url: $0, action: .performRoute) }
            if let found, found.key.kind == .view, screen.url != nil || named.count == 1 {
                requests.append(found)
            } else {
                missing.append(
                    route
                        + (screen.url == nil && named.count > 1
                            ? " (\(named.count) view protocols have that name)" : "")
                )
            }
        }
        guard missing.isEmpty else { throw router.reported(.unregisteredRoutes(missing)) }
        let completesImmediately = completesTransitionsImmediately
        completesTransitionsImmediately = true
        defer { completesTransitionsImmediately = completesImmediately }
        // The route an interceptor redirects a perform to is shown, and the perform fails: kept, to remove.
        let state = router.storage.views
        let redirectsShownBefore = state.redirectsShown
        state.redirectsShown = []
        defer { state.redirectsShown = redirectsShownBefore }
        var shown: [AnyObject?] = [roots[0].object, roots.count == 2 ? roots[1].object : nil]
        var routes: [ViewRoute<Any>] = []
        do {
            for (screen, request) in zip(saved.screens, requests) {
                let path = ViewRoutePath(.transition(screen.style), source: shown[screen.source])
                routes.append(try router.perform(request, path: path))
                shown.append(routes.last?.destination.map { $0 as AnyObject })
            }
        } catch {
            for route in (routes + (state.redirectsShown ?? [])).reversed() {
                try? route.removeRoute(despiteHookFailures: true)
            }
            throw error
        }
        return routes
    }
}
