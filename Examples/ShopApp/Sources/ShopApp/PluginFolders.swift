import BeeHive
import Foundation
import ShopInterfaces

/// The plugins folders: the app's own, `shop-plugins` next to the executable (`scripts/demo` fills it with
/// libWishlist.so and libRecommendations.so), then those listed in `BEEHIVE_PLUGIN_PATH`. Their plugins are
/// indexed without being loaded, and each is loaded the first time one of its routes, services or targets is
/// used.
extension ShopRuntime {
    /// The folders in the order they are added: a declaration made in two of them goes to the first.
    var pluginFolders: [String] {
        let listed = ProcessInfo.processInfo.environment[Hive.pluginPathVariable]?
            .split(separator: ":", omittingEmptySubsequences: true).map(String.init) ?? []
        return [Self.executableDirectory.appending(path: "shop-plugins").path] + listed
    }

    /// Indexes each folder and registers what its plugins declare as deferred; no plugin is loaded. Done
    /// before the launch, as `HiveHost.start()` does for `BEEHIVE_PLUGIN_PATH` (it skips folders added here).
    func addPluginFolders() throws {
        Story.chapter("Plugins folders: every plugin known from its ELF records, none loaded")
        for (position, folder) in pluginFolders.enumerated() {
            // The app's own folder is made by scripts/demo; a build without it runs without its plugins.
            guard position > 0 || FileManager.default.fileExists(atPath: folder) else {
                Story.note("\(folder): missing (scripts/demo makes it)")
                continue
            }
            // The index the hive builds next, shown here; the second build reads the cache the first wrote.
            let index = try PluginIndex.build(folder: folder)
            Story.note("\(folder): \(index.plugins.count) plugins")
            for plugin in index.plugins {
                let declared = plugin.records.map(\.identity.description).joined(separator: ", ")
                Story.note("  \(plugin.fileName) declares \(declared) (\(plugin.isFromCache ? "from the index cache" : "read from the file"))")
            }
            for diagnostic in try hive.addPluginDirectory(folder) { Story.note("  ! \(diagnostic)") }
        }
        let loaded = hive.pluginsLoadedOnFirstUse.count
        Story.note("plugins loaded: \(loaded == 0 ? "none" : String(loaded)); each loads on first use")
    }

    /// Runs `body` and tells which plugins of the folders it loaded, and what was asked for that loaded them.
    func tellingFirstUseLoads<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        let before = hive.pluginsLoadedOnFirstUse.count
        defer {
            for load in hive.pluginsLoadedOnFirstUse.dropFirst(before) {
                Story.note("   first use of \(load.requested) loaded plugin \(URL(fileURLWithPath: load.path).lastPathComponent)")
            }
        }
        return try body()
    }

    /// Calls a target through the mediator (the plugin of a deferred target loads first) and says what it returned.
    func perform(target: String, action: String, parameters: [String: any Sendable]) {
        Story.note("\n-> perform \(target).\(action)")
        do {
            let result = try tellingFirstUseLoads { () throws(MediatorError) in
                try hive.mediator.perform(target: target, action: action, parameters: parameters)
            }
            Story.note("   returned \(result.map { "\($0)" } ?? "nothing")")
        } catch {
            Story.note("   failed: \(error)")
        }
    }
}
