import BeeHive
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Contracts
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The fixture host's commands. Each prints one JSON document on standard output for the tests to compare:
///
///     host [dump]                      the registry after startup
///     host plugins PATH...             load the plugins, refresh, unload them, refresh
///     host replace PATH REPLACEMENT    load PATH, rename REPLACEMENT over it, refresh
///     host overwrite PATH REPLACEMENT OTHER  load PATH, refresh, copy REPLACEMENT into PATH in place, load OTHER, refresh
///     host truncate PATH OTHER         load PATH, refresh, truncate PATH to 0 bytes, load OTHER, refresh
///     host readers PATH...             two independent sources polled around loading and unloading the plugins
///     host manual                      a fresh process's first AnnotationRegistry.shared.refresh(), as an update
///     host managers                    a service manager and a router fed one AnnotationRegistry.shared.snapshot()
///                                      each, without Hive, as the docs teach
///     host race ROUNDS PATH...         load and unload the plugins on another thread while refreshing
///     host resolve                     resolve every module record to a FixtureModule class
///     host load THREADS ITERATIONS PATH...  resolve, route and trigger events on many threads through
///                                      Hive.shared while the plugins are loaded and unloaded
public enum HostProgram {
    public static func main(_ arguments: [String]) {
        let command = arguments.count > 1 ? arguments[1] : "dump"
        let operands = Array(arguments.dropFirst(2))
        do {
            switch command {
            case "dump": try emit(Report(registry: refreshed()))
            case "plugins": try emit(plugins(operands))
            case "replace" where operands.count == 2: try emit(replace(operands[0], with: operands[1]))
            case "race" where operands.count >= 2: try emit(race(rounds: Int(operands[0]) ?? 1, paths: Array(operands.dropFirst())))
            case "overwrite" where operands.count == 3:
                try emit(overwrite(operands[0], with: operands[1], thenLoad: operands[2]))
                // The overwritten library's pages changed under the loader; leave without running its destructors.
                _exit(0)
            case "truncate" where operands.count == 2:
                try emit(truncate(operands[0], thenLoad: operands[1]))
                // Touching the truncated library's pages at exit (its destructors) would fault.
                _exit(0)
            case "readers" where !operands.isEmpty: try emit(readers(operands))
            case "manual": try emit(Report(update: AnnotationRegistry.shared.refresh()))
            case "managers": try emit(managers())
            case "resolve": try emit(resolve())
            case "load" where operands.count >= 3:
                try emit(LoadTest.run(threads: Int(operands[0]) ?? 64, iterations: Int(operands[1]) ?? 100, pluginPaths: Array(operands.dropFirst(2))))
            default:
                FileHandle.standardError.write(Data("usage: host [dump|plugins|replace|race|resolve|load] ...\n".utf8))
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("host: \(error)\n".utf8))
            exit(1)
        }
    }

    struct ManagerReport: Encodable {
        /// "service implementation" per registration.
        let services: [String]
        /// "pattern handler" per route.
        let routes: [String]
    }

    /// The manual path of docs/services.md and docs/routing.md: two managers, each given the shared snapshot.
    private static func managers() -> ManagerReport {
        let services = ServiceManager()
        services.apply(AnnotationRegistry.shared.snapshot())
        let router = Router()
        router.apply(AnnotationRegistry.shared.snapshot())
        return ManagerReport(
            services: services.registrations.map { "\($0.service) \($0.implementation)" },
            routes: router.allRoutes.map { "\($0.pattern.text) \($0.handler)" }.sorted())
    }

    private static func refreshed() -> AnnotationRegistry {
        AnnotationRegistry.shared.refresh()
        return AnnotationRegistry.shared
    }

    private static func emit(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(try encoder.encode(value))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    struct PluginPhases: Encodable {
        let before: Report
        let loaded: Report
        /// Per plugin, in argument order: whether it stays mapped after unloading (it has Swift code).
        let staysLoaded: [Bool]
        let unloaded: Report
        let after: Report
    }

    private static func plugins(_ paths: [String]) throws -> PluginPhases {
        let registry = refreshed()
        let before = Report(registry: registry)
        let plugins = try paths.map { path throws(PluginError) in try Plugin.load(atPath: path) }
        let loaded = Report(update: registry.refresh())
        for plugin in plugins { try plugin.unload() }
        let unloaded = Report(update: registry.refresh(), removed: true)
        return PluginPhases(
            before: before, loaded: loaded, staysLoaded: plugins.map(\.staysLoaded), unloaded: unloaded,
            after: Report(registry: registry))
    }

    private static func replace(_ path: String, with replacement: String) throws -> Report {
        let registry = refreshed()
        _ = try Plugin.load(atPath: path)
        // rename(2) swaps the directory entry; the loaded mapping keeps the old inode.
        guard rename(replacement, path) == 0 else {
            throw HostError(description: "cannot rename \(replacement) to \(path): \(String(cString: strerror(errno)))")
        }
        return Report(update: registry.refresh())
    }

    /// What a rescan after a loaded library's file changed in place reports: only the other library it loaded.
    private static func overwrite(_ path: String, with replacement: String, thenLoad other: String) throws -> Report {
        let registry = refreshed()
        _ = try Plugin.load(atPath: path)
        registry.refresh()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: replacement))
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw HostError(description: "cannot open \(path)") }
        try handle.write(contentsOf: bytes)
        try handle.close()
        _ = try Plugin.load(atPath: other)
        return Report(update: registry.refresh())
    }

    private static func truncate(_ path: String, thenLoad other: String) throws -> Report {
        let registry = refreshed()
        _ = try Plugin.load(atPath: path)
        registry.refresh()
        guard Glibc.truncate(path, 0) == 0 else {
            throw HostError(description: "cannot truncate \(path): \(String(cString: strerror(errno)))")
        }
        _ = try Plugin.load(atPath: other)
        return Report(update: registry.refresh())
    }

    struct ReaderPhases: Encodable {
        /// Per reader: what it saw after the plugins were loaded, then after they were unloaded.
        let first: [Report]
        let second: [Report]
    }

    /// Two registries with their own sources, one polled before the other, must each see every change.
    private static func readers(_ paths: [String]) throws -> ReaderPhases {
        let first = AnnotationRegistry(source: LoadedObjectsSource())
        let second = AnnotationRegistry(source: LoadedObjectsSource())
        first.refresh()
        second.refresh()
        let plugins = try paths.map { path throws(PluginError) in try Plugin.load(atPath: path) }
        let firstLoaded = Report(update: first.refresh())
        let secondLoaded = Report(update: second.refresh())
        for plugin in plugins { try plugin.unload() }
        let firstUnloaded = Report(update: first.refresh(), removed: true)
        let secondUnloaded = Report(update: second.refresh(), removed: true)
        return ReaderPhases(first: [firstLoaded, firstUnloaded], second: [secondLoaded, secondUnloaded])
    }

    struct RaceResult: Encodable {
        let rounds: Int
        /// Refreshes during the race that saw objects come or go; varies from run to run.
        let refreshesWithChanges: Int
        let final: Report
    }

    /// Another thread loads and unloads the plugins while this one refreshes; the last round leaves them loaded.
    private static func race(rounds: Int, paths: [String]) throws -> RaceResult {
        let registry = refreshed()
        let refreshing = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
        let failure = Mutex<String?>(nil)
        let loader = Thread {
            defer { finished.store(true, ordering: .releasing) }
            // Start once the main thread is refreshing, so that the two overlap.
            while !refreshing.load(ordering: .acquiring) {}
            do {
                for round in 0..<rounds {
                    let plugins = try paths.map { path throws(PluginError) in try Plugin.load(atPath: path) }
                    if round < rounds - 1 {
                        for plugin in plugins { try plugin.unload() }
                    }
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        loader.start()
        var refreshesWithChanges = 0
        repeat {
            let update = registry.refresh()
            refreshing.store(true, ordering: .releasing)
            if !update.loadedObjects.isEmpty || !update.unloadedObjects.isEmpty { refreshesWithChanges += 1 }
        } while !finished.load(ordering: .acquiring)
        if let message = failure.withLock({ $0 }) { throw HostError(description: message) }
        registry.refresh()
        return RaceResult(rounds: rounds, refreshesWithChanges: refreshesWithChanges, final: Report(registry: registry))
    }

    struct Resolution: Encodable {
        let type: String
        let resolved: Bool
        let diagnostic: String?
    }

    private static func resolve() throws -> [Resolution] {
        refreshed().records.compactMap { record -> Resolution? in
            guard case .module(let module) = record.payload else { return nil }
            switch TypeResolver.resolve(module.typeName, as: FixtureModule.Type.self, origin: record.origin) {
            case .success(let type):
                return Resolution(type: module.typeName, resolved: type.init().name.isEmpty == false, diagnostic: nil)
            case .failure(let diagnostic):
                return Resolution(type: module.typeName, resolved: false, diagnostic: diagnostic.kind.name)
            }
        }
    }
}

struct HostError: Error, CustomStringConvertible {
    let description: String
}
