import Foundation
import Testing

/// The fixture built with `--sanitize`, which instruments discovery's C code along with everything else:
/// reading notes and sections from memory under AddressSanitizer, and rescans racing with dlopen and dlclose
/// on another thread under ThreadSanitizer. A sanitizer report makes the program exit non-zero.
@Suite(.timeLimit(.minutes(60)))
struct SanitizerTests {
    private func runSanitized(
        _ build: FixtureBuilder.Build, _ arguments: [String], product: String = "host"
    ) throws -> (stdout: Data, stderr: String) {
        let output = try FixtureBuilder.run(build.product(product), arguments)
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

    /// Tests/Fixtures/ASanDiscovery: C annotations compiled by clang with AddressSanitizer, which pads globals
    /// with red zones (not in sections named like C identifiers, which BeeHive's are). Discovery finds exactly
    /// the records the fixture declares, long names across several red-zone granules included, and nothing else.
    @Test func discoveryFindsExactlyTheRecordsOfCCodeBuiltWithClangAddressSanitizer() throws {
        let build = try FixtureBuilder.build("ASanDiscovery", .debug, linker: .gold, sanitizer: .address)
        let annotations = build.scratchPath.appending(path: "debug/CASanAnnotations.build/annotations.c.o")
        let symbols = try SystemTools.run("nm", [annotations.path])
        #expect(symbols.contains("__asan_"), "\(annotations.path) is not instrumented by AddressSanitizer:\n\(symbols)")
        let output = try runSanitized(build, [], product: "ASanDiscovery").stdout
        let found = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
        let expected = try String(
            contentsOf: FixtureBuilder.fixturesRoot.appending(path: "ASanDiscovery/expected-records.txt"), encoding: .utf8
        ).split(separator: "\n").map(String.init).sorted()
        #expect(found == expected)
        // Unpadded: exactly the records' bytes, as docs/hardening.md says.
        var sizes: [String: Int] = [:]
        for line in try SystemTools.run("readelf", ["-SW", build.product("ASanDiscovery").path]).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let name = fields.firstIndex(where: { $0.hasPrefix("beehive_") }), fields.count > name + 4 else { continue }
            sizes[String(fields[name])] = Int(fields[name + 4], radix: 16)
        }
        #expect(sizes["beehive_mods"] == 260 && sizes["beehive_services"] == 260 && sizes["beehive_routes"] == 222, "\(sizes)")
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
