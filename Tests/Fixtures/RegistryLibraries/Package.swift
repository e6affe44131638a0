// swift-tools-version:6.1
import Foundation
import PackageDescription

// Shared libraries for the registry's end-to-end tests. They live in their own package because SwiftPM links
// a dynamic library product as a shared object only into targets of another package.
let package = Package(
    name: "RegistryLibraries",
    products: [
        .library(name: "Contracts", type: .dynamic, targets: ["Contracts"]),
        .library(name: "ShopKit", type: .dynamic, targets: ["ShopKit", "CShopKitAnnotations"]),
        .library(name: "OnlyServices", type: .dynamic, targets: ["OnlyServices"]),
        .library(name: "Plain", type: .dynamic, targets: ["Plain"]),
        .library(name: "Malformed", type: .dynamic, targets: ["Malformed"]),
        .library(name: "DuplicateA", type: .dynamic, targets: ["DuplicateA"]),
        .library(name: "DuplicateB", type: .dynamic, targets: ["DuplicateB"]),
    ],
    dependencies: [.package(name: "BeeHive", path: "../../..")],
    targets: [
        .target(name: "Contracts", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
        .target(name: "ShopKit", dependencies: ["Contracts"]),
        .target(name: "CShopKitAnnotations", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
        .target(name: "OnlyServices", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
        .target(name: "Plain"),
        .target(name: "Malformed", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
        .target(name: "DuplicateA", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
        .target(name: "DuplicateB", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
    ]
)

// BEEHIVE_LINKER=lld links with lld instead of the toolchain's default, gold, as a link setting: no compile
// command changes, so the end-to-end tests link one build folder's objects with both linkers.
if ProcessInfo.processInfo.environment["BEEHIVE_LINKER"] == "lld" {
    for target in package.targets where [.regular, .executable, .macro].contains(target.type) {
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
    }
}
