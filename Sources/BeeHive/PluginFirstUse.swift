@_spi(BeeHiveInternals) import BeeHiveRegistry

/// A plugin of a plugin folder that was loaded the first time something it declares was asked for: which file,
/// and what was asked for (a service, a route, a target). `Hive.pluginsLoadedOnFirstUse` lists them in order.
public struct PluginFirstUse: Sendable, Hashable, CustomStringConvertible {
    /// The plugin file, as its folder's index names it.
    public let path: String
    /// The declaration whose first use loaded the plugin.
    public let requested: RecordIdentity

    public init(path: String, requested: RecordIdentity) {
        self.path = path
        self.requested = requested
    }

    public var description: String { "\(path) loaded on first use of \(requested)" }
}
