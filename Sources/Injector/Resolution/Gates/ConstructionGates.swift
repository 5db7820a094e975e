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

/// One gate per shared instance that a family of async resolutions is building: a top-level async
/// resolution and every resolution started within its async factories, in their tasks or in child
/// tasks (`async let`), which take the instance gates it holds and so run at the same time.
///
/// The first of the family to ask for an instance builds it; the others wait at its gate and then
/// share what it built, so that the factory runs once however the family asks. If the builder
/// fails, or the instance it built is discarded with a construction that failed, the gate opens
/// empty and the next one to ask builds.
///
/// This object is the family's identity; the gates live in `InstanceGates`' table, so that a
/// wait at one of them is part of the search for waits that can never end. They are removed when
/// the family's last resolution lets go of this object.
final class ConstructionGates: Sendable {
    init() {}

    /// The instance kept under `key` once a resolution of the family other than `waiter` has built
    /// it, waiting while it builds; or `nil` when `waiter` is to build it (then pair with
    /// `open(_:by:with:)`).
    ///
    /// - Throws: ``InjectionError/Code/circularWait`` when the builder waits, directly or through
    ///   others, for `waiter`; `CancellationError` when the task is cancelled while it waits.
    func pass(
        _ key: InstanceGates.Key,
        by waiter: InstanceGates.Waiter
    ) async throws -> AnyObject? {
        try await InstanceGates.pass(key, of: ObjectIdentifier(self), by: waiter)
    }

    /// Opens the gate of `key` that `builder` claimed: with the instance it built, or with none when
    /// it failed, so that the next one to ask builds it.
    func open(_ key: InstanceGates.Key, by builder: InstanceGates.Owner, with built: AnyObject?) {
        InstanceGates.open(key, of: ObjectIdentifier(self), by: builder, with: built)
    }

    /// Empties the gate of `key` if it holds `discarded`, an instance whose construction failed
    /// after it was built, so that the family builds it again rather than share it.
    func discard(_ key: InstanceGates.Key, holding discarded: AnyObject) {
        InstanceGates.discard(key, of: ObjectIdentifier(self), holding: discarded)
    }

    /// The instances the family built and has not discarded (published or not).
    var builtInstances: [AnyObject] {
        InstanceGates.builtInstances(of: ObjectIdentifier(self))
    }

    deinit {
        InstanceGates.removeFamily(ObjectIdentifier(self))
    }
}
