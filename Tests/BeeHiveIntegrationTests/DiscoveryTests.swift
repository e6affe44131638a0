import Foundation
import Testing

/// What the fixture host finds at startup: its own annotations, those of the shared libraries it links, and
/// the diagnostics for the malformed and duplicated ones. Identical for debug and release (where
/// --gc-sections runs), with gold and with lld.
@Suite(.serialized, .timeLimit(.minutes(60)))
struct DiscoveryTests {
    static let configurations = FixtureBuilder.Configuration.allCases.flatMap { configuration in
        FixtureBuilder.Linker.allCases.map { (configuration, $0) }
    }

    /// Every valid record, as "object section record", sorted.
    static let startupRecords = [
        "host beehive_mods beehive:1|module|HostCore.AppModule",
        "host beehive_mods beehive:1|module|HostCore.LaunchModule|level=basic|priority=-5|async=0",
        "libMalformed.so beehive_mods beehive:1|module|Malformed.GoodModule",
        "libDuplicateA.so beehive_mods beehive:1|module|Shared.TwiceModule",
        "libDuplicateB.so beehive_mods beehive:1|module|Shared.TwiceModule",
        "libShopKit.so beehive_mods beehive:1|module|ShopKit.BasketModule|level=basic|priority=100|async=1",
        "libShopKit.so beehive_mods beehive:1|module|ShopKit.Detail",
        "libShopKit.so beehive_mods beehive:1|module|ShopKit.ShopModule",
        "host beehive_routes beehive:1|route|/settings|HostCore.SettingsHandler",
        "libShopKit.so beehive_routes beehive:1|route|/shop/item/:id|ShopKit.ItemHandler",
        "libShopKit.so beehive_routes beehive:1|route|/shop/cart|ShopKit.CartHandler|scheme=shop|priority=5",
        "libShopKit.so beehive_routes beehive:1|target|Basket|ShopKit.BasketTarget",
        "host beehive_services beehive:1|service|HostCore.SettingsProtocol|HostCore.SettingsService",
        "libOnlyServices.so beehive_services beehive:1|service|OnlyServices.ClockProtocol|OnlyServices.SystemClock|scope=singleton|name=",
        "libOnlyServices.so beehive_services beehive:1|service|OnlyServices.LogProtocol|OnlyServices.LogService",
        "libDuplicateA.so beehive_services beehive:1|service|Shared.TwiceProtocol|DuplicateA.TwiceService",
        "libDuplicateB.so beehive_services beehive:1|service|Shared.TwiceProtocol|DuplicateB.TwiceService",
        "libShopKit.so beehive_services beehive:1|service|ShopKit.CartProtocol|ShopKit.CartService",
        "libShopKit.so beehive_services beehive:1|service|ShopKit.PaymentProtocol|ShopKit.PaymentService|scope=named|name=checkout",
    ].sorted()

    /// Every diagnostic, as "kind object section record [first=object]", sorted.
    static let startupDiagnostics = [
        "duplicate libDuplicateB.so beehive_mods beehive:1|module|Shared.TwiceModule first=libDuplicateA.so",
        "duplicate libDuplicateB.so beehive_services beehive:1|service|Shared.TwiceProtocol|DuplicateB.TwiceService first=libDuplicateA.so",
        "invalidUTF8 libMalformed.so beehive_mods beehive:1|module|Bad.\u{FFFD}\u{FFFD}Name",
        "malformedRecord libMalformed.so beehive_mods beehive:1|module|Bad Name",
        "malformedRecord libMalformed.so beehive_mods beehive:1|module|Bad.Key|colour=red",
        "malformedRecord libMalformed.so beehive_mods beehive:1|module|Bad.Level|level=extreme",
        "malformedRecord libMalformed.so beehive_routes hello world",
        "malformedRecord libMalformed.so beehive_services beehive:1|service|Bad.Protocol|Bad.Service|scope=named|name=",
        "misplacedRecord libMalformed.so beehive_mods beehive:1|route|/misplaced|Bad.Handler",
        "oversizedRecord libMalformed.so beehive_mods beehive:1|module|Big.\(String(repeating: "x", count: 179))…",
        "unknownVersion libMalformed.so beehive_mods beehive:2|module|Future.Module",
    ]

    /// Annotated objects only: libPlain (no annotations), libContracts and libBeeHive carry no note.
    static let annotatedObjects = [
        "host", "libDuplicateA.so", "libDuplicateB.so", "libMalformed.so", "libOnlyServices.so", "libShopKit.so",
    ]

    @Test(arguments: configurations)
    func everyRecordInEveryConfiguration(configuration: FixtureBuilder.Configuration, linker: FixtureBuilder.Linker) throws {
        let build = try FixtureBuilder.build(FixtureHost.package, configuration, linker: linker)
        let report = try FixtureHost.run(build)
        #expect(report.records.count == 19)
        #expect(report.recordLines == Self.startupRecords)
        #expect(report.diagnosticLines == Self.startupDiagnostics)
        #expect(report.objectNames.sorted() == Self.annotatedObjects)
        #expect(report.objects.allSatisfy { $0.annotated && $0.buildID != nil })
    }

    @Test(arguments: configurations)
    func readelfSeesTheSameRecordsOnDisk(configuration: FixtureBuilder.Configuration, linker: FixtureBuilder.Linker) throws {
        let build = try FixtureBuilder.build(FixtureHost.package, configuration, linker: linker)
        var lines: [String] = []
        for name in Self.annotatedObjects {
            let dump = try SystemTools.run("readelf", ["-p", "beehive_mods", "-p", "beehive_services", "-p", "beehive_routes", build.product(name).path])
            lines += dump.split(separator: "\n").filter { $0.hasPrefix("  [") }.map { "\(name) \($0)" }
        }
        // 19 valid records plus the 9 the Malformed library carries on purpose.
        #expect(lines.count == 28)
        let notes = try SystemTools.run("readelf", ["-n", build.product("libShopKit.so").path])
        #expect(notes.contains("BeeHive"))
        let plainNotes = try SystemTools.run("readelf", ["-n", build.product("libPlain.so").path])
        #expect(!plainNotes.contains("BeeHive"))
    }

    @Test func duplicatesNameBothObjects() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let report = try FixtureHost.run(build)
        let duplicates = report.diagnostics.filter { $0.kind == "duplicate" }
        #expect(duplicates.count == 2)
        for duplicate in duplicates {
            #expect(duplicate.object == build.product("libDuplicateB.so").resolvingSymlinksInPath().path)
            #expect(duplicate.firstObject == build.product("libDuplicateA.so").resolvingSymlinksInPath().path)
            #expect(duplicate.message.contains("libDuplicateA.so"))
            #expect(duplicate.severity == "warning")
        }
    }

    @Test func malformedRecordsAreDiagnosedWithTheirObject() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: .gold)
        let report = try FixtureHost.run(build)
        let malformed = report.diagnostics.filter { $0.object?.fileName == "libMalformed.so" }
        #expect(malformed.count == 9)
        #expect(malformed.allSatisfy { $0.severity == "error" })
        let oversized = try #require(malformed.first { $0.kind == "oversizedRecord" })
        #expect(oversized.message.contains("5021 bytes"))
        let future = try #require(malformed.first { $0.kind == "unknownVersion" })
        #expect(future.message.contains("beehive:2"))
        #expect(report.records.filter { $0.object.fileName == "libMalformed.so" }.map(\.text) == ["beehive:1|module|Malformed.GoodModule"])
    }

    @Test func onlyServicesObjectContributesServicesOnly() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .lld)
        let report = try FixtureHost.run(build)
        let services = report.records.filter { $0.object.fileName == "libOnlyServices.so" }
        #expect(services.map(\.kind) == ["service", "service"])
        #expect(!report.diagnostics.contains { $0.object?.fileName == "libOnlyServices.so" })
    }

    /// The performance design: discovery reads annotated objects from memory through their note's offsets and
    /// opens no file at all; the loader's own opens are the only ones.
    @Test(.enabled(if: SystemTools.find("strace") != nil, "needs strace"))
    func discoveryOpensNoFile() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: .lld)
        let output = try FixtureBuilder.run(
            try SystemTools.require("strace"), ["-f", "-e", "trace=openat,open", build.product("host").path])
        try #require(output.status == 0, "\(output.output)")
        var opens: [String: Int] = [:]
        for line in output.standardError.split(separator: "\n") where line.contains("open") && !line.contains("= -1") {
            guard let start = line.firstIndex(of: "\""), let end = line[line.index(after: start)...].firstIndex(of: "\"") else { continue }
            let path = String(line[line.index(after: start)..<end])
            if path.hasSuffix(".so") || path.contains(".so.") || path == "/proc/self/exe" { opens[path, default: 0] += 1 }
        }
        #expect(opens.keys.contains { $0.hasSuffix("/libShopKit.so") }, "the loader's opens are traced: \(opens)")
        #expect(opens.filter { $0.value > 1 }.isEmpty, "opened again after the loader: \(opens)")
        #expect(opens["/proc/self/exe"] == nil, "\(opens)")
        let report = try FixtureHost.run(build)
        #expect(report.recordLines == Self.startupRecords)
    }

    @Test func typeNamesResolveOnlyForTopLevelClasses() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let resolutions = try FixtureHost.run(build, ["resolve"], as: [Resolution].self)
        let resolved = resolutions.filter(\.resolved).map(\.type)
        #expect(resolved == ["HostCore.AppModule", "ShopKit.ShopModule"])
        // A struct (HostCore.LaunchModule, ShopKit.Detail) and names with no type behind them do not resolve.
        #expect(resolutions.filter { !$0.resolved }.allSatisfy { $0.diagnostic == "unresolvedType" })
        #expect(resolutions.contains(Resolution(type: "ShopKit.Detail", resolved: false, diagnostic: "unresolvedType")))
    }

    /// A loaded library's file truncated on disk: touching its pages would raise SIGBUS, and a rescan (moved by
    /// another load) must not touch them, since each object is read once, when first seen.
    @Test func truncatedLibraryThenRescanDoesNotCrash() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let folder = try FixtureHost.temporaryDirectory("truncate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = try SystemTools.copy(try SystemTools.cPlugin("one.c"), into: folder, as: "libVictim.so")
        let other = try SystemTools.copy(try SystemTools.cPlugin("two.c"), into: folder, as: "libOther.so")
        let update = try FixtureHost.run(build, ["truncate", victim.path, other.path])
        #expect(update.objects.map(\.path) == [other.path])
        #expect(update.records.allSatisfy { $0.object == other.path } && update.records.count == 2)
        #expect(update.diagnostics.isEmpty)
    }

    /// A loaded library overwritten in place (same inode, new bytes): a later rescan registers nothing of the
    /// new content and reports only the library loaded since.
    @Test func libraryOverwrittenInPlaceRegistersNothingNew() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let folder = try FixtureHost.temporaryDirectory("overwrite")
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = try SystemTools.copy(try SystemTools.cPlugin("one.c"), into: folder, as: "libVictim.so")
        let replacement = try SystemTools.cPlugin("two.c")
        let other = try SystemTools.copy(try SystemTools.cPlugin("variant.c", defines: ["VARIANT_TYPE=Variant.First"], buildID: false), into: folder, as: "libOther.so")
        let update = try FixtureHost.run(build, ["overwrite", victim.path, replacement.path, other.path])
        #expect(update.objects.map(\.path) == [other.path])
        #expect(update.recordLines == ["libOther.so beehive_mods beehive:1|module|Variant.First"])
        #expect(update.diagnostics.isEmpty)
    }

    /// Two registries, each with its own source: both see every load and every unload, whichever polls first.
    @Test func independentReadersEachSeeEveryChange() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let one = try SystemTools.cPlugin("one.c")
        let two = try SystemTools.cPlugin("two.c")
        let phases = try FixtureHost.run(build, ["readers", one.path, two.path], as: ReaderPhases.self)
        let expected = PluginLoadingTests.cPluginRecords(one, two)
        for reader in [phases.first, phases.second] {
            #expect(reader.map(\.recordLines) == [expected, expected])
            #expect(reader.map { $0.objects.map(\.path) } == [[one.path, two.path], [one.path, two.path]])
        }
    }

    /// The path the docs teach for a manager without `Hive`: the shared registry's first refresh in a fresh
    /// process returns every annotated object and record.
    @Test func firstSharedRefreshReturnsEverything() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let update = try FixtureHost.run(build, ["manual"])
        #expect(update.recordLines == Self.startupRecords)
        #expect(update.diagnosticLines == Self.startupDiagnostics)
        #expect(update.objectNames.sorted() == Self.annotatedObjects)
    }

    /// Two managers fed from `AnnotationRegistry.shared` without `Hive` in a fresh process, each from its own
    /// `snapshot()`: both register every record of their kind, although the first snapshot already took in
    /// what the constructor found.
    @Test func everyManagerFedFromTheSharedRegistryRegistersEverything() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let report = try FixtureHost.run(build, ["managers"], as: ManagerReport.self)
        #expect(report.services.sorted() == [
            "HostCore.SettingsProtocol HostCore.SettingsService",
            "OnlyServices.ClockProtocol OnlyServices.SystemClock",
            "OnlyServices.LogProtocol OnlyServices.LogService",
            "Shared.TwiceProtocol DuplicateA.TwiceService",
            "Shared.TwiceProtocol DuplicateB.TwiceService",
            "ShopKit.CartProtocol ShopKit.CartService",
            "ShopKit.PaymentProtocol ShopKit.PaymentService",
        ])
        #expect(report.routes == [
            "/settings HostCore.SettingsHandler",
            "/shop/cart ShopKit.CartHandler",
            "/shop/item/:id ShopKit.ItemHandler",
        ])
    }
}

struct ManagerReport: Decodable {
    let services: [String]
    let routes: [String]
}

struct ReaderPhases: Decodable {
    let first: [HostReport]
    let second: [HostReport]
}
