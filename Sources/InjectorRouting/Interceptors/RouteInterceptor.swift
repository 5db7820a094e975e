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

/// What an interceptor decides about a routing call: let it go on, send it to another route, or
/// refuse it.
///
/// ```swift
/// router.addInterceptor(named: "sign-in") { request in
///     guard request.isRouting(to: RoutableService<EditorService>()), !session.isSignedIn else { return .proceed }
///     return .redirect(to: RoutableService<SignInService>())
/// }
/// ```
public struct InterceptorDecision: Sendable {
    enum Verdict: Sendable {
        case proceed
        case redirect(RouteKey, ViewTransitionStyle?)
        case refuse(String)
    }

    let verdict: Verdict

    /// Lets the call go on, to the next interceptor and then the route.
    public static let proceed = InterceptorDecision(verdict: .proceed)

    /// Hands the call to `service`: the call returns its destination if it can (a call for `Any` or
    /// for that protocol); otherwise it fails with RoutingError/Code/redirected, nothing made.
    public static func redirect<Protocol>(to service: RoutableService<Protocol>) -> InterceptorDecision {
        InterceptorDecision(verdict: .redirect(service.key, nil))
    }

    /// Shows `view` instead, from the source of the path the original call was performed along
    /// (with `style` instead of that path's transition, if given): a sign-in screen before the editor.
    /// The original call fails with `RoutingError/Code/redirected`.
    ///
    /// ```swift
    /// return .redirect(to: RoutableView<any SignInView>(), style: .presentModally)
    /// ```
    public static func redirect<Protocol>(
        to view: RoutableView<Protocol>,
        style: ViewTransitionStyle? = nil
    ) -> InterceptorDecision {
        InterceptorDecision(verdict: .redirect(view.key, style))
    }

    /// Refuses the call: it fails with RoutingError/Code/refused and `reason` in the message.
    public static func refuse(_ reason: String) -> InterceptorDecision {
        InterceptorDecision(verdict: .refuse(reason))
    }
}
