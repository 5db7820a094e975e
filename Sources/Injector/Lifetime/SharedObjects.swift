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

/// The singleton and weak instances built by a container tree (or held by a side store), once
/// published: what a lifetime scope must not take charge of when a factory merely passes one on
/// under another key. An instance is remembered when it is published, not when it is built: one
/// built by a resolve that then fails is dropped, and nothing here may keep it alive.
///
/// A singleton is held strongly: its slot (or its container's disposal records) hold it anyway,
/// and a weak reference would move every retain and release of it, anywhere, onto the slow path of
/// a side table. What a child container's registrations made is forgotten when the child goes
/// (`forget(rememberedFor:)`), so that it is released with the child. A weak instance, which its
/// slot already references weakly, is held weakly, and compared by reference, so that a new object
/// at the address of a released one is not mistaken for it.
/// A disposable value-type singleton is kept as a value, and recognised by its type and bytes (see
/// `isSameInstance`). Both are compared as what they are inside any optionals (`objectInside`,
/// `valueInside`): a singleton of `Ledger?` handed on as `Ledger` is still the singleton.
///
/// Every set mirrors what it remembers into `everywhere`, the process's set, so that a scope also
/// recognises a shared instance of another tree's container (`isSharedAnywhere`): a factory may
/// hand on one it took through a captured container, which that container still owns.
final class SharedObjects: Sendable {
    /// What every other set remembers, each instance under the key of the child container that
    /// made it or else of the set, so that it is forgotten here too when the child or the set goes.
    /// Its lock is taken where a set's is, when an instance is remembered or forgotten, and by a
    /// scope's hand-over only for an instance of a type some container shares.
    static let everywhere = SharedObjects(mirroringInto: nil)

    private enum Entry {
        /// Remembered `count` times: by registrations of several containers of the tree (of any
        /// tree, in `everywhere`).
        case singleton(AnyObject, count: Int)
        case weak(WeakReference)
    }

    private struct WeakReference {
        weak var object: AnyObject?
    }

    private struct State: @unchecked Sendable {  // `values` holds the container's own instances
        var objects: [ObjectIdentifier: Entry] = [:]
        /// Disposable value-type singletons, by type.
        var values: [ObjectIdentifier: [Any]] = [:]
        /// What each child container remembered here, to forget when it goes.
        var byChild: [ObjectIdentifier: Remembered] = [:]
    }

    private struct Remembered {
        var objects: [(identity: ObjectIdentifier, isWeak: Bool)] = []
        var values: [Any] = []
    }

    private let state = Locked.make(State())
    /// The types of the instances remembered: an instance whose type is not among them is none of
    /// them, which `contains` answers without the lock: in `everywhere`, for nearly every instance a
    /// scope takes charge of.
    private let types = TypeFilter()
    /// The set this one mirrors what it remembers into: `everywhere`, or `nil` for that one.
    /// Borrowed (it is never deallocated): a retain around its filter's few loads in a scope's
    /// hand-over cost more than they do.
    private let mirror: Borrowed<SharedObjects>?

    /// Makes a set that mirrors what it remembers into `everywhere`.
    convenience init() {
        self.init(mirroringInto: Borrowed(.everywhere))
    }

    private init(mirroringInto mirror: Borrowed<SharedObjects>?) {
        self.mirror = mirror
    }

    deinit {
        // What was remembered for a root container goes from `everywhere` with it (a child's went
        // with the child).
        mirror?.withObject { $0.forget(rememberedFor: ObjectIdentifier(self)) }
    }

    /// Remembers `instance`, made by a registration of `scope`: a class instance, or a disposable
    /// value (only those need telling apart from what a scope owns). `child` is the child container
    /// whose registration made it, which forgets it when it goes; `nil` for a root's. (In
    /// `everywhere`, the key it is forgotten by: a child's, or the set's for a root's.)
    func insert(_ instance: Any, scope: Scope, for child: ObjectIdentifier? = nil) {
        // A weak instance is mirrored under no key: held weakly, it is not kept alive, and a record
        // of each one rebuilt would pile up for as long as its tree lives. It stays until
        // overwritten, as a root container's does here.
        let key = scope.kind == .weak ? nil : child ?? ObjectIdentifier(self)
        mirror?.withObject { $0.insert(instance, scope: scope, for: key) }
        guard let object = objectInside(instance) else {
            guard let value = valueInside(instance), DisposalBag.Disposal(of: value) != nil else { return }
            types.insert(type(of: value))
            state.withLock { state in
                state.values[ObjectIdentifier(type(of: value)), default: []].append(value)
                if let child { state.byChild[child, default: Remembered()].values.append(value) }
            }
            return
        }
        types.insert(type(of: object))
        let identity = ObjectIdentifier(object)
        let isWeak = scope.kind == .weak
        state.withLock { state in
            if isWeak {
                state.objects[identity] = .weak(WeakReference(object: object))
            } else if case .singleton(let kept, let count)? = state.objects[identity], kept === object {
                state.objects[identity] = .singleton(object, count: count + 1)
            } else {
                state.objects[identity] = .singleton(object, count: 1)
            }
            if let child { state.byChild[child, default: Remembered()].objects.append((identity, isWeak)) }
        }
    }

    /// Forgets what `child`, a child container that is going (or, in `everywhere`, a set that is
    /// going), remembered here: its singletons are released with it (once the lock is let go: a
    /// deinit may run).
    func forget(rememberedFor child: ObjectIdentifier) {
        defer { mirror?.withObject { $0.forget(rememberedFor: child) } }
        let released: [Any] = state.withLock { state in
            guard let remembered = state.byChild.removeValue(forKey: child) else { return [] }
            var released = remembered.values
            for (identity, isWeak) in remembered.objects {
                switch state.objects[identity] {
                case .singleton(let object, let count)? where !isWeak && count > 1:
                    state.objects[identity] = .singleton(object, count: count - 1)
                case .singleton(let object, _)? where !isWeak:
                    state.objects[identity] = nil
                    released.append(object)
                case .weak? where isWeak:
                    state.objects[identity] = nil
                default:
                    break
                }
            }
            for value in remembered.values {
                let type = ObjectIdentifier(Swift.type(of: value))
                guard var kept = state.values[type],
                    let index = kept.firstIndex(where: { isSameInstance($0, value, object: nil) })
                else { continue }
                kept.remove(at: index)
                state.values[type] = kept.isEmpty ? nil : kept
            }
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Whether `instance`, whose identity is `object` if it is a class instance (as
    /// `objectInside` gives it), is one of the instances remembered.
    ///
    /// The usual answer, a class instance whose type the filter says no to, is inlined into the
    /// caller (a scope's hand-over of each disposable instance); the rest is a function of its own.
    @inline(__always)
    func contains(_ instance: Any, object: AnyObject?) -> Bool {
        if let object, !types.mayContain(type(of: object)) { return false }
        return searchFor(instance, object: object)
    }

    /// Whether `instance`, whose identity is `object` if it is a class instance, is a shared
    /// instance of any container, of this tree or another, or of any side store: whether
    /// `everywhere` remembers it. Inlined as `contains` is: the usual answer is its filter's.
    @inline(__always)
    func isSharedAnywhere(_ instance: Any, object: AnyObject?) -> Bool {
        guard let mirror else { return contains(instance, object: object) }
        return mirror.withObject { $0.contains(instance, object: object) }
    }

    /// `contains(_:object:)`, unless the filter told a class instance apart.
    @inline(never)
    private func searchFor(_ instance: Any, object: AnyObject?) -> Bool {
        guard let object else {
            // A value is remembered as what it is inside any optionals.
            guard let value = valueInside(instance), types.mayContain(type(of: value)) else { return false }
            return state.withLock { state in
                state.values[ObjectIdentifier(type(of: value))]?.contains { isSameInstance($0, value, object: nil) }
                    ?? false
            }
        }
        return state.withLock { state in
            switch state.objects[ObjectIdentifier(object)] {
            case .singleton(let remembered, _)?: remembered === object
            case .weak(let reference)?: reference.object === object
            case nil: false
            }
        }
    }
}

/// A set of types that may answer yes for a type not in it, never no for one in it (a Bloom
/// filter), read and written without a lock: four words of 64 bits, a type setting one bit in
/// each, chosen by six bits of the Fibonacci hash of its identity (not its `hashValue`, which runs
/// SipHash). (Where a word is 32 bits, an Apple Watch's `arm64_32`, by five of those six bits.)
///
/// Large enough that a type which is not in it rarely looks as if it were: a false yes sends a
/// request's scoped type to the lock and a hashed lookup. A bit a word tests a type with a load
/// and a bit test each, without working out which word to read.
private struct TypeFilter: ~Copyable, Sendable {
    private let words = AtomicWords(count: 4)
    private var word0: AtomicWord<UInt> { words.word(0) }
    private var word1: AtomicWord<UInt> { words.word(1) }
    private var word2: AtomicWord<UInt> { words.word(2) }
    private var word3: AtomicWord<UInt> { words.word(3) }

    /// The bits of `type`, one a word, from the Fibonacci hash of its identity: the bit of each word
    /// numbered by six of the hash's bits (a masking shift drops the sixth where a word is 32 bits).
    @inline(__always)
    private static func bits(of type: Any.Type) -> (UInt, UInt, UInt, UInt) {
        let hash = UInt64(UInt(bitPattern: ObjectIdentifier(type))) &* 0x9E37_79B9_7F4A_7C15
        func bit(_ shift: UInt64) -> UInt { 1 &<< UInt(truncatingIfNeeded: hash >> shift) }
        return (bit(58), bit(52), bit(46), bit(40))
    }

    func insert(_ type: Any.Type) {
        let bits = Self.bits(of: type)
        word0.bitwiseOr(bits.0, ordering: .releasing)
        word1.bitwiseOr(bits.1, ordering: .releasing)
        word2.bitwiseOr(bits.2, ordering: .releasing)
        word3.bitwiseOr(bits.3, ordering: .releasing)
    }

    /// Whether `type` may be in the set: its bit is set in every word. The words are tested in
    /// turn, so that a type not in the set, the usual question, is usually told by one load.
    @inline(__always)
    func mayContain(_ type: Any.Type) -> Bool {
        let bits = Self.bits(of: type)
        return word0.load(ordering: .acquiring) & bits.0 != 0 && word1.load(ordering: .acquiring) & bits.1 != 0
            && word2.load(ordering: .acquiring) & bits.2 != 0 && word3.load(ordering: .acquiring) & bits.3 != 0
    }
}

/// Whether `first` and `second` are one instance, given `second`'s identity if it is a class
/// instance (as `objectInside` gives it), worked out once by a caller comparing it to many.
func isSameInstance(_ first: Any, _ second: Any, object: AnyObject?) -> Bool {
    if let object { return objectInside(first) === object }
    // Values are compared as what they are, inside any optionals.
    guard let first = valueInside(first), let second = valueInside(second) else { return false }
    guard type(of: first) == type(of: second) else { return false }
    // Compared as the dynamic type, not as the existential an `Any` may wrap, whose inline buffer
    // has bytes the value does not use.
    func sameBytes<Value>(_: Value.Type) -> Bool {
        guard let first = first as? Value, let second = second as? Value else { return false }
        return withUnsafeBytes(of: first) { first in withUnsafeBytes(of: second) { first.elementsEqual($0) } }
    }
    return _openExistential(type(of: first), do: sameBytes)
}
