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

/// A registration's own preparation steps, run after the factory and the caller's `configure`:
/// first the `onResolved` hooks, then the `verify` checks, each in the order they were added.
final class Preparation<Service>: Sendable {
    typealias Hook = @Sendable (Resolver, Service) throws -> Void
    typealias Check = @Sendable (Service) throws -> Void

    let hooks: [Hook]
    let checks: [Check]

    init(hooks: [Hook] = [], checks: [Check] = []) {
        self.hooks = hooks
        self.checks = checks
    }

    func adding(hook: @escaping Hook) -> Preparation { Preparation(hooks: hooks + [hook], checks: checks) }
    func adding(check: @escaping Check) -> Preparation { Preparation(hooks: hooks, checks: checks + [check]) }
}
