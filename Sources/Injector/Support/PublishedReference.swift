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

/// A reference published once, then read by any thread with one atomic load: no lock, no
/// allocation, no generic metadata on the read path. Its owner may replace it (see `replace(with:)`).
///
/// Like `AtomicLazyReference`, whose `load` is not inlinable, so that reading one from specialised
/// code instantiates its generic metadata on every call.
///
/// The reference is the first of the ``AtomicWords`` it allocates; an owner that keeps other atomic
/// words keeps them after it (`init(wordsBeside:)`, `wordBeside(_:)`), in the same allocation.
@usableFromInline
struct PublishedReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
    /// The reference, then the owner's words beside it.
    @usableFromInline let words: AtomicWords

    /// A reference not published yet, with `count` words beside it for its owner, each 0.
    init(wordsBeside count: Int = 0) {
        words = AtomicWords(count: 1 + count)
    }

    /// The reference's word.
    @inlinable var storage: AtomicWord<Borrowed<Object>?> { words.word(0) }

    /// Word `index` of those beside the reference: its owner's, in the same allocation.
    func wordBeside<Value: AtomicWordValue>(_ index: Int) -> AtomicWord<Value> {
        words.word(1 + index)
    }

    /// The published object, or `nil` before publication.
    func load() -> Object? {
        storage.load(ordering: .acquiring)?.object
    }

    /// The published object (or `nil`), borrowed: valid for as long as this reference lives.
    @inlinable func borrowed() -> Borrowed<Object>? {
        storage.load(ordering: .acquiring)
    }

    /// Publishes `object` unless another was published first; returns the one that is published.
    /// Sequentially consistent (a publication is rare: once a reference).
    func publish(_ object: Object) -> Object {
        let retained = Borrowed.retaining(object)
        let (exchanged, current) = storage.compareExchange(
            expected: nil,
            desired: retained,
            ordering: .sequentiallyConsistent
        )
        if exchanged { return object }
        retained.release()
        return current!.object
    }

    /// Replaces the published object with `object` (or with none), returning the one it replaces.
    /// A reader may still be borrowing the replaced object: the caller keeps it alive for as
    /// long as this reference lives.
    func replace(with object: Object?) -> Object? {
        let replaced = storage.exchange(object.map(Borrowed.retaining), ordering: .acquiringAndReleasing)
        defer { replaced?.release() }
        return replaced?.object
    }

    deinit {
        storage.load(ordering: .acquiring)?.release()
    }
}
