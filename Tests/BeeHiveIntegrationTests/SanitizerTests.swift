import Foundation
import Testing

/// The fixture built with `--sanitize`, which instruments discovery's C code along with everything else:
/// reading notes and sections from memory under AddressSanitizer, and rescans racing with dlopen and dlclose
/// on another thread under ThreadSanitizer. A sanitizer report makes the program exit non-zero.
@Suite(.timeLimit(.minutes(60)))
struct SanitizerTests {
    private func runSanitized(_ build: FixtureBuilder.Build, _ arguments: [String]) throws -> (stdout: Data, stderr: String) {
        let output = try FixtureBuilder.run(build.product("host"), arguments)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(!output.standardError.contains("Sanitizer"), "\(output.standardError)")
        return (Data(output.standardOutput.utf8), output.standardError)
    }

    @Test func discoveryAndPluginsUnderAddressSanitizer() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold, sanitizer: .address)
        let startup = try JSONDecoder().decode(HostReport.self, from: try runSanitized(build, ["dump"]).stdout)
        #expect(startup.recordLines == DiscoveryTests.startupRecords)
        #expect(startup.diagnosticLines == DiscoveryTests.startupDiagnostics)
        let one = try SystemTools.cPlugin("one.c")
        let two = try SystemTools.cPlugin("two.c")
        let phases = try JSONDecoder().decode(
            PluginPhases.self,
            from: try runSanitized(build, ["plugins", build.product("libPluginA.so").path, one.path, two.path]).stdout)
        #expect(phases.loaded.records.count == 3 + 5)
        #expect(phases.unloaded.recordLines == PluginLoadingTests.cPluginRecords(one, two))
    }

    @Test func rescansRacingWithDlopenUnderThreadSanitizer() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .lld, sanitizer: .thread)
        let one = try SystemTools.cPlugin("one.c")
        let two = try SystemTools.cPlugin("two.c")
        let result = try JSONDecoder().decode(
            RaceResult.self,
            from: try runSanitized(build, ["race", "200", one.path, two.path, build.product("libPluginA.so").path]).stdout)
        let expected = DiscoveryTests.startupRecords + PluginLoadingTests.pluginARecords + PluginLoadingTests.cPluginRecords(one, two)
        #expect(result.final.recordLines.sorted() == expected.sorted())
        #expect(result.final.diagnosticLines == DiscoveryTests.startupDiagnostics, "no record read from a stale mapping")
    }
}
