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

/// A route to a screen: performed on the router's navigation host along a path, removed with one
/// call whatever the transition was (ZIKRouter's view router instance).
///
/// ```swift
/// let route = try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))
/// // …
/// if route.canRemove { try route.removeRoute() }      // pops back to home
/// ```
///
/// View routing runs on the main actor, as UIKit does, and one view transition at a time per router:
/// from the moment a perform or removal starts (preparation included) until the host says its
/// transition has ended (or the route is freed, its completion let go of uncalled), another one on the
/// same router is `RoutingError/Code/unbalancedTransition`. Until then the route is
/// `RouteState/routing` (or `RouteState/removing`). A shown route must be removed before it is
/// performed again; after removal, performing it shows a fresh destination along the same path. The
/// route holds its source and its destination weakly.
@MainActor
public final class ViewRoute<Destination> {
    /// Makes and prepares a destination with the caller's preparation, for one perform along a path.
    typealias Make =
        @MainActor (((inout Destination) throws -> Void)?, ViewRoutePath) throws -> (Destination, RouteRecord)

    let router: Router
    /// Names the route in messages: `RoutableView<EditorView>`.
    let label: String
    private let make: Make
    private var path: ViewRoutePath
    private let configuration: ViewRouteConfiguration<Destination>
    /// The handlers of the first perform, given with the configuration; used once.
    private var firstPerformer: ViewPerformer<Destination>?
    private var shown: ShownTransition?
    private weak var heldDestination: AnyObject?
    /// Why the routed route cannot be removed, when it was not shown by a transition.
    private var notShownBecause: String?
    /// Whether the route prepared a destination made elsewhere: it has nothing to perform.
    private var isPrepared = false
    /// Whether the route shows a screen it was given (`perform(onDestination:)`), which the container
    /// does not keep whatever the registration's scope.
    private let showsGivenScreen: Bool
    /// The route as saved navigation names it, handed to the host with each transition.
    private let savedRoute: SavedRoute?

    /// What was really performed: enough to undo it, holding nothing alive.
    fileprivate struct ShownTransition {
        let style: ViewTransitionStyle?  // nil for the route's own (custom) transition
        weak var source: AnyObject?
        let sourceName: String
        let destinationName: String
        let record: RouteRecord
    }

    init(
        router: Router,
        label: String,
        path: ViewRoutePath,
        configuration: ViewRouteConfiguration<Destination>,
        showsGivenScreen: Bool = false,
        savedRoute: SavedRoute? = nil,
        make: @escaping Make
    ) {
        self.router = router
        self.showsGivenScreen = showsGivenScreen
        self.savedRoute = savedRoute
        self.label = label
        self.path = path
        self.configuration = configuration
        firstPerformer = configuration.performer
        self.make = make
    }

    /// Where the route is in its lifecycle.
    public private(set) var state = RouteState.unrouted {
        didSet {
            guard state != oldValue else { return }
            stateChanges &+= 1
            configuration.stateNotifier?(oldValue, state)
        }
    }

    /// How many times the state changed: a perform's success handlers run only while it has not
    /// changed since the perform made the route routed.
    private var stateChanges = 0

    /// The destination of the last perform, while something keeps it alive (the host, while it is
    /// shown); `nil` before the first perform and once it is gone.
    public var destination: Destination? { heldDestination.flatMap { $0 as? Destination } }

    /// Whether `removeRoute(successHandler:errorHandler:)` can remove the route now.
    public var canRemove: Bool { removalRefusal == nil }

    /// Why the route cannot be removed now, or `nil` when it can: not routed, made without being
    /// shown, its screen already gone from where the transition put it (popped with the one below it,
    /// say), its source gone and nothing able to undo the transition without it (a host that
    /// implements no `OrphanedTransition` undo, or the route's own removal), or another transition in
    /// flight.
    public var removalRefusal: String? {
        if let inFlight = router.storage.views.inFlight { return "\(inFlight) is in flight" }
        guard state == .routed else { return "its state is \(state), and only a routed route can be removed" }
        if let notShownBecause { return notShownBecause }
        guard let shown else { return "its destination is gone" }
        guard let destination = heldDestination else {
            return "its destination \(shown.destinationName) is gone: it is no longer shown (popped, dismissed or "
                + "removed by the user) and nothing else holds it"
        }
        guard let style = shown.style, let host = router.host else {
            guard shown.source != nil else {
                return "its source \(shown.sourceName) is gone (deallocated), and the route's own removal "
                    + "(removeCustomTransition) undoes its transition from it"
            }
            return nil
        }
        return shown.undoing(style: style, destination: destination, on: host).refusal?.message
    }

    /// Performs the route again, along `path` or the path it was last performed along.
    ///
    /// A route whose screen is shown must be removed first; one whose screen the user took away
    /// (popped with Back, dismissed, or gone with a screen below it) performs again directly.
    ///
    /// - Parameters:
    ///   - path: Where and how to show the destination; the route's last path when `nil`. It becomes
    ///     the route's path once this perform has shown the destination: a failed one keeps the last.
    ///   - successHandler: Called with the destination when this perform's transition has ended,
    ///     unless the route was removed before (by its state notifier, a `ViewRouteEvent/didPerform`
    ///     observer, or the route's own success handlers, which run first).
    ///   - errorHandler: Called when this perform fails.
    /// - Throws: `RoutingError`, after the handlers were told; the hierarchy is as it was.
    public func perform(
        path: ViewRoutePath? = nil,
        successHandler: (@MainActor (Destination) -> Void)? = nil,
        errorHandler: (@MainActor (RouteAction, RoutingError) -> Void)? = nil
    ) throws {
        _ = try run(along: path, performer: (successHandler, errorHandler))
    }

    /// Makes, prepares and shows a destination along `newPath` (the route's path when `nil`), telling
    /// observers and handlers.
    ///
    /// - Returns: The route, for the router's perform calls; its transition may still be in flight.
    func run(along newPath: ViewRoutePath? = nil, performer given: ViewPerformer<Destination>?) throws -> ViewRoute {
        let action = RouteAction.performRoute
        let path = newPath ?? path
        let views = router.storage.views
        let first = firstPerformer
        firstPerformer = nil
        // The configuration's performer handlers belong to the route's first perform only.
        let performer = (success: given?.success ?? first?.success, error: given?.error ?? first?.error)
        func fail(_ error: RoutingError) -> RoutingError {
            configuration.failed(error, action: action, performer: performer)
            return router.reported(error)
        }
        if let inFlight = views.inFlight {
            throw fail(.unbalancedTransition(label, inFlight: inFlight, action: action))
        }
        switch state {
        case .routing: throw fail(.overRoute(label, action: action))
        case .removing: throw fail(.performWhileRemoving(label, action: action))
        case .routed where isShowingDestination: throw fail(.alreadyShown(label))
        case .routed where isPrepared: throw fail(.performPrepared(label))
        default: break
        }
        let previous = state
        // The bookkeeping first, the state last: its notifier sees the route as it now is.
        views.begin(self, label: label)
        state = .routing
        let routing = stateChanges
        do {
            let (destination, record) = try make(configuration.preparation, path)
            guard type(of: destination as Any) is AnyClass else {
                throw RoutingError.notAnObject(type(of: destination as Any), route: label)
            }
            let object = destination as AnyObject
            let supported = record.view?.supportedPaths ?? .screenTransitions
            guard supported.contains(path.member) else {
                throw RoutingError.unsupportedPath(path, route: label, supported: supported)
            }
            let finish = { [self] (style: ViewTransitionStyle?, source: AnyObject?) in
                // Once, while this perform is under way: a host calling its completion again, or late
                // (after the perform failed), changes nothing.
                guard stateChanges == routing else { return }
                self.path = path
                heldDestination = object
                shown = source.map { source in
                    ShownTransition(
                        style: style,
                        source: source,
                        sourceName: screenName(source),
                        destinationName: screenName(object),
                        record: record
                    )
                }
                notShownBecause =
                    source == nil ? "it made \(screenName(object)) without showing it (makeDestination)" : nil
                views.end(self)
                if source != nil { views.shows(object) }
                // The state last, the route shown and its transition ended: its notifier may route on.
                let routed = stateChanges &+ 1
                state = .routed
                if let source { views.tell(.didPerform, destination: object, source: source, route: label) }
                // The state notifier, a didPerform observer or a success handler may have removed the route
                // (and performed it again): the handlers still to come are not handed a screen this perform
                // no longer shows.
                configuration.succeeded(destination, action: action, performer: performer) {
                    stateChanges == routed
                }
            }
            switch (path.kind, path.source) {
            case (.makeDestination, _):
                finish(nil, nil)
            case (_, nil):
                throw RoutingError.sourceGone(path, route: label)
            case (.custom, let source?):
                guard let performCustom = record.view?.performCustom else {
                    throw RoutingError.unsupportedPath(path, route: label, supported: supported.subtracting(.custom))
                }
                views.tell(.willPerform, destination: object, source: source, route: label)
                do {
                    try performCustom(object, source) { finish(nil, source) }
                } catch {
                    let failure = RoutingError.customTransitionFailed(error, route: label, action: action)
                    // Thrown after its completion: the screen is shown and the perform succeeded, so only
                    // the global error handler hears of it.
                    guard stateChanges == routing else {
                        _ = router.reported(failure)
                        return self
                    }
                    throw failure
                }
            case (.transition(let style), let source?):
                guard let host = router.host else { throw RoutingError.noHost(label, path: path) }
                var transition = ViewTransition(style: style, source: source, destination: object)
                transition.savedRoute = savedRoute
                if let refusal = host.refusal(toPerform: transition) {
                    throw RoutingError.refused(refusal, route: label, path: path)
                }
                views.tell(.willPerform, destination: object, source: source, route: label)
                // An observer may have changed the hierarchy since: the host is only asked for what it allows now.
                if let refusal = host.refusal(toPerform: transition) {
                    throw RoutingError.refused(refusal, route: label, path: path, afterObservers: true)
                }
                host.perform(transition) { performed in finish(performed.style, source) }
            }
            return self
        } catch {
            let error = RoutingError.wrapping(error, action: action)
            views.end(self)
            state = previous
            throw fail(error)
        }
    }

    /// Shows a destination made elsewhere as performed: routed, not removable.
    func adopt(_ destination: Destination) {
        state = .routing
        state = .routed
        heldDestination = destination as AnyObject
        isPrepared = true
        notShownBecause = "it prepared a destination made elsewhere (prepare(destination:for:)), which it did not show"
    }

    /// Removes the route: undoes the transition that was really performed (pops back to the source,
    /// dismisses, removes from the parent or the superview, or runs the route's own removal).
    ///
    /// - Parameters:
    ///   - successHandler: Called once the removal's transition has ended.
    ///   - errorHandler: Called when the route cannot be removed; the route's error handler and the
    ///     router's global one are told too.
    /// - Throws: `RoutingError`: `RoutingError/Code/actionFailed` with `removalRefusal` in the message
    ///   when the route cannot be removed now, `RoutingError/Code/unbalancedTransition` when another
    ///   transition is in flight. The route stays routed.
    public func removeRoute(
        successHandler: (@MainActor () -> Void)? = nil,
        errorHandler: (@MainActor (RouteAction, RoutingError) -> Void)? = nil
    ) throws {
        try removeRoute(successHandler: successHandler, errorHandler: errorHandler, despiteHookFailures: false)
    }

    /// Removes the route as `removeRoute(successHandler:errorHandler:)` does; `despiteHookFailures`,
    /// for a rollback that must take the screen away, undoes the transition even when a removal hook
    /// throws.
    func removeRoute(
        successHandler: (@MainActor () -> Void)? = nil,
        errorHandler: (@MainActor (RouteAction, RoutingError) -> Void)? = nil,
        despiteHookFailures: Bool
    ) throws {
        let action = RouteAction.removeRoute
        let views = router.storage.views
        func fail(_ error: RoutingError) -> RoutingError {
            configuration.failed(error, action: action, performer: (success: nil, error: errorHandler))
            return router.reported(error)
        }
        if let inFlight = views.inFlight {
            throw fail(.unbalancedTransition(label, inFlight: inFlight, action: action))
        }
        if let refusal = removalRefusal { throw fail(.cannotRemove(label, because: refusal)) }
        guard let shown, let destination = heldDestination else {
            throw fail(.cannotRemove(label, because: "its destination is gone"))
        }
        // Gone since the perform when the host can undo without it (removalRefusal said so).
        let source = shown.source
        views.begin(self, label: label)
        state = .removing
        let removing = stateChanges
        views.tell(.willRemove, destination: destination, source: source, route: label)
        let finish = { [self] in
            guard stateChanges == removing else { return }  // once, as a perform's
            self.shown = nil
            heldDestination = nil
            views.end(self)
            // Before the state notifier and the handlers, which may show the screen again: then the
            // check does not report it.
            router.checkForLeak(of: destination, route: shown.record, label: label, isGiven: showsGivenScreen)
            state = .removed
            views.tell(.didRemove, destination: destination, source: source, route: label)
            successHandler?()
        }
        func stayRouted(_ error: RoutingError) -> RoutingError {
            views.end(self)
            state = .routed
            return fail(error)
        }
        let context = RouteContext(router: router, parameters: RouteParameters(), action: action)
        for removal in shown.record.removals {
            do { try removal(destination, context) } catch {
                guard despiteHookFailures else {
                    throw stayRouted(.hookFailed(error, hook: "removal", route: label, action: action))
                }
            }
        }
        if let style = shown.style, let host = router.host {
            // An observer or a removal hook may have changed the hierarchy since the checks.
            let undoing = shown.undoing(style: style, destination: destination, on: host)
            if let refusal = undoing.refusal { throw stayRouted(.hierarchyChanged(refusal, removing: label)) }
            undoing.undo { finish() }
        } else if let removeCustom = shown.record.view?.removeCustom, let source {
            do { try removeCustom(destination, source) { finish() } } catch {
                let failure = RoutingError.hookFailed(error, hook: "removal", route: label, action: action)
                // Thrown after its completion: the removal succeeded, as for a custom transition's perform.
                guard stateChanges == removing else {
                    _ = router.reported(failure)
                    return
                }
                throw stayRouted(failure)
            }
        }
    }

    /// Whether the destination is still where the last perform put it. A screen the user took away
    /// (popped with Back, dismissed), or that went with one below it, is no longer shown, and the
    /// route performs again. A custom transition's screen counts as shown while alive. Once the
    /// source is gone, the screen counts as shown only while the route can remove it (the host undoes
    /// the transition without its source): otherwise the route performs again rather than stay stuck.
    private var isShowingDestination: Bool {
        guard let shown, let destination = heldDestination else { return false }
        guard let style = shown.style, let host = router.host else { return shown.source != nil }
        let refusal = shown.undoing(style: style, destination: destination, on: host).refusal
        return shown.source == nil ? refusal == nil : refusal?.reason != .notShown
    }
}

extension ViewRoute.ShownTransition {
    /// The undo of the transition on `host`, from its source or, once it is gone, without it: why
    /// `host` cannot undo it now, and the call that asks `host` to.
    @MainActor
    fileprivate func undoing(
        style: ViewTransitionStyle,
        destination: AnyObject,
        on host: any NavigationHost
    ) -> (refusal: ViewTransitionRefusal?, undo: (@escaping @MainActor () -> Void) -> Void) {
        if let source {
            let transition = ViewTransition(style: style, source: source, destination: destination)
            return (host.refusal(toUndo: transition), { host.undo(transition, completion: $0) })
        }
        let transition = OrphanedTransition(style: style, sourceName: sourceName, destination: destination)
        return (host.refusal(toUndo: transition), { host.undo(transition, completion: $0) })
    }
}
