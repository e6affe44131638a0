import Foundation
import Testing

/// Stripped copies of the host and of a library. The copies live in a temporary folder, so the loader finds
/// the other libraries through LD_LIBRARY_PATH.
@Suite(.timeLimit(.minutes(60)))
struct StrippedBinaryTests {
    @Test(arguments: [FixtureBuilder.Linker.gold, .lld])
    func stripKeepsSectionHeadersSoEverythingIsFound(linker: FixtureBuilder.Linker) throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: linker)
        let folder = try FixtureHost.temporaryDirectory("strip")
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = try SystemTools.copy(build.product("host"), into: folder)
        let library = try SystemTools.copy(build.product("libShopKit.so"), into: folder)
        try SystemTools.run("strip", [host.path, library.path])
        #expect(try !SystemTools.run("readelf", ["-S", "-W", host.path]).contains(".symtab"))
        let report = try FixtureHost.run(host, environment: ["LD_LIBRARY_PATH": "\(folder.path):\(build.binPath.path)"])
        #expect(report.recordLines == DiscoveryTests.startupRecords)
        #expect(report.diagnosticLines == DiscoveryTests.startupDiagnostics)
        #expect(report.records.contains { $0.object == library.path })
        #expect(report.records.contains { $0.object == host.path })
    }

    @Test func stripSectionsGivesAClearDiagnosticAndNoCrash() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: .gold)
        let folder = try FixtureHost.temporaryDirectory("strip-sections")
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = try SystemTools.copy(build.product("host"), into: folder)
        let library = try SystemTools.copy(build.product("libShopKit.so"), into: folder)
        try SystemTools.run("llvm-objcopy", ["--strip-sections", host.path])
        try SystemTools.run("llvm-objcopy", ["--strip-sections", library.path])
        let report = try FixtureHost.run(host, environment: ["LD_LIBRARY_PATH": "\(folder.path):\(build.binPath.path)"])
        let missing = report.diagnostics.filter { $0.kind == "sectionHeadersMissing" }
        #expect(missing.map(\.object) == [host.path, library.path])
        #expect(missing.allSatisfy { $0.severity == "warning" && $0.message.contains("--strip-sections") })
        // The note survives, so both are still known as annotated; only their records are out of reach.
        #expect(report.objects.filter { [host.path, library.path].contains($0.path) }.allSatisfy { $0.annotated && $0.buildID != nil })
        let unreachable = Set(["host", "libShopKit.so"])
        #expect(report.recordLines == DiscoveryTests.startupRecords.filter { !unreachable.contains(String($0.prefix { $0 != " " })) })
    }
}
