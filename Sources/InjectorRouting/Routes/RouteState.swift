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

/// Where a route is in its lifecycle: `unrouted → routing → routed → removing → removed`.
///
/// A route starts `unrouted`. Performing it moves it to `routing` until its destination is made
/// and prepared, then to `routed`; a failure moves it back to the state it was in before. Removing
/// a routed route moves it through `removing` to `removed`, from where it can be performed again.
///
/// An enum, not an extensible struct: the states are the lifecycle itself, which every state
/// handler follows; another state would change what each transition means, not add to it.
public enum RouteState: Sendable, Hashable, CustomStringConvertible {
    /// Not performed yet.
    case unrouted
    /// Being performed: its destination is being made and prepared.
    case routing
    /// Performed: its destination was made and prepared.
    case routed
    /// Being removed.
    case removing
    /// Removed; it may be performed again.
    case removed

    /// The state's name, such as `routed`.
    public var description: String {
        switch self {
        case .unrouted: "unrouted"
        case .routing: "routing"
        case .routed: "routed"
        case .removing: "removing"
        case .removed: "removed"
        }
    }
}
