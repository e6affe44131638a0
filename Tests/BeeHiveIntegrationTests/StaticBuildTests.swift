import Foundation
import Testing

/// Release builds the way Swift servers ship them, `--static-swift-stdlib` on the BeeHiveStatic product
/// (Tests/Fixtures/StaticHost), with gold and with lld: everything runs on the one runtime inside the
/// executable, C plugins load from a folder, Swift plugins and the dynamic core are refused with a reason.
@Suite(.serialized, .timeLimit(.minutes(60)))
struct StaticBuildTests {
    static let fixture = "StaticHost"

    /// What StaticApp prints on standard output, in order.
    static let staticAppOutput = [
        "module setUp",
        "module init, the clock says noon",
        "route 7",
        "target balance 42",
        "route 9",
        "plugins loaded on first use: 1",
        "swift plugin refused: cannot load plugin PLUGIN: it needs the shared Swift runtime (libswiftCore.so), and this program carries its own (it was built with --static-swift-stdlib on the BeeHiveStatic product): two Swift runtimes in one process crash; build the host without --static-swift-stdlib on the BeeHive product to load Swift plugins, or make the plugin a C library (cc -shared) that needs no Swift runtime",
        "module willTerminate",
        "module tearDown",
        "spans: BeeHive launch, BeeHive shutdown, StaticApp.LedgerModule init, StaticApp.LedgerModule openURL, StaticApp.LedgerModule setUp, StaticApp.LedgerModule splash, StaticApp.LedgerModule tearDown, StaticApp.LedgerModule willTerminate",
    ]

    @Test(arguments: FixtureBuilder.Linker.allCases)
    func aStaticReleaseBuildRunsModulesServicesRoutesTargetsAndCPlugins(linker: FixtureBuilder.Linker) throws {
        let build = try FixtureBuilder.build(Self.fixture, .release, linker: linker, staticStandardLibrary: true)
        let app = build.product("StaticApp")
        let needed = try SystemTools.neededLibraries(app)
        #expect(!needed.contains { $0.hasPrefix("libswift") || $0.hasPrefix("libFoundation") || $0.hasPrefix("libBeeHive") },
                "a static build needs no Swift library: \(needed)")
        #expect(needed.contains("libelf.so.1"))

        let folder = try FixtureHost.temporaryDirectory("static-plugins")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try SystemTools.copy(try SystemTools.cPlugin("static_ledger.c"), into: folder)
        // A Swift plugin of another fixture, linked against the shared runtime.
        let swiftPlugin = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold).product("libPluginA.so")
        let run = try FixtureBuilder.run(
            app, [], environment: ["BEEHIVE_PLUGIN_PATH": folder.path, "STATIC_APP_SWIFT_PLUGIN": swiftPlugin.path])
        #expect(run.status == 0, "\(run.output)")
        let expected = Self.staticAppOutput.map { $0.replacingOccurrences(of: "PLUGIN", with: swiftPlugin.path) }
        #expect(run.standardOutput.split(separator: "\n").map(String.init) == expected)
    }

    @Test
    func theDynamicCoreInAStaticExecutableIsRefusedBeforeAnythingRuns() throws {
        let build = try FixtureBuilder.build(Self.fixture, .release, linker: .gold, staticStandardLibrary: true)
        let program = build.product("TwoRuntimes")
        #expect(try SystemTools.neededLibraries(program).contains("libBeeHive.so"))
        let run = try FixtureBuilder.run(program, [])
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(run.standardError)")
        #expect(run.standardError.hasPrefix("error: \(program.resolvingSymlinksInPath().path) carries its own Swift runtime"))
        #expect(run.standardError.contains("depend on the BeeHiveStatic product"))
    }

    @Test
    func aFailedStartPrintsOneLineAndExitsWithStatusOne() throws {
        let build = try FixtureBuilder.build(Self.fixture, .release, linker: .gold, staticStandardLibrary: true)
        let run = try FixtureBuilder.run(build.product("MisspeltApp"), [])
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
        #expect(run.standardError.hasPrefix("error: 1 annotation(s) cannot be used"))
        #expect(run.standardError.contains("module type 'MisspeltApp.GreeterModul'"))
    }
}

extension StaticBuildTests {
    @Test
    func discoveryTurnedOffIsLoggedOnceAtStart() throws {
        let build = try FixtureBuilder.build(Self.fixture, .release, linker: .gold, staticStandardLibrary: true)
        let run = try FixtureBuilder.run(
            build.product("MisspeltApp"), [], environment: ["BEEHIVE_DISCOVERY": "0", "MISSPELT_APP_LOG": "1"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.standardOutput == "started with 0 annotations\n")
        let notices = run.standardError.split(separator: "\n").filter { $0.contains("discovery is off (BEEHIVE_DISCOVERY=0)") }
        #expect(notices.count == 1, "\(run.standardError)")
    }
}
