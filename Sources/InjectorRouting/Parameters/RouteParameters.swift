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

/// The parameters a route was performed with: a URL's placeholders and query items, or the values
/// given with an identifier, read as typed values.
///
/// ```swift
/// router.register(RoutableService<NoteViewer>()) { (r, parameters: RouteParameters) in
///     NoteViewer(id: try parameters.value("id", as: Int.self), store: try r.resolve(NoteStore.self))
/// }
/// .url("app://notes/:id")
///
/// let viewer = try router.makeDestination(url: "app://notes/42?tab=info", as: NoteViewer.self)
/// ```
///
/// A route receives the same parameters whichever API performed it.
public struct RouteParameters: Sendable, Hashable, CustomStringConvertible, ExpressibleByDictionaryLiteral {
    /// The values by name, as strings.
    public let values: [String: String]
    /// The URL or identifier the parameters came from, quoted in error messages; `nil` when they
    /// were given directly.
    public let source: String?
    /// Whether a router handed these parameters to the route; `false` when its registration was
    /// resolved without the router, which has no parameters to give.
    let isHandedOver: Bool
    /// The route these parameters were handed to, named in their errors' messages.
    var route: RouteKey?

    /// No parameters.
    public init() {
        self.init([:])
    }

    /// Parameters with the given values.
    ///
    /// - Parameters:
    ///   - values: The values by name.
    ///   - source: The URL or identifier they came from, for error messages.
    public init(_ values: [String: String], source: String? = nil) {
        self.values = values
        self.source = source
        isHandedOver = true
    }

    /// The empty parameters a route's factory gets when its registration is resolved without a router.
    init(notHandedOver: Void) {
        values = [:]
        source = nil
        isHandedOver = false
    }

    /// Parameters written as a dictionary literal: `["id": "42"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Whether there are no parameters.
    public var isEmpty: Bool { values.isEmpty }

    /// The value named `name` as a string, or `nil` when there is none.
    public subscript(name: String) -> String? { values[name] }

    /// The value named `name`, converted to `Value`.
    ///
    /// - Parameters:
    ///   - name: The parameter's name: a URL placeholder without its colon, or a query item's name.
    ///   - type: The type to read it as: `String`, `Int`, `Double`, `Bool`, `UUID`, or a type of
    ///     yours that conforms to RouteParameterValue.
    /// - Returns: The converted value.
    /// - Throws: RoutingError with code RoutingError/Code/invalidConfiguration when the
    ///   parameter is missing or cannot be read as `Value`; the message quotes the URL.
    public func value<Value: RouteParameterValue>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        guard let text = values[name] else {
            throw RoutingError.missingParameter(name, of: Value.self, in: self)
        }
        guard let value = Value(routeParameter: text) else {
            throw RoutingError.mistypedParameter(name, text, as: Value.self, in: self)
        }
        return value
    }

    /// The value named `name` converted to `Value`, or `nil` when there is none.
    ///
    /// - Throws: RoutingError with code RoutingError/Code/invalidConfiguration when the
    ///   parameter is present but cannot be read as `Value`.
    public func valueIfPresent<Value: RouteParameterValue>(
        _ name: String,
        as type: Value.Type = Value.self
    ) throws -> Value? {
        values[name] == nil ? nil : try value(name, as: type)
    }

    /// The parameters as `name=value` pairs in name order, with their source.
    public var description: String {
        let pairs = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        return source.map { "[\(pairs)] from \"\($0)\"" } ?? "[\(pairs)]"
    }
}
