@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveRouter

/// Why the hive or its host could not do what was asked.
public enum HiveError: Error, Sendable, CustomStringConvertible {
    case plugin(PluginError)
    /// No plugin was loaded from this path through `Hive.loadPlugin(atPath:)`.
    case pluginNotLoaded(path: String)
    /// A Swift plugin unloaded earlier was loaded again after its file changed. It stays mapped (see
    /// `Plugin.staysLoaded`), so the process can only run the build it loaded first; nothing was registered.
    case pluginChangedSinceUnloaded(path: String)
    case modules(ModuleError)
    case routing(RoutingError)
    /// `Hive.bootstrap(_:)` came after `Hive.shared` was first used.
    case alreadyBootstrapped
    /// `HiveHost.start()` found annotations that are not in use (see `Hive.validateAnnotations()`), or plugin
    /// folders or files it refuses (`HiveDiagnostic.pluginRefused`).
    case invalidAnnotations([HiveDiagnostic])
    /// A plugin folder cannot be read or is not trusted (see `Hive.addPluginDirectory(_:cache:trust:)`).
    case pluginFolder(PluginAccessError)
    /// The executable carries a Swift runtime of its own (`--static-swift-stdlib`) and also loads the dynamic
    /// `libBeeHive.so`, which runs on the shared one: two runtimes in one process crash at the first `await`.
    case twoSwiftRuntimes(executable: String)

    /// Named after what the list holds, so that a list of annotations reads as it always has.
    private static func subject(of problems: [HiveDiagnostic]) -> String {
        let refusesPlugins = problems.contains { if case .pluginRefused = $0 { true } else { false } }
        return refusesPlugins ? "annotation(s) or plugin file(s)" : "annotation(s)"
    }

    public var description: String {
        switch self {
        case .plugin(let error): error.description
        case .pluginNotLoaded(let path): "no plugin was loaded from \(path); load it with Hive.loadPlugin(atPath:)"
        case .pluginChangedSinceUnloaded(let path):
            HiveDiagnostic.pluginChangedSinceUnloaded(path: path).description
        case .modules(let error): error.description
        case .routing(let error): error.description
        case .pluginFolder(let error): error.description
        case .invalidAnnotations(let problems):
            (["\(problems.count) \(Self.subject(of: problems)) cannot be used; fix each as it says (the names in an annotation, or link the objects that define them), or start the host with startupCheck: .logProblems to run without them:"]
                + problems.map { "  - \($0)" }).joined(separator: "\n")
        case .twoSwiftRuntimes(let executable):
            "\(executable) carries its own Swift runtime (built with --static-swift-stdlib) and loads libBeeHive.so, which uses the shared one (libswiftCore.so); two Swift runtimes in one process crash: depend on the BeeHiveStatic product for a --static-swift-stdlib build, or build without --static-swift-stdlib"
        case .alreadyBootstrapped:
            "Hive.shared is already in use: call Hive.bootstrap(_:) first thing in main, before any module, service or route touches it"
        }
    }
}
