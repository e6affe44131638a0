import BeeHiveLint
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `swift package beehive-bundle` (docs/bundle.md) on the demo, Examples/ShopApp: the bundle is moved to
/// another folder and run there, by path and through a symlink on `PATH`, in a private mount namespace where
/// the toolchain (/opt/swift) and the demo's build folder are empty, so that everything it loads comes from the
/// bundle or from the system.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct BundleTests {
    static let demo = FixtureBuilder.repositoryRoot.appending(path: "Examples/ShopApp")
    /// Where `swift package` builds the demo. Not `scripts/demo`'s .build (DemoTests): there a `swift build` after
    /// a command plugin's build recompiled the whole demo (7 minutes on this machine's two cores).
    static let demoBuild = demo.appending(path: ".build-bundle")
    static let toolchain = "/opt/swift"
    static let wishlistURL = "shop://wishlist/add?item=7"

    /// Runs `swift package beehive-bundle` in the demo's package with the demo's layout: libReviews.so next to
    /// the executable, the folder's plugins in shop-plugins.
    static func bundle(into output: URL, swiftRuntime: Bool) throws -> FixtureBuilder.Output {
        try FixtureBuilder.withoutConcurrentBuilds {
            try FixtureBuilder.run(FixtureBuilder.swiftExecutable, [
                "package", "--package-path", demo.path, "--scratch-path", demoBuild.path,
                "--allow-writing-to-directory", output.path, "beehive-bundle",
                "--product", "ShopApp", "--output", output.path, "--library", "Reviews",
                "--plugin", "Wishlist", "--plugin", "Recommendations", "--plugins-folder", "shop-plugins",
            ] + (swiftRuntime ? ["--swift-runtime"] : []))
        }
    }

    /// Runs `command` in a mount namespace of its own in which the demo's build folder and, unless told
    /// otherwise, the toolchain are empty tmpfs mounts.
    static func runHidden(
        _ command: [String], environment: [String: String] = [:], hidingToolchain: Bool = true, in directory: URL
    ) throws -> FixtureBuilder.Output {
        let hideToolchain = hidingToolchain ? "mount -t tmpfs tmpfs \(toolchain) && test ! -e \(toolchain)/usr/bin/swift && " : ""
        let script = """
            \(hideToolchain)mount -t tmpfs tmpfs '\(demoBuild.path)' && exec "$0" "$@"
            """
        return try FixtureBuilder.run(
            try SystemTools.require("unshare"), ["-m", "sh", "-c", script] + command, environment: environment,
            currentDirectory: directory)
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "beehive-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every ELF file under `folder`, by path relative to it.
    static func elfFiles(in folder: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            guard enumerator?.fileAttributes?[.type] as? FileAttributeType == .typeRegular else { continue }
            let handle = FileHandle(forReadingAtPath: folder.appending(path: path).path)
            defer { try? handle?.close() }
            if let magic = try handle?.read(upToCount: 4), magic == Data([0x7F, 0x45, 0x4C, 0x46]) { files.append(path) }
        }
        return files.sorted()
    }

    /// The RUNPATH and RPATH strings `readelf -d` shows for a file.
    static func searchPaths(_ file: URL) throws -> [String] {
        try SystemTools.run("readelf", ["-d", file.path]).split(separator: "\n").compactMap { line in
            guard line.contains("(RUNPATH)") || line.contains("(RPATH)"), let open = line.firstIndex(of: "["),
                let close = line.lastIndex(of: "]")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    static func mode(_ path: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path.path)[.posixPermissions] as? Int) ?? -1
    }

    /// The demo indexed its plugins folder, launched its modules (Catalog and Cart from its resource bundle's
    /// modules.plist), loaded libReviews.so and opened a folder plugin's route, all from `bundle`.
    static func expectDemoRanFrom(_ bundle: URL, _ output: FixtureBuilder.Output, _ how: String) {
        #expect(output.status == 0, "the bundled demo run \(how) failed:\n\(output.output)")
        let expected = [
            "\(bundle.path)/shop-plugins: 2 plugins", "plugins loaded: none",
            "[Account] setUp", "[Catalog] init (async): 4 products loaded", "[Cart] init: ran after Catalog's async init",
            "loaded \(bundle.path)/libReviews.so: 3 new records",
            "[Wishlist] route /wishlist/add (plugin from the folder)",
            "first use of route /wishlist/add loaded plugin libWishlist.so", "handled by route /wishlist/add",
            "[Account] tearDown",
        ]
        var rest = output.standardOutput[...]
        for fragment in expected {
            guard let range = rest.range(of: fragment) else {
                Issue.record("run \(how): missing, or out of order: \"\(fragment)\"\n--- output:\n\(output.output)")
                return
            }
            rest = rest[range.upperBound...]
        }
    }

    @Test func demoBundleRunsFromAnotherFolderAndFromPATHWithTheToolchainHidden() throws {
        let work = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let made = work.appending(path: "made")
        let bundling = try Self.bundle(into: made, swiftRuntime: true)
        try #require(bundling.status == 0, "beehive-bundle failed:\n\(bundling.output)")
        #expect(bundling.standardOutput.contains("Run it from anywhere:  \(made.path)/ShopApp"), "\(bundling.output)")

        // Moved after it was made: nothing in it may depend on where it was made.
        let bundle = work.appending(path: "installed/shop")
        try FileManager.default.createDirectory(at: bundle.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: made, to: bundle)

        let files = try Self.elfFiles(in: bundle)
        for expected in [
            "ShopApp", "libBeeHive.so", "libShopInterfaces.so", "libReviews.so", "shop-plugins/libWishlist.so",
            "shop-plugins/libRecommendations.so", "lib/libswiftCore.so", "lib/libFoundation.so",
        ] {
            #expect(files.contains(expected), "\(expected) is not in the bundle: \(files)")
        }
        for file in files {
            for searchPath in try Self.searchPaths(bundle.appending(path: file)) {
                let entries = searchPath.split(separator: ":")
                #expect(entries.allSatisfy { $0.hasPrefix("$ORIGIN") }, "\(file) has an absolute RUNPATH entry: \(searchPath)")
            }
        }
        #expect(try Self.searchPaths(bundle.appending(path: "ShopApp")) == ["$ORIGIN:$ORIGIN/lib"])
        #expect(try Self.searchPaths(bundle.appending(path: "shop-plugins/libWishlist.so")) == ["$ORIGIN/..:$ORIGIN/../lib"])
        #expect(FileManager.default.fileExists(atPath: bundle.appending(path: "ShopApp_ShopApp.resources/modules.plist").path))
        // The hive refuses plugin folders and plugins that anyone but their owner can write.
        #expect(try Self.mode(bundle.appending(path: "shop-plugins")) == 0o755)
        #expect(try Self.mode(bundle.appending(path: "shop-plugins/libWishlist.so")) == 0o644)

        let elsewhere = work.appending(path: "elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let byPath = try Self.runHidden(
            [bundle.appending(path: "ShopApp").path, "--open", Self.wishlistURL], in: elsewhere)
        Self.expectDemoRanFrom(bundle, byPath, "by path")

        // Through PATH, under another name: argv[0] is "shop", and the app finds its folder through /proc/self/exe.
        let bin = work.appending(path: "bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appending(path: "shop"), withDestinationURL: bundle.appending(path: "ShopApp"))
        let throughPATH = try Self.runHidden(
            ["shop", "--open", Self.wishlistURL], environment: ["PATH": "\(bin.path):/usr/bin:/bin"], in: elsewhere)
        Self.expectDemoRanFrom(bundle, throughPATH, "through PATH")
    }

    /// Without `--swift-runtime` the executable and the libraries beside it keep the toolchain's runtime folder
    /// (as the Swift slim image has it at the build image's place) and nothing else absolute: with the toolchain
    /// hidden the bundle does not start, which shows that the other test's namespace hides it; with the build
    /// folder hidden alone it runs.
    @Test func bundleWithoutTheRuntimeUsesTheToolchainsRuntimeFolder() throws {
        let work = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let bundle = work.appending(path: "shop")
        let bundling = try Self.bundle(into: bundle, swiftRuntime: false)
        try #require(bundling.status == 0, "beehive-bundle failed:\n\(bundling.output)")
        #expect(bundling.standardOutput.contains("The Swift runtime is not bundled"), "\(bundling.output)")
        #expect(bundling.standardOutput.contains("From the system (not bundled):"), "\(bundling.output)")
        #expect(!FileManager.default.fileExists(atPath: bundle.appending(path: "lib").path))
        let runtime = "\(Self.toolchain)/usr/lib/swift/linux"
        #expect(try Self.searchPaths(bundle.appending(path: "ShopApp")) == ["$ORIGIN:\(runtime)"])
        #expect(try Self.searchPaths(bundle.appending(path: "libBeeHive.so")) == ["$ORIGIN:\(runtime)"])
        #expect(try Self.searchPaths(bundle.appending(path: "shop-plugins/libWishlist.so")) == ["$ORIGIN/.."])
        for file in try Self.elfFiles(in: bundle) {
            for searchPath in try Self.searchPaths(bundle.appending(path: file)) {
                let entries = searchPath.split(separator: ":")
                #expect(entries.allSatisfy { $0.hasPrefix("$ORIGIN") || $0 == runtime }, "\(file): \(searchPath)")
            }
        }

        let hidden = try Self.runHidden([bundle.appending(path: "ShopApp").path, "--open", Self.wishlistURL], in: work)
        #expect(hidden.status != 0)
        #expect(hidden.standardError.contains("cannot open shared object file"), "\(hidden.output)")
        let withToolchain = try Self.runHidden(
            [bundle.appending(path: "ShopApp").path, "--open", Self.wishlistURL], hidingToolchain: false, in: work)
        Self.expectDemoRanFrom(bundle, withToolchain, "with the toolchain")
    }

    /// The bundling tool, next to the test bundle in this package's build.
    static func tool() throws -> URL {
        let tests = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
        let tool = tests.deletingLastPathComponent().appending(path: "BeeHiveBundleTool")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw FixtureBuilder.Failure(description: "no BeeHiveBundleTool next to \(tests.path); run swift build first")
        }
        return tool
    }

    /// What cannot be bundled is named, and no folder is left behind.
    @Test func missingLibrariesAndRunpathsTooShortAreNamed() throws {
        let work = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let made = work.appending(path: "made")
        let bundling = try Self.bundle(into: made, swiftRuntime: false)
        try #require(bundling.status == 0, "beehive-bundle failed:\n\(bundling.output)")
        let built = Self.demoBuild.appending(path: "debug")
        let output = work.appending(path: "out")

        // The bundled executable alone, away from the libraries it needs.
        let lonely = work.appending(path: "lonely")
        try FileManager.default.createDirectory(at: lonely, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: made.appending(path: "ShopApp"), to: lonely.appending(path: "ShopApp"))
        let missing = try FixtureBuilder.run(
            try Self.tool(), ["--output", output.path, "--executable", lonely.appending(path: "ShopApp").path])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("ShopApp needs lib"), "\(missing.output)")
        #expect(missing.standardError.contains("which is neither in \(lonely.path)"), "\(missing.output)")

        // Four folders deep, a plugin's RUNPATH would be longer than the one SwiftPM wrote.
        let deep = try FixtureBuilder.run(try Self.tool(), [
            "--output", output.path, "--executable", built.appending(path: "ShopApp").path,
            "--plugin", built.appending(path: "libWishlist.so").path, "--plugins-folder", "a/b/c/d", "--swift-runtime",
        ])
        #expect(deep.status == 1)
        #expect(deep.standardError.contains("libWishlist.so: its RUNPATH"), "\(deep.output)")
        #expect(deep.standardError.contains("'$ORIGIN/../../../..:$ORIGIN/../../../../lib'"), "\(deep.output)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.contains("staging") }
        #expect(leftovers.isEmpty, "staging folders left: \(leftovers)")
    }

    /// The reader the rewrite relies on locates the RUNPATH string at its bytes in the file (the fuzzer's seed,
    /// linked by lld with `-rpath /opt/swift/usr/lib/swift/linux:$ORIGIN` against libc).
    @Test func dynamicSectionLocatesTheRunpathInTheFile() throws {
        let seed = FixtureBuilder.repositoryRoot.appending(path: "Fuzz/Corpus/DynamicSection/runpath-needed.elf")
        let dynamic = try DynamicSection(path: seed.path)
        #expect(dynamic.needed == ["libc.so.6"])
        #expect(dynamic.rpath == nil)
        let runpath = try #require(dynamic.runpath)
        #expect(runpath.entries == ["/opt/swift/usr/lib/swift/linux", "$ORIGIN"])
        #expect(!runpath.sharesBytes)
        let bytes = try Data(contentsOf: seed)
        let start = Int(runpath.fileOffset)
        #expect(bytes[start..<start + runpath.byteCount] == Data(runpath.value.utf8))
        #expect(bytes[start + runpath.byteCount] == 0)

        #expect(throws: DynamicSection.ReadError.self) { try DynamicSection(path: FixtureBuilder.repositoryRoot.appending(path: "Package.swift").path) }
    }
}
