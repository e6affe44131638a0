// swift-tools-version:6.1
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, and a checkout of this repository may have any name.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let benchmark = Target.Dependency.product(name: "Benchmark", package: "benchmark")
let benchmarkPlugin = Target.PluginUsage.plugin(name: "BenchmarkPlugin", package: "benchmark")
let beeHive = Target.Dependency.product(name: "BeeHive", package: beehive)

let package = Package(
    name: "BeeHiveBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/vapor/routing-kit", exact: "4.9.3"),
    ],
    targets: [
        .target(name: "CBenchAnnotations", dependencies: [beeHive]),
        .target(name: "CBenchLibelf", linkerSettings: [.linkedLibrary("elf")]),
        .target(name: "CStartupAnnotations", dependencies: [beeHive]),
        // The stand-in app of the start-up benchmark; build it before running that benchmark (scripts/bench does).
        .executableTarget(name: "StartupProbe", dependencies: ["CStartupAnnotations", beeHive]),
        .target(name: "BenchSupport", dependencies: ["CBenchLibelf", beeHive, benchmark]),
        // Workloads shared by the benchmarks and the instruction probe, which must not link the benchmark
        // library (its malloc interposer) to run under valgrind.
        .target(name: "BenchWorkloads"),
        .executableTarget(name: "InstructionProbe", dependencies: ["BenchWorkloads", "CBenchAnnotations", beeHive]),
        .executableTarget(
            name: "DiscoveryBenchmarks",
            dependencies: ["CBenchAnnotations", "BenchSupport", beeHive, benchmark],
            path: "Benchmarks/DiscoveryBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        // No annotations linked in: the objects each benchmark loads are the only annotated ones.
        .executableTarget(
            name: "DiscoveryScalingBenchmarks",
            dependencies: ["BenchSupport", beeHive, benchmark],
            path: "Benchmarks/DiscoveryScalingBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "ServiceBenchmarks",
            dependencies: ["BenchSupport", beeHive, benchmark, .product(name: "Swinject", package: "Swinject")],
            path: "Benchmarks/ServiceBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "RoutingBenchmarks",
            dependencies: ["BenchSupport", "BenchWorkloads", beeHive, benchmark, .product(name: "RoutingKit", package: "routing-kit")],
            path: "Benchmarks/RoutingBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "ModuleBenchmarks",
            dependencies: ["BenchSupport", beeHive, benchmark],
            path: "Benchmarks/ModuleBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "RegistrationBenchmarks",
            dependencies: ["BenchSupport", beeHive, benchmark],
            path: "Benchmarks/RegistrationBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        // No annotations linked in: the plugins of its folder are the only annotated objects.
        .executableTarget(
            name: "PluginFolderBenchmarks",
            dependencies: ["BenchSupport", beeHive, benchmark],
            path: "Benchmarks/PluginFolderBenchmarks",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "StartupBenchmarks",
            dependencies: ["BenchSupport", benchmark],
            path: "Benchmarks/StartupBenchmarks",
            plugins: [benchmarkPlugin]
        ),
    ]
)
