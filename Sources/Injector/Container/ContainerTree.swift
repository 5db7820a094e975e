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

/// What the containers of one tree (a root and all its children) share: whether test overrides are
/// in effect for any of them, and the instances they share. (Shared instances are built behind a
/// gate each: see `InstanceGates`.)
@usableFromInline
final class ContainerTree: Sendable {
    /// How many `withOverrides` calls on containers of this tree are running. While there are none,
    /// a resolve pays one relaxed load for overrides, and reads no task-local value.
    @inlinable var activeOverrideCount: AtomicWord<Int> { atomics.word(0) }
    /// The word of `activeOverrideCount`.
    @usableFromInline let atomics = AtomicWords(count: 1)
    /// The singleton and weak instances built in the tree, which scopes never take charge of.
    let sharedObjects = SharedObjects()

    /// Whether some task may be resolving from this tree with overrides.
    @inlinable var mayHaveOverrides: Bool { activeOverrideCount.load(ordering: .relaxed) != 0 }
}
