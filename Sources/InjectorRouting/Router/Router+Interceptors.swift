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

extension Router {
    /// Adds an interceptor that every perform and make on this router passes, after those added
    /// before it: it lets the call go on, sends it to another route, or refuses it.
    ///
    /// ```swift
    /// router.addInterceptor(named: "sign-in") { request in
    ///     guard request.isRouting(to: RoutableService<EditorService>()), !session.isSignedIn else {
    ///         return .proceed
    ///     }
    ///     return .redirect(to: RoutableService<SignInService>())
    /// }
    /// ```
    ///
    /// A redirect hands the call to the other route (its own interceptors included): a view perform
    /// shows it and fails with `RoutingError/Code/redirected`; another call returns its destination
    /// if it can (a call for `Any`, or for that route's protocol), and otherwise fails with
    /// `RoutingError/Code/redirected`, nothing made. Redirects that lead back to a route already
    /// redirected from fail with `RoutingError/Code/cycle`. A refusal, or an error the interceptor
    /// throws, fails the call with `RoutingError/Code/refused`. Interceptors belong to this router:
    /// there are no global ones. Preparing a destination made elsewhere passes no interceptor.
    ///
    /// - Parameters:
    ///   - name: Names the interceptor in error messages.
    ///   - decide: Looks at the call and decides.
    public func addInterceptor(
        named name: String,
        _ decide: @escaping @Sendable (RouteRequest) throws -> InterceptorDecision
    ) {
        storage.amend { $0.interceptors.append((name, decide)) }
    }

    /// Passes `request` through every interceptor: `nil` when all let it go on, else what the route
    /// an interceptor redirected it to made; for a view perform, `showing` shows that route instead.
    func intercept<Destination>(
        _ request: RouteRequest,
        in table: RouteTable,
        showing: RedirectShowing?,
        preparing: ((inout Destination) throws -> Void)?
    ) throws -> (Destination, RouteRecord)? {
        for interceptor in table.interceptors {
            let decision: InterceptorDecision
            do { decision = try interceptor.decide(request) } catch {
                throw RoutingError.interceptorFailed(error, interceptor: interceptor.name, request: request)
            }
            switch decision.verdict {
            case .proceed:
                continue
            case .refuse(let reason):
                throw RoutingError.refused(request, by: interceptor.name, reason: reason)
            case .redirect(let target, let style):
                let chain = request.redirects + [request.key]
                if chain.contains(target) {
                    throw RoutingError.redirectCycle(chain + [target], by: interceptor.name, action: request.action)
                }
                guard target.showsScreen == request.key.showsScreen else {
                    throw RoutingError.redirectAcrossKinds(request, to: target, by: interceptor.name)
                }
                if showing == nil, Destination.self != Any.self, Destination.self != target.type {
                    throw RoutingError.redirected(request, to: target, by: interceptor.name, returns: Destination.self)
                }
                let redirect = RouteRequest(key: target, action: request.action, redirects: chain)
                do {
                    guard let showing else {
                        return try destination(for: redirect, preparing: preparing)
                    }
                    try showing(redirect, style)
                } catch let error as RoutingError where error.code == .redirected && showing != nil {
                    // Redirected further, and that route was shown.
                } catch {
                    throw RoutingError.redirectFailed(error, request, to: target, by: interceptor.name)
                }
                throw RoutingError.redirected(request, to: target, by: interceptor.name)
            }
        }
        return nil
    }
}

/// Shows a view route an interceptor redirected to: the redirect's request, and the transition style
/// the interceptor asked for.
typealias RedirectShowing = (RouteRequest, ViewTransitionStyle?) throws -> Void
