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

// The one home of Injector's unchecked references: every use of an object without a retain, and
// every cast to a type that is known but not checked, goes through this file.

/// A reference to an object that does not retain it.
///
/// The resolve path reads the same providers from every thread; a strong reference would write
/// each provider's reference count, a cache line all of those threads share, on every resolve.
/// Borrowing reads the object and writes nothing.
///
/// ## The invariant
///
/// Whoever borrows an object knows what keeps it alive for as long as the borrow is used:
/// - **a provider**: its container's registry. A registry keeps every provider it was given for as
///   long as its container lives (a late registration publishes a new snapshot that keeps the old
///   providers), and a resolve runs while the container it started from is alive;
/// - **a container**, borrowed by a resolver: the resolution the resolver was made for, which
///   holds the container and rejects a resolver used after it ends;
/// - **a resolution context** in a thread's slot, or a published reference: the retain that
///   ``retaining(_:)`` took, until ``release()``;
/// - **a resolution context, or its bookkeeping,** walked from inside it (the captive-dependency
///   check going out through the resolutions it runs within): the resolution running, which holds
///   each outer one, and each context its bookkeeping;
/// - **dependencies known to a provider**: the provider, which keeps every generation of them.
/// - **a link of a `ProviderChain`**, walked from an inner one: the inner link, which holds it.
/// - **the process's set of shared objects** (`SharedObjects.everywhere`): a static, never
///   deallocated.
///
/// And whoever casts (``cast(to:)``, ``uncheckedCast(_:to:)``) knows the type from a key: a
/// provider found under a key made of `Service` and `Argument…` is a `Provider<Service>` whose
/// factory reads its arguments as `(Argument…)`;
/// the object kept for an instance of a registration of `Service` is the instance itself when
/// `Service` is a class, an `InstanceBox<Service>` otherwise (see ``keptObject(for:)``), and a
/// value given to a scope under a key of `Service` is kept the same way (`ScopeValues`); its
/// preparation is a `Preparation<Service>`. Debug builds check every such cast.
@usableFromInline @frozen
struct Borrowed<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline let reference: Unmanaged<Object>

    /// Borrows `object`: something else keeps it alive (see the invariant above).
    @inlinable init(_ object: Object) {
        reference = .passUnretained(object)
    }

    @inlinable init(reference: Unmanaged<Object>) {
        self.reference = reference
    }

    /// Takes a retain on `object` that the returned borrow holds until ``release()``: for a place
    /// that cannot hold a strong reference, such as an atomic or a thread-specific slot.
    static func retaining(_ object: Object) -> Borrowed {
        Borrowed(reference: .passRetained(object))
    }

    /// Gives back the retain that ``retaining(_:)`` took.
    func release() {
        reference.release()
    }

    /// The object, as a strong reference (a retain for as long as the caller keeps it).
    @inlinable var object: Object { reference.takeUnretainedValue() }

    /// Runs `body` with the object, without a retain.
    @inlinable func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// The same object, as the subclass `type` that its key says it is (checked in debug builds).
    @inlinable func cast<Subclass: AnyObject>(to type: Subclass.Type) -> Borrowed<Subclass> {
        assert(object is Subclass, "\(Swift.type(of: object)) borrowed as \(Subclass.self)")
        return Borrowed<Subclass>(reference: .fromOpaque(reference.toOpaque()))
    }

    /// The object's address, for a C slot or an atomic word (see `init(opaque:)`).
    @inlinable var opaque: UnsafeMutableRawPointer { reference.toOpaque() }

    /// The object at an address that `opaque` gave.
    @inlinable init(opaque: UnsafeRawPointer) {
        reference = .fromOpaque(opaque)
    }

    /// The object's identity.
    var identity: ObjectIdentifier { withObject(ObjectIdentifier.init) }
}

extension Borrowed: Equatable {
    /// Whether both borrows are of the same object.
    @inlinable static func == (lhs: Borrowed, rhs: Borrowed) -> Bool {
        lhs.reference.toOpaque() == rhs.reference.toOpaque()
    }
}

/// An optional borrow is kept in an ``AtomicWord`` as its object's address, `nil` as 0 (a published
/// reference, the dependencies a provider knows).
extension Borrowed: AtomicWordReference {}

/// `object` as the class `type` that a key says it is, without a check in release builds (see
/// ``Borrowed``'s invariant): an instance box or preparation kept for a registration of `Service`.
@inlinable
func uncheckedCast<Subclass: AnyObject>(_ object: AnyObject, to type: Subclass.Type) -> Subclass {
    unsafeDowncast(object, to: type)
}

/// `value` as `Target`, which its type is: a key's service type, reached as two generic parameters.
/// Only the size is checked; the caller answers for the rest.
func sameType<Value, Target>(_ value: Value, as _: Target.Type) -> Target {
    assert(Value.self == Target.self, "\(Value.self) is not \(Target.self)")
    return unsafeBitCast(value, to: Target.self)
}

/// The value `box` holds, as `Service`, the type its key says it has: a graph instance read back as
/// the type its provider makes. `Service` made `Any` in generic code is kept as itself (an
/// existential too, not the value inside it), so `box` opens on `Service` and the value is copied
/// out without a dynamic cast; were it to open on another type, a cast would. `inout` only so that
/// `box` is opened where it lies, not copied first; inlinable, so that a resolve reads it specialised
/// for `Service`.
@inlinable
func knownValue<Service>(_ box: inout Any, as _: Service.Type) -> Service {
    @inline(__always) func read<Stored>(_ stored: Stored) -> Service {
        Stored.self == Service.self ? unsafeBitCast(stored, to: Service.self) : stored as! Service
    }
    return _openExistential(box, do: read)
}

/// `instance` as the object that keeps it where only an object fits: a store's place, a gate, the
/// list of a resolution's unpublished instances, a singleton's slot. A class instance is kept as
/// itself, which spares each shared instance an allocation; anything else (a value, an existential,
/// a function) in an `InstanceBox`. Every such place reads it back with ``keptInstance(_:as:)``,
/// knowing `Service` from the registration's key.
///
/// `Sendable` unchecked, as `InstanceBox` is: a singleton or weak registration needs a `Sendable`
/// service (``ServiceScope``), and a scoped instance is reached from its scope's threads alike.
@inlinable
func keptObject<Service>(for instance: Service) -> any AnyObject & Sendable {
    if Service.self is AnyObject.Type { return unsafeBitCast(instance, to: (any AnyObject & Sendable).self) }
    return InstanceBox(instance)
}

/// The instance of a registration of `Service` that `object`, from ``keptObject(for:)``, keeps
/// (checked in debug builds).
@inlinable
func keptInstance<Service>(_ object: AnyObject, as _: Service.Type) -> Service {
    if Service.self is AnyObject.Type {
        assert(object is Service, "\(type(of: object)) kept for \(Service.self)")
        return unsafeBitCast(object, to: Service.self)
    }
    return uncheckedCast(object, to: InstanceBox<Service>.self).value
}

/// The instance that `object`, from ``keptObject(for:)``, keeps, where its registration's type is
/// not known.
func keptInstance(_ object: AnyObject) -> Any {
    (object as? AnyInstanceBox)?.instance ?? object
}

/// Values kept by a call that is running, borrowed by address: a construction's resolve-time
/// arguments, which its argument frame compares only while the construction runs. Read them only
/// within the call that made them (`with(_:_:)`) or before `deallocate(as:)`.
@usableFromInline
struct BorrowedValues {
    @usableFromInline let address: UnsafeRawPointer

    @inlinable init(address: UnsafeRawPointer) {
        self.address = address
    }

    /// No values: what a factory that takes no arguments is given, never read.
    @inlinable static var none: BorrowedValues {
        BorrowedValues(address: UnsafeRawPointer(bitPattern: MemoryLayout<Int>.alignment).unsafelyUnwrapped)
    }

    /// What tells values apart for the cycle check: their identities, `nil` if one is not `Hashable`.
    @usableFromInline typealias Identify = @Sendable (BorrowedValues) -> [AnyHashable]?

    /// The `Identify` of values of `type`, or `nil` for no values.
    @inlinable
    static func identify<each Value>(_ type: (repeat each Value).Type) -> Identify? {
        var count = 0
        for _ in repeat (each Value).self { count += 1 }
        guard count > 0 else { return nil }
        return { values in
            var identity: [AnyHashable] = []
            for value in repeat each values.read(as: (repeat each Value).self) {
                guard let hashable = value as? any Hashable else { return nil }
                identity.append(AnyHashable(hashable))
            }
            return identity
        }
    }

    /// Runs `body` with `values` borrowed where they are, without a copy to the heap.
    @inlinable @inline(__always)
    static func with<each Value, Result>(
        _ values: repeat each Value,
        body: (BorrowedValues) throws -> Result
    ) rethrows -> Result {
        let tuple = (repeat each values)
        return try withUnsafePointer(to: tuple) { try body(BorrowedValues(address: UnsafeRawPointer($0))) }
    }

    /// `values` copied to the heap, for a call that suspends (`with` cannot span an `await`); pair
    /// with `deallocate(as:)`.
    static func allocate<each Value>(_ values: repeat each Value) -> BorrowedValues {
        let copy = UnsafeMutablePointer<(repeat each Value)>.allocate(capacity: 1)
        copy.initialize(to: (repeat each values))
        return BorrowedValues(address: UnsafeRawPointer(copy))
    }

    /// Releases values that `allocate` copied, which are of `type`.
    func deallocate<each Value>(as type: (repeat each Value).Type) {
        let copy = UnsafeMutablePointer(mutating: address.assumingMemoryBound(to: type))
        copy.deinitialize(count: 1)
        copy.deallocate()
    }

    /// The values, which are of `type`.
    @inlinable
    func read<each Value>(as type: (repeat each Value).Type) -> (repeat each Value) {
        address.assumingMemoryBound(to: type).pointee
    }
}
