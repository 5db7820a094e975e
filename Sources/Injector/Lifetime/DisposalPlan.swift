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

/// How the instances of one dynamic type, made by one registration, are disposed: worked out once,
/// then reused for every instance of that type the registration makes.
///
/// Whether a type conforms to ``Disposable`` or ``AsyncDisposable`` is a lookup in the runtime's
/// conformance tables, and so is casting an instance to either, even where the compiler knows the
/// type. On a request's path those lookups cost more in cache misses than in instructions: their
/// tables are cold when a request starts. A plan asks once, at the first instance, and keeps a
/// function, specialised for the type, that wraps the next instances without asking anything.
///
/// `@unchecked Sendable`: immutable, and its function captures nothing but a class type.
@usableFromInline
final class DisposalPlan: @unchecked Sendable {
    /// The dynamic type the plan is for.
    @usableFromInline let type: ObjectIdentifier
    /// Whether the registration's type is an existential, whose instances' dynamic types `type(of:)`
    /// gives only for the instance as `Any` (in generic code it gives the existential's type).
    @usableFromInline let isForExistential: Bool
    /// How an instance of the type is disposed, or `nil` if it is not disposable.
    @usableFromInline let disposal: DisposalBag.Disposal?
    /// What disposes an instance of the type, if the type is a disposable class.
    @usableFromInline let objectDisposer: ((AnyObject) -> DisposalBag.Disposer)?

    /// The plan for `instance`, whose dynamic type's identity is `type`; `isForExistential` says
    /// whether its registration's type is an existential. Not for a type a cast looks inside (see
    /// `castsLookInside(_:)`), whose instances are disposed as what they hold says.
    init(for instance: Any, type: ObjectIdentifier, isForExistential: Bool) {
        self.type = type
        self.isForExistential = isForExistential
        let disposal = DisposalBag.Disposal(of: instance)
        self.disposal = disposal
        if let disposal, let object = weakReferenceable(instance) {
            objectDisposer = Self.objectDisposer(for: Swift.type(of: object), disposal: disposal)
        } else {
            objectDisposer = nil
        }
    }

    /// Whether `instance` is of the plan's type.
    @inlinable func matches<Instance>(_ instance: Instance) -> Bool {
        type == ObjectIdentifier(isForExistential ? Swift.type(of: instance as Any) : Swift.type(of: instance))
    }

    /// What disposes `instance`, an instance of the plan's type, with its identity if it is a
    /// class instance; `nil` if the type is not disposable.
    @inlinable func disposer<Instance>(
        for instance: Instance
    ) -> (disposer: DisposalBag.Disposer, object: AnyObject?)? {
        guard let disposal else { return nil }
        let object = objectIdentity(of: instance)
        if let object, let objectDisposer { return (objectDisposer(object), object) }
        return (DisposalBag.Disposer(instance, disposal: disposal, object: object), object)
    }

    /// Whether a cast of an instance of `type` to a protocol looks inside it, so that no plan holds
    /// for every instance of it: an optional (`nil` is not disposable, what one wraps may be), an
    /// `AnyHashable`, and the runtime's box for a value cast to `AnyObject` (every boxed value is of
    /// that one class, whatever it holds).
    static func castsLookInside(_ type: Any.Type) -> Bool {
        type is any OptionalService.Type || type == AnyHashable.self || ObjectIdentifier(type) == valueBox
    }

    /// The class of the runtime's box for a value cast to `AnyObject`.
    private static let valueBox = ObjectIdentifier(Swift.type(of: BoxedValue() as AnyObject))

    /// A function that wraps an instance of `type`, a class, as what disposes it, or `nil` if the
    /// class does not conform as `disposal` says (a value type's plan has none).
    private static func objectDisposer(
        for type: AnyObject.Type,
        disposal: DisposalBag.Disposal
    ) -> ((AnyObject) -> DisposalBag.Disposer)? {
        switch disposal {
        case .sync:
            guard let type = type as? any (AnyObject & Disposable).Type else { return nil }
            return disposer(of: type)
        case .syncOrAsync:
            guard let type = type as? any (AnyObject & Disposable & AsyncDisposable).Type else { return nil }
            return eitherDisposer(of: type)
        case .asyncOnly:
            guard let type = type as? any (AnyObject & AsyncDisposable).Type else { return nil }
            return asyncDisposer(of: type)
        }
    }

    // One function per conformance, so that each opens the type and captures its witness tables.
    // The object is of exactly that type (the plan matched its dynamic type): cast unchecked.

    private static func disposer<Object: AnyObject & Disposable>(
        of _: Object.Type
    ) -> (AnyObject) -> DisposalBag.Disposer {
        { .object(uncheckedCast($0, to: Object.self)) }
    }

    private static func eitherDisposer<Object: AnyObject & Disposable & AsyncDisposable>(
        of _: Object.Type
    ) -> (AnyObject) -> DisposalBag.Disposer {
        { .eitherObject(uncheckedCast($0, to: Object.self)) }
    }

    private static func asyncDisposer<Object: AnyObject & AsyncDisposable>(
        of _: Object.Type
    ) -> (AnyObject) -> DisposalBag.Disposer {
        { .asyncObject(uncheckedCast($0, to: Object.self)) }
    }
}

/// A value with no class to bridge to, which `as AnyObject` boxes in the runtime's box.
private struct BoxedValue {}
