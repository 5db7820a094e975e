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
import Swinject

/// The four ways of making the same object graph, in table order.
///
/// - ``direct``: what a person writes without a container, e.g.
///   `TreeAImpl(b: TreeBImpl(d: TreeDImpl()), c: TreeCImpl())` returned as the protocol from an
///   `@inline(never)` function (so the optimiser can neither delete the work nor fold it into the
///   loop). The baseline the targets are set against.
/// - ``closureWired``: one factory closure per type, each calling the closures it needs, made by
///   an `@inline(never)` function: what a hand-rolled service locator does.
enum Contender: Int, CaseIterable, Sendable {
    case injector, swinject, direct, closureWired

    var title: String {
        switch self {
        case .injector: "Injector"
        case .swinject: "Swinject"
        case .direct: "Direct"
        case .closureWired: "Closure-wired"
        }
    }

    /// The letter in the allocations column: `I / S / D / C`.
    var initial: String {
        switch self {
        case .injector: "I"
        case .swinject: "S"
        case .direct: "D"
        case .closureWired: "C"
        }
    }
}

// Both libraries name their central types `Container` and `Resolver`; the cases use these
// aliases so that every file can import both modules.

/// Injector's container.
typealias InjectorContainer = Injector.Container
/// Swinject's container (not thread-safe: case G uses `synchronize()`).
typealias SwinjectContainer = Swinject.Container
/// What Swinject's `synchronize()` returns and its factories receive.
typealias SwinjectResolver = Swinject.Resolver
