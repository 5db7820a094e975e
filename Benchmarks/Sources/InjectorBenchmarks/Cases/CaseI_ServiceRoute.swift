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

// I. A service route: a destination made through the router, against a resolve of the same
// registration and against direct construction; then finding a route by URL among 100 and among
// 10,000 registered patterns. Not a Swinject comparison: the sides are Injector's own layers.

protocol RoutedService: AnyObject {}
final class RoutedServiceImpl: RoutedService {}

extension RoutableService where Protocol == any RoutedService {
    init() { self.init(declaredProtocol: Protocol.self) }
}

/// The destination of the URL routes: it carries the URL's `:id`, so a check can tell that the
/// URL reached the route with its parameters.
final class RoutedItem: RoutedService {
    let id: Int
    init(id: Int) { self.id = id }
}

/// Direct construction, written as a person writes it; out of line so it is not folded away.
@inline(never)
func makeRoutedServiceDirectly() -> any RoutedService {
    RoutedServiceImpl() as any RoutedService
}

/// Case I, first half: the same destination through the router, the container and by hand.
struct ServiceRouteCase: BenchmarkCase {
    let id = "I"
    let title = "service route: router vs resolve vs direct"

    /// Target: a destination made through the router costs at most this many times the
    /// container's resolve of the same registration.
    static let target = 1.5

    /// The three ways of making the same destination, in column order.
    enum Side: CaseIterable {
        case router, resolve, direct
    }

    func run(_ settings: Settings) throws -> Report {
        let made = try Harness.compare(try makeBatches(), settings)
        return .ratios([
            RatioTable(
                title: "Service route (case I, median ns per operation)",
                columns: ["Router", "Container resolve", "Direct"],
                ratios: [
                    RatioColumn(title: "Router ÷ resolve", numerator: 0, denominator: 1, target: Self.target),
                    RatioColumn(title: "Router ÷ direct", numerator: 0, denominator: 2),
                    RatioColumn(title: "Resolve ÷ direct", numerator: 1, denominator: 2),
                ],
                rows: [
                    RatioRow(label: "I. transient destination, no dependencies", keys: Side.allCases, made)
                ],
                note: "- **I, service route**: one transient registration of a protocol, made by the router's "
                    + "`register(RoutableService<P>())`, timed three ways, alternating: "
                    + "`router.makeDestination(to: RoutableService<P>())`, `container.resolve(P.self)` (the same "
                    + "registration, after `finishRegistration()`) and `Impl() as any P` in an `@inline(never)` "
                    + "function. Target: the router adds at most 50% to the resolve (Router ÷ resolve "
                    + "≤ \(Format.ratio(Self.target)))."
            )
        ])
    }

    // MARK: - Router, resolve, direct

    /// One container and router with the route registered, checked, and a batch per side.
    private func makeBatches() throws -> [(Side, Batch)] {
        let container = InjectorContainer()
        let router = Router(container: container)
        router.register(RoutableService<any RoutedService>()) { _ in RoutedServiceImpl() }
        try container.finishRegistration()

        let service = RoutableService<any RoutedService>()
        let routed = try (router.makeDestination(to: service), router.makeDestination(to: service))
        try check(routed.0 is RoutedServiceImpl, "Router: the destination is not a RoutedServiceImpl")
        try check(routed.0 !== routed.1, "Router: a transient destination made twice gave one instance")
        let resolved = try (container.resolve((any RoutedService).self), container.resolve((any RoutedService).self))
        try check(resolved.0 is RoutedServiceImpl, "Container: the service is not a RoutedServiceImpl")
        try check(resolved.0 !== resolved.1, "Container: a transient service resolved twice gave one instance")
        let direct = (makeRoutedServiceDirectly(), makeRoutedServiceDirectly())
        try check(direct.0 is RoutedServiceImpl && direct.0 !== direct.1, "Direct: not two RoutedServiceImpls")

        return [(.router, routerBatch(router)), (.resolve, resolveBatch(container)), (.direct, directBatch())]
    }

    // One function per side, so that a profiler can name each batch's closure. Name the closure's
    // partial-apply forwarder alone, `--toggle-collect='*ServiceRouteCase*routerBatch*fU_TA'` (and
    // `resolveBatch`): `*routerBatch*` also matches the closure it calls, and the second toggle
    // turns collection off again. The direct side's closure is folded into one thunk, which
    // `*ServiceRouteCase*directBatch*` names.

    private func routerBatch(_ router: Router) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations {
                checksum &+= identity(try router.makeDestination(to: RoutableService<any RoutedService>()))
            }
            return checksum
        }
    }

    private func resolveBatch(_ container: InjectorContainer) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try container.resolve((any RoutedService).self)) }
            return checksum
        }
    }

    private func directBatch() -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(makeRoutedServiceDirectly()) }
            return checksum
        }
    }
}

/// Case I, second half: finding a route by URL in a small table and in a large one.
struct URLLookupCase: BenchmarkCase {
    let id = "I"
    let title = "URL lookup: 100 vs 10,000 patterns (1,000 in smoke runs)"

    /// Target: finding a route by URL among the larger table costs at most this many times
    /// finding it among the smaller one.
    static let target = 1.5

    /// The sizes of the two tables. A smoke run checks a smaller large table, to stay quick.
    static func patternCounts(_ settings: Settings) -> [Int] {
        settings.smoke ? [100, 1_000] : [100, 10_000]
    }

    func run(_ settings: Settings) throws -> Report {
        let counts = Self.patternCounts(settings)
        let lookups = try Harness.compare(try counts.map { ($0, try lookUpBatch(patterns: $0)) }, settings)
        let sizes = counts.map { Format.grouped($0) }
        return .ratios([
            RatioTable(
                title: "URL lookup (case I, median ns per `router.to(url:as:)`)",
                columns: sizes.map { "\($0) patterns" },
                ratios: [
                    RatioColumn(title: "\(sizes[1]) ÷ \(sizes[0])", numerator: 1, denominator: 0, target: Self.target)
                ],
                rows: [
                    RatioRow(label: "I. find the route of a URL, no perform", keys: counts, lookups)
                ],
                note: "- **I, URL lookup**: one route with N URL patterns `bench://hostHH/sectionSS/pagePPPPP/:id` "
                    + "(16 hosts, 64 sections per host, one page per pattern), timed by `router.to(url:as:)` (parse, "
                    + "match, build the route; nothing performed) for the pattern in the middle of the set, a URL "
                    + "of the same length in both tables. Target: \(sizes[1]) patterns cost at most "
                    + "\(Format.ratio(Self.target)) what \(sizes[0]) do."
            )
        ])
    }

    /// Pattern `index` of a table, or the URL that only it matches when given an `id`:
    /// `bench://host08/section56/page05000/:id`. 16 hosts, 64 sections per host and a page per
    /// pattern give the trie many literal children on three levels; fixed-width numbers give every
    /// URL the same length, so both tables parse and hash the same amount of text.
    static func pattern(_ index: Int, id: Int? = nil) -> String {
        let host = "host" + padded(index % 16, 2)
        let section = "section" + padded(index / 16 % 64, 2)
        let page = "page" + padded(index, 5)
        return "bench://\(host)/\(section)/\(page)/" + (id.map { String($0) } ?? ":id")
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A router with one route reachable by `patterns` URL patterns, checked, and the batch that
    /// looks up the URL of the middle pattern.
    private func lookUpBatch(patterns: Int) throws -> Batch {
        let container = InjectorContainer()
        let router = Router(container: container)
        let registration = router.register(RoutableService<any RoutedService>()) {
            (_, parameters: RouteParameters) in RoutedItem(id: try parameters.value("id", as: Int.self))
        }
        let start = Harness.now()
        for index in 0..<patterns { registration.url(Self.pattern(index)) }
        try container.finishRegistration()
        // Setup, not timed; said on standard error because it grows with the table.
        let seconds = Double(Harness.now() - start) / 1e9
        printError("  \(Format.grouped(patterns)) URL patterns registered in \(Format.fixed(seconds, 2)) s")
        try router.validate()

        let url = Self.pattern(patterns / 2, id: 42)
        let received = Received()
        let route = try router.to(url: url, as: Any.self)
        try route.perform(successHandler: { received.destination = $0 })
        let item = received.destination as? RoutedItem
        try check(item?.id == 42, "Router (\(patterns) patterns): \(url) did not reach the route with id 42")
        try check(
            (try? router.to(url: Self.pattern(patterns, id: 42), as: Any.self)) == nil,
            "Router (\(patterns) patterns): a URL outside the table was matched"
        )
        return lookUpBatch(router, url: url)
    }

    private func lookUpBatch(_ router: Router, url: String) -> Batch {
        { iterations in
            var checksum: UInt = 0
            for _ in 0..<iterations { checksum &+= identity(try router.to(url: url, as: Any.self)) }
            return checksum
        }
    }
}

/// What a route's success handler received. Written and read on the checking thread only, before
/// any timing.
private final class Received: @unchecked Sendable {
    var destination: Any?
}
