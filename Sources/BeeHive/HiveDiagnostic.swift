@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices

/// Anything a layer reported while the hive took in annotations: the registry's findings about objects and
/// records, the module manager's, the router's, and services that do not resolve.
public enum HiveDiagnostic: Sendable, CustomStringConvertible {
    case registry(RegistryDiagnostic)
    case module(ModuleDiagnostic)
    case service(ServiceError)
    /// A Swift plugin loaded again whose file changed since it was unloaded. The Swift runtime cannot forget
    /// an image, so the old build stays mapped; the hive refuses to bring it back (`loadPlugin` throws
    /// `HiveError.pluginChangedSinceUnloaded`). Restart the process to run the new build.
    case pluginChangedSinceUnloaded(path: String)
    /// The same module, service, route or target is declared by two plugins of the added folders, or by a
    /// plugin and a linked object; found from the index, before anything is loaded.
    case pluginConflict(PluginConflict)
    /// A module of a plugin folder depends on a module that no indexed plugin, linked object or code
    /// registration provides: it would wait forever.
    case missingModuleDependency(module: String, dependency: String, plugin: String)
    /// A plugin folder or plugin file that is refused, with its path and the fix: one the trust policy refuses
    /// (others can write it, another user owns it), a file that is not ELF or is built for another machine, a
    /// folder of `BEEHIVE_PLUGIN_PATH` that cannot be read. It is left out; `HiveHost.start()` fails on it like
    /// on an unusable annotation (or logs it, with `.logProblems`).
    case pluginRefused(PluginAccessError)
    /// A folder of `BEEHIVE_PLUGIN_PATH` that does not exist: skipped, as the loader skips a missing
    /// `LD_LIBRARY_PATH` entry. A warning, not an error.
    case pluginFolderMissing(path: String)
    /// Something wrong with a plugin folder's index cache; the folder was read without it.
    case pluginCache(PluginCacheDiagnostic)
    /// A plugin that carries modules could not be loaded at launch.
    case pluginUnavailable(DeferredPluginError)

    public var isError: Bool {
        switch self {
        case .registry(let diagnostic): diagnostic.severity == .error
        case .module(let diagnostic): diagnostic.severity == .error
        case .service, .pluginChangedSinceUnloaded, .pluginConflict, .missingModuleDependency, .pluginRefused,
            .pluginUnavailable:
            true
        case .pluginCache, .pluginFolderMissing: false
        }
    }

    public var description: String {
        switch self {
        case .registry(let diagnostic): diagnostic.description
        case .module(let diagnostic): diagnostic.description
        case .service(let error): error.description
        case .pluginChangedSinceUnloaded(let path):
            "plugin \(path) changed on disk since it was unloaded, but a Swift plugin stays mapped, so this process can only run the build it loaded first: it was not loaded again; restart the process to run the new build"
        case .pluginConflict(let conflict):
            "\(conflict); a first use loads only the first plugin (folders in the order added, files by name), and a second one loaded explicitly makes a duplicate: remove all but one"
        case .missingModuleDependency(let module, let dependency, let plugin):
            "module \(module) of plugin \(plugin) depends on module \(dependency), which no plugin or linked object provides; add the plugin that provides it, or it never starts"
        case .pluginRefused(let error): error.description
        case .pluginFolderMissing(let path):
            "plugin folder \(path) of \(Hive.pluginPathVariable) does not exist; skipped: create it, or take it out of \(Hive.pluginPathVariable)"
        case .pluginCache(let diagnostic): diagnostic.description
        case .pluginUnavailable(let error): error.description
        }
    }
}
