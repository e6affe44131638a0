import Foundation
import Testing

/// Plugins loaded after startup with `Plugin.load(atPath:)`, then `AnnotationRegistry.shared.refresh()`.
@Suite(.timeLimit(.minutes(60)))
struct PluginLoadingTests {
    static let pluginARecords = [
        "libPluginA.so beehive_mods beehive:1|module|PluginA.GreeterModule",
        "libPluginA.so beehive_routes beehive:1|route|/greet/:name|PluginA.GreetHandler",
        "libPluginA.so beehive_services beehive:1|service|PluginA.GreetingProtocol|PluginA.GreetingService|scope=singleton|name=",
    ].sorted()

    static func cPluginRecords(_ one: URL, _ two: URL) -> [String] {
        [
            "\(one.lastPathComponent) beehive_mods beehive:1|module|CPluginOne.Module",
            "\(two.lastPathComponent) beehive_mods beehive:1|module|CPluginTwo.Module|level=basic|priority=7|async=1",
            "\(one.lastPathComponent) beehive_routes beehive:1|route|/one/:id|CPluginOne.Handler|scheme=plugin|priority=1",
            "\(two.lastPathComponent) beehive_routes beehive:1|target|Two|CPluginTwo.Target",
            "\(one.lastPathComponent) beehive_services beehive:1|service|CPluginOne.Protocol|CPluginOne.Service",
        ].sorted()
    }

    @Test(arguments: [FixtureBuilder.Configuration.debug, .release])
    func swiftPluginIsRegisteredAndStaysLoaded(configuration: FixtureBuilder.Configuration) throws {
        let build = try FixtureBuilder.build(FixtureHost.package, configuration, linker: .gold)
        let phases = try FixtureHost.run(build, ["plugins", build.product("libPluginA.so").path], as: PluginPhases.self)
        #expect(phases.before.recordLines == DiscoveryTests.startupRecords)
        #expect(phases.loaded.objectNames == ["libPluginA.so"])
        #expect(phases.loaded.recordLines == Self.pluginARecords)
        #expect(phases.loaded.diagnostics.isEmpty)
        // The Swift runtime cannot forget an image, so a Swift plugin is never unmapped: nothing is removed.
        #expect(phases.staysLoaded == [true])
        #expect(phases.unloaded.objects.isEmpty && phases.unloaded.records.isEmpty)
        #expect(phases.after.records.count == 19 + 3)
    }

    @Test func cPluginsAreRemovedWhenUnloaded() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let one = try SystemTools.cPlugin("one.c")
        let two = try SystemTools.cPlugin("two.c")
        let phases = try FixtureHost.run(build, ["plugins", one.path, two.path], as: PluginPhases.self)
        let expected = Self.cPluginRecords(one, two)
        #expect(phases.loaded.recordLines == expected)
        #expect(phases.loaded.objects.map(\.path) == [one.path, two.path])
        #expect(phases.staysLoaded == [false, false])
        #expect(phases.unloaded.objects.map(\.path) == [one.path, two.path])
        #expect(phases.unloaded.recordLines == expected)
        #expect(phases.after.recordLines == DiscoveryTests.startupRecords)
    }

    @Test func pluginPrecededByTheHostsObjectsTypesConform() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: .lld)
        let phases = try FixtureHost.run(
            build, ["plugins", build.product("libPluginA.so").path, build.product("libPluginB.so").path], as: PluginPhases.self)
        #expect(phases.loaded.objectNames == ["libPluginA.so", "libPluginB.so"])
        #expect(phases.loaded.records.count == 5)
        #expect(phases.after.diagnosticLines == DiscoveryTests.startupDiagnostics)
    }

    /// A library replaced on disk (renamed over) after it was loaded: its records come from memory, through its
    /// note's offsets, so the file on disk does not matter.
    @Test(arguments: [FixtureBuilder.Linker.gold, .lld])
    func replacedSwiftPluginIsReadFromMemory(linker: FixtureBuilder.Linker) throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: linker)
        let folder = try FixtureHost.temporaryDirectory("replace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let plugin = try SystemTools.copy(build.product("libPluginA.so"), into: folder)
        let replacement = try SystemTools.copy(build.product("libPluginB.so"), into: folder)
        let update = try FixtureHost.run(build, ["replace", plugin.path, replacement.path])
        #expect(update.objects.map(\.path) == [plugin.path])
        #expect(update.recordLines == Self.pluginARecords.map { $0.replacingOccurrences(of: "libPluginA.so", with: plugin.lastPathComponent) })
        #expect(update.diagnostics.isEmpty)
    }

    /// An object whose note has no offsets (built before they existed) is read through its file, which must be
    /// the loaded object.
    @Test func replacedLibraryWithoutBuildIDsIsCaughtByItsContent() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let folder = try FixtureHost.temporaryDirectory("replace-no-build-id")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Same layout, a different record of the same length: only the section bytes differ.
        let first = try SystemTools.cPlugin("variant.c", defines: ["VARIANT_TYPE=Variant.First"], buildID: false)
        let other = try SystemTools.cPlugin("variant.c", defines: ["VARIANT_TYPE=Variant.Other"], buildID: false)
        let sameLayout = try FixtureHost.run(
            build, ["replace", try SystemTools.copy(first, into: folder, as: "libv.so").path,
                    try SystemTools.copy(other, into: folder, as: "libw.so").path])
        #expect(sameLayout.diagnostics.map(\.kind) == ["contentMismatch"])
        #expect(sameLayout.records.isEmpty)
        #expect(sameLayout.objects.first?.buildID == nil)
        // A different library altogether: its program headers differ.
        let different = try FixtureHost.run(
            build, ["replace", try SystemTools.copy(first, into: folder, as: "libx.so").path,
                    try SystemTools.copy(try SystemTools.cPlugin("one.c"), into: folder, as: "liby.so").path])
        #expect(different.diagnostics.map(\.kind) == ["programHeadersMismatch"])
        #expect(different.diagnostics.first?.object == folder.appending(path: "libx.so").path)
        #expect(different.records.isEmpty)
    }

    @Test func unchangedCopyIsReadNormally() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let folder = try FixtureHost.temporaryDirectory("copy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let plugin = try SystemTools.copy(build.product("libPluginA.so"), into: folder)
        let same = try SystemTools.copy(build.product("libPluginA.so"), into: folder, as: "libSame.so")
        let update = try FixtureHost.run(build, ["replace", plugin.path, same.path])
        #expect(update.diagnostics.isEmpty)
        #expect(update.records.count == 3)
    }

    /// Another thread loads and unloads plugins while the main thread refreshes; the last round leaves them
    /// loaded, and the registry must end up with exactly their records.
    @Test(arguments: [FixtureBuilder.Configuration.debug, .release])
    func dlopenOnAnotherThreadDuringScans(configuration: FixtureBuilder.Configuration) throws {
        let build = try FixtureBuilder.build(FixtureHost.package, configuration, linker: .lld)
        let one = try SystemTools.cPlugin("one.c")
        let two = try SystemTools.cPlugin("two.c")
        let result = try FixtureHost.run(
            build, ["race", "200", one.path, two.path, build.product("libPluginA.so").path], as: RaceResult.self)
        let expected = (DiscoveryTests.startupRecords + Self.pluginARecords + Self.cPluginRecords(one, two))
        #expect(result.final.recordLines.sorted() == expected.sorted())
        #expect(result.final.diagnosticLines == DiscoveryTests.startupDiagnostics)
        #expect(result.final.objects.count == DiscoveryTests.annotatedObjects.count + 3)
    }
}
