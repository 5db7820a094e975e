// swift-tools-version:6.0

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

import PackageDescription

let package = Package(
    name: "Injector",
    // The library must not raise this floor: nothing under Sources/ imports the standard library's
    // `Synchronization` (macOS 15, iOS 18), nor do the example (NotesDemo) and the tests, which build
    // at the same floor; and no generic type has a parameter pack (the Swift 5.9 runtime's, macOS 14,
    // iOS 17). CI checks both (.ci/check-platform-floor type-checks the library for macOS 13, iOS 16).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Injector", targets: ["Injector"]),
        .library(name: "InjectorRouting", targets: ["InjectorRouting"]),
        .executable(name: "NotesDemo", targets: ["NotesDemo"]),
    ],
    targets: [
        // The C under Injector's `AtomicWords` (C11 atomics), its thread's resolution slot (C11
        // thread-local storage) and its stack guard (a frame's address): part of this package, not a
        // dependency, and what lets the library support OS versions before the standard library's
        // `Synchronization`.
        .target(name: "InjectorAtomics"),
        .target(name: "Injector", dependencies: ["InjectorAtomics"]),
        .target(name: "InjectorRouting", dependencies: ["Injector"]),
        .executableTarget(
            name: "NotesDemo",
            dependencies: ["Injector", "InjectorRouting"],
            path: "Examples/NotesDemo"
        ),
        .testTarget(name: "InjectorTests", dependencies: ["Injector"]),
        .testTarget(name: "InjectorRoutingTests", dependencies: ["InjectorRouting"]),
    ]
)

// Swift 6 language mode (complete strict concurrency) for every target. The library also spells
// every existential `any`; the example and tests are written as users write, where `Clock.self`
// names a protocol's existential.
package.swiftLanguageModes = [.v6]
for target in package.targets where target.type == .regular {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}

// CI runs the tests where threads and tasks meet under ThreadSanitizer (.ci/run). With
// INJECTOR_THREAD_SANITIZER_TESTS set, the test targets are made of those files alone, so that the
// sanitized build compiles a quarter of the tests.
if Context.environment["INJECTOR_THREAD_SANITIZER_TESTS"] != nil {
    let sanitizedTests = [
        "InjectorTests": [
            "AsyncCancellationTests", "AsyncConcurrencyTests", "AsyncFamilyPublicationTests", "AsyncNestingTests",
            "AtOncePublicationAdversarialTests", "CallerIsolationTests", "ClosingActionTests", "ConcurrencyTests",
            "CoreDefectTests", "DeclaredArgumentAttackTests", "DeclaredArgumentsAttackTests", "DeferredResolutionTests",
            "DisposalPlanTests",
            "KeptObjectAdversarialTests", "NestedResolutionTests", "ParallelOverrideTests",
            "RequestPathAdversarialTests", "ResolvePlanAttackTests", "ResolvePlanTests",
            "ResolvingAndCastHintAttackTests", "ScopeConcurrencyTests", "ScopeStressTests", "ScopeValueTests",
            "SharedConstructionGateTests", "SharedConstructionRaceTests", "TeardownAdversarialTests",
            "ThreadExitResolutionTests", "UnifiedGateAttackTests", "UsingArgumentsAttackTests", "WithScopeTests",
        ],
        "InjectorRoutingTests": ["MainActorScreenTests", "RoutingConcurrencyTests"],
    ]
    for target in package.targets where target.type == .test {
        target.sources = ["Support"] + (sanitizedTests[target.name] ?? []).map { "\($0).swift" }
    }
}
