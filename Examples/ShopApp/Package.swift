// swift-tools-version:6.1
import Foundation
import PackageDescription

// A modular shop built on BeeHive for Linux, the way an app depends on it: by path (`../..` is this
// repository). `scripts/demo` builds and runs it.
//
// - Account, Catalog, Cart, Home: feature modules, each in its own target, linked into the ShopApp executable.
// - Reviews: a feature built as a plugin, libReviews.so, that the app loads at run time.
// - Wishlist, Recommendations: plugins that `scripts/demo` copies into the app's plugins folder; the app
//   indexes the folder without loading them, and loads each the first time its route or target is used.
// - C*Annotations: the C annotations (`#include <beehive.h>`) of the modules, services and routes found by
//   discovery; they sit next to the feature they describe.
// - ShopInterfaces (../ShopInterfaces): the protocols the features share, in a dynamic library of its own.
//   Like the dynamic BeeHive library, it is loaded once and shared by the executable and the plugin.

// SwiftPM knows a path dependency by its folder's name, which is wherever the repository was cloned.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent
let beeHive = Target.Dependency.product(name: "BeeHive", package: beehive)
let interfaces = Target.Dependency.product(name: "ShopInterfaces", package: "ShopInterfaces")

let package = Package(
    name: "ShopApp",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ShopApp", targets: ["ShopApp"]),
        // The plugin: the host loads it with Hive.loadPlugin(atPath:); it links libBeeHive.so and
        // libShopInterfaces.so like the host, so both sides see one registry and one copy of every protocol.
        .library(name: "Reviews", type: .dynamic, targets: ["Reviews", "CReviewsAnnotations"]),
        // The plugins folder's plugins, built the same way.
        .library(name: "Wishlist", type: .dynamic, targets: ["Wishlist", "CWishlistAnnotations"]),
        .library(name: "Recommendations", type: .dynamic, targets: ["Recommendations", "CRecommendationsAnnotations"]),
    ],
    dependencies: [
        .package(path: "../.."),
        .package(path: "../ShopInterfaces"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "Account", dependencies: [beeHive, interfaces]),
        .target(name: "CAccountAnnotations", dependencies: [beeHive]),
        .target(name: "Catalog", dependencies: [beeHive, interfaces]),
        .target(name: "CCatalogAnnotations", dependencies: [beeHive]),
        .target(name: "Cart", dependencies: [beeHive, interfaces]),
        .target(name: "Home", dependencies: [beeHive, interfaces]),
        .executableTarget(
            name: "ShopApp",
            dependencies: [
                beeHive, interfaces, .product(name: "Logging", package: "swift-log"),
                // Home is registered in code, so the app imports it; the others are only linked, and found
                // through their annotations (Account) or the configuration file (Catalog, Cart).
                "Home", "Account", "CAccountAnnotations", "Catalog", "CCatalogAnnotations", "Cart",
            ],
            resources: [.copy("Resources/modules.plist")]
        ),
        .target(name: "Reviews", dependencies: [beeHive, interfaces]),
        .target(name: "CReviewsAnnotations", dependencies: [beeHive]),
        .target(name: "Wishlist", dependencies: [beeHive, interfaces]),
        .target(name: "CWishlistAnnotations", dependencies: [beeHive]),
        .target(name: "Recommendations", dependencies: [beeHive, interfaces]),
        .target(name: "CRecommendationsAnnotations", dependencies: [beeHive]),
    ]
)
