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
import Swinject

// F. Registering N distinct service types into a fresh container, then resolving each once.
// The types come from Generated/GeneratedServices.swift (Scripts/generate.py).

/// A service type made by `Scripts/generate.py`: `final class S0001: GeneratedService {}`.
protocol GeneratedService: AnyObject, Sendable {
    init()
}

/// One contender's registry for case F, created fresh for every repetition.
///
/// The generic methods are called with each type of `generatedServiceTypes` opened from its
/// existential metatype, so every call registers or resolves one concrete type.
protocol Registry {
    init()
    func register<T: GeneratedService>(_ type: T.Type)
    /// Injector's `finishRegistration()`; nothing for the others.
    func finish() throws
    /// Resolves `type` once and returns the identity of the instance.
    func resolve<T: GeneratedService>(_ type: T.Type) throws -> UInt
}

final class InjectorRegistry: Registry {
    let container = InjectorContainer()
    init() {}
    func register<T: GeneratedService>(_ type: T.Type) { container.register(T.self) { _ in T() } }
    func finish() throws { try container.finishRegistration() }
    func resolve<T: GeneratedService>(_ type: T.Type) throws -> UInt { identity(try container.resolve(T.self)) }
}

final class SwinjectRegistry: Registry {
    let container = SwinjectContainer()
    init() {}
    func register<T: GeneratedService>(_ type: T.Type) {
        container.register(T.self) { _ in T() }.inObjectScope(.transient)
    }
    func finish() {}
    func resolve<T: GeneratedService>(_ type: T.Type) throws -> UInt {
        identity(try required(container.resolve(T.self)))
    }
}

/// Direct construction registers nothing; its "first resolve" is `T()`, reached through the same
/// opened metatype as every contender's resolve.
final class DirectRegistry: Registry {
    init() {}
    func register<T: GeneratedService>(_ type: T.Type) {}
    func finish() {}
    func resolve<T: GeneratedService>(_ type: T.Type) throws -> UInt { identity(T()) }
}

/// Closure-wired "registration": a dictionary of factory closures keyed by `ObjectIdentifier`
/// of the type, the least a service locator can do. Resolving looks the closure up, calls it,
/// and downcasts without a dynamic check.
final class ClosureWiredRegistry: Registry {
    private var factories: [ObjectIdentifier: () -> AnyObject] = [:]
    init() {}
    func register<T: GeneratedService>(_ type: T.Type) { factories[ObjectIdentifier(T.self)] = { T() } }
    func finish() {}
    func resolve<T: GeneratedService>(_ type: T.Type) throws -> UInt {
        guard let factory = factories[ObjectIdentifier(T.self)] else {
            throw BenchmarkError(description: "Closure-wired: \(T.self) is not registered")
        }
        return identity(unsafeDowncast(factory(), to: T.self))
    }
}

struct RegistrationCase: BenchmarkCase {
    let id = "F"
    let title = "register N services, then resolve each once"
    let counts = [500, 1_000, 2_000, 5_000]

    /// Targets (issue 9 §3): ns per registration at every N; registration flat in N (ns per
    /// registration at the largest N ÷ at the smallest); first resolve ÷ direct construction.
    static let registrationNanosecondsTarget = 150.0
    static let flatnessTarget = 1.5
    static let firstResolveTarget = 3.0

    /// One round for one contender and one N, per registered service.
    private struct Measurement {
        var registrationNanoseconds: Double
        var registrationAllocations: Double
        var resolveNanoseconds: Double
        var resolveAllocations: Double
        var bytesPerService: Double
    }

    func run(_ settings: Settings) throws -> Report {
        precondition(counts.max()! <= generatedServiceTypes.count, "run Scripts/generate.py with a larger COUNT")
        let registries: [(Contender, any Registry.Type)] = [
            (.injector, InjectorRegistry.self), (.swinject, SwinjectRegistry.self),
            (.direct, DirectRegistry.self), (.closureWired, ClosureWiredRegistry.self),
        ]
        // Warm-up: touches every type's metadata and the code paths once.
        for (_, registry) in registries { _ = try measure(registry, count: counts.max()!) }

        // Repetitions alternate contenders, as in the other cases.
        var samples: [Int: [Contender: [Measurement]]] = [:]
        for _ in 0..<settings.repetitions {
            for count in counts {
                for (contender, registry) in registries {
                    samples[count, default: [:]][contender, default: []].append(
                        try Harness.onCPU(settings) { try measure(registry, count: count) }
                    )
                }
            }
        }
        return .comparison(.registration, rows(samples))
    }

    /// Registers `count` types into a fresh registry, then resolves each once.
    ///
    /// Heap growth is read with `mallinfo2()` right after registration (and
    /// `finishRegistration()`), before anything is resolved.
    private func measure(_ registry: any Registry.Type, count: Int) throws -> Measurement {
        let target = registry.init()
        let types = generatedServiceTypes.prefix(count)

        let heapBefore = Harness.heapInUse()
        let allocationsBefore = Harness.allocations()
        let start = Harness.now()
        for type in types { target.register(type) }
        try target.finish()
        let registered = Harness.now()
        let allocationsRegistered = Harness.allocations()
        let heapAfter = Harness.heapInUse()

        var checksum: UInt = 0
        let resolveStart = Harness.now()
        for type in types { checksum &+= try target.resolve(type) }
        let resolved = Harness.now()
        let allocationsResolved = Harness.allocations()
        blackHole(checksum)
        withExtendedLifetime(target) {}

        let n = Double(count)
        return Measurement(
            registrationNanoseconds: Double(registered - start) / n,
            registrationAllocations: Double(allocationsRegistered - allocationsBefore) / n,
            resolveNanoseconds: Double(resolved - resolveStart) / n,
            resolveAllocations: Double(allocationsResolved - allocationsRegistered) / n,
            bytesPerService: Double(heapAfter - heapBefore) / n
        )
    }

    /// Four groups of rows: registration (one row per N), its flatness in N, first resolve and heap
    /// (one row per N each). Direct construction registers nothing, so its registration and heap
    /// cells are empty.
    private func rows(_ samples: [Int: [Contender: [Measurement]]]) -> [ComparisonRow] {
        func median(_ count: Int, _ contender: Contender, _ value: KeyPath<Measurement, Double>) -> Double? {
            samples[count]?[contender].map { measurements in Harness.median(measurements.map { $0[keyPath: value] }) }
        }
        func row(
            _ label: String,
            _ unit: String,
            _ count: Int,
            _ value: KeyPath<Measurement, Double>,
            _ allocations: KeyPath<Measurement, Double>?,
            registers: Bool,
            target: Target? = nil
        ) -> ComparisonRow {
            var result = ComparisonRow(
                label: "F. \(label), N = \(Format.grouped(count))",
                unit: unit,
                values: [:],
                target: target
            )
            for contender in Contender.allCases where !(registers && contender == .direct) {
                result.values[contender] = median(count, contender, value)
                if let allocations, Harness.countsAllocations {
                    result.allocations[contender] = median(count, contender, allocations)
                }
            }
            return result
        }
        let registration = Target(
            measure: .injectorValue,
            limit: Self.registrationNanosecondsTarget,
            unit: " ns"
        )
        let smallest = counts.min()!
        let largest = counts.max()!
        var flatness = ComparisonRow(
            label: "F. register, N = \(Format.grouped(largest)) ÷ N = \(Format.grouped(smallest))",
            unit: "ratio",
            values: [:],
            target: Target(measure: .injectorValue, limit: Self.flatnessTarget)
        )
        flatness.showsRatios = false
        for contender in Contender.allCases where contender != .direct {
            if let large = median(largest, contender, \.registrationNanoseconds),
                let small = median(smallest, contender, \.registrationNanoseconds)
            {
                flatness.values[contender] = large / small
            }
        }
        return counts.map {
            row(
                "register",
                "ns/registration",
                $0,
                \.registrationNanoseconds,
                \.registrationAllocations,
                registers: true,
                target: registration
            )
        }
            + [flatness]
            + counts.map {
                row(
                    "first resolve",
                    "ns/resolve",
                    $0,
                    \.resolveNanoseconds,
                    \.resolveAllocations,
                    registers: false,
                    target: .overDirect(Self.firstResolveTarget)
                )
            }
            + counts.map { row("heap growth", "bytes/service", $0, \.bytesPerService, nil, registers: true) }
    }
}
