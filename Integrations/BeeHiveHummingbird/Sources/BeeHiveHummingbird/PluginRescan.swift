import BeeHive
import Foundation
import Logging
import Synchronization

/// Finds plugins dropped into the host's plugin folders after it started, and loads them.
///
/// `Hive.addPluginDirectory` indexes a folder once: adding it again does nothing, so a plugin that arrives
/// later is not in the hive's index. A rescan indexes each folder again offline, with the core's trust policy,
/// and loads every annotated plugin that was not there at start or at the last rescan with
/// `Hive.loadPlugin(atPath:)`; its modules catch up, and the routes of its HTTP modules are mounted.
final class PluginRescan: Sendable {
    private let folders: [String]
    private let trust: PluginTrustPolicy
    private let logger: Logger
    /// Plugin paths per folder already known: at start (the hive indexed them) or loaded by a rescan.
    private let known = Mutex<[String: Set<String>]>([:])

    init(folders: [String], trust: PluginTrustPolicy, logger: Logger) {
        self.folders = folders
        self.trust = trust
        self.logger = logger
    }

    /// The folders of `BEEHIVE_PLUGIN_PATH`, as `HiveHost` adds them at start.
    static func folders(fromEnvironment environment: [String: String]) -> [String] {
        guard let list = environment[Hive.pluginPathVariable] else { return [] }
        let origin = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        return list.split(separator: ":").map { entry in
            for token in ["$ORIGIN", "${ORIGIN}"] where entry == token || entry.hasPrefix(token + "/") {
                return origin + entry.dropFirst(token.count)
            }
            return String(entry)
        }
    }

    /// Notes what the folders hold now, before the host indexes them: a plugin added between this and the
    /// host's own index is loaded again by the next rescan, which registers nothing new.
    func takeBaseline() {
        var baseline: [String: Set<String>] = [:]
        for folder in folders {
            guard let index = try? PluginIndex.build(folder: folder, cache: nil, trust: trust) else { continue }
            baseline[folder] = Set(index.plugins.map(\.path))
        }
        known.withLock { $0 = baseline }
    }

    /// Loads the annotated plugins new since the last look; returns their paths. Blocks on `dlopen`.
    func loadNewPlugins(into hive: Hive) -> [String] {
        var loaded: [String] = []
        for folder in folders {
            let index: PluginIndex
            do {
                index = try PluginIndex.build(folder: folder, cache: nil, trust: trust)
            } catch {
                logger.warning("plugin folder not rescanned", metadata: ["folder": "\(folder)", "error": "\(error)"])
                continue
            }
            for refusal in index.refused { logger.error("\(refusal)") }
            let fresh = known.withLock { known in
                let fresh = index.plugins.filter { $0.isAnnotated && known[folder, default: []].contains($0.path) == false }
                known[folder, default: []].formUnion(fresh.map(\.path))
                return fresh
            }
            for plugin in fresh {
                do {
                    let diagnostics = try hive.loadPlugin(atPath: plugin.path)
                    for diagnostic in diagnostics where diagnostic.isError { logger.error("\(diagnostic)") }
                    logger.info("loaded a plugin found by a rescan", metadata: ["path": "\(plugin.path)"])
                    loaded.append(plugin.path)
                } catch {
                    logger.error("a plugin found by a rescan did not load", metadata: ["path": "\(plugin.path)", "error": "\(error)"])
                }
            }
        }
        return loaded
    }
}

/// Turns the host's SIGHUP (a `reload` event for every module, which `HiveHost.serve` sends) into a rescan.
final class PluginRescanModule: Module {
    private let rescan: @Sendable () async -> Void

    /// `Module` requires it; `HiveHTTP` registers the instance made with `init(rescan:)`, never this one.
    init() {
        rescan = {}
    }

    init(rescan: @escaping @Sendable () async -> Void) {
        self.rescan = rescan
    }

    func reload(_ context: ModuleContext) throws {
        // Not in the hook: a plugin loaded from a hook registers its modules only after the hook returns.
        let rescan = rescan
        Task { await rescan() }
    }
}
