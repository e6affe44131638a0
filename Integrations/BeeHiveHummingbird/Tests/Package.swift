// swift-tools-version:6.1
import Foundation
import PackageDescription

// The tests of BeeHiveHummingbird, in a package of their own that depends on it the way an app does: the test
// binary, the plugins and the host executable all link libBeeHiveHummingbird.so and libBeeHive.so, so that a
// plugin loaded into the tests sees the same Hummingbird types and the same registry.

// SwiftPM knows a path dependency by its folder's name, which is wherever the repository was cloned.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent
let beeHive = Target.Dependency.product(name: "BeeHive", package: beehive)
let http = Target.Dependency.product(name: "BeeHiveHummingbird", package: "BeeHiveHummingbird")

let package = Package(
    name: "BeeHiveHummingbirdTests",
    platforms: [.macOS(.v15)],
    products: [
        // A plugin as a host's plugins folder holds it: an on-demand HTTP module and the claim of its path.
        .library(name: "Greeter", type: .dynamic, targets: ["Greeter", "CGreeterAnnotations"]),
        // The mistake a host refuses: a plugin that also depends on Hummingbird itself, so carries a copy of it.
        .library(name: "ForeignGreeter", type: .dynamic, targets: ["ForeignGreeter", "CForeignGreeterAnnotations"]),
        .executable(name: "http-fixture-host", targets: ["HTTPHost"]),
    ],
    dependencies: [
        .package(path: "../../.."),
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .target(name: "Greeter", dependencies: [beeHive, http], path: "Fixtures/Greeter"),
        .target(name: "CGreeterAnnotations", dependencies: [beeHive], path: "Fixtures/CGreeterAnnotations"),
        .target(
            name: "ForeignGreeter",
            dependencies: [beeHive, http, .product(name: "Hummingbird", package: "hummingbird")],
            path: "Fixtures/ForeignGreeter"
        ),
        .target(name: "CForeignGreeterAnnotations", dependencies: [beeHive], path: "Fixtures/CForeignGreeterAnnotations"),
        .executableTarget(name: "HTTPHost", dependencies: [beeHive, http], path: "Fixtures/HTTPHost"),
        .testTarget(
            name: "BeeHiveHummingbirdTests",
            dependencies: [beeHive, http],
            path: "BeeHiveHummingbirdTests"
        )
    ]
)
