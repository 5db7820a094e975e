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
        /// Every version of `singletons` published, the latest last.
        var identityVersions: [SortedIdentities] = []
    }

    private let state = Locked.make(State())
    /// Two bits for the type of each singleton object remembered (a Bloom filter of one word): an
    /// object one of whose type's bits is clear is none of them, which `contains` answers at once,
    /// as it does for nearly every instance a scope takes charge of.
    private let singletonTypes = Atomic<UInt64>(0)
    /// The identities of the singleton objects remembered, sorted: what `contains` searches, without
    /// the lock, when a type shares its bits with a singleton's (by chance, or being its class).
    /// A singleton is held strongly, so its identity is its own while it is listed. Replaced on
    /// each insertion (once per singleton), never changed; `State.identityVersions` keeps every
    /// version alive, since a reader may be searching one it loaded.
    private let singletons = Atomic<Borrowed<SortedIdentities>?>(nil)
    /// The same filter as `singletonTypes`, for weak instances and disposable values, which are
    /// then looked for under the lock. (Weak instances, rebuilt whenever the last holder lets go,
    /// would grow a list of identities without end.)
    private let otherTypes = Atomic<UInt64>(0)

    /// The bits of `type` in the filters: two 6-bit slices of its identity's Fibonacci hash (not
    /// its `hashValue`, which runs SipHash).
    private static func bits(of type: Any.Type) -> UInt64 {
        let hash = UInt64(UInt(bitPattern: ObjectIdentifier(type))) &* 0x9E37_79B9_7F4A_7C15
        return 1 << (hash >> 58) | 1 << (hash >> 52 & 63)
    }

    /// Remembers `instance`, made by a registration of `scope`: a class instance, or a disposable
    /// value (only those need telling apart from what a scope owns).
    @usableFromInline func insert(_ instance: Any, scope: Scope) {
        guard let object = weakReferenceable(instance) else {
            guard DisposalBag.Disposal(of: instance) != nil else { return }
            otherTypes.bitwiseOr(Self.bits(of: type(of: instance)), ordering: .releasing)
            state.withLock { $0.values[ObjectIdentifier(type(of: instance)), default: []].append(instance) }
            return
        }
        guard scope.kind != .weak else {
            otherTypes.bitwiseOr(Self.bits(of: type(of: object)), ordering: .releasing)
            state.withLock { $0.objects[ObjectIdentifier(object)] = .weak(WeakReference(object: object)) }
            return
        }
        singletonTypes.bitwiseOr(Self.bits(of: type(of: object)), ordering: .releasing)
        state.withLock { state in
            state.objects[ObjectIdentifier(object)] = .singleton(object)
            let identity = UInt(bitPattern: ObjectIdentifier(object))
            let current = state.identityVersions.last?.values ?? []
            let position = current.partitioningIndex { $0 >= identity }
            guard position == current.endIndex || current[position] != identity else { return }
            var values = current
            values.insert(identity, at: position)
            let version = SortedIdentities(values: values)
            state.identityVersions.append(version)
            singletons.store(Borrowed(version), ordering: .releasing)
        }
    }

    /// Whether `instance`, whose identity is `object` if it is a class instance (as
    /// `weakReferenceable` gives it), is one of the instances remembered.
    func contains(_ instance: Any, object: AnyObject?) -> Bool {
        let bits = Self.bits(of: object.map { type(of: $0) } ?? type(of: instance))
        if let object, singletonTypes.load(ordering: .acquiring) & bits == bits, isSingleton(object) { return true }
        guard otherTypes.load(ordering: .acquiring) & bits == bits else { return false }
        return state.withLock { state in
            guard let object else {
                return state.values[ObjectIdentifier(type(of: instance))]?.contains { isSameInstance($0, instance) }
                    ?? false
            }
            guard case .weak(let reference)? = state.objects[ObjectIdentifier(object)] else { return false }
            return reference.object === object
        }
    }

    /// Whether `object` is one of the singletons remembered: its identity is listed.
    private func isSingleton(_ object: AnyObject) -> Bool {
        let identity = UInt(bitPattern: ObjectIdentifier(object))
        return singletons.load(ordering: .acquiring)?.withObject { $0.contains(identity) } ?? false
    }
}

/// Object identities in ascending order, searched by bisection.
final class SortedIdentities: Sendable {
    let values: [UInt]

    init(values: [UInt]) {
        self.values = values
    }

    func contains(_ identity: UInt) -> Bool {
        let position = values.partitioningIndex { $0 >= identity }
        return position != values.endIndex && values[position] == identity
    }
}

extension Array where Element == UInt {
    /// The index of the first element for which `isInSecondPart` holds, in an array whose elements
    /// for which it holds all come after those for which it does not.
    fileprivate func partitioningIndex(where isInSecondPart: (UInt) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isInSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

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
