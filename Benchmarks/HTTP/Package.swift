// swift-tools-version:6.1
import Foundation
import PackageDescription

// The HTTP benchmark of scripts/bench-http: a module's endpoint mounted through BeeHiveHummingbird against the
// same handler on a plain Hummingbird router, and the first request to a plugin that loads on it. A package of
// its own, like the example server, so that the other benchmarks never build Hummingbird.

// SwiftPM knows a path dependency by its folder's name, which is wherever the repository was cloned.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent
let beeHive = Target.Dependency.product(name: "BeeHive", package: beehive)
let http = Target.Dependency.product(name: "BeeHiveHummingbird", package: "BeeHiveHummingbird")

let package = Package(
    name: "HTTPBench",
    products: [
        .executable(name: "http-bench-server", targets: ["HTTPBenchServer"]),
        // The deferred plugin: an on-demand HTTP module under /deferred and the claim of its path.
        .library(name: "BenchPlugin", type: .dynamic, targets: ["BenchPlugin", "CBenchPluginAnnotations"]),
    ],
    dependencies: [
        .package(path: "../.."),
        .package(path: "../../Integrations/BeeHiveHummingbird"),
    ],
    targets: [
        .executableTarget(name: "HTTPBenchServer", dependencies: [beeHive, http]),
        .target(name: "BenchPlugin", dependencies: [beeHive, http]),
        .target(name: "CBenchPluginAnnotations", dependencies: [beeHive]),
    ]
)
