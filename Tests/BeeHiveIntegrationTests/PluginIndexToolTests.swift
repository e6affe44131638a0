import Foundation
import Testing

/// `beehive index` and `beehive inspect DIR` on a folder of generated C plugins, in child processes: a warm
/// cache opens no plugin (strace), and processes racing to write the cache all leave a valid one.
@Suite(.timeLimit(.minutes(10)))
struct PluginIndexToolTests {
    /// A folder of `count` C plugins, each with its own service, route and target, and a cache folder.
    static func pluginFolder(count: Int) throws -> (root: URL, plugins: URL, cache: URL) {
        let root = FileManager.default.temporaryDirectory.appending(path: "beehive-plugin-folder-\(UUID().uuidString)")
        let plugins = root.appending(path: "plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        for index in 0..<count {
            let source = root.appending(path: "plugin\(index).c")
            try """
                #include <beehive.h>
                BeeHiveService(Plugins.Service\(index), Plugins.Service\(index)Impl)
                BeeHiveRoute("/plugin\(index)/:id", Plugins.Handler\(index))
                BeeHiveTarget(target\(index), Plugins.Target\(index))
                """.write(to: source, atomically: false, encoding: .utf8)
            let output = try FixtureBuilder.run(
                SystemTools.require("clang"),
                ["-shared", "-fPIC", "-nostdlib", "-Wl,--build-id", "-I",
                 FixtureBuilder.repositoryRoot.appending(path: "CSectionShim/include").path,
                 "-o", plugins.appending(path: "libplugin\(index).so").path, source.path])
            try #require(output.status == 0, "\(output.output)")
        }
        return (root, plugins, root.appending(path: "cache"))
    }

    @Test(.enabled(if: SystemTools.find("strace") != nil, "needs strace"))
    func warmCacheOpensNoPluginFile() throws {
        let folder = try Self.pluginFolder(count: 3)
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let beehive = try InspectionToolTests.beehive()
        let arguments = ["index", folder.plugins.path, "--cache-dir", folder.cache.path]
        let cold = try FixtureBuilder.run(
            SystemTools.require("strace"), ["-f", "-e", "trace=openat,open", beehive.path] + arguments)
        #expect(cold.status == 0, "\(cold.output)")
        #expect(cold.standardError.contains("libplugin1.so"), "the cold index reads each plugin")
        let warm = try FixtureBuilder.run(
            SystemTools.require("strace"), ["-f", "-e", "trace=openat,open", beehive.path] + arguments)
        #expect(warm.status == 0, "\(warm.output)")
        let opened = warm.standardError.split(separator: "\n").filter { $0.contains("open") && $0.contains(".so\"") && $0.contains(folder.plugins.path) }
        #expect(opened.isEmpty, "\(opened)")
        #expect(warm.standardError.contains("plugins-"), "the warm index reads the cache file")
        #expect(warm.standardOutput.contains("libplugin2.so  cache"))
    }

    @Test func processesRacingToWriteTheCacheLeaveAValidOne() throws {
        let folder = try Self.pluginFolder(count: 4)
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let beehive = try InspectionToolTests.beehive()
        let processes = (0..<4).map { _ in
            let process = Process()
            process.executableURL = beehive
            process.arguments = ["index", folder.plugins.path, "--cache-dir", folder.cache.path]
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let warm = try FixtureBuilder.run(beehive, ["index", folder.plugins.path, "--cache-dir", folder.cache.path, "--json"])
        #expect(warm.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(warm.standardOutput.utf8)) as? [[String: Any]]
        let plugins = try #require(report?.first?["plugins"] as? [[String: Any]])
        #expect(plugins.count == 4)
        #expect(plugins.allSatisfy { $0["fromCache"] as? Bool == true })
        #expect(report?.first?["cache"] as? [String] == [])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.cache.path)
        #expect(leftovers.count == 1, "\(leftovers)")
    }

    /// Each plugin is listed with when a host loads it: at launch for a launch module, else on first use.
    @Test func indexTellsWhenEachPluginLoads() throws {
        let folder = try Self.pluginFolder(count: 1)
        defer { try? FileManager.default.removeItem(at: folder.root) }
        for (name, record) in [("libeager.so", "BeeHiveMod(Plugins.Eager)"), ("liblazy.so", "BeeHiveModuleOnDemand(Plugins.Lazy, normal, 0, sync)")] {
            let source = folder.root.appending(path: "\(name).c")
            try "#include <beehive.h>\n\(record)\n".write(to: source, atomically: false, encoding: .utf8)
            let output = try FixtureBuilder.run(
                SystemTools.require("clang"),
                ["-shared", "-fPIC", "-nostdlib", "-I", FixtureBuilder.repositoryRoot.appending(path: "CSectionShim/include").path,
                 "-o", folder.plugins.appending(path: name).path, source.path])
            try #require(output.status == 0, "\(output.output)")
        }
        let beehive = try InspectionToolTests.beehive()
        let json = try FixtureBuilder.run(beehive, ["index", folder.plugins.path, "--no-cache", "--json"])
        #expect(json.status == 0, "\(json.output)")
        let report = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        let plugins = try #require(report?.first?["plugins"] as? [[String: Any]])
        let loads = Dictionary(uniqueKeysWithValues: plugins.compactMap { plugin -> (String, String)? in
            guard let file = plugin["file"] as? String, let loads = plugin["loads"] as? String else { return nil }
            return ((file as NSString).lastPathComponent, loads)
        })
        #expect(loads == ["libeager.so": "launch", "liblazy.so": "first-use", "libplugin0.so": "first-use"])
        let table = try FixtureBuilder.run(beehive, ["index", folder.plugins.path, "--no-cache"])
        #expect(table.standardOutput.contains("liblazy.so     read    first-use  beehive:1|module|Plugins.Lazy"), "\(table.standardOutput)")
    }

    @Test func inspectReadsAFolder() throws {
        let folder = try Self.pluginFolder(count: 2)
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let output = try FixtureBuilder.run(try InspectionToolTests.beehive(), ["inspect", folder.plugins.path])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("libplugin0.so") && output.standardOutput.contains("libplugin1.so"))
        #expect(output.standardOutput.contains("beehive:1|target|target1|Plugins.Target1"))
    }

    @Test func refusedFolderFailsWithItsName() throws {
        let folder = try Self.pluginFolder(count: 1)
        defer { try? FileManager.default.removeItem(at: folder.root) }
        chmod(folder.plugins.path, 0o777)
        let output = try FixtureBuilder.run(try InspectionToolTests.beehive(), ["index", folder.plugins.path, "--no-cache"])
        #expect(output.status != 0)
        #expect(output.standardOutput.contains("refusing plugin folder \(folder.plugins.path)"))
    }
}
