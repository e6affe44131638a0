// swift-tools-version:6.1
import PackageDescription

// One app, built the two ways docs/shipping.md describes, for scripts/bench-shipping: BEEHIVE_CORE=BeeHive (the
// default) for a dynamic build on libBeeHive.so, BEEHIVE_CORE=BeeHiveStatic for `--static-swift-stdlib`.
let core = Context.environment["BEEHIVE_CORE"] ?? "BeeHive"

let package = Package(
    name: "ShippingApp",
    dependencies: [.package(name: "BeeHive", path: "../..")],
    targets: [
        .target(name: "CShippingAnnotations", dependencies: [.product(name: core, package: "BeeHive")]),
        .executableTarget(name: "ShippingApp", dependencies: ["CShippingAnnotations", .product(name: core, package: "BeeHive")]),
    ]
)
