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
    /// A redirect performs the other route instead (its own interceptors included) and fails the
    /// original call with `RoutingError/Code/redirected`; redirects that lead back to a route already
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
        storage.amend { $0.interceptors.append(RouteInterceptor(name: name, decide: decide)) }
    }

    /// Passes `request` through every interceptor.
    ///
    /// - Parameter showing: For a view perform, shows the route an interceptor redirects to along the
    ///   original path (with the style the interceptor asked for); `nil` for other calls, whose
    ///   redirect makes and prepares the other route's destination.
    func intercept(_ request: RouteRequest, in table: RouteTable, showing: RedirectShowing?) throws {
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
                let redirect = RouteRequest(key: target, action: request.action, redirects: chain)
                do {
                    if let showing {
                        try showing(redirect, style)
                    } else {
                        try performRedirect(redirect, in: table)
                    }
                } catch let error as RoutingError where error.code == .redirected {
                    // Redirected further, and that route was performed.
                } catch {
                    throw RoutingError.redirectFailed(error, request, to: target, by: interceptor.name)
                }
                throw RoutingError.redirected(request, to: target, by: interceptor.name)
            }
        }
    }

    /// Makes and prepares the destination of the route an interceptor redirected to, with no caller
    /// configuration.
    private func performRedirect(_ redirect: RouteRequest, in table: RouteTable) throws {
        try intercept(redirect, in: table, showing: nil)
        let (record, path) = try table.record(for: redirect.key, action: redirect.action)
        var destination = try handingOver(RouteParameters(), to: record, path: path, action: redirect.action) {
            try record.resolveAny(source)
        }
        try record.prepare(
            &destination,
            context: RouteContext(router: self, parameters: RouteParameters(), action: redirect.action)
        )
    }
}

/// Shows a view route an interceptor redirected to: the redirect's request, and the transition style
/// the interceptor asked for.
typealias RedirectShowing = (RouteRequest, ViewTransitionStyle?) throws -> Void
