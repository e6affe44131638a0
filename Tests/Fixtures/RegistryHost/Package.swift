// swift-tools-version:6.1
import Foundation
import PackageDescription

// The host side of the registry's end-to-end tests: two executables that link the RegistryLibraries shared
// libraries in opposite orders, and two plugins the host loads at run time. Host and plugins link the dynamic
// BeeHive library, so they share one registry and one copy of every protocol.
let libraries = ["ShopKit", "OnlyServices", "Plain", "Malformed", "DuplicateA", "DuplicateB"]
let beeHive = Target.Dependency.product(name: "BeeHive", package: "BeeHive")

let package = Package(
    name: "RegistryHost",
    products: [
        .executable(name: "host", targets: ["host"]),
        .executable(name: "host-reordered", targets: ["host-reordered"]),
        .library(name: "PluginA", type: .dynamic, targets: ["PluginA", "CPluginAAnnotations"]),
        .library(name: "PluginB", type: .dynamic, targets: ["PluginB", "CPluginBAnnotations"]),
    ],
    dependencies: [.package(name: "BeeHive", path: "../../.."), .package(path: "../RegistryLibraries")],
    targets: [
        .target(
            name: "HostCore",
            dependencies: [beeHive, .product(name: "Contracts", package: "RegistryLibraries")]),
        .target(name: "CHostAnnotations", dependencies: [beeHive]),
        .executableTarget(
            name: "host",
            dependencies: ["HostCore", "CHostAnnotations"]
                + libraries.map { .product(name: $0, package: "RegistryLibraries") }),
        .executableTarget(
            name: "host-reordered",
            dependencies: ["HostCore", "CHostAnnotations"]
                + libraries.reversed().map { .product(name: $0, package: "RegistryLibraries") }),
        .target(name: "PluginA", dependencies: [beeHive, .product(name: "Contracts", package: "RegistryLibraries")]),
        .target(name: "CPluginAAnnotations", dependencies: [beeHive]),
        .target(name: "PluginB", dependencies: [beeHive, .product(name: "Contracts", package: "RegistryLibraries")]),
        .target(name: "CPluginBAnnotations", dependencies: [beeHive]),
    ]
)

// BEEHIVE_LINKER=lld links with lld instead of the toolchain's default, gold, as a link setting: no compile
// command changes, so the end-to-end tests link one build folder's objects with both linkers.
if ProcessInfo.processInfo.environment["BEEHIVE_LINKER"] == "lld" {
    for target in package.targets where [.regular, .executable, .macro].contains(target.type) {
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
    }
}
