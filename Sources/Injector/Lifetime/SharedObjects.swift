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

/// The singleton and weak instances built by a container tree (or held by a side store): what a
/// lifetime scope must not take charge of when a factory merely passes one on under another key.
///
/// A singleton is held strongly: its slot (or its disposal bag) holds it anyway, and a weak
/// reference would move every retain and release of it, anywhere, onto the slow path of a side
/// table. A weak instance, which its slot already references weakly, is held weakly, and compared
/// by reference, so that a new object at the address of a released one is not mistaken for it.
@usableFromInline
final class SharedObjects: Sendable {
    private enum Entry {
        case singleton(AnyObject)
        case weak(WeakReference)
    }

    private struct WeakReference {
        weak var object: AnyObject?
    }

    private let entries = Locked.make([ObjectIdentifier: Entry]())

    /// Remembers `instance`, if it is a class instance, made by a registration of `scope`.
    @usableFromInline func insert(_ instance: Any, scope: Scope) {
        guard let object = weakReferenceable(instance) else { return }
        let entry: Entry = scope.kind == .weak ? .weak(WeakReference(object: object)) : .singleton(object)
        entries.withLock { $0[ObjectIdentifier(object)] = entry }
    }

    /// Whether `object` is one of the instances remembered.
    func contains(_ object: AnyObject) -> Bool {
        entries.withLock { entries in
            switch entries[ObjectIdentifier(object)] {
            case .singleton(let remembered)?: remembered === object
            case .weak(let reference)?: reference.object === object
            case nil: false
            }
        }
    }
}
