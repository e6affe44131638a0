import Foundation
import Testing

/// 64 threads resolving a singleton, routing URLs and triggering events through `Hive.shared` at once, while
/// a Swift plugin (retired and reinstated: it stays mapped) and a C plugin (really unmapped) load and unload.
@Suite(.timeLimit(.minutes(60)))
struct LoadTests {
    struct Result: Decodable {
        let threads: Int
        let iterations: Int
        let pluginRounds: Int
        let singletonCreations: Int
        let distinctInstances: Int
        let routed: Int
        let events: Int
        let failures: [String]
        let codeRoutesRoutable: Int
        let codeServiceResolves: Bool
        let codeModuleRegistered: Bool
        let pluginObjectsAfter: [String]
    }

    @Test func sixtyFourThreadsWhilePluginsLoadAndUnload() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let cPlugin = try SystemTools.cPlugin("one.c")
        let result = try FixtureHost.run(
            build, ["load", "64", "300", build.product("libPluginA.so").path, cPlugin.path], as: Result.self)
        #expect(result.failures.isEmpty)
        #expect(result.pluginRounds >= 1)
        #expect(result.singletonCreations == 1)
        #expect(result.distinctInstances == 1)
        #expect(result.routed == 64 * 300)
        #expect(result.events == 64 * 300)
        #expect(result.codeRoutesRoutable == 100)
        #expect(result.codeServiceResolves)
        #expect(result.codeModuleRegistered)
        #expect(result.pluginObjectsAfter == [cPlugin.lastPathComponent, "libPluginA.so"].sorted())
    }
}
