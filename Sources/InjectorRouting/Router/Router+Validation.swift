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
    /// A route whose factory needs parameters (a URL's placeholders) cannot be made without them;
    /// where the container's validation fails only for want of those, the route is listed in the
    /// report as unchecked instead. Prefer this to `Container/validate()` for a container with such
    /// routes: the container alone cannot tell that they are fine.
    ///
    /// - Returns: What could not be checked.
    /// - Throws: `RoutingError` with code `RoutingError/Code/validationFailed`, each problem in
    ///   `RoutingError/problems`; a problem the container found has its `InjectionError` underneath.
    @discardableResult
    public func validate() throws -> RoutingValidationReport {
        let table = storage.table
        var problems = table.problems
        for (identifier, routes) in table.identifiers.sorted(by: { $0.key < $1.key }) where routes.count > 1 {
            problems.append(.ambiguousIdentifier(identifier, routes: routes, action: .lookUp))
        }
        // Patterns that match the same URLs equally, of one route or of several: every such URL fails.
        var shapes: [[String]: [(pattern: URLPattern, route: RouteKey)]] = [:]
        for entry in table.patterns { shapes[entry.pattern.shape, default: []].append(entry) }
        for (_, entries) in shapes.sorted(by: { $0.value[0].pattern.text < $1.value[0].pattern.text })
        where entries.count > 1 {
            problems.append(.tiedPatterns(entries))
        }
        // Each broken adapter chain once: a loop is reported for the first of its members met.
        var reported: Set<RouteKey> = []
        for required in table.adapters.keys.sorted(by: { $0.description < $1.description }) {
            do { _ = try table.record(for: required, action: .lookUp) } catch let error as RoutingError {
                var chain = [required]
                while let next = table.adapters[chain.last!], !chain.contains(next) { chain.append(next) }
                if reported.isDisjoint(with: chain) { problems.append(error) }
                reported.formUnion(chain)
            }
        }
        let reportedTypes = Set(reported.map { ObjectIdentifier($0.type) })
        var containerReport: ValidationReport?
        var needingParameters: [ServiceKey] = []
        do { containerReport = try container.validate() } catch let error as InjectionError {
            for problem in error.problems.isEmpty ? [error] : error.problems {
                let start = problem.resolutionPath.first.map { ObjectIdentifier($0.serviceType) }
                if Self.failsOnlyForWantOfParameters(problem), let key = problem.resolutionPath.first {
                    needingParameters.append(key)
                } else if let start, reportedTypes.contains(start) {
                    continue  // an adapter chain already reported above, in routing's words
                } else {
                    problems.append(.containerProblem(problem))
                }
            }
        }
        guard problems.isEmpty else { throw RoutingError.validationFailed(problems) }
        return RoutingValidationReport(container: containerReport, routesNeedingParameters: needingParameters)
    }

    /// Whether `error` comes from a route's factory that needed parameters no router handed it.
    private static func failsOnlyForWantOfParameters(_ error: any Error) -> Bool {
        if let routing = error as? RoutingError { return routing.isMissingHandedOverParameters }
        if let injection = error as? InjectionError, let underlying = injection.underlyingError {
            return failsOnlyForWantOfParameters(underlying)
        }
        return false
    }
}

/// What `Router/validate()` could not check.
public struct RoutingValidationReport: Sendable, CustomStringConvertible {
    /// The container's report (what it checked, and could not); `nil` when the container's
    /// validation failed only for the routes in `routesNeedingParameters`.
    public let container: ValidationReport?
    /// The registrations of routes (or of services that depend on them) that need route parameters,
    /// which validation has no values for, so they were not made.
    public let routesNeedingParameters: [ServiceKey]

    /// The unchecked routes, one a line, and the container's report.
    public var description: String {
        let routes = routesNeedingParameters.map { "\($0): needs route parameters" }
        return (routes + [container.map(\.description) ?? ""]).filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
