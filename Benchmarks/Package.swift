// swift-tools-version:6.1
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, and a checkout of this repository may have any name.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "BeeHiveBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "CBenchAnnotations", dependencies: [.product(name: "BeeHive", package: beehive)]),
        .executableTarget(
            name: "DiscoveryBenchmarks",
            dependencies: [
                "CBenchAnnotations",
                .product(name: "BeeHive", package: beehive),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DiscoveryBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
