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

// Issue #10's "two endpoints" figure: requests that each resolve a `.weak` helper plus unrelated
// scoped factories, served by 1 and 2 threads (and 1 and 8 tasks); prints wall-time ratios.
//
//     swift run -c release --package-path Benchmarks/TwoEndpoints
//
// INJECTOR_PATH points it at another checkout of Injector (to measure an older commit).
import PackageDescription

let package = Package(
    name: "TwoEndpoints",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Injector", path: Context.environment["INJECTOR_PATH"] ?? "../..")
    ],
    targets: [
        .executableTarget(name: "TwoEndpoints", dependencies: [.product(name: "Injector", package: "Injector")])
    ]
)
