import BeeHiveLocks
#if canImport(Glibc)
import Glibc
#endif

/// The plugins of indexed folders, each loaded the first time something it declares is asked for, exactly once
/// however many threads ask together.
///
/// It answers "who declares this?" from the indexes without loading anything, and `load(declaring:)` loads
/// the one plugin that does. Before loading, the file is checked against its index entry: a plugin deleted
/// or replaced since it was indexed is a typed error naming it, never a load of something the index did not
/// read. The loader given at init opens the file: by default `Plugin.load(atPath:)`, after which the caller
/// takes the plugin's records in (`AnnotationRegistry.refresh()`), as for any plugin; the hub passes its own
/// `loadPlugin`, which does both and counts the load.
package final class DeferredPlugins: Sendable {
    /// How a plugin's first use went.
    package enum Outcome: Sendable, Hashable {
        /// This call loaded it.
        case loaded(path: String)
        /// An earlier call (or a concurrent one, waited for) loaded it.
        case alreadyLoaded(path: String)
    }

    /// Opens a plugin file and takes in its records.
    package typealias Loader = @Sendable (_ path: String) throws(PluginError) -> Void

    private enum LoadState {
        case loading
        case loaded
        case failed(DeferredPluginError)
    }

    private struct State {
        /// Asked in order: the first index declaring an identity gives its plugin.
        var indexes: [PluginIndex] = []
        var loads: [String: LoadState] = [:]
        /// Plugins unloaded while their load was still finishing: that load must not mark them loaded.
        var unloadedWhileLoading: Set<String> = []
    }

    private let state = Locked(State())
    private let gate = LoadGate()
    private let trust: PluginTrustPolicy
    private let loader: Loader

    package init(
        _ indexes: [PluginIndex] = [], trust: PluginTrustPolicy = .strict,
        loader: @escaping Loader = { path throws(PluginError) in _ = try Plugin.load(atPath: path) }
    ) {
        self.trust = trust
        self.loader = loader
        for index in indexes { add(index) }
    }

    /// Adds the plugins of an index. A declaration already known (from an earlier index or plugin) keeps its
    /// first plugin; `PluginIndex.conflicts()` reports such cases.
    package func add(_ index: PluginIndex) {
        // The index knows what each of its plugins declares already; nothing is copied out of it.
        state.withLock { $0.indexes.append(index) }
    }

    /// The plugin declaring `identity`, without loading it; nil when no indexed plugin does.
    package func plugin(declaring identity: RecordIdentity) -> IndexedPlugin? {
        state.withLock { state in
            for index in state.indexes {
                if let plugin = index.plugin(declaring: identity) { return plugin }
            }
            return nil
        }
    }

    /// Whether the plugin at `path` (as its index names it) is loaded now.
    package func isLoaded(path: String) -> Bool {
        state.withLock { state in
            if case .loaded = state.loads[path] { true } else { false }
        }
    }

    /// Paths of the plugins loaded so far.
    package var loadedPaths: [String] {
        state.withLock { state in
            state.loads.compactMap { path, load in if case .loaded = load { path } else { nil } }.sorted()
        }
    }

    /// Forgets that the plugin at `path` (as its index names it) was loaded, after its last unload, so that
    /// the next `load(declaring:)` loads it again. False when this did not load it, or its load failed (a
    /// failure stays remembered).
    package func unloaded(path: String) -> Bool {
        gate.withLock { _ in
            state.withLock { state in
                switch state.loads[path] {
                case .loaded:
                    state.loads[path] = nil
                    return true
                case .loading:
                    state.unloadedWhileLoading.insert(path)
                    return true
                case .failed, nil:
                    return false
                }
            }
        }
    }

    /// Loads the plugin declaring `identity` unless it is loaded; nil when no indexed plugin declares it.
    /// Threads asking for the same plugin together wait for one load. A failure is remembered and given to
    /// every later caller (the plugin is not tried again).
    package func load(declaring identity: RecordIdentity) throws(DeferredPluginError) -> Outcome? {
        guard let plugin = plugin(declaring: identity) else { return nil }
        let path = plugin.path
        let mine: Bool = gate.withLock { wait in
            while true {
                let current = state.withLock { state -> LoadState? in
                    if state.loads[path] == nil { state.loads[path] = .loading; return nil }
                    return state.loads[path]
                }
                switch current {
                case nil: return true
                case .loading: wait()
                case .loaded, .failed: return false
                }
            }
        }
        if !mine {
            switch state.withLock({ $0.loads[path] }) {
            case .failed(let error): throw DeferredPluginError(path: path, requested: identity, reason: error.reason)
            default: return .alreadyLoaded(path: path)
            }
        }
        // No lock is held here: loading runs the plugin's constructors, which may ask for other plugins.
        let result = Result { () throws(DeferredPluginError) in try Self.open(plugin, for: identity, trust: trust, loader: loader) }
        gate.withLock { _ in
            state.withLock { state in
                let unloaded = state.unloadedWhileLoading.remove(path) != nil
                switch result {
                case .success: state.loads[path] = unloaded ? nil : .loaded
                case .failure(let error): state.loads[path] = .failed(error)
                }
            }
            gate.broadcast()
        }
        try result.get()
        return .loaded(path: path)
    }

    private static func open(
        _ plugin: IndexedPlugin, for identity: RecordIdentity, trust: PluginTrustPolicy, loader: Loader
    ) throws(DeferredPluginError) {
        var status = stat()
        guard stat(plugin.path, &status) == 0 else {
            throw DeferredPluginError(path: plugin.path, requested: identity, reason: .vanished)
        }
        if let refusal = trust.refusal(of: plugin.path, .plugin, status: status) {
            throw DeferredPluginError(path: plugin.path, requested: identity, reason: .refused(refusal))
        }
        guard PluginFileStamp(status) == plugin.stamp else {
            throw DeferredPluginError(path: plugin.path, requested: identity, reason: .changedSinceIndexed)
        }
        do {
            try loader(plugin.path)
        } catch {
            throw DeferredPluginError(path: plugin.path, requested: identity, reason: .loadFailed(error))
        }
    }
}

/// A deferred plugin that could not be loaded when something it declares was first asked for.
public struct DeferredPluginError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The file is gone since the folder was indexed.
        case vanished
        /// The file was replaced or changed since it was indexed; index the folder again.
        case changedSinceIndexed
        case refused(PluginAccessError)
        case loadFailed(PluginError)
        /// Asked for from inside a module hook that the hub is running (a module catching up after a plugin
        /// load), where a plugin's records cannot be registered before the hook returns. Nothing was loaded.
        case askedInsideHook
    }

    public let path: String
    /// What was asked for.
    public let requested: RecordIdentity
    public let reason: Reason

    package init(path: String, requested: RecordIdentity, reason: Reason) {
        self.path = path
        self.requested = requested
        self.reason = reason
    }

    public var description: String {
        let prefix = "cannot load plugin \(path) for \(requested)"
        return switch reason {
        case .vanished: "\(prefix): the file is gone since the folder was indexed"
        case .changedSinceIndexed: "\(prefix): the file changed since the folder was indexed; index the folder again"
        case .refused(let error): "\(prefix): \(error)"
        case .loadFailed(let error): "\(prefix): \(error.reason)"
        case .askedInsideHook:
            "\(prefix): asked from inside a module hook that the hive is running, where a plugin's records cannot be registered until the hook returns; ask after the hook, or load the plugin with Hive.loadPlugin(atPath:) beforehand"
        }
    }
}

/// A mutex with a condition, for threads waiting on another thread's load. `@unchecked Sendable`: the pthread
/// objects are only used through their own calls.
private final class LoadGate: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held; `body` may call the function it is given to wait for a broadcast.
    func withLock<Result>(_ body: (_ wait: () -> Void) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body { pthread_cond_wait(condition, mutex) }
    }

    func broadcast() { pthread_cond_broadcast(condition) }
}
