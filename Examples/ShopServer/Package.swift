// swift-tools-version:6.1
import Foundation
import PackageDescription

// A small HTTP shop on BeeHive and Hummingbird 2, the way a server depends on them: by path (`../..` is this
// repository, `../../Integrations/BeeHiveHummingbird` its Hummingbird integration). `scripts/demo --server`
// builds and runs it.
//
// - ShopServer: the server, with a linked HTTP module (Catalog) and a service (Inventory) registered in code.
// - Reviews: an HTTP module built as a plugin, libReviews.so, which `scripts/demo --server` puts in the server's
//   plugins folder: the server knows from its records that it serves /reviews, and loads it on the first
//   request there.
// Both depend on the dynamic BeeHiveHummingbird library only (never on Hummingbird itself), so that the server
// and the plugin share one copy of Hummingbird, as they share one copy of BeeHive.

// SwiftPM knows a path dependency by its folder's name, which is wherever the repository was cloned.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent
let beeHive = Target.Dependency.product(name: "BeeHive", package: beehive)
let http = Target.Dependency.product(name: "BeeHiveHummingbird", package: "BeeHiveHummingbird")

let package = Package(
    name: "ShopServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ShopServer", targets: ["ShopServer"]),
        .library(name: "Reviews", type: .dynamic, targets: ["Reviews", "CReviewsAnnotations"]),
    ],
    dependencies: [
        .package(path: "../.."),
        .package(path: "../../Integrations/BeeHiveHummingbird"),
    ],
    targets: [
        .executableTarget(name: "ShopServer", dependencies: [beeHive, http]),
        .target(name: "Reviews", dependencies: [beeHive, http]),
        .target(name: "CReviewsAnnotations", dependencies: [beeHive]),
    ]
)
