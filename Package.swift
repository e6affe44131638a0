// swift-tools-version:6.1
import CompilerPluginSupport
import Foundation
import PackageDescription

// Two variables for our own test builds, which compile the core many times and need no second copy of the
// host-side tools each time. BEEHIVE_PREBUILT_MACROS=1 leaves the macro target and its tests out: whoever builds
// passes the plugin executable of an earlier build with -load-plugin-executable (the end-to-end tests' fixture
// builds, scripts/sanitizers), so swift-syntax is not compiled again, optimised in a release build and under
// each sanitizer; the expansions are the same. BEEHIVE_PLUGINS=0 leaves the command plugins, their host copies
// of the core, and the documentation plugin out (scripts/sanitizers: what it tests runs none of them).
let prebuiltMacros = ProcessInfo.processInfo.environment["BEEHIVE_PREBUILT_MACROS"] == "1"
let plugins = ProcessInfo.processInfo.environment["BEEHIVE_PLUGINS"] != "0"

let package = Package(
    name: "BeeHive",
    products: [
        // Dynamic, so that a host and the plugins it loads share one registry and one copy of every protocol.
        .library(name: "BeeHive", type: .dynamic, targets: ["BeeHive"]),
        // The same core linked into the executable, for `swift build --static-swift-stdlib` (a program with one
        // Swift runtime of its own): such a program loads C plugins only, since a Swift plugin needs the shared
        // runtime. Depend on one of the two products, never both.
        .library(name: "BeeHiveStatic", type: .static, targets: ["BeeHive"]),
        .executable(name: "beehive", targets: ["BeeHiveCLI"]),
        // Separate from BeeHive so that users who annotate in C only never build swift-syntax.
        .library(name: "BeeHiveAnnotations", targets: ["BeeHiveAnnotations"]),
        // The offline readers behind `beehive inspect`, `lint` and `graph`, for tools and the fuzzers.
        .library(name: "BeeHiveLint", targets: ["BeeHiveLint"]),
        // `swift package beehive-lint`: lints the package's built executables and libraries, for CI.
        .plugin(name: "BeeHiveLintPlugin", targets: ["BeeHiveLintPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibelf",
            path: "Sources/CLibelf",
            pkgConfig: "libelf",
            providers: [.apt(["libelf-dev"])]
        ),
        .target(
            name: "CSectionShim",
            dependencies: ["CLibelf"],
            path: "CSectionShim",
            linkerSettings: [.linkedLibrary("elf"), .linkedLibrary("dl")]
        ),
        .target(name: "BeeHiveLocks"),
        .target(
            name: "BeeHiveRegistry",
            dependencies: ["BeeHiveLocks", "CSectionShim", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "BeeHiveModules",
            dependencies: ["BeeHiveLocks", "BeeHiveRegistry", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "BeeHiveServices",
            dependencies: ["BeeHiveLocks", "BeeHiveRegistry", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "BeeHiveRouter",
            dependencies: ["BeeHiveLocks", "BeeHiveRegistry", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "BeeHive",
            dependencies: [
                "BeeHiveLocks", "BeeHiveRegistry", "BeeHiveModules", "BeeHiveServices", "BeeHiveRouter",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .macro(
            name: "BeeHiveMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // Declares the macros only: it must not depend on BeeHiveRegistry, or every user binary would link a
        // second, static copy of the registry next to the dynamic BeeHive library.
        .target(
            name: "BeeHiveAnnotations",
            dependencies: (prebuiltMacros ? [] : ["BeeHiveMacros"]) + ["CBeeHiveAnnotationNote"]),
        // The note with the offsets to an object's own sections, which Swift cannot emit (see note.c).
        .target(name: "CBeeHiveAnnotationNote"),
        .target(name: "BeeHiveLint", dependencies: ["BeeHiveRegistry", "CLibelf"]),
        .executableTarget(
            name: "BeeHiveCLI",
            dependencies: [
                "BeeHiveRegistry",
                "BeeHiveLint",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "BeeHiveRegistryTests", dependencies: ["BeeHiveRegistry"]),
        // BeeHiveAnnotations: modules annotated with the Swift macro, dependencies and all, read from this process.
        .testTarget(name: "BeeHiveModulesTests", dependencies: ["BeeHiveLocks", "BeeHiveModules", "BeeHiveAnnotations"]),
        // BeeHiveAnnotations: one implementation is annotated with the Swift macro and read from this process.
        .testTarget(name: "BeeHiveServicesTests", dependencies: ["BeeHiveLocks", "BeeHiveServices", "BeeHiveAnnotations"]),
        .testTarget(name: "BeeHiveRouterTests", dependencies: ["BeeHiveRouter"]),
        .testTarget(
            name: "BeeHiveIntegrationTests",
            dependencies: [
                "BeeHive", "BeeHiveLint", "BeeHiveLocks",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "BeeHiveLintTests", dependencies: ["BeeHiveLint", "BeeHiveRegistry"]),
        // Reads one configuration file, for the test that measures the readers' peak memory in a process of its own.
        .executableTarget(name: "BeeHiveConfigProbe", dependencies: ["BeeHiveModules", "BeeHiveServices"], path: "Tests/ConfigProbe"),
        .executableTarget(name: "BeeHiveLintTool", dependencies: ["BeeHiveLint"]),
        .plugin(
            name: "BeeHiveLintPlugin",
            capability: .command(
                intent: .custom(
                    verb: "beehive-lint",
                    description: "Build the package's products and check their BeeHive annotations with beehive lint")),
            dependencies: ["BeeHiveLintTool"]
        ),
    ]
)

// Runs a HiveHost in a swift-service-lifecycle ServiceGroup. Linked statically into the app, next to the dynamic
// core, so that it uses the app's own copy of ServiceLifecycle; it names no BeeHive type (see HiveService), so
// it does not pull a second copy of the core into the app either.
package.products.append(.library(name: "BeeHiveServiceLifecycle", targets: ["BeeHiveServiceLifecycle"]))
package.targets.append(
    .target(
        name: "BeeHiveServiceLifecycle",
        dependencies: [.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]))
package.targets.append(
    .testTarget(
        name: "BeeHiveServiceLifecycleTests",
        dependencies: [
            "BeeHive", "BeeHiveLocks", "BeeHiveServiceLifecycle",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]))

// `scripts/docs` builds the DocC catalog with it (`swift package generate-documentation`).
if plugins {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}


// Observability. The core reports hooks, lookups, route matches and plugin loads to a `HiveObserver`
// (BeeHiveObservation, part of the dynamic library, with no dependency). BeeHiveObservability turns those reports
// into swift-distributed-tracing spans and swift-metrics counters and timers; like BeeHiveServiceLifecycle it is
// linked statically into the app, so that it reports to the app's own bootstrapped tracer and metrics factory,
// and names no BeeHive type (see HiveTelemetry), so it does not pull a second copy of the core into the app.
package.dependencies.append(.package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"))
package.dependencies.append(.package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"))
package.targets.append(.target(name: "BeeHiveObservation", dependencies: ["BeeHiveLocks"]))
for name in ["BeeHiveModules", "BeeHiveServices", "BeeHiveRouter", "BeeHive"] {
    package.targets.first { $0.name == name }?.dependencies.append("BeeHiveObservation")
}
package.products.append(.library(name: "BeeHiveObservability", targets: ["BeeHiveObservability"]))
package.targets.append(
    .target(
        name: "BeeHiveObservability",
        dependencies: [
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]))
package.targets.append(
    .testTarget(
        name: "BeeHiveObservabilityTests",
        dependencies: [
            "BeeHive", "BeeHiveObservability",
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "MetricsTestKit", package: "swift-metrics"),
        ]))

// `swift package beehive-bundle`: a folder holding a dynamic build's executable, the libraries it needs, its
// plugins and, on request, the Swift runtime, with relative RUNPATHs, that runs from anywhere (docs/bundle.md).
// The tool is a target of its own for the reason BeeHiveLintTool is (swiftlang/swift-package-manager#8831).
package.products.append(.plugin(name: "BeeHiveBundlePlugin", targets: ["BeeHiveBundlePlugin"]))
package.targets.append(.executableTarget(name: "BeeHiveBundleTool", dependencies: ["BeeHiveLint"]))
package.targets.append(
    .plugin(
        name: "BeeHiveBundlePlugin",
        capability: .command(
            intent: .custom(
                verb: "beehive-bundle",
                description: "Build an executable and its plugins into a relocatable folder with relative RUNPATHs")),
        dependencies: ["BeeHiveBundleTool"]))

// The macros' expansion tests. A test target that depends on a macro target makes SwiftPM build the whole test
// product for the host, which compiles the core and its dependencies a second time next to the copies the
// executables need; builds with prebuilt macros have neither.
if prebuiltMacros {
    package.targets.removeAll { $0.name == "BeeHiveMacros" }
} else {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"))
    package.targets.append(
        .testTarget(
            name: "BeeHiveMacrosTests",
            dependencies: [
                "BeeHiveMacros",
                "BeeHiveRegistry",
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]))
}

if !plugins {
    package.products.removeAll { $0 is Product.Plugin }
    package.targets.removeAll { $0.type == .plugin }
}

// BEEHIVE_LINKER=lld links with lld instead of the toolchain's default, gold, as a link setting: no compile
// command changes, so the end-to-end tests link one build folder's objects with both linkers.
if ProcessInfo.processInfo.environment["BEEHIVE_LINKER"] == "lld" {
    for target in package.targets where [.regular, .executable, .macro].contains(target.type) {
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
    }
}
