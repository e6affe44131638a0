// swift-tools-version:6.1
import Foundation
import PackageDescription

// What the shop's modules share across target and plugin boundaries: service protocols, the values they
// exchange, the custom events and the app's hive. It is a dynamic library in a package of its own because a
// protocol must exist once in the process: SwiftPM links a dynamic library product as a shared object only into
// targets of another package, so the app, its feature targets and the Reviews plugin all load this one
// libShopInterfaces.so instead of each carrying a copy.

// SwiftPM knows a path dependency by its folder's name, which is wherever the repository was cloned.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "ShopInterfaces",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ShopInterfaces", type: .dynamic, targets: ["ShopInterfaces"]),
    ],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "ShopInterfaces", dependencies: [.product(name: "BeeHive", package: beehive)]),
    ]
)
