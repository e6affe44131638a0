// swift-tools-version:6.1
import Foundation
import PackageDescription

// SwiftPM knows a path dependency by its folder's name, which is wherever the repository was cloned.
let beehive = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

/// Hardening tools built against the BeeHive package: a libFuzzer harness for the record parser (built only by
/// scripts/fuzz, with `-sanitize=fuzzer,address`), and a reader that runs the offline ELF reader over many real
/// files (scripts/inspect-system). The C harness for the ELF reader is in ELFReader/, built by scripts/fuzz.
let package = Package(
    name: "BeeHiveFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzerDriver"),
        .executableTarget(
            name: "RecordParserFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "BeeHive", package: beehive)]
        ),
        // The router's pattern parser and URL reader (scripts/fuzz).
        .executableTarget(
            name: "RoutePatternFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "BeeHive", package: beehive)]
        ),
        .executableTarget(
            name: "RouteURLFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "BeeHive", package: beehive)]
        ),
        .executableTarget(
            name: "LintReaderFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "BeeHiveLint", package: beehive)]
        ),
        .executableTarget(
            name: "ConfigFileFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "BeeHive", package: beehive)]
        ),
        // The plugin index cache's reader, fed through PluginIndex.build as a host would (scripts/fuzz).
        .executableTarget(
            name: "PluginIndexCacheFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "BeeHive", package: beehive)]
        ),
        // The dynamic-section reader of `swift package beehive-bundle` (scripts/fuzz).
        .executableTarget(
            name: "DynamicSectionFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "BeeHiveLint", package: beehive)]
        ),
        // The loader cache reader that finds a plugin's needed libraries before dlopen (scripts/fuzz).
        .executableTarget(
            name: "LoaderCacheFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "BeeHive", package: beehive)]
        ),
        .executableTarget(
            name: "ReadObjectFiles",
            dependencies: [.product(name: "BeeHive", package: beehive)]
        ),
    ]
)
