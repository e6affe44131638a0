import BeeHiveLocks
#if canImport(Glibc)
import Glibc
#endif

/// The plugins of indexed folders, each known by what it declares without being loaded: "who declares
/// this?" is answered from the indexes, and `open(_:for:)` checks the file against its index entry before the
/// loader opens it. A plugin deleted or replaced since it was indexed is a typed error naming it,
/// never a load of something the index did not read.
///
/// It keeps no state about loads: which plugins are loaded, and which load is under way, has one owner, the
/// hive's plugin lifecycle, which calls `open` at most once at a time for a plugin.
package final class DeferredPlugins: Sendable {
    /// Asked in order: the first index declaring an identity gives its plugin.
    private let indexes: Locked<[PluginIndex]>
    private let trust: PluginTrustPolicy

    package init(_ indexes: [PluginIndex] = [], trust: PluginTrustPolicy = .strict) {
        self.trust = trust
        self.indexes = Locked(indexes)
    }

    /// Adds the plugins of an index. A declaration already known (from an earlier index or plugin) keeps its
    /// first plugin; `PluginIndex.conflicts()` reports such cases.
    package func add(_ index: PluginIndex) {
        // The index knows what each of its plugins declares already; nothing is copied out of it.
        indexes.withLock { $0.append(index) }
    }

    /// The plugin declaring `identity`, without loading it; nil when no indexed plugin does.
    package func plugin(declaring identity: RecordIdentity) -> IndexedPlugin? {
        indexes.withLock { indexes in
            for index in indexes {
                if let plugin = index.plugin(declaring: identity) { return plugin }
            }
            return nil
        }
    }

    /// Checks that `plugin`'s file is still the one indexed and still trusted, then opens it with `loader`
    /// (`Plugin.load(atPath:)`, or the hive's `loadPlugin`, which also takes in its records) and returns what
    /// that gives. `identity` is what was asked for, for the error.
    package func open<Loaded>(
        _ plugin: IndexedPlugin, for identity: RecordIdentity, with loader: (_ path: String) throws(PluginError) -> Loaded
    ) throws(DeferredPluginError) -> Loaded {
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
            return try loader(plugin.path)
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
