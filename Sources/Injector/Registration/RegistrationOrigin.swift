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

/// What made a registration, when it is not a `register` call of the user's: an `implements(_:)`
/// call, or a layer built on the container (the router's routes and adapters). The container's
/// messages then speak of what the user wrote, in that layer's words: the site of a duplicate
/// (`at Notes.swift:12 by router.adapt`), what threw (`the route DraftRoute of Editor`), and the
/// fix for a duplicate or a cycle, where the container's own (names, `replacesExisting`, property
/// injection) is not one the user can apply.
///
/// A class, so that a site keeps it as one reference and an origin made once serves every
/// registration of its kind.
@usableFromInline
package final class RegistrationOrigin: Sendable {
    /// The call that made the registration, after its site: `by router.adapt`.
    let call: String
    /// What runs in place of a factory, for a message about a failure: `route DraftRoute` in
    /// `The route DraftRoute of Editor threw`; `nil` for a factory the user wrote.
    let maker: String?
    /// Why a loop made of registrations of this origin alone cannot be built, and how to fix it,
    /// after the loop (`Circular dependency: A -> B -> A.`); `nil` for the container's own.
    let cycleAdvice: String?
    /// How to fix a duplicate that a registration of this origin is part of; `nil` for the
    /// container's own.
    let duplicateFix: String?
    /// Whether the call can replace an earlier registration (`replacesExisting:`). A duplicate
    /// with a registration that cannot gets that registration's `duplicateFix`, whatever the order.
    let isReplaceable: Bool
    /// The registration whose instance this one hands on (`implements(_:)`), if it is one.
    let forwarded: ServiceKey?

    /// An origin named by `call`, with what its messages say in place of the container's.
    package init(
        call: String,
        maker: String? = nil,
        cycleAdvice: String? = nil,
        duplicateFix: String? = nil,
        isReplaceable: Bool = true,
        forwarded: ServiceKey? = nil
    ) {
        self.call = call
        self.maker = maker
        self.cycleAdvice = cycleAdvice
        self.duplicateFix = duplicateFix
        self.isReplaceable = isReplaceable
        self.forwarded = forwarded
    }

    /// An `implements(_:)` call that hands on the instance of `original`: its line shows another
    /// service's registration.
    static func forwarding(to original: ServiceKey) -> RegistrationOrigin {
        RegistrationOrigin(call: ".implements", forwarded: original)
    }
}
