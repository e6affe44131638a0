import BeeHiveModules
import BeeHiveRegistry
import BeeHiveRouter

/// Why the hive or its host could not do what was asked.
public enum HiveError: Error, Sendable, CustomStringConvertible {
    case plugin(PluginError)
    /// No plugin was loaded from this path through `Hive.loadPlugin(atPath:)`.
    case pluginNotLoaded(path: String)
    case modules(ModuleError)
    case routing(RoutingError)
    /// `Hive.bootstrap(_:)` came after `Hive.shared` was first used.
    case alreadyBootstrapped

    public var description: String {
        switch self {
        case .plugin(let error): error.description
        case .pluginNotLoaded(let path): "no plugin was loaded from \(path); load it with Hive.loadPlugin(atPath:)"
        case .modules(let error): error.description
        case .routing(let error): error.description
        case .alreadyBootstrapped:
            "Hive.shared is already in use: call Hive.bootstrap(_:) first thing in main, before any module, service or route touches it"
        }
    }
}
