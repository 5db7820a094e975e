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
import InjectorRouting

// K. Registering N routes, and N URL patterns, into a fresh router, for N = 1,000 and 10,000:
// the cost of one registration should not grow with the table.

/// A route's protocol for case K: one distinct type per generated service and half, so that
/// 5,000 generated types give 10,000 routes.
final class RegisteredRoute<Service, Half>: RoutedService {}
enum FirstHalf {}
enum SecondHalf {}

struct RouteRegistrationCase: BenchmarkCase {
    let id = "K"
    let title = "route registration: 1,000 vs 10,000 routes and URL patterns"

    /// Target: a registration into a table of 10,000 costs at most this many times one into a
    /// table of 1,000.
    static let target = 1.5
    /// Target, release: at most this many nanoseconds per route.
    static let nanosecondsPerRoute = 2_000.0

    /// N routes, or one route with N URL patterns.
    enum Side: Hashable {
        case routes(Int)
        case patterns(Int)

        var count: Int {
            switch self {
            case .routes(let count), .patterns(let count): count
            }
        }
    }

    func run(_ settings: Settings) throws -> Report {
        let counts = settings.smoke ? [100, 1_000] : [1_000, 10_000]
        let sides = counts.map { Side.routes($0) } + counts.map { Side.patterns($0) }
        var made = try Harness.compare(try sides.map { ($0, try batch($0)) }, settings)
        // An operation is a whole table; a row shows one registration.
        for side in sides {
            made.nanosecondsPerOperation[side]? /= Double(side.count)
            made.allocationsPerOperation[side]? /= Double(side.count)
        }
        let sizes = counts.map { Format.grouped($0) }
        return .ratios([
            RatioTable(
                title: "Route registration (case K, median ns per registration)",
                columns: sizes.map { "into \($0)" },
                ratios: [
                    RatioColumn(title: "\(sizes[1]) ÷ \(sizes[0])", numerator: 1, denominator: 0, target: Self.target)
                ],
                rows: [
                    RatioRow(label: "K. register a route", keys: counts.map { Side.routes($0) }, made),
                    RatioRow(label: "K. add a URL pattern to a route", keys: counts.map { Side.patterns($0) }, made),
                ],
                note: "- **K, route registration**: a fresh router over a fresh container, N routes "
                    + "`router.register(RoutableService(declaredProtocol: RegisteredRoute<S, H>.self)) { … }` (a "
                    + "generated service type and a half: 10,000 types), or one route and N URL patterns "
                    + "(case I's), then one lookup that publishes the table; per registration. Targets: "
                    + "\(sizes[1]) within \(Format.ratio(Self.target)) of \(sizes[0]), and at most "
                    + "\(Format.grouped(Int(Self.nanosecondsPerRoute))) ns per route in release."
            )
        ])
    }

    /// A batch that builds `iterations` routers, each with the side's N registrations.
    private func batch(_ side: Side) throws -> Batch {
        switch side {
        case .routes(let count):
            try check(count <= 2 * generatedServiceTypes.count, "K: more routes than generated types")
            return { iterations in
                var checksum: UInt = 0
                for _ in 0..<iterations {
                    let router = Router(container: InjectorContainer())
                    for index in 0..<count {
                        let type = generatedServiceTypes[index % generatedServiceTypes.count]
                        Self.register(type, firstHalf: index < generatedServiceTypes.count, in: router)
                    }
                    checksum &+= identity(try router.makeDestination(to: Self.firstRoute))
                }
                return checksum
            }
        case .patterns(let count):
            return { iterations in
                var checksum: UInt = 0
                for _ in 0..<iterations {
                    let router = Router(container: InjectorContainer())
                    let registration = router.register(Self.firstRoute) { _ in RegisteredRoute<S0001, FirstHalf>() }
                    for index in 0..<count { registration.url(URLLookupCase.pattern(index)) }
                    checksum &+= identity(try router.to(url: URLLookupCase.pattern(0, id: 1), as: Any.self))
                }
                return checksum
            }
        }
    }

    private static let firstRoute = RoutableService(declaredProtocol: RegisteredRoute<S0001, FirstHalf>.self)

    private static func register<S: GeneratedService>(_ type: S.Type, firstHalf: Bool, in router: Router) {
        if firstHalf {
            router.register(RoutableService(declaredProtocol: RegisteredRoute<S, FirstHalf>.self)) { _ in
                RegisteredRoute<S, FirstHalf>()
            }
        } else {
            router.register(RoutableService(declaredProtocol: RegisteredRoute<S, SecondHalf>.self)) { _ in
                RegisteredRoute<S, SecondHalf>()
            }
        }
    }
}
