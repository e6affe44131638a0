import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHiveRouter

/// The one owner of what a hive has loaded: every plugin it loaded with its count of loads, the plugins that
/// stay mapped after their last unload, the phase of each plugin of its folders, and the route placeholders that
/// send a URL of an unloaded plugin to its load.
///
/// Every transition happens here, in one critical section each, and each one that the registry must mirror
/// does so in the same section: the first load of a plugin takes in its objects and brings back retired ones,
/// the last unload retires them, so the registry sees loads and unloads in the order they were counted. The
/// work that runs user code (the loader running the plugin's constructors, the deliveries running module hooks)
/// runs outside the lock, between transitions. `Model/plugin-lifecycle.pml` is this protocol as a model, and
/// docs/internals/plugin-lifecycle.md states the invariants it checks.
///
/// The phases of a plugin of a folder: none (indexed: the next first use loads it), loading (a first use runs
/// the loader and delivers the records; other first uses wait), loaded, unloading (its last unload is retiring
/// its records; first uses wait, then load it anew) and failed (remembered: every later first use gets the
/// error).
final class PluginLifecycle: Sendable {
    enum Phase: Sendable {
        case loading
        case loaded(Load)
        case unloading(Load)
        case failed(DeferredPluginError)
    }

    /// One loaded life of a plugin: the loader's identity for the object, which the loader gives again to
    /// another library once this one is unmapped, and the number of the life, which is never given again.
    struct Load: Sendable, Hashable {
        let identity: UInt
        let generation: UInt64
    }

    /// Where a thread can be held by a test (`pause`), so that each interleaving of loads, unloads and
    /// refreshes can be run in a chosen order.
    enum PausePoint: Sendable, Hashable {
        /// A first use marked the plugin loading, and is about to open it.
        case firstUseOpening
        /// A first use opened the plugin and delivered its records, and is about to mark it loaded.
        case firstUseOpened
        /// A first use found a load or unload under way, and is about to wait for it (the lock is held).
        case firstUseWaiting
        /// `loadPlugin` counted a load, and is about to deliver its records.
        case loadCounted
        /// `unloadPlugin` counted the last unload and retired the records, and is about to deliver.
        case unloadCounted
        /// `unloadPlugin` delivered the retirement and unloaded the file, and is about to defer the plugin again.
        case unloadDelivered
    }

    /// What counting a load found.
    enum LoadCount {
        /// The plugin's first load: its records are to be delivered.
        case first(Load)
        /// Loaded already; one more load is counted.
        case again(Load)
        /// Unloaded earlier but still mapped, and its file changed since: nothing was counted.
        case changedSinceRetired
    }

    /// A plugin whose last unload was counted.
    struct Leaving: Sendable {
        let plugin: Plugin
        /// The plugin of a folder it is, when the folder loaded it.
        let folderPath: String?
    }

    private struct Loaded {
        let plugin: Plugin
        let load: Load
        var count: Int
        /// Whether the first load's delivery has handed the records to the managers: a later load of the same
        /// life waits for it, so that what it loaded is reachable when it returns.
        var isDelivered = false
    }

    private struct State {
        /// Loaded plugins by their loader identity, with how many loads are outstanding.
        var loaded: [UInt: Loaded] = [:]
        /// Plugins that stay mapped after their last unload, with their file as it was when first loaded.
        var retired: [UInt: PluginFileStamp] = [:]
        /// The phases of the plugins of folders, by the path their index gives; none is indexed.
        var phases: [String: Phase] = [:]
        /// Bounded: a server that unloads and uses plugins again for months must not grow with it.
        var firstUses = BoundedHistory<PluginFirstUse>(limit: PluginLifecycle.firstUseLimit)
        var placeholders = RoutePlaceholders()
        var lastGeneration: UInt64 = 0

        func isCurrent(_ load: Load) -> Bool { loaded[load.identity]?.load == load }
    }

    private let state = LockedCondition(State())
    private let registry: AnnotationRegistry
    /// What the folders declare, to give each placeholder to the plugin that declares its route first.
    private let directories: PluginDirectories
    /// Held by tests only; called at each `PausePoint` with the plugin's path.
    let pause = Locked<(@Sendable (PausePoint, String) -> Void)?>(nil)

    init(registry: AnnotationRegistry, directories: PluginDirectories) {
        self.registry = registry
        self.directories = directories
    }

    func paused(at point: PausePoint, _ path: String) {
        guard let hold = pause.withLock({ $0 }) else { return }
        hold(point, path)
    }

    /// How many first uses `firstUses` keeps, the newest.
    static let firstUseLimit = 1000

    var firstUses: [PluginFirstUse] { state.withLock { state, _ in state.firstUses.entries } }

    // MARK: Loads and unloads of any plugin

    /// Counts a load of `plugin`, just opened. The first load takes in the plugin's objects and brings back
    /// those retired by an earlier unload in the same step, so that an unload counted before or after it
    /// retires them after, never between.
    func countLoad(of plugin: Plugin) -> LoadCount {
        state.withLock { state, _ in
            if var loaded = state.loaded[plugin.identity] {
                loaded.count += 1
                state.loaded[plugin.identity] = loaded
                return .again(loaded.load)
            }
            // Still mapped from before: bringing its objects back would run the old build, not the file's.
            if let earlier = state.retired[plugin.identity], earlier != plugin.file { return .changedSinceRetired }
            state.retired[plugin.identity] = nil
            state.lastGeneration += 1
            let load = Load(identity: plugin.identity, generation: state.lastGeneration)
            state.loaded[plugin.identity] = Loaded(plugin: plugin, load: load, count: 1)
            registry.refresh()
            registry.reinstateObjects(atPath: plugin.objectPath)
            return .first(load)
        }
    }

    /// Marks the first load of a life delivered, and wakes the loads waiting for it.
    func delivered(_ load: Load) {
        state.withLockBroadcasting { state in
            if state.isCurrent(load) { state.loaded[load.identity]?.isDelivered = true }
        }
    }

    /// Waits until the first load of `load`'s life has delivered its records, or the life ended. Not from a
    /// hook the hive runs (`insideHook`): that delivery may be queued behind the hook.
    func waitUntilDelivered(_ load: Load, insideHook: Bool) {
        guard !insideHook else { return }
        state.withLock { state, wait in
            while state.isCurrent(load), state.loaded[load.identity]?.isDelivered == false { wait() }
        }
    }

    /// Counts one unload of the plugin the loader knows as `identity`; at the last, retires its objects in the
    /// same step and marks its folder's plugin unloading, and returns it.
    func countUnload(of identity: UInt, path: String) throws(HiveError) -> Leaving? {
        try state.withLock { state, _ throws(HiveError) -> Leaving? in
            guard var loaded = state.loaded[identity] else { throw .pluginNotLoaded(path: path) }
            guard loaded.count == 1 else {
                loaded.count -= 1
                state.loaded[identity] = loaded
                return nil
            }
            state.loaded[identity] = nil
            if loaded.plugin.staysLoaded { state.retired[identity] = loaded.plugin.file }
            registry.retireObjects(atPath: loaded.plugin.objectPath)
            let folderPath = state.phases.first { _, phase in
                if case .loaded(loaded.load) = phase { true } else { false }
            }?.key
            if let folderPath { state.phases[folderPath] = .unloading(loaded.load) }
            return Leaving(plugin: loaded.plugin, folderPath: folderPath)
        }
    }

    /// After the delivery that retired a plugin: its folder's plugin is deferred again (its placeholders come
    /// back, and the next first use loads it anew), unless it was loaded again meanwhile. Wakes first uses
    /// waiting for the unload. True when it was deferred again.
    func finishUnload(_ leaving: Leaving) -> Bool {
        guard let path = leaving.folderPath else { return false }
        return state.withLockBroadcasting { state in
            guard case .unloading(let load) = state.phases[path] else { return false }
            // Loaded again meanwhile (by `loadPlugin`, while still mapped): the same life goes on.
            if let again = state.loaded[load.identity], again.plugin.objectPath == leaving.plugin.objectPath {
                state.phases[path] = .loaded(again.load)
                return false
            }
            state.phases[path] = nil
            if let plugin = directories.plugin(atPath: path) {
                state.placeholders.deferAgain(plugin, owner: { directories.owner(of: $0)?.plugin.path })
            }
            return true
        }
    }

    // MARK: First uses of the plugins of folders

    /// Loads `plugin` of `folder` for a use of `identity`, unless it is loaded: threads asking together wait
    /// for one load, and a load or unload under way is waited for. Returns whether this call loaded it.
    /// `load` opens the file (checked against its index entry) and returns the loaded object's identity once
    /// its records are delivered; `insideHook` tells whether the caller is a hook that the hive runs, which
    /// cannot wait or load (its records would arrive only after the hook).
    func load(
        _ plugin: IndexedPlugin, for identity: RecordIdentity, recordingFirstUse: Bool,
        insideHook: () -> Bool, open: () throws(DeferredPluginError) -> Load
    ) throws(DeferredPluginError) -> Bool {
        let path = plugin.path
        let mine = try state.withLock { state, wait throws(DeferredPluginError) -> Bool in
            while true {
                switch state.phases[path] {
                case .loaded: return false
                case .failed(let error): throw DeferredPluginError(path: path, requested: identity, reason: error.reason)
                case nil:
                    guard !insideHook() else { throw DeferredPluginError(path: path, requested: identity, reason: .askedInsideHook) }
                    state.phases[path] = .loading
                    return true
                case .loading, .unloading:
                    guard !insideHook() else { throw DeferredPluginError(path: path, requested: identity, reason: .askedInsideHook) }
                    paused(at: .firstUseWaiting, path)
                    wait()
                }
            }
        }
        guard mine else { return false }
        paused(at: .firstUseOpening, path)
        let result = Result { () throws(DeferredPluginError) in try open() }
        paused(at: .firstUseOpened, path)
        let loadedNow = state.withLockBroadcasting { state in
            if recordingFirstUse, case .success = result {
                state.firstUses.append(PluginFirstUse(path: path, requested: identity))
            }
            switch result {
            case .success(let load):
                // Unloaded on another thread since it loaded: deferred again, with its placeholders where they are.
                guard state.isCurrent(load) else {
                    state.phases[path] = nil
                    return false
                }
                state.phases[path] = .loaded(load)
                state.placeholders.answer(plugin)
                return true
            case .failure(let error):
                state.phases[path] = .failed(error)
                return false
            }
        }
        _ = try result.get()
        return loadedNow
    }

    /// Whether the plugin at `path` (as its index names it) is loaded through its folder now.
    func isLoaded(path: String) -> Bool {
        state.withLock { state, _ in
            if case .loaded = state.phases[path] { true } else { false }
        }
    }

    // MARK: Route placeholders

    /// Adds the routes of a folder's index as placeholders, made at the first route lookup.
    func addRoutes(of index: PluginIndex, configuration: RouterConfiguration) {
        state.withLock { state, _ in state.placeholders.add(index, configuration: configuration) }
    }

    /// The declared route a URL reaches: of a plugin not loaded, else of a loaded one (whose load the caller
    /// then finds done, and looks again once in the hive's tables). A URL that a loaded plugin's handlers all
    /// decline is therefore offered to them a second time; the router alone knows whether its caller's copy of
    /// the tables was older than the load.
    func route(matching url: String) -> RecordIdentity? {
        state.withLock { state, _ in
            let phases = state.phases
            return state.placeholders.route(matching: url) { path in
                switch phases[path] {
                case .loaded, .unloading: true
                default: false
                }
            }
        }
    }

    // MARK: Checks

    /// What breaks the lifecycle's invariants now, for tests that check them between steps: a plugin of a
    /// folder marked loaded whose object is not loaded, one loaded twice, a loaded plugin's placeholder among
    /// the unloaded ones or the reverse.
    func problems() -> [String] {
        state.withLock { state, _ in
            var found: [String] = []
            var loadedPaths: [UInt: String] = [:]
            for (path, phase) in state.phases {
                guard case .loaded(let load) = phase else { continue }
                if !state.isCurrent(load) { found.append("\(path) is marked loaded, and its object is not") }
                if let other = loadedPaths.updateValue(path, forKey: load.identity) { found.append("\(path) and \(other) are one object") }
            }
            found += state.placeholders.problems(
                isLoaded: { path in
                    switch state.phases[path] {
                    case .loaded: true
                    case nil, .failed: false
                    case .loading, .unloading: nil
                    }
                },
                owner: { directories.owner(of: $0)?.plugin.path })
            return found
        }
    }
}
