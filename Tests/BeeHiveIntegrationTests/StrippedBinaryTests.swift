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

    /// `--strip-sections` removes the section table; the note's offsets still locate every record in memory.
    @Test(arguments: [FixtureBuilder.Linker.gold, .lld])
    func stripSectionsKeepsEveryRecord(linker: FixtureBuilder.Linker) throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: linker)
        let folder = try FixtureHost.temporaryDirectory("strip-sections")
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = try SystemTools.copy(build.product("host"), into: folder)
        let library = try SystemTools.copy(build.product("libShopKit.so"), into: folder)
        try SystemTools.run("llvm-objcopy", ["--strip-sections", host.path])
        try SystemTools.run("llvm-objcopy", ["--strip-sections", library.path])
        #expect(try SystemTools.run("readelf", ["-S", "-W", host.path]).contains("no sections"))
        let report = try FixtureHost.run(host, environment: ["LD_LIBRARY_PATH": "\(folder.path):\(build.binPath.path)"])
        #expect(report.recordLines == DiscoveryTests.startupRecords)
        #expect(report.diagnosticLines == DiscoveryTests.startupDiagnostics)
        #expect(report.records.contains { $0.object == library.path })
        #expect(report.records.contains { $0.object == host.path })
        #expect(report.objects.filter { [host.path, library.path].contains($0.path) }.allSatisfy { $0.annotated && $0.buildID != nil })
    }
}
