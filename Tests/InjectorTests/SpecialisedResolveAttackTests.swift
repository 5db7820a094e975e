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

import Foundation
import Testing

@testable import Injector

// Attacks on the specialised resolve of a declared parameter (`Provider.resolveSpecialised`, which
// `AnyProvider.resolveFound` calls). Each probe registers the parameter's registration twice over,
// in two containers at one site: as the public `register` makes it (with its specialised resolve),
// and through the engine without one (the unspecialised resolve every parameter took before). The
// same script must then give the same transcript, value for value and error message for error
// message; and a declared consumer must resolve the parameter as a closure registration's resolver
// does (registered beside it under the name "closure").

private protocol SraTicking: Sendable {
    var serial: Int { get }
}
private final class SraClock: SraTicking {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
/// Two parameters of one type, resolved in one resolve: what a graph-scoped one shares.
private struct SraPair<Value: Sendable>: Sendable {
    let first: Value
    let second: Value
}
private struct SraFailure: Error, CustomStringConvertible {
    var description: String { "the clock broke" }
}
private final class SraLink: Sendable {
    let next: SraLink?
    init(next: SraLink?) { self.next = next }
}
private final class SraCycleA: Sendable {
    init(b: SraCycleB) {}
}
private final class SraCycleB: Sendable {}

/// How the parameter's registration is made: as the public `register` makes it, carrying the
/// resolve specialised for its service; or through the engine without one.
enum SraPath: CaseIterable, CustomStringConvertible {
    case specialised, generic
    var description: String { self == .specialised ? "specialised" : "generic" }
}

extension Container {
    /// Registers `make` as `Service`'s factory on `path`, at one site whichever the path, so that
    /// messages naming the site are the same.
    @discardableResult
    fileprivate func sraRegister<Service>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        replacesExisting: Bool = false,
        on path: SraPath,
        line: UInt = 1,
        _ make: @escaping @Sendable (Resolver) throws -> Service
    ) -> Registration<Service> {
        switch path {
        case .specialised:
            return register(
                service,
                name: name,
                scope: scope,
                replacesExisting: replacesExisting,
                fileID: "Sra/Site.swift",
                line: line,
                factory: make
            )
        case .generic:
            return register(
                ServiceKey(service, name: name),
                scope: scope.scope,
                replacing: replacesExisting,
                at: "Sra/Site.swift",
                line,
                identifyingArguments: nil,
                .sync { r, _ in try make(r) }
            )
        }
    }

    /// Registers `SraPair<Value>` declared (unnamed) and as a closure registration resolving the
    /// same key through its resolver (named "closure").
    fileprivate func sraRegisterPairs<Value: Sendable>(
        of _: Value.Type,
        name: String? = nil,
        scope: ServiceScope<SraPair<Value>> = .transient
    ) {
        register(
            SraPair<Value>.self,
            scope: scope,
            fileID: "Sra/Pairs.swift",
            line: 1,
            using: Resolved(Value.self, name: name),
            Resolved(Value.self, name: name)
        ) { SraPair(first: $0, second: $1) }
        register(SraPair<Value>.self, name: "closure", scope: scope, fileID: "Sra/Pairs.swift", line: 2) { r in
            SraPair(first: try r.resolve(Value.self, name: name), second: try r.resolve(Value.self, name: name))
        }
    }

    /// Registers the clock on `path`, numbered by `counter`, and the pairs of it.
    fileprivate func sraRegisterClock(
        scope: ServiceScope<SraClock> = .transient,
        on path: SraPath,
        counter: CallCounter
    ) {
        sraRegister(SraClock.self, scope: scope, on: path) { _ in SraClock(serial: counter.next()) }
        sraRegisterPairs(of: SraClock.self)
    }
}

/// What `body` gave: its value, or the error's code and message.
private func sraOutcome(_ body: () throws -> String) -> String {
    do { return try body() } catch let error as InjectionError { return "\(error.code): \(error.message)" } catch {
        return "other \(type(of: error)): \(error)"
    }
}

/// The async spelling of `sraOutcome(_:)`.
private func sraOutcomeAsync(_ body: () async throws -> String) async -> String {
    do { return try await body() } catch let error as InjectionError { return "\(error.code): \(error.message)" } catch
    {
        return "other \(type(of: error)): \(error)"
    }
}

/// The serials of a pair of clocks.
private func serials(_ pair: SraPair<SraClock>) -> String { "\(pair.first.serial),\(pair.second.serial)" }

/// The declared pair and the closure pair resolved from `resolving`, in that order.
private func bothPairs(from resolving: some Resolving) throws -> String {
    let declared = try resolving.resolve(SraPair<SraClock>.self)
    let closure = try resolving.resolve(SraPair<SraClock>.self, name: "closure")
    return "\(serials(declared)) \(serials(closure))"
}

/// The transcript of `script` on each path, on containers `setUp` registers into.
private func transcripts(
    _ setUp: (Container, SraPath) throws -> Void,
    _ script: (Container) throws -> String
) rethrows -> [String] {
    try SraPath.allCases.map { path in
        let container = Container()
        try setUp(container, path)
        return sraOutcome { try script(container) }
    }
}

/// Expects the transcript of `script` to be `expected` on both paths (pins it), or, with
/// `expected` nil, the same on both and to contain each of `parts`.
private func expectSameOnBothPaths(
    _ expected: String? = nil,
    containing parts: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ setUp: (Container, SraPath) throws -> Void,
    _ script: (Container) throws -> String
) rethrows {
    let both = try transcripts(setUp, script)
    #expect(both[0] == both[1], "specialised vs generic", sourceLocation: sourceLocation)
    if let expected { #expect(both[0] == expected, sourceLocation: sourceLocation) }
    for part in parts { #expect(both[0].contains(part), "\(both[0])", sourceLocation: sourceLocation) }
}

@Suite(.timeLimit(.minutes(2)))
struct SpecialisedResolveAttackTests {
    // MARK: - The harness can fail

    @Test func theTwoPathsDifferInWhetherTheParametersRegistrationCarriesASpecialisedResolve() throws {
        for path in SraPath.allCases {
            let container = Container()
            container.sraRegister(SraClock.self, on: path) { _ in SraClock(serial: 0) }
            let provider = try #require(container.provider(for: LookupKey(SraClock.self, name: nil))?.object)
            let specialised = try #require(provider as? Provider<SraClock>).resolveSpecialised != nil
            #expect(specialised == (path == .specialised), "\(path)")
        }
    }

    // MARK: - Lifetimes

    /// Pairs resolved twice from one request scope, then once from another: declared, then closure.
    private func resolveInTwoScopes(_ container: Container, tag: ScopeTag? = "request") throws -> String {
        let first = container.makeScope(tag: tag)
        let second = container.makeScope(tag: tag)
        defer {
            try? first.close()
            try? second.close()
        }
        return [try bothPairs(from: first), try bothPairs(from: first), try bothPairs(from: second)]
            .joined(separator: " | ")
    }

    @Test(arguments: [
        ("transient", "1,2 3,4 | 5,6 7,8 | 9,10 11,12"),
        ("graph", "1,1 2,2 | 3,3 4,4 | 5,5 6,6"),
        ("singleton", "1,1 1,1 | 1,1 1,1 | 1,1 1,1"),
        ("scoped", "1,1 1,1 | 1,1 1,1 | 2,2 2,2"),
        ("scoped to request", "1,1 1,1 | 1,1 1,1 | 2,2 2,2"),
    ])
    func aDeclaredParameterIsSharedByItsLifetimeAsTheResolversIs(scopeName: String, expected: String) throws {
        let scopes: [String: ServiceScope<SraClock>] = [
            "transient": .transient, "graph": .graph, "singleton": .singleton, "scoped": .scoped,
            "scoped to request": .scoped(to: "request"),
        ]
        let scope = try #require(scopes[scopeName])
        try expectSameOnBothPaths(expected) { container, path in
            container.sraRegisterClock(scope: scope, on: path, counter: CallCounter())
        } _: {
            try resolveInTwoScopes($0)
        }
    }

    @Test func aDeclaredWeakParameterIsTheInstanceHeldAndANewOneOnceReleased() throws {
        try expectSameOnBothPaths("1,1 1,1 1,1 | 2,2") { container, path in
            container.sraRegisterClock(scope: .weak, on: path, counter: CallCounter())
        } _: { container in
            let whileHeld = try { () throws -> String in
                let held = try container.resolve(SraClock.self)
                return try bothPairs(from: container) + " \(held.serial),\(held.serial)"
            }()
            return whileHeld + " | " + serials(try container.resolve(SraPair<SraClock>.self))
        }
    }

    @Test func aDeclaredScopeValueIsTheValueEachScopeWasGiven() throws {
        try expectSameOnBothPaths("7,7 7,7 | 7,7 7,7 | 9,9 9,9") { container, _ in
            container.register(SraClock.self, providedByScope: "request")
            container.sraRegisterPairs(of: SraClock.self)
        } _: { container in
            let first = container.makeScope(tag: "request") { $0.provide(SraClock.self, SraClock(serial: 7)) }
            let second = container.makeScope(tag: "request") { $0.provide(SraClock.self, SraClock(serial: 9)) }
            return [try bothPairs(from: first), try bothPairs(from: first), try bothPairs(from: second)]
                .joined(separator: " | ")
        }
    }

    /// The errors of a scoped or scope-given parameter resolved where it cannot be: outside a
    /// scope, in a scope of another tag, or from a singleton (a captive).
    @Test(arguments: ["scoped outside a scope", "tagged in another scope", "scope value outside", "captive"])
    func aDeclaredParameterResolvedWhereItsScopeIsNotFailsAsOnTheGenericPath(probe: String) throws {
        let codes = [
            "scoped outside a scope": "scopeMismatch", "tagged in another scope": "scopeMismatch",
            "scope value outside": "scopeMismatch", "captive": "captiveDependency",
        ]
        let code = try #require(codes[probe])
        expectSameOnBothPaths(containing: ["\(code): ", " / \(code): "]) { container, path in
            switch probe {
            case "scope value outside":
                container.register(SraClock.self, providedByScope: "request")
                container.sraRegisterPairs(of: SraClock.self)
            case "captive":
                container.sraRegister(SraClock.self, scope: .scoped, on: path) { _ in SraClock(serial: 1) }
                container.sraRegisterPairs(of: SraClock.self, scope: .singleton)
            default:
                let scope: ServiceScope<SraClock> = probe.hasPrefix("tagged") ? .scoped(to: "request") : .scoped
                container.sraRegisterClock(scope: scope, on: path, counter: CallCounter())
            }
        } _: { container in
            let scope = container.makeScope(tag: "session")
            defer { try? scope.close() }
            let resolving: any Resolving =
                probe.hasSuffix("outside a scope") || probe.hasSuffix("outside") ? container : scope
            return sraOutcome { try serials(resolving.resolve(SraPair<SraClock>.self)) } + " / "
                + sraOutcome { try serials(resolving.resolve(SraPair<SraClock>.self, name: "closure")) }
        }
    }

    @Test func aDeclaredWeakParameterOfAValueFailsAsOnTheGenericPath() throws {
        expectSameOnBothPaths(containing: ["weakScopeNeedsObject: "]) { container, path in
            container.sraRegister(Int.self, scope: ServiceScope(.weak), on: path) { _ in 1 }
            container.sraRegisterPairs(of: Int.self)
        } _: { container in
            sraOutcome { "\(try container.resolve(SraPair<Int>.self))" }
        }
    }

    // MARK: - Amended, duplicated, replaced, late

    @Test func aDeclaredParameterRunsItsRegistrationsHookOncePerInstanceAsTheResolversDoes() throws {
        let hooked = Guarded<[Int]>([])
        try expectSameOnBothPaths("1,1 1,1 hooked [1]") { container, path in
            hooked.set([])
            let counter = CallCounter()
            container.sraRegister(SraClock.self, scope: .singleton, on: path) { _ in SraClock(serial: counter.next()) }
                .onResolved { _, clock in hooked.withLock { $0.append(clock.serial) } }
            container.sraRegisterPairs(of: SraClock.self)
            try container.finishRegistration()
        } _: { container in
            try bothPairs(from: container) + " hooked \(hooked.current)"
        }
    }

    @Test func aDeclaredParameterFailingItsCheckFailsWithTheGenericPathsMessage() throws {
        try expectSameOnBothPaths(containing: ["preparationFailed: ", "the clock broke"]) { container, path in
            container.sraRegister(SraClock.self, on: path) { _ in SraClock(serial: 1) }
                .verify(fileID: "Sra/Check.swift", line: 3) { _ in throw SraFailure() }
            container.sraRegisterPairs(of: SraClock.self)
        } _: { container in
            try bothPairs(from: container)
        }
    }

    @Test func aDeclaredParameterWhoseFactoryThrowsFailsWithTheGenericPathsMessage() throws {
        expectSameOnBothPaths(containing: ["factoryFailed: ", " / factoryFailed: ", "the clock broke"]) {
            container,
            path in
            container.sraRegister(SraClock.self, scope: .singleton, on: path) { _ in throw SraFailure() }
            container.sraRegisterPairs(of: SraClock.self)
        } _: { container in
            sraOutcome { try serials(container.resolve(SraPair<SraClock>.self)) } + " / "
                + sraOutcome { try serials(container.resolve(SraPair<SraClock>.self, name: "closure")) }
        }
    }

    @Test(arguments: ["duplicate", "late", "late hook"])
    func aDeclaredParameterWithAConflictFailsWithTheGenericPathsMessage(probe: String) throws {
        let transcripts = try transcripts { container, path in
            let registration = container.sraRegister(SraClock.self, on: path) { _ in SraClock(serial: 1) }
            container.sraRegisterPairs(of: SraClock.self)
            if probe != "duplicate" { try container.finishRegistration() }
            if probe == "late hook" {
                registration.onResolved(fileID: "Sra/Hook.swift", line: 5) { _, _ in }
            } else {
                container.sraRegister(SraClock.self, on: path, line: 2) { _ in SraClock(serial: 2) }
            }
        } _: { container in
            sraOutcome { try serials(container.resolve(SraPair<SraClock>.self)) } + " / "
                + sraOutcome { try serials(container.resolve(SraPair<SraClock>.self, name: "closure")) }
        }
        #expect(transcripts[0] == transcripts[1])
        let code = probe == "duplicate" ? "duplicateRegistration" : "registrationAfterFinish"
        #expect(transcripts[0].hasPrefix(code), "\(transcripts[0])")
    }

    @Test func aReplacedParameterIsTheReplacementThroughTheDeclaredRegistration() throws {
        try expectSameOnBothPaths("2,2 2,2") { container, path in
            container.sraRegister(SraClock.self, scope: .singleton, on: path) { _ in SraClock(serial: 1) }
            container.sraRegister(SraClock.self, scope: .singleton, replacesExisting: true, on: path) { _ in
                SraClock(serial: 2)
            }
            container.sraRegisterPairs(of: SraClock.self)
            try container.finishRegistration()
        } _: {
            try bothPairs(from: $0)
        }
    }

    // MARK: - Overrides, children, forwarding

    @Test func anOverriddenParameterIsTheOverrideThroughTheDeclaredRegistrationAndNotAfter() throws {
        try expectSameOnBothPaths("5,5 5,5 | 1,1 1,1") { container, path in
            container.sraRegisterClock(scope: .singleton, on: path, counter: CallCounter())
            try container.finishRegistration()
        } _: { container in
            let inside = try container.withOverrides {
                $0.register(SraClock.self, scope: .singleton) { _ in SraClock(serial: 5) }
            } operation: {
                try bothPairs(from: container)
            }
            return inside + " | " + (try bothPairs(from: container))
        }
    }

    @Test func aChildsShadowingParameterIsTheChildsThroughTheParentsDeclaredRegistration() throws {
        try expectSameOnBothPaths("8,9 10,11 | 1,1 1,1") { container, path in
            container.sraRegisterClock(scope: .singleton, on: path, counter: CallCounter())
            try container.finishRegistration()
        } _: { container in
            let child = container.makeChild()
            let counter = CallCounter()
            child.sraRegister(SraClock.self, on: .specialised) { _ in SraClock(serial: 7 + counter.next()) }
            try child.finishRegistration()
            return try bothPairs(from: child) + " | " + (try bothPairs(from: container))
        }
    }

    @Test func aForwardedParameterIsTheOriginalsInstance() throws {
        try expectSameOnBothPaths("1 1 1") { container, path in
            let counter = CallCounter()
            container.sraRegister(SraClock.self, scope: .singleton, on: path) { _ in SraClock(serial: counter.next()) }
                .implements((any SraTicking).self)
            container.sraRegisterPairs(of: (any SraTicking).self)
        } _: { container in
            let declared = try container.resolve(SraPair<any SraTicking>.self)
            let closure = try container.resolve(SraPair<any SraTicking>.self, name: "closure")
            #expect(declared.first as? SraClock === (try container.resolve(SraClock.self)))
            return "\(declared.first.serial) \(declared.second.serial) \(closure.first.serial)"
        }
    }

    // MARK: - Existentials, values, optionals, deferred

    /// The transcript of the declared and closure pairs of `Value`, registered on each path as a
    /// graph-scoped `make`, and checks it is `expected` on both.
    private func expectPairs<Value: Sendable>(
        of _: Value.Type,
        _ expected: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: @escaping @Sendable (Int) -> Value
    ) throws {
        try expectSameOnBothPaths(expected, sourceLocation: sourceLocation) { container, path in
            let counter = CallCounter()
            container.sraRegister(Value.self, scope: .graph, on: path) { _ in make(counter.next()) }
            container.sraRegisterPairs(of: Value.self)
        } _: { container in
            let declared = try container.resolve(SraPair<Value>.self)
            let closure = try container.resolve(SraPair<Value>.self, name: "closure")
            return "\(declared.first) \(declared.second) \(closure.first) \(closure.second)"
        }
    }

    private enum Mode: Sendable {
        case on(Int)
        case off
    }

    @Test func aDeclaredParameterOfAValueExistentialOrOptionalIsWhatTheResolverGives() throws {
        try expectPairs(of: Int.self, "1 1 2 2") { $0 }
        try expectPairs(of: String.self, "s1 s1 s2 s2") { "s\($0)" }
        try expectPairs(of: Mode.self, "on(1) on(1) off off") { $0 == 1 ? .on($0) : .off }
        try expectPairs(of: (Int, String).self, "(1, \"a\") (1, \"a\") (2, \"a\") (2, \"a\")") { ($0, "a") }
        try expectPairs(of: Int?.self, "Optional(1) Optional(1) nil nil") { $0 == 1 ? $0 : nil }
        try expectPairs(of: (any Sendable).self, "1 1 2 2") { $0 }
        try expectPairs(of: [Int].self, "[1] [1] [2] [2]") { [$0] }
        try expectPairs(of: Int.Type.self, "Int Int Int Int") { _ in Int.self }
        let functions = try transcripts { container, path in
            container.sraRegister((@Sendable () -> Int).self, on: path) { _ in { 42 } }
            container.sraRegisterPairs(of: (@Sendable () -> Int).self)
        } _: { container in
            let pair = try container.resolve(SraPair<@Sendable () -> Int>.self)
            let closure = try container.resolve(SraPair<@Sendable () -> Int>.self, name: "closure")
            return "\(pair.first()) \(pair.second()) \(closure.first())"
        }
        #expect(functions == ["42 42 42", "42 42 42"])
    }

    @Test func aDeclaredOptionalLazyOrProviderParameterResolvesTheWrappedRegistrationAsTheResolverDoes() throws {
        try expectSameOnBothPaths("1 1 1 1") { container, path in
            let counter = CallCounter()
            container.sraRegister(SraClock.self, scope: .singleton, on: path) { _ in SraClock(serial: counter.next()) }
            container.register(
                String.self,
                using: Resolved(SraClock?.self),
                Resolved(Lazy<SraClock>.self),
                Resolved(ServiceProvider<SraClock>.self)
            ) { optional, lazy, provider in
                [optional?.serial, try lazy.value.serial, try provider.resolve().serial].map { "\($0 ?? 0)" }
                    .joined(separator: " ")
            }
        } _: { container in
            let declared = try container.resolve(String.self)
            let closure = try container.resolve(SraClock?.self)
            return declared + " \(closure?.serial ?? 0)"
        }
    }

    /// A registration made from generic code, not specialised for its service: `Value` is only
    /// known at run time where `register` is inlined.
    private func registerGenerically<Value: Sendable>(_ value: Value, in container: Container) {
        container.register(Value.self, scope: .singleton) { _ in value }
    }

    @Test func aParameterRegisteredFromGenericCodeResolvesThroughItsUnspecialisedResolve() throws {
        let container = Container()
        registerGenerically(SraClock(serial: 3), in: container)
        registerGenerically(SraPair(first: 1, second: 2), in: container)
        container.sraRegisterPairs(of: SraClock.self)
        container.register(String.self) { (pair: SraPair<Int>, clock: SraClock) in
            "\(pair.first)\(pair.second)\(clock.serial)"
        }
        #expect(try bothPairs(from: container) == "3,3 3,3")
        #expect(try container.resolve(String.self) == "123")
    }

    // MARK: - Cycles, outlived resolvers, validation, resolveAll

    @Test(arguments: ["through a closure", "declared"])
    func aCycleThroughADeclaredParameterNamesThePathAsTheGenericPathDoes(probe: String) throws {
        let both = try transcripts { container, path in
            container.sraRegisterDeclared(SraCycleA.self, on: path, using: Resolved(SraCycleB.self), SraCycleA.init)
            if probe == "declared" {
                container.sraRegisterDeclared(SraCycleB.self, on: path, using: Resolved(SraCycleA.self)) { _ in
                    SraCycleB()
                }
            } else {
                container.sraRegister(SraCycleB.self, on: path) { r in
                    _ = try r.resolve(SraCycleA.self)
                    return SraCycleB()
                }
            }
        } _: { container in
            "\(try container.resolve(SraCycleA.self))"
        }
        #expect(both[0] == both[1])
        #expect(both[0].hasPrefix("circularDependency: "), "\(both[0])")
        #expect(both[0].contains("SraCycleA -> SraCycleB -> SraCycleA"), "\(both[0])")
    }

    @Test func aResolverKeptPastItsResolutionRefusesADeclaredRegistrationAsOnTheGenericPath() throws {
        let kept = KeptResolver()
        try expectSameOnBothPaths(containing: ["1,1 then resolverOutlivedResolution: "]) { container, path in
            container.sraRegisterClock(scope: .singleton, on: path, counter: CallCounter())
            container.register(String.self) { r in
                kept.keep(r)
                return try serials(r.resolve(SraPair<SraClock>.self))
            }
        } _: { container in
            let inside = try container.resolve(String.self)
            let resolver = try #require(kept.resolver)
            return inside + " then " + sraOutcome { try serials(resolver.resolve(SraPair<SraClock>.self)) }
        }
    }

    @Test(arguments: ["healthy", "missing", "scoped in a singleton"])
    func validatingADeclaredRegistrationReportsAsOnTheGenericPath(probe: String) throws {
        try expectSameOnBothPaths(containing: [probe == "healthy" ? "Validated 3 registrations" : "validationFailed: "])
        { container, path in
            switch probe {
            case "healthy": container.sraRegisterClock(scope: .singleton, on: path, counter: CallCounter())
            case "missing": container.sraRegisterPairs(of: SraClock.self)
            default:
                container.sraRegister(SraClock.self, scope: .scoped, on: path) { _ in SraClock(serial: 1) }
                container.sraRegisterPairs(of: SraClock.self, scope: .singleton)
            }
        } _: { container in
            "\(try container.validate())"
        }
    }

    @Test func resolveAllOfADeclaredRegistrationSharesItsGraphParameterAsOnTheGenericPath() throws {
        try expectSameOnBothPaths("1,1 1,1") { container, path in
            container.sraRegisterClock(scope: .graph, on: path, counter: CallCounter())
        } _: { container in
            try container.resolveAll(SraPair<SraClock>.self).map(serials).joined(separator: " ")
        }
    }

    // MARK: - Async resolves of sync declared registrations

    /// `expectSameOnBothPaths` for an async script.
    private func expectSameOnBothPathsAsync(
        _ expected: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ setUp: (Container, SraPath) throws -> Void,
        _ script: (Container) async throws -> String
    ) async throws {
        var both: [String] = []
        for path in SraPath.allCases {
            let container = Container()
            try setUp(container, path)
            both.append(await sraOutcomeAsync { try await script(container) })
        }
        #expect(both[0] == both[1], "specialised vs generic", sourceLocation: sourceLocation)
        if let expected { #expect(both[0] == expected, sourceLocation: sourceLocation) }
    }

    @Test(arguments: [("graph", "1,1 2,2"), ("singleton", "1,1 1,1"), ("scoped", "1,1 1,1")])
    func anAsyncResolveOfADeclaredRegistrationSharesItsParameterAsASyncOneDoes(
        scopeName: String,
        expected: String
    ) async throws {
        let scope: ServiceScope<SraClock> =
            scopeName == "graph" ? .graph : scopeName == "singleton" ? .singleton : .scoped
        try await expectSameOnBothPathsAsync(expected) { container, path in
            container.sraRegisterClock(scope: scope, on: path, counter: CallCounter())
        } _: { container in
            try await container.withScopeAsync { scope in
                let declared = try await scope.resolveAsync(SraPair<SraClock>.self)
                let closure = try await scope.resolveAsync(SraPair<SraClock>.self, name: "closure")
                return "\(serials(declared)) \(serials(closure))"
            }
        }
    }

    @Test func anAsyncParameterOfASyncDeclaredRegistrationFailsAsTheResolversDoes() async throws {
        let container = Container()
        container.register(SraClock.self, scope: .singleton) { _ async in SraClock(serial: 1) }
        container.sraRegisterPairs(of: SraClock.self)
        let declared = await injectionErrorAsync { try await container.resolveAsync(SraPair<SraClock>.self) }
        let closure = await injectionErrorAsync {
            try await container.resolveAsync(SraPair<SraClock>.self, name: "closure")
        }
        #expect(declared?.code == closure?.code)
        #expect(injectionError { try container.resolve(SraPair<SraClock>.self) }?.code == .asyncResolutionRequired)
    }

    // MARK: - Threads and deep chains

    @Test(arguments: SraPath.allCases)
    func threadsResolvingAColdDeclaredSingletonParameterAtOnceShareOneInstance(path: SraPath) async throws {
        let container = Container()
        let built = CallCounter()
        container.sraRegister(SraClock.self, scope: .singleton, on: path) { _ in
            Thread.sleep(forTimeInterval: 0.02)
            return SraClock(serial: built.next())
        }
        container.sraRegisterPairs(of: SraClock.self)
        try container.finishRegistration()
        let seen = Guarded<[String]>([])
        let bodies: [@Sendable () -> Void] = (0..<8).map { index in
            {
                let name: String? = index.isMultiple(of: 2) ? nil : "closure"
                let outcome = sraOutcome { try serials(container.resolve(SraPair<SraClock>.self, name: name)) }
                seen.withLock { $0.append(outcome) }
            }
        }
        #expect(await onThreads(bodies))
        #expect(seen.current == Array(repeating: "1,1", count: 8))
        #expect(built.count == 1)
    }

    /// Registers links "0" to "\(depth)", each declared as taking the next, the last one a
    /// closure registration; on `path`.
    private func registerChain(depth: Int, scope: ServiceScope<SraLink>, on path: SraPath, in container: Container) {
        for index in 0..<depth {
            container.sraRegisterDeclared(
                SraLink.self,
                name: "\(index)",
                scope: scope,
                on: path,
                using: Resolved(SraLink.self, name: "\(index + 1)"),
                SraLink.init
            )
        }
        container.sraRegister(SraLink.self, name: "\(depth)", scope: scope, on: path) { _ in SraLink(next: nil) }
    }

    @Test(arguments: SraPath.allCases, ["transient", "singleton"])
    func aDeepChainOfDeclaredParametersOnASmallStackIsTooDeepNotACrash(path: SraPath, scopeName: String) async throws {
        let scope: ServiceScope<SraLink> = scopeName == "singleton" ? .singleton : .transient
        let deep = Container()
        registerChain(depth: 3000, scope: scope, on: path, in: deep)
        let shallow = Container()
        registerChain(depth: 8, scope: scope, on: path, in: shallow)
        let outcomes = await runOnThread(stackSize: 256 << 10) {
            (
                injectionError { try deep.resolve(SraLink.self, name: "0") }?.code,
                sraOutcome { "\(try shallow.resolve(SraLink.self, name: "0").next != nil)" }
            )
        }
        #expect(outcomes.0 == .resolutionTooDeep)
        #expect(outcomes.1 == "true")
    }
}

extension Container {
    /// Registers a declared `Service` taking one parameter as `dependency` says: through the public
    /// `register` (with its specialised resolve), or, on the generic path, without one.
    fileprivate func sraRegisterDeclared<Service, Dependency>(
        _ service: Service.Type,
        name: String? = nil,
        scope: ServiceScope<Service> = .transient,
        on path: SraPath,
        using dependency: Resolved<Dependency>,
        _ make: @escaping @Sendable (Dependency) throws -> Service
    ) {
        switch path {
        case .specialised:
            register(
                service,
                name: name,
                scope: scope,
                fileID: "Sra/Declared.swift",
                line: 1,
                using: dependency,
                make: make
            )
        case .generic:
            let parameters = DeclaredParameters(
                of: ServiceKey(service, name: name),
                at: "Sra/Declared.swift",
                1,
                function: Dependency.self,
                naming: dependency
            )
            _ = register(
                parameters,
                scope: scope.scope,
                replacing: false,
                Provider<Service>.Body.sync { r, _ in
                    var position = 0
                    return try make(parameters.resolve(Dependency.self, at: &position, from: r))
                }
            )
        }
    }
}
