import BenchSupport
import Benchmark
import BeeHive
@_spi(Benchmarks) import BeeHiveRegistry
import Foundation

/// A folder of 100 C plugins, one service and one route each (issue 13): what adding the folder adds to a
/// start with a warm index cache and with none (every plugin read offline, the cache written), against
/// loading every plugin at launch; and what the first use of a deferred service costs, against the bare
/// `dlopen` of its plugin. Every hive has a registry of its own, refreshed before the measurement: discovery of
/// the process's own objects is not the folder's cost.
let benchmarks: @Sendable () -> Void = {
    var configuration = Tolerances.configuration(maxDuration: .seconds(3), allocationsGrowWithInput: true)
    configuration.maxIterations = 500

    Benchmark("PluginFolder.warm-cache@100", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let hive = PluginFolder.freshHive()
            benchmark.startMeasurement()
            PluginFolder.add(to: hive, cache: PluginFolder.cache)
            benchmark.stopMeasurement()
        }
    } setup: {
        PluginFolder.prepare()
        PluginFolder.add(to: PluginFolder.freshHive(), cache: PluginFolder.cache)
    }

    Benchmark("PluginFolder.cold-scan@100", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let hive = PluginFolder.freshHive()
            PluginFolder.removeCache()
            benchmark.startMeasurement()
            PluginFolder.add(to: hive, cache: PluginFolder.cache)
            benchmark.stopMeasurement()
        }
    } setup: {
        PluginFolder.prepare()
    }

    Benchmark("PluginFolder.load-all@100", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let hive = PluginFolder.freshHive()
            benchmark.startMeasurement()
            let plugins = PluginFolder.paths.map { path in
                do {
                    return try Plugin.load(atPath: path)
                } catch {
                    fatalError("cannot load \(path): \(error)")
                }
            }
            let found = hive.refresh()
            benchmark.stopMeasurement()
            precondition(found.isEmpty, "\(found)")
            precondition(hive.services.canCreateService((any FirstUseService).self))
            for plugin in plugins { try? plugin.unload() }
            hive.refresh()
        }
    } setup: {
        PluginFolder.prepare()
    }

    Benchmark("PluginFolder.first-use@100", configuration: configuration) { benchmark in
        let hive = PluginFolder.freshHive()
        PluginFolder.add(to: hive, cache: PluginFolder.cache)
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let service = try hive.services.resolve((any FirstUseService).self)
            benchmark.stopMeasurement()
            blackHole(service)
            // Deferred again once unloaded: the next iteration loads it anew.
            try hive.unloadPlugin(atPath: PluginFolder.paths[0])
        }
    } setup: {
        PluginFolder.prepare()
        PluginFolder.add(to: PluginFolder.freshHive(), cache: PluginFolder.cache)
    }

    Benchmark("PluginFolder.dlopen-one@100", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let plugin = try Plugin.load(atPath: PluginFolder.paths[0])
            benchmark.stopMeasurement()
            try plugin.unload()
        }
    } setup: {
        PluginFolder.prepare()
    }
}

/// The service of the folder's first plugin; the other plugins name types this process does not have, which
/// costs nothing until they are used.
protocol FirstUseService: AnyObject {}

final class FirstUseServiceImpl: FirstUseService, SimpleServiceImplementation {
    init() {}
}

/// The plugin folder: built with clang into `Benchmarks/.build/bench-fixtures` (see `Fixtures`), copied into a
/// folder of this process only readable by others (the strict trust policy refuses anything looser), with
/// an index cache folder beside it.
enum PluginFolder {
    static let count = 100
    nonisolated(unsafe) private(set) static var root = ""
    nonisolated(unsafe) private(set) static var paths: [String] = []
    static var folder: String { root + "/plugins" }
    static var cache: PluginIndexCache { PluginIndexCache(directory: root + "/cache") }

    static func prepare() {
        guard paths.isEmpty else { return }
        let built = Fixtures.pluginLibraries(count: count) { index in
            index == 0
                ? "BeeHiveService(PluginFolderBenchmarks.FirstUseService, PluginFolderBenchmarks.FirstUseServiceImpl)"
                : "BeeHiveService(Bench.PluginService\(index), Bench.PluginServiceImpl\(index))"
        }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("beehive-plugin-folder-\(getpid())").path
        try? FileManager.default.removeItem(atPath: root)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(root, 0o755)
            chmod(folder, 0o755)
            for (index, library) in built.enumerated() {
                let path = folder + String(format: "/libplugin%03d.so", index)
                try FileManager.default.copyItem(atPath: library, toPath: path)
                chmod(path, 0o644)
                paths.append(path)
            }
        } catch {
            fatalError("cannot make the plugin folder \(root): \(error)")
        }
        atexit { try? FileManager.default.removeItem(atPath: PluginFolder.root) }
    }

    static func freshHive() -> Hive {
        let hive = Hive(registry: AnnotationRegistry(source: LoadedObjectsSource()))
        hive.refresh()
        return hive
    }

    /// Adds the folder; stops the benchmark if anything about it is reported.
    static func add(to hive: Hive, cache: PluginIndexCache) {
        do {
            let found = try hive.addPluginDirectory(folder, cache: cache)
            precondition(found.isEmpty, "\(found)")
        } catch {
            fatalError("cannot add \(folder): \(error)")
        }
    }

    static func removeCache() {
        unlink(cache.file(forFolder: folder))
    }
}
