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

/// A store's disposal records, kept under the store's lock with its instances (one allocation and
/// one lock for a lifetime scope). Call these on `disposals`: the store that keeps the records,
/// which is this one unless it hands its disposables to another (a side store for a scope).
extension InstanceStore {
    /// Takes charge of the instance `disposer` disposes, made by `provider`.
    func takeCharge(_ disposer: DisposalBag.Disposer, madeBy provider: AnyProvider) {
        withLock { $0.records.append(DisposalBag.Entry(disposer: disposer, provider: provider)) }
    }

    /// Takes every record, leaving none, for the caller to dispose.
    func takeRecords() -> DisposalBag.Entries {
        withLock { $0.records.takeAll() }
    }

    /// Disposes every instance recorded, last completed first, asynchronously where it can be.
    func disposeAllAsync(of owner: @autoclosure () -> String) async throws {
        try await DisposalBag.disposeAsync(takeRecords(), of: owner)
    }
}
