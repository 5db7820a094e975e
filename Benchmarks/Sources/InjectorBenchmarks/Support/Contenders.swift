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

/// The three ways of wiring the same object graph, in table order.
enum Contender: Int, CaseIterable, Sendable {
    case injector, swinject, handWritten

    var title: String {
        switch self {
        case .injector: "Injector"
        case .swinject: "Swinject"
        case .handWritten: "Hand-written"
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
