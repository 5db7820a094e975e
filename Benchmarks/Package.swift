// swift-tools-version: 6.0

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

// Benchmarks for Injector, side by side with Swinject and hand-written wiring.
// A package of its own, so that its dependencies never reach Injector's users:
//
//     swift run -c release --package-path Benchmarks InjectorBenchmarks [--smoke] [--filter TEXT]
import PackageDescription

let package = Package(
    name: "InjectorBenchmarks",
    // Injector's floor; nothing else here is Apple-specific.
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named, so the product is found whatever the checkout's folder is called.
        .package(name: "Injector", path: "../"),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        // Counts malloc calls per thread (Linux/glibc); see Sources/AllocCounter/AllocCounter.c.
        .target(name: "AllocCounter"),
        .executableTarget(
            name: "InjectorBenchmarks",
            dependencies: [
                "AllocCounter",
                .product(name: "Injector", package: "Injector"),
                .product(name: "InjectorRouting", package: "Injector"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
