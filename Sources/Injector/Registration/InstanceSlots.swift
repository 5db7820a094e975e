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

/// A shared instance that is not a class instance, in a class box, so it can be kept where only an
/// object fits and published through an atomic reference (see `keptObject(for:)`).
@usableFromInline
final class InstanceBox<Service>: AnyInstanceBox, @unchecked Sendable {
    @usableFromInline let value: Service
    @usableFromInline init(_ value: Service) { self.value = value }

    override var instance: Any { value }
}

/// An ``InstanceBox`` whose type is not known where it is read. A class rather than a protocol, so
/// that a box kept as `AnyObject` is read as one without asking the runtime for a conformance.
@usableFromInline
class AnyInstanceBox {
    /// The instance boxed.
    var instance: Any { fatalError("AnyInstanceBox is abstract") }
}

/// Where a singleton lives once built. Reading it is one atomic load: no lock, no allocation. Not
/// generic: the first step of every resolve reads it without knowing the service's type (see
/// `ResolutionContext.lookUp(_:from:isConfigured:)`).
@usableFromInline
final class SingletonSlot: Sendable {
    @usableFromInline let reference = PublishedReference<any AnyObject & Sendable>()

    /// The instance, as `keptObject(for:)` keeps it, borrowed: the slot keeps it for good.
    @inlinable var borrowedObject: Borrowed<any AnyObject & Sendable>? { reference.borrowed() }

    /// The instance of a registration of `Service`, read without retaining the object that keeps it.
    @inlinable func instance<Service>(as _: Service.Type) -> Service? {
        reference.borrowed()?.withObject { keptInstance($0, as: Service.self) }
    }

    /// Publishes `object`, from `keptObject(for:)`; the first publication wins (there is only
    /// one: construction is serialised).
    func publish(_ object: any AnyObject & Sendable) { _ = reference.publish(object) }
}

/// Where a weak registration's instance lives while something else holds it.
@usableFromInline
package final class WeakSlot: Sendable {
    private struct Reference { weak var object: AnyObject? }
    private let reference = Locked.make(Reference())

    @usableFromInline package var object: AnyObject? { reference.withLock { $0.object } }

    package func publish(_ object: AnyObject) { reference.withLock { $0.object = object } }
}
