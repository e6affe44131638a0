// swift-tools-version:6.1
import Foundation
import PackageDescription

// BeeHive for Linux on Hummingbird 2: modules and plugins contribute HTTP routes, deferred plugins load on their
// first request, and the HiveHost runs in the Hummingbird Application's ServiceGroup (docs/hummingbird.md).
//
// A package of its own, so that apps that do not serve HTTP never resolve or build Hummingbird and SwiftNIO.
// BeeHiveHummingbird is a dynamic library, like the core: it holds the one copy of Hummingbird, SwiftNIO,
// ServiceLifecycle and the HTTP types that a host and every plugin it loads link, so that a plugin's routes and
// handlers are built from the host's types. Host and plugins depend on this product only (it re-exports
// Hummingbird), never on Hummingbird directly, which would link a second, static copy into them.

// SwiftPM knows a path dependency by its folder's name, which is wherever the repository was cloned.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "BeeHiveHummingbird",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "BeeHiveHummingbird", type: .dynamic, targets: ["BeeHiveHummingbird"])
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "BeeHiveHummingbird",
            dependencies: [
                .product(name: "BeeHive", package: beehive),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ]
)
