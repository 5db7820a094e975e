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

import Injector

extension Router {
    /// Checks every route at launch or in a test, and reports every problem at once: malformed URL
    /// patterns, identifiers that name several routes, adapters whose chain ends at no route or loops,
    /// and everything the container's `Container/validate()` finds (missing dependencies, cycles,
    /// captive dependencies, duplicate registrations), since every route is a registration.
    ///
    /// ```swift
    /// @Test func routesAreComplete() throws {
    ///     try makeRouter().validate()
    /// }
    /// ```
    ///
    /// - Returns: The container's report of what it could not check.
    /// - Throws: `RoutingError` with code `RoutingError/Code/validationFailed`, each problem in
    ///   `RoutingError/problems`; the container's findings are one problem whose underlying error is
    ///   its `InjectionError`.
    @discardableResult
    public func validate() throws -> ValidationReport {
        let table = storage.table
        var problems = table.problems
        for (identifier, routes) in table.identifiers.sorted(by: { $0.key < $1.key }) where routes.count > 1 {
            problems.append(.ambiguousIdentifier(identifier, routes: routes, action: .lookUp))
        }
        for required in table.adapters.keys.sorted(by: { $0.description < $1.description }) {
            do { _ = try table.record(for: required, action: .lookUp) } catch let error as RoutingError {
                problems.append(error)
            }
        }
        var report: ValidationReport?
        do { report = try container.validate() } catch {
            problems.append(.containerValidationFailed(error))
        }
        guard problems.isEmpty, let report else { throw RoutingError.validationFailed(problems) }
        return report
    }
}
