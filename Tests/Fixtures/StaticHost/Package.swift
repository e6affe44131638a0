// swift-tools-version:6.1
import Foundation
import PackageDescription

// A program built the way Swift servers ship, `swift build -c release --static-swift-stdlib`, on the
// BeeHiveStatic product (StaticApp); and the mistake the core refuses: the same flag on the dynamic BeeHive
// product, forced to link with `-Xlinker -L<toolchain>/usr/lib/swift_static/linux` (TwoRuntimes); and a start
// that fails (MisspeltApp).
let package = Package(
    name: "StaticHost",
    dependencies: [
        .package(name: "BeeHive", path: "../../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "CStaticAnnotations", dependencies: [.product(name: "BeeHiveStatic", package: "BeeHive")]),
        .executableTarget(
            name: "StaticApp",
            dependencies: [
                "CStaticAnnotations",
                .product(name: "BeeHiveStatic", package: "BeeHive"),
                .product(name: "BeeHiveServiceLifecycle", package: "BeeHive"),
                .product(name: "BeeHiveObservability", package: "BeeHive"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(name: "CMisspeltAnnotations", dependencies: [.product(name: "BeeHiveStatic", package: "BeeHive")]),
        .executableTarget(
            name: "MisspeltApp",
            dependencies: [
                "CMisspeltAnnotations", .product(name: "BeeHiveStatic", package: "BeeHive"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(name: "TwoRuntimes", dependencies: [.product(name: "BeeHive", package: "BeeHive")]),
    ]
)

// BEEHIVE_LINKER=lld links with lld instead of the toolchain's default, gold, as a link setting: no compile
// command changes, so the end-to-end tests link one build folder's objects with both linkers.
if ProcessInfo.processInfo.environment["BEEHIVE_LINKER"] == "lld" {
    for target in package.targets where [.regular, .executable, .macro].contains(target.type) {
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
    }
}
