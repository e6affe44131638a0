import BeeHiveLint
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// The SwiftAnnotations fixture: C and Swift annotations in one executable, discovered and created at run time
/// in debug and release builds linked by gold and lld; a Swift-only executable; and `beehive lint` on them and
/// on a misspelt C annotation.
@Suite(.serialized) struct SwiftAnnotationTests {
    static let fixture = "SwiftAnnotations"

    /// Each configuration and each linker once; release with lld, whose --gc-sections drops every unreferenced
    /// section that is not marked retained.
    static let builds: [(FixtureBuilder.Configuration, FixtureBuilder.Linker)] = [(.debug, .gold), (.release, .lld)]

    @Test(arguments: builds)
    func cAndSwiftAnnotationsInOneBinaryAreDiscoveredAndCreated(
        configuration: FixtureBuilder.Configuration, linker: FixtureBuilder.Linker
    ) throws {
        let build = try FixtureBuilder.build(Self.fixture, configuration, linker: linker)
        let output = try FixtureBuilder.run(build.product("Shop"), [])
        #expect(output.status == 0, "\(output.output)")
        #expect(
            output.standardOutput.split(separator: "\n").map(String.init) == [
                "record beehive_mods beehive:1|module|4Shop8CheckoutO10FlowModuleC|level=normal|priority=-1|async=0",
                "created 4Shop8CheckoutO10FlowModuleC checkout flow module",
                "typed 4Shop8CheckoutO10FlowModuleC true",
                "record beehive_mods beehive:1|module|Shop.CartModule|level=basic|priority=10|async=0",
                "created Shop.CartModule cart module",
                "typed Shop.CartModule true",
                "record beehive_mods beehive:1|module|Shop.ShopModule|level=normal|priority=5|async=1",
                "created Shop.ShopModule shop module",
                "typed Shop.ShopModule true",
                "record beehive_services beehive:1|service|Shop.HomeService|4Shop15HomeServiceImplV|scope=singleton|name=",
                "created 4Shop15HomeServiceImplV welcome home",
                "typed 4Shop15HomeServiceImplV true",
                "protocol Shop.HomeService Shop.HomeService",
                "record beehive_services beehive:1|service|Shop.PaymentService|Shop.PaymentServiceImpl",
                "created Shop.PaymentServiceImpl paid 3",
                "typed Shop.PaymentServiceImpl true",
                "protocol Shop.PaymentService Shop.PaymentService",
                "record beehive_routes beehive:1|route|/cart/:item|Shop.CartRouteHandler",
                "created Shop.CartRouteHandler cart route",
                "typed Shop.CartRouteHandler true",
                "record beehive_routes beehive:1|route|/user/view/:id|4Shop8CheckoutXY16UserRouteHandlerV|scheme=shop|priority=2",
                "created 4Shop8CheckoutXY16UserRouteHandlerV user route",
                "typed 4Shop8CheckoutXY16UserRouteHandlerV true",
            ])
        let lint = Linter.lint(files: [build.product("Shop").path, build.product("SwiftOnly").path])
        #expect(lint.passed, "\(lint)")
        #expect(lint.recordCount == 8)
    }

    /// The fixture's builds expand the macros with the test build's plugin executable and compile no swift-syntax
    /// of their own (FixtureBuilder.prebuiltMacros): a release build of it alone took longer than every other
    /// fixture build together.
    @Test(arguments: builds)
    func fixtureBuildsUseTheTestBuildsMacros(
        configuration: FixtureBuilder.Configuration, linker: FixtureBuilder.Linker
    ) throws {
        let build = try FixtureBuilder.build(Self.fixture, configuration, linker: linker)
        let macros = try FixtureBuilder.prebuiltMacros(in: build.scratchPath)
        #expect(macros.environment == ["BEEHIVE_PREBUILT_MACROS": "1"], "no BeeHiveMacros-tool beside the test bundle")
        let products = build.scratchPath.appending(path: configuration.rawValue)
        let folders = try FileManager.default.contentsOfDirectory(atPath: products.path)
        #expect(folders.filter { $0.hasPrefix("SwiftSyntax") || $0.hasPrefix("BeeHiveMacros") }.isEmpty, "\(folders)")
        #expect(folders.contains("Shop.build"))
    }

    /// Discovery reads only objects whose PT_NOTE segment carries the BeeHive note; here only the macros wrote one.
    @Test(arguments: builds)
    func swiftOnlyBinaryIsDiscovered(configuration: FixtureBuilder.Configuration, linker: FixtureBuilder.Linker) throws {
        let build = try FixtureBuilder.build(Self.fixture, configuration, linker: linker)
        let output = try FixtureBuilder.run(build.product("SwiftOnly"), [])
        #expect(output.status == 0, "\(output.output)")
        #expect(
            output.standardOutput.split(separator: "\n").map(String.init) == [
                "object annotated=true records=1",
                "record beehive_mods beehive:1|module|SwiftOnly.LoneModule|level=normal|priority=0|async=0 resolves=true",
            ])
        #expect(SectionReader.readFile(atPath: build.product("SwiftOnly").path).isAnnotated)
    }

    @Test func lintCatchesAMisspeltCAnnotationNamingFileAndRecord() throws {
        let build = try FixtureBuilder.build(Self.fixture)
        let broken = build.product("Broken").path
        let report = Linter.lint(files: [broken])
        #expect(
            report.findings == [
                LintFinding(
                    .typeNotFound(role: .module, name: "Broken.CartModuel", suggestion: "Broken.CartModule"), objectPath: broken,
                    section: "beehive_mods", record: "beehive:1|module|Broken.CartModuel")
            ])

        let cli = try FixtureBuilder.run(try Self.beehiveExecutable(), ["lint", broken])
        #expect(cli.status == 1)
        #expect(cli.standardOutput.contains(#"\#(broken) [beehive_mods]: error: module type 'Broken.CartModuel' is not defined"#))
        #expect(cli.standardOutput.contains(#""beehive:1|module|Broken.CartModuel""#))

        let passing = try FixtureBuilder.run(try Self.beehiveExecutable(), ["lint", "--quiet", build.product("Shop").path])
        #expect(passing.status == 0, "\(passing.output)")
        #expect(passing.output.isEmpty)
    }

    /// Without symbol tables the types are found in the Swift type metadata sections.
    @Test func lintPassesOnAStrippedBinary() throws {
        let build = try FixtureBuilder.build(Self.fixture)
        let stripped = try Self.objcopy(build.product("Shop"), ["--strip-all"])
        defer { try? FileManager.default.removeItem(at: stripped) }
        let report = Linter.lint(files: [stripped.path])
        #expect(report.passed, "\(report)")
        #expect(report.recordCount == 7)
    }

    /// Records that name types of another binary pass once that binary is linted with them, and a dotted name
    /// that the runtime cannot resolve is reported with the mangled name to write instead.
    @Test func lintChecksNamesAgainstEveryFileOfTheSet() throws {
        let build = try FixtureBuilder.build(Self.fixture)
        let routes = try Self.recordObject(
            section: "beehive_routes",
            "beehive:1|route|/cart|Shop.CartModule\u{0}beehive:1|route|/home|Shop.HomeServiceImpl\u{0}")
        defer { try? FileManager.default.removeItem(at: routes) }

        let alone = Linter.lint(files: [routes.path]).findings.map(\.kind)
        #expect(
            alone == [
                .missingNote,
                .typeNotFound(role: .routeHandler, name: "Shop.CartModule", suggestion: nil),
                .typeNotFound(role: .routeHandler, name: "Shop.HomeServiceImpl", suggestion: nil),
            ])

        let withShop = Linter.lint(files: [routes.path, build.product("Shop").path])
        #expect(
            withShop.findings == [
                LintFinding(.missingNote, objectPath: routes.path),
                LintFinding(
                    .dottedNameUnresolvable(
                        role: .routeHandler, name: "Shop.HomeServiceImpl", kind: "struct", mangledName: "4Shop15HomeServiceImplV"),
                    objectPath: routes.path, section: "beehive_routes", record: "beehive:1|route|/home|Shop.HomeServiceImpl"),
            ])
    }

    @Test func lintReportsDuplicatesAcrossFiles() throws {
        let build = try FixtureBuilder.build(Self.fixture)
        let copy = try Self.objcopy(build.product("SwiftOnly"), [])
        defer { try? FileManager.default.removeItem(at: copy) }
        let original = build.product("SwiftOnly").path
        let report = Linter.lint(files: [original, copy.path])
        #expect(
            report.findings == [
                LintFinding(
                    .duplicate(RecordIdentity(kind: .module, name: "SwiftOnly.LoneModule"), firstObject: original), objectPath: copy.path,
                    section: "beehive_mods", record: "beehive:1|module|SwiftOnly.LoneModule|level=normal|priority=0|async=0")
            ])
    }

    /// `swift package beehive-lint`, the command plugin a CI step runs, over the fixture's debug build (its own
    /// build folder, so only the plugin and its lint tool are compiled): a clean product passes, the product
    /// with a misspelt record fails with lint's finding.
    @Test func lintPluginPassesACleanProductAndFailsABrokenOne() throws {
        let build = try FixtureBuilder.build(Self.fixture)
        // The fixture build's own macro arguments, or the plugin's build would find other compile commands and
        // build everything again, swift-syntax included.
        let macros = try FixtureBuilder.prebuiltMacros(in: build.scratchPath)
        func plugin(_ product: String) throws -> FixtureBuilder.Output {
            try FixtureBuilder.withBuildFolder(of: build) {
                try FixtureBuilder.run(
                    FixtureBuilder.swiftExecutable,
                    ["package", "--package-path", build.package.path, "--scratch-path", build.scratchPath.path]
                        + macros.arguments + ["beehive-lint", "--product", product],
                    environment: macros.environment.merging(["BEEHIVE_LINKER": build.linker.rawValue]) { $1 })
            }
        }
        let clean = try plugin("SwiftOnly")
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.standardOutput.contains("beehive lint: 0 errors in "), "\(clean.output)")

        let broken = try plugin("Broken")
        #expect(broken.status != 0, "\(broken.output)")
        #expect(broken.output.contains("module type 'Broken.CartModuel' is not defined in any linted file (did you mean 'Broken.CartModule'?)"), "\(broken.output)")
        #expect(broken.output.contains("beehive lint found problems in 1 file(s)"), "\(broken.output)")
    }

    @Test func lintReportsMalformedRecordsAndUnknownVersions() throws {
        let build = try FixtureBuilder.build(Self.fixture)
        let routes = try Self.recordObject(section: "beehive_routes", "beehive:2|route|/x|Broken.CartModule\u{0}beehive:1|route|/y\u{0}")
        defer { try? FileManager.default.removeItem(at: routes) }
        let kinds = Linter.lint(files: [build.product("Broken").path, routes.path]).findings.map(\.kind)
        #expect(kinds.contains(.registry(.unknownVersion("beehive:2"))))
        #expect(kinds.contains(.registry(.malformedRecord(reason: "a route record names a pattern and a type"))))
        #expect(kinds.contains(.typeNotFound(role: .module, name: "Broken.CartModuel", suggestion: "Broken.CartModule")))
    }

    /// A relocatable object holding `records` in `section` and nothing else (no BeeHive note). Sections added
    /// to a linked binary with `objcopy --add-section` lie outside every segment, so discovery and lint
    /// rightly refuse them; an object file has no segments and is read as it is.
    static func recordObject(section: String, _ records: String) throws -> URL {
        let base = FileManager.default.temporaryDirectory.appending(path: "beehive-records-\(UUID().uuidString)")
        let raw = base.appendingPathExtension("bin")
        let object = base.appendingPathExtension("o")
        try Data(records.utf8).write(to: raw)
        defer { try? FileManager.default.removeItem(at: raw) }
        let result = try FixtureBuilder.run(
            URL(filePath: "/usr/bin/env"),
            ["objcopy", "-I", "binary", "-O", "elf64-x86-64", "-B", "i386:x86-64",
             "--rename-section", ".data=\(section),contents,alloc,load,readonly,data", raw.lastPathComponent, object.path],
            currentDirectory: raw.deletingLastPathComponent())
        try #require(result.status == 0, "objcopy failed: \(result.output)")
        return object
    }

    /// The `beehive` executable built next to this test bundle.
    static func beehiveExecutable() throws -> URL {
        let executable = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appending(path: "beehive")
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "\(executable.path) is missing: build the beehive product with the tests (swift build --build-tests)")
        return executable
    }

    /// A temporary copy of `file` made by binutils' objcopy with `options` (none: an exact copy).
    static func objcopy(_ file: URL, _ options: [String]) throws -> URL {
        let tool = "objcopy"
        let copy = FileManager.default.temporaryDirectory.appending(path: "beehive-\(UUID().uuidString)-\(file.lastPathComponent)")
        let toolPath = try #require(
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
                .map { URL(filePath: String($0)).appending(path: tool) }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "\(tool) (binutils) is not on PATH")
        let result = try FixtureBuilder.run(toolPath, options + [file.path, copy.path])
        try #require(result.status == 0, "\(tool) failed: \(result.output)")
        return copy
    }
}
