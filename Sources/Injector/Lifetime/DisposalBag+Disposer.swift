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

// What disposes each instance a bag records, made when it is recorded so that a disposal casts
// nothing, and how the instance is disposed: synchronously, asynchronously, or either.
extension DisposalBag {
    /// What disposes an instance: the instance as ``Disposable``, as ``AsyncDisposable``, or as both.
    ///
    /// Made when the instance is recorded, so that disposing it casts nothing: on the resolve path
    /// by the registration's ``DisposalPlan``, which casts nothing either after a type's first
    /// instance. A class instance is kept as a class-bound existential, a reference and a witness
    /// table, which is copied with a retain; a value is kept boxed.
    @usableFromInline enum Disposer {
        /// A class instance that is ``Disposable`` and not ``AsyncDisposable``.
        case object(any AnyObject & Disposable)
        /// A class instance that is only ``AsyncDisposable``.
        case asyncObject(any AnyObject & AsyncDisposable)
        /// A class instance that is both.
        case eitherObject(any AnyObject & Disposable & AsyncDisposable)
        /// A value.
        case value(DisposableValue)

        /// What disposes `instance`, which `disposal` says how to dispose; `object` is its identity
        /// if it is a class instance (as `objectIdentity(of:)` gives it).
        @inlinable init<Instance>(_ instance: Instance, disposal: Disposal, object: AnyObject?) {
            // For a class type, the instance is cast as that type; for an existential or `Any` that
            // holds a class instance, the object is.
            if Instance.self is AnyObject.Type, let disposer = Disposer(object: instance, disposal: disposal) {
                self = disposer
            } else if let object, let disposer = Disposer(object: object, disposal: disposal) {
                self = disposer
            } else {
                self = .value(DisposableValue(instance, disposal: disposal, object: object))
            }
        }

        /// What disposes `object`, a class instance, or `nil` if it is not one.
        @inlinable init?<Object>(object: Object, disposal: Disposal) {
            switch disposal {
            case .sync:
                guard let object = object as? any AnyObject & Disposable else { return nil }
                self = .object(object)
            case .syncOrAsync:
                guard let object = object as? any AnyObject & Disposable & AsyncDisposable else { return nil }
                self = .eitherObject(object)
            case .asyncOnly:
                guard let object = object as? any AnyObject & AsyncDisposable else { return nil }
                self = .asyncObject(object)
            }
        }

        /// Disposes the instance synchronously; not for one only an async disposal can dispose. A
        /// class instance is called as itself, through its class-bound existential, not boxed in an
        /// `any Disposable` first, which a close would project and destroy.
        @inline(__always) func disposeSynchronously() throws {
            switch self {
            case .object(let object): try object.dispose()
            case .eitherObject(let object): try object.dispose()
            case .value(let value): try value.disposeSynchronously()
            case .asyncObject: preconditionFailure("an async-only instance disposed synchronously")
            }
        }

        /// Whether only an async disposal can dispose the instance. (Asked of the case, without
        /// making an existential: a close asks it of every instance.)
        var isAsyncOnly: Bool {
            switch self {
            case .asyncObject: true
            case .object, .eitherObject: false
            case .value(let value): value.sync == nil
            }
        }

        /// Whether an async disposal disposes the instance asynchronously: it is ``AsyncDisposable``.
        /// (Asked of the case, as `isAsyncOnly` is.)
        var disposesAsynchronously: Bool {
            switch self {
            case .asyncObject, .eitherObject: true
            case .object: false
            case .value(let value): value.async != nil
            }
        }

        /// The instance as ``AsyncDisposable``, if it is one.
        var async: (any AsyncDisposable)? {
            switch self {
            case .asyncObject(let object): object
            case .eitherObject(let object): object
            case .object: nil
            case .value(let value): value.async
            }
        }

        /// The instance's identity if it is a class instance, which two registrations may both return.
        var object: ObjectIdentifier? {
            switch self {
            case .object(let object): ObjectIdentifier(object)
            case .asyncObject(let object): ObjectIdentifier(object)
            case .eitherObject(let object): ObjectIdentifier(object)
            case .value(let value): value.box.map(ObjectIdentifier.init)
            }
        }
    }

    /// A disposable value, as what disposes it: boxed, so that a record stays two references.
    @usableFromInline final class DisposableValue {
        let sync: (any Disposable)?
        let async: (any AsyncDisposable)?
        /// The instance if it is an object nonetheless: a value boxed as `AnyObject`, which two
        /// records of one box dispose once. Held, so that its identity stays its own until then.
        let box: AnyObject?

        @usableFromInline init<Instance>(_ instance: Instance, disposal: Disposal, object: AnyObject?) {
            sync = disposal == .asyncOnly ? nil : instance as? any Disposable
            async = disposal == .sync ? nil : instance as? any AsyncDisposable
            box = object
        }

        /// Disposes the value synchronously. (Out of line: a close of a request's scope, which
        /// disposes class instances, runs none of the existential's projection.)
        @inline(never)
        func disposeSynchronously() throws {
            try sync!.dispose()
        }
    }

    /// How an instance is disposed.
    @usableFromInline enum Disposal: Sendable {
        /// By `Disposable.dispose()`: the instance is not ``AsyncDisposable``.
        case sync
        /// By `Disposable.dispose()` in a sync disposal, by `AsyncDisposable.disposeAsync()` in an
        /// async one.
        case syncOrAsync
        /// By `AsyncDisposable.disposeAsync()` only.
        case asyncOnly

        /// How `instance` is disposed, or `nil` if it is not disposable.
        init?(of instance: Any) {
            switch (instance is any Disposable, instance is any AsyncDisposable) {
            case (true, false): self = .sync
            case (true, true): self = .syncOrAsync
            case (false, true): self = .asyncOnly
            case (false, false): return nil
            }
        }
    }
}
