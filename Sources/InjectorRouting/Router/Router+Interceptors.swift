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
    /// - Parameter redirects: The routes redirected from on the way here, to tell a loop.
    func intercept(_ request: RouteRequest, in table: RouteTable, redirects: [RouteKey] = []) throws {
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
            case .redirect(let target):
                let chain = redirects + [request.key]
                if chain.contains(target) {
                    throw RoutingError.redirectCycle(chain + [target], by: interceptor.name, action: request.action)
                }
                do {
                    try performRedirect(to: target, from: request, in: table, redirects: chain)
                } catch {
                    throw RoutingError.redirectFailed(error, request, to: target, by: interceptor.name)
                }
                throw RoutingError.redirected(request, to: target, by: interceptor.name)
            }
        }
    }

    /// Performs the route an interceptor redirected to, with no caller configuration.
    private func performRedirect(
        to target: RouteKey,
        from request: RouteRequest,
        in table: RouteTable,
        redirects: [RouteKey]
    ) throws {
        let redirect = RouteRequest(key: target, action: request.action)
        do {
            try intercept(redirect, in: table, redirects: redirects)
        } catch let error as RoutingError where error.code == .redirected {
            return  // redirected further, and that route was performed
        }
        let (record, path) = try table.record(for: target, action: request.action)
        var destination = try handingOver(RouteParameters(), to: record, path: path, action: request.action) {
            try record.resolveAny(source)
        }
        try record.prepare(
            &destination,
            context: RouteContext(router: self, parameters: RouteParameters(), action: request.action)
        )
    }
}
