import BeeHiveLocks
import BeeHiveRegistry
import BeeHiveRouter
import BeeHiveServices
import Foundation

/// Plugin folders: every plugin of a folder is known from its index without being loaded, and is loaded the
/// first time something it declares is asked for.
extension Hive {
    /// The environment variable listing plugin folders, separated by colons, that `HiveHost` adds at launch.
    public static let pluginPathVariable = "BEEHIVE_PLUGIN_PATH"

    /// Indexes the shared objects of `path` offline (no `dlopen`, none of their code runs) and registers what
    /// they declare as deferred: the first lookup of one of their services (`resolve`, `createService`), the
    /// first URL that no loaded route handles but one of their routes matches, or the first call to one of
    /// their targets loads that plugin through `loadPlugin(atPath:)`, exactly once however many threads ask,
    /// then answers. `canCreateService`, `canRoute` and `canPerform` answer from the index without loading.
    ///
    /// A plugin that carries modules is loaded now, so that its modules start with the others: add folders
    /// before the host starts. One whose modules are all on-demand (`ondemand=1`, `@BeeHiveModule(onDemand:)`)
    /// is not: it loads on first use like the rest, and its modules then catch up on setUp, init and splash.
    /// A plugin unloaded through `unloadPlugin(atPath:)` becomes deferred again: a later first use loads it
    /// anew. Conflicts between plugins (or with linked objects) and module dependencies that nothing provides
    /// are reported before anything is loaded. Adding a folder again does nothing.
    ///
    /// A first use from inside a module hook that the hive runs (a module catching up after a plugin load)
    /// cannot load a plugin, since its records would arrive only after the hook: it fails with
    /// `DeferredPluginError.Reason.askedInsideHook`, and loads nothing.
    ///
    /// - Parameters:
    ///   - path: the plugin folder; its subfolders are not entered. A leading `$ORIGIN` stands for the running
    ///     executable's folder, as in a RUNPATH (`"$ORIGIN/plugins"`).
    ///   - cache: where the index is cached between runs; nil reads every plugin each time.
    ///   - trust: which owners and modes the folder, its plugins and the cache may have.
    /// - Returns: What is wrong with the folder's files, its cache and its declarations, and modules' plugins
    ///   that could not load; they are in `diagnostics` as well.
    /// - Throws: `HiveError.pluginFolder` when the folder is missing, cannot be read or is not trusted.
    @discardableResult
    public func addPluginDirectory(
        _ path: String, cache: PluginIndexCache? = .standard(), trust: PluginTrustPolicy = .strict
    ) throws(HiveError) -> [HiveDiagnostic] {
        let path = ExecutableOrigin.resolve(path)
        let index: PluginIndex
        do {
            index = try PluginIndex.build(folder: path, cache: cache, trust: trust)
        } catch {
            throw .pluginFolder(error)
        }
        let earlier = pluginDirectories.folders.map(\.index)
        guard !earlier.contains(where: { $0.folder == index.folder }) else { return [] }
        let plugins = DeferredPlugins([index], trust: trust)
        guard pluginDirectories.add(.init(index: index, plugins: plugins)) else { return [] }
        pluginLifecycle.addRoutes(of: index, configuration: router.configuration)
        installDeferredLookups()
        LibrarySearch.prepare()
        registry.refresh()
        let linked = registry.records
        var found = index.problems.map(HiveDiagnostic.registry) + index.refused.map(HiveDiagnostic.pluginRefused)
            + index.cacheDiagnostics.map(HiveDiagnostic.pluginCache)
        found += index.conflicts(with: earlier.flatMap { $0.plugins.flatMap(\.records) } + linked).map(HiveDiagnostic.pluginConflict)
        found += Self.missingDependencies(of: index, among: earlier, linked: linked, registered: modules.modules.map(\.name))
        record(found)
        logger.info("added plugin folder", metadata: ["folder": "\(index.folder)", "plugins": "\(index.plugins.count)"])
        // Modules take part in the launch order, so their plugins load now rather than on first use, unless
        // every module of the plugin is on-demand.
        for plugin in index.pluginsWithModules where plugin.loadsAtLaunch {
            guard let module = plugin.records.first(where: { $0.kind == .module }) else { continue }
            do throws(DeferredPluginError) {
                _ = try load(plugin, of: plugins, for: module.identity, recordingFirstUse: false)
            } catch {
                let failure = HiveDiagnostic.pluginUnavailable(error)
                record([failure])
                found.append(failure)
            }
        }
        return found
    }

    /// Adds each folder listed in `BEEHIVE_PLUGIN_PATH` (colon-separated; empty entries are skipped; `$ORIGIN`
    /// as in `addPluginDirectory(_:cache:trust:)`), as `addPluginDirectory(_:cache:trust:)` does. `HiveHost`
    /// calls it at launch, before the modules start.
    ///
    /// A folder that does not exist is skipped with a warning (`HiveDiagnostic.pluginFolderMissing`), as the
    /// loader skips a missing `LD_LIBRARY_PATH` entry. A folder that cannot be used (not trusted, not a folder,
    /// unreadable) is skipped with `HiveDiagnostic.pluginRefused`, and the folders after it are still added.
    /// Both are in `diagnostics` as well.
    @discardableResult
    public func addPluginDirectories(
        fromEnvironment environment: [String: String] = ProcessInfo.processInfo.environment,
        cache: PluginIndexCache? = .standard(), trust: PluginTrustPolicy = .strict
    ) -> [HiveDiagnostic] {
        guard let list = environment[Self.pluginPathVariable] else { return [] }
        var found: [HiveDiagnostic] = []
        for folder in list.split(separator: ":", omittingEmptySubsequences: true) {
            do throws(HiveError) {
                found += try addPluginDirectory(String(folder), cache: cache, trust: trust)
            } catch {
                guard case .pluginFolder(let refusal) = error else { continue }
                let problem: HiveDiagnostic = refusal.reason == .missing ? .pluginFolderMissing(path: refusal.path) : .pluginRefused(refusal)
                record([problem])
                found.append(problem)
            }
        }
        return found
    }

    /// The plugins of this hive's folders that a first use loaded, in the order they loaded, each with what was
    /// asked for (a plugin unloaded and used again is listed again), the newest 1,000; plugins loaded when
    /// their folder was added (those carrying launch modules) are not among them.
    public var pluginsLoadedOnFirstUse: [PluginFirstUse] { pluginLifecycle.firstUses }

    /// Lets each manager ask the plugin folders on a miss; done once.
    private func installDeferredLookups() {
        install(in: services.deferred) { folders, key in folders.service(key) }
        install(in: router.deferred) { [pluginLifecycle] _, url in pluginLifecycle.route(matching: url) }
        install(in: mediator.deferred) { folders, name in folders.target(named: name) }
    }

    /// Installs, unless one is there, a lookup that answers from the declaration `declaration` finds in the
    /// plugin folders and loads the plugin that declares it.
    private func install<Key: Sendable>(
        in slot: Locked<DeferredLookup<Key>?>,
        _ declaration: @escaping @Sendable (PluginDirectories, Key) -> RecordIdentity?
    ) {
        slot.withLock { lookup in
            guard lookup == nil else { return }
            lookup = DeferredLookup(
                declares: { [weak self] key in self.map { declaration($0.pluginDirectories, key) != nil } ?? false },
                provide: { [weak self] key throws(DeferredPluginError) in
                    guard let self else { return false }
                    return try self.provideDeferred(declaration(self.pluginDirectories, key))
                })
        }
    }

    /// Loads the plugin declaring `identity` (once), which registers its records; false when no plugin of
    /// the folders declares it.
    private func provideDeferred(_ identity: RecordIdentity?) throws(DeferredPluginError) -> Bool {
        guard let identity, let (folder, plugin) = pluginDirectories.owner(of: identity) else { return false }
        if try load(plugin, of: folder.plugins, for: identity, recordingFirstUse: true) {
            logger.info("loaded plugin on first use", metadata: ["path": "\(plugin.path)", "for": "\(identity)"])
        }
        return true
    }

    /// Loads a plugin of a folder through the lifecycle, which makes it one load however many threads ask.
    private func load(
        _ plugin: IndexedPlugin, of plugins: DeferredPlugins, for identity: RecordIdentity, recordingFirstUse: Bool
    ) throws(DeferredPluginError) -> Bool {
        try pluginLifecycle.load(
            plugin, for: identity, recordingFirstUse: recordingFirstUse,
            // From a hook the hive runs, the plugin's records would be registered only after the hook returns.
            insideHook: { deliveries.isDeliveringOnCurrentThread },
            open: { () throws(DeferredPluginError) -> PluginLifecycle.Load in
                try plugins.open(plugin, for: identity) { [self] path throws(PluginError) -> PluginLifecycle.Load in
                    do throws(HiveError) {
                        return try load(atPath: path).load
                    } catch .plugin(let error) {
                        throw error
                    } catch {
                        throw PluginError(path: path, operation: .load, kind: .loaderFailed, reason: error.description)
                    }
                }
            })
    }

    /// Dependencies of the folder's modules that no indexed plugin, linked object or registered module provides.
    private static func missingDependencies(
        of index: PluginIndex, among earlier: [PluginIndex], linked: [AnnotationRecord], registered: [String]
    ) -> [HiveDiagnostic] {
        let modulePlugins = index.pluginsWithModules
        guard !modulePlugins.isEmpty else { return [] }
        var provided = Set(registered)
        // Only module records make strings: this runs at every folder add.
        for record in ([index] + earlier).lazy.flatMap({ $0.pluginsWithModules.lazy.flatMap(\.records) }) + linked where record.kind == .module {
            if case .module(let module) = record.payload { provided.insert(module.typeName) }
        }
        var found: [HiveDiagnostic] = []
        for plugin in modulePlugins {
            for record in plugin.records where record.kind == .module {
                guard case .module(let module) = record.payload else { continue }
                for dependency in module.dependencies where !provided.contains(dependency) {
                    found.append(.missingModuleDependency(module: module.typeName, dependency: dependency, plugin: plugin.path))
                }
            }
        }
        return found
    }
}
