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

/// What a registration provides: a service type, an optional name and the types of the arguments
/// its factory takes at resolve time.
///
/// Two registrations with the same key are duplicates; registrations that differ in name or
/// argument types coexist. Keys compare by type identity (`ObjectIdentifier`), never by type names.
public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    /// The type that is asked for, usually a protocol.
    public let serviceType: Any.Type
    /// The types of the values given at resolve time, in order; empty when there are none.
    public let argumentTypes: [Any.Type]

    @usableFromInline let lookupKey: LookupKey

    /// The name that tells this registration apart from others of the same type, if any.
    public var name: String? { lookupKey.name }

    /// The key of `Service` with `Argument…` under `name`: made from the static types, never from
    /// the metatypes passed, whose dynamic value may be a subclass's (`let type: Base.Type =
    /// Sub.self`). A provider found under a key made of `Service` must be a `Provider<Service>`
    /// (see ``Borrowed``); keyed by `Sub`, a `Provider<Base>` would be read as a `Provider<Sub>`.
    @usableFromInline
    init<Service, each Argument>(
        _ service: Service.Type,
        arguments: repeat (each Argument).Type,
        name: String?
    ) {
        serviceType = Service.self
        var types: [Any.Type] = []
        repeat types.append((each Argument).self)
        argumentTypes = types
        lookupKey = LookupKey(service, arguments: repeat each arguments, name: name)
    }

    /// The key of `type` with `argumentTypes`, looked up as `lookupKey` (made from the same static
    /// types elsewhere: the wrapped type of an optional one).
    init(type: Any.Type, argumentTypes: [Any.Type], lookupKey: LookupKey) {
        serviceType = type
        self.argumentTypes = argumentTypes
        self.lookupKey = lookupKey
    }

    /// The key written as a reader would: `Exporter`, `Exporter (name: "pdf")`,
    /// `Editor (arguments: Note, Int)`.
    public var description: String {
        var qualifiers: [String] = []
        if let name { qualifiers.append("name: \"\(name)\"") }
        if !argumentTypes.isEmpty {
            let label = argumentTypes.count == 1 ? "argument" : "arguments"
            qualifiers.append("\(label): " + argumentTypes.map(typeName).joined(separator: ", "))
        }
        let type = typeName(serviceType)
        return qualifiers.isEmpty ? type : "\(type) (\(qualifiers.joined(separator: ", ")))"
    }

    /// The type and name as a call is written for them, in a message's fix: `Store.self` or
    /// `Store.self, name: "cloud"`.
    var spelledInCall: String {
        "\(typeName(serviceType)).self" + (name.map { ", name: \"\($0)\"" } ?? "")
    }

    /// A factory for the key as a fix writes it: `{ r in … }`, or `{ (r, a0: Note) in … }` with its
    /// arguments.
    var factorySketch: String {
        let arguments = argumentTypes.enumerated().map { ", a\($0.offset): \(typeName($0.element))" }
        return arguments.isEmpty ? "{ r in … }" : "{ (r\(arguments.joined())) in … }"
    }

    /// Compares keys by identity: service type, name and argument types.
    public static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool { lhs.lookupKey == rhs.lookupKey }

    /// Hashes the key's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(lookupKey) }
}

/// The hashed part of a key, cheap to build on the resolve path: no arrays, no strings but the name.
@usableFromInline
struct LookupKey: Hashable, Sendable {
    @usableFromInline let group: GroupKey
    @usableFromInline let name: String?

    @inlinable
    init<Service, each Argument>(
        _ service: Service.Type,
        arguments: repeat (each Argument).Type,
        name: String?
    ) {
        // Made from the static types, as `ServiceKey` says why. Each argument type is wrapped, so
        // that one argument of tuple type `(Int, String)` and two arguments `Int, String` make
        // different keys.
        group = GroupKey(
            service: ObjectIdentifier(Service.self),
            arguments: ObjectIdentifier((repeat ArgumentSlot<each Argument>).self)
        )
        self.name = name
    }

    /// The key of `group`'s registration under `name`.
    init(group: GroupKey, name: String?) {
        self.group = group
        self.name = name
    }
}

/// The service and argument types of a key: what registrations with different names share.
@usableFromInline
struct GroupKey: Hashable, Sendable {
    @usableFromInline let service: ObjectIdentifier
    @usableFromInline let arguments: ObjectIdentifier

    @inlinable init(service: ObjectIdentifier, arguments: ObjectIdentifier) {
        self.service = service
        self.arguments = arguments
    }
}

@usableFromInline
enum ArgumentSlot<Argument> {}

/// A type's name as written in source, without its module: `Clock`, `Box<Int>`.
package func typeName(_ type: Any.Type) -> String { String(describing: type) }
