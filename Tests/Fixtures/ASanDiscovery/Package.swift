// swift-tools-version:6.1
import Foundation
import PackageDescription

// An executable whose C annotations are compiled with clang's AddressSanitizer, which pads every global,
// records in annotation sections included, except in sections named like C identifiers. SanitizerTests builds
// it with `--sanitize=address` and checks that discovery finds exactly the records in expected-records.txt and
// nothing else.

// SwiftPM knows a path dependency by its folder's name, which is wherever the repository was cloned.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "ASanDiscovery",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../../..")],
    targets: [
        .target(name: "CASanAnnotations", dependencies: [.product(name: "BeeHive", package: beehive)]),
        .executableTarget(
            name: "ASanDiscovery",
            dependencies: ["CASanAnnotations", .product(name: "BeeHive", package: beehive)]
        ),
    ]
)
