// swift-tools-version:6.2

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

// An app's module as Xcode 26 makes a new app target: Swift 6, every declaration on the main actor
// unless it says otherwise (`defaultIsolation(MainActor.self)`). A package of its own, so that it
// builds as an app depending on Injector does.
let package = Package(
    name: "NotesApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "Injector", path: "../..")],
    targets: [
        .target(
            name: "NotesApp",
            dependencies: [
                .product(name: "Injector", package: "Injector"),
                .product(name: "InjectorRouting", package: "Injector"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .testTarget(
            name: "NotesAppTests",
            dependencies: [
                "NotesApp",
                .product(name: "Injector", package: "Injector"),
                .product(name: "InjectorRouting", package: "Injector"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
