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

import Synchronization

/// A reference published at most once, then read by any thread with one atomic load: no lock, no
/// allocation, no generic metadata on the read path.
///
/// Like `AtomicLazyReference`, whose `load` is not inlinable, so that reading one from specialised
/// code instantiates its generic metadata on every call.
@usableFromInline
struct PublishedReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
    @usableFromInline let storage = Atomic<Unmanaged<Object>?>(nil)

    @usableFromInline init() {}

    /// The published object, or `nil` before publication.
    @inlinable func load() -> Object? {
        storage.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// The published object (or `nil`), unretained: valid for as long as this reference lives.
    @inlinable func unretained() -> Unmanaged<Object>? {
        storage.load(ordering: .acquiring)
    }

    /// Publishes `object` unless another was published first; returns the one that is published.
    @usableFromInline func publish(_ object: Object) -> Object {
        let retained = Unmanaged.passRetained(object)
        let (exchanged, current) = storage.compareExchange(
            expected: nil,
            desired: retained,
            ordering: .acquiringAndReleasing
        )
        if exchanged { return object }
        retained.release()
        return current!.takeUnretainedValue()
    }

    deinit {
        storage.load(ordering: .acquiring)?.release()
    }
}
