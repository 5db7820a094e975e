// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "InjectorBenchmarks",
    dependencies: [
        .package(name: "Injector", path: "/tmp/injector-stub"),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        .target(name: "AllocCounter"),
        .executableTarget(
            name: "InjectorBenchmarks",
            dependencies: [
                "AllocCounter",
                .product(name: "Injector", package: "Injector"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
