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

/// The singleton and weak instances built by a container tree (or held by a side store), once
/// published: what a lifetime scope must not take charge of when a factory merely passes one on
/// under another key. An instance is remembered when it is published, not when it is built: one
/// built by a resolve that then fails is dropped, and nothing here may keep it alive.
///
/// A singleton is held strongly: its slot (or its container's disposal records) hold it anyway,
/// and a weak reference would move every retain and release of it, anywhere, onto the slow path of
/// a side table. A weak instance, which its slot already references weakly, is held weakly, and
/// compared by reference, so that a new object at the address of a released one is not mistaken
/// for it.
/// A disposable value-type singleton is kept as a value, and recognised by its type and bytes (see
/// `isSameInstance`).
@usableFromInline
final class SharedObjects: Sendable {
    private enum Entry {
        case singleton(AnyObject)
        case weak(WeakReference)
    }

    private struct WeakReference {
        weak var object: AnyObject?
    }

    private struct State: @unchecked Sendable {  // `values` holds the container's own instances
        var objects: [ObjectIdentifier: Entry] = [:]
        /// Disposable value-type singletons, by type.
        var values: [ObjectIdentifier: [Any]] = [:]
    }

    private let state = Locked.make(State())
    /// Two bits for the type of each instance remembered (a Bloom filter of one word): an instance
    /// one of whose type's bits is clear is none of them, which `contains` answers without the
    /// lock, as it does for nearly every instance a scope takes charge of. Two bits rather than
    /// one: with a few singleton types, a scoped type shares both far less often than one.
    private let types = Atomic<UInt64>(0)

    /// The bits of `type` in `types`: two 6-bit slices of its identity's Fibonacci hash (not its
    /// `hashValue`, which runs SipHash).
    private static func bits(of type: Any.Type) -> UInt64 {
        let hash = UInt64(UInt(bitPattern: ObjectIdentifier(type))) &* 0x9E37_79B9_7F4A_7C15
        return 1 << (hash >> 58) | 1 << (hash >> 52 & 63)
    }

    /// Remembers `instance`, made by a registration of `scope`: a class instance, or a disposable
    /// value (only those need telling apart from what a scope owns).
    @usableFromInline func insert(_ instance: Any, scope: Scope) {
        guard let object = weakReferenceable(instance) else {
            guard DisposalBag.Disposal(of: instance) != nil else { return }
            types.bitwiseOr(Self.bits(of: type(of: instance)), ordering: .releasing)
            state.withLock { $0.values[ObjectIdentifier(type(of: instance)), default: []].append(instance) }
            return
        }
        types.bitwiseOr(Self.bits(of: type(of: object)), ordering: .releasing)
        let entry: Entry = scope.kind == .weak ? .weak(WeakReference(object: object)) : .singleton(object)
        state.withLock { $0.objects[ObjectIdentifier(object)] = entry }
    }

    /// Whether `instance`, whose identity is `object` if it is a class instance (as
    /// `weakReferenceable` gives it), is one of the instances remembered.
    func contains(_ instance: Any, object: AnyObject?) -> Bool {
        let bits = Self.bits(of: object.map { type(of: $0) } ?? type(of: instance))
        guard types.load(ordering: .acquiring) & bits == bits else { return false }
        guard let object else {
            return state.withLock { state in
                state.values[ObjectIdentifier(type(of: instance))]?.contains { isSameInstance($0, instance) } ?? false
            }
        }
        return state.withLock { state in
            switch state.objects[ObjectIdentifier(object)] {
            case .singleton(let remembered)?: remembered === object
            case .weak(let reference)?: reference.object === object
            case nil: false
            }
        }
    }
}

/// Whether `first` and `second` are one instance: the same object, or values of one type with the
/// same bytes. A value has no identity; a copy of it (a singleton passed on by a factory) has its
/// bytes, references included, while a value made anew holds other references or other contents.
func isSameInstance(_ first: Any, _ second: Any) -> Bool {
    isSameInstance(first, second, object: weakReferenceable(second))
}

/// Whether `first` and `second` are one instance, given `second`'s identity if it is a class
/// instance (as `weakReferenceable` gives it), worked out once by a caller comparing it to many.
func isSameInstance(_ first: Any, _ second: Any, object: AnyObject?) -> Bool {
    if let object { return weakReferenceable(first) === object }
    guard type(of: first) == type(of: second) else { return false }
    // Compared as the dynamic type, not as the existential an `Any` may wrap, whose inline buffer
    // has bytes the value does not use.
    func sameBytes<Value>(_: Value.Type) -> Bool {
        guard let first = first as? Value, let second = second as? Value else { return false }
        return withUnsafeBytes(of: first) { first in withUnsafeBytes(of: second) { first.elementsEqual($0) } }
    }
    return _openExistential(type(of: first), do: sameBytes)
}
