// swift-tools-version:6.1
import Foundation
import PackageDescription

// C and Swift annotations in one executable (Shop), Swift annotations alone (SwiftOnly), and a misspelt C
// annotation that `beehive lint` must catch (Broken).
let package = Package(
    name: "SwiftAnnotations",
    dependencies: [.package(name: "BeeHive", path: "../../..")],
    targets: [
        .target(name: "ShopCAnnotations", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
        .executableTarget(
            name: "Shop",
            dependencies: [
                "ShopCAnnotations",
                .product(name: "BeeHive", package: "BeeHive"),
                .product(name: "BeeHiveAnnotations", package: "BeeHive"),
            ]
        ),
        .executableTarget(
            name: "SwiftOnly",
            dependencies: [
                .product(name: "BeeHive", package: "BeeHive"),
                .product(name: "BeeHiveAnnotations", package: "BeeHive"),
            ]
        ),
        .target(name: "BrokenCAnnotations", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
        .executableTarget(
            name: "Broken",
            dependencies: ["BrokenCAnnotations", .product(name: "BeeHive", package: "BeeHive")]
        ),
    ]
)

// BEEHIVE_LINKER=lld links with lld instead of the toolchain's default, gold, as a link setting: no compile
// command changes, so the end-to-end tests link one build folder's objects with both linkers.
if ProcessInfo.processInfo.environment["BEEHIVE_LINKER"] == "lld" {
    for target in package.targets where [.regular, .executable, .macro].contains(target.type) {
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
    }
}
