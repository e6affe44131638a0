import BeeHiveModules
import BeeHiveRegistry
import BeeHiveServices

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

    public var isError: Bool {
        switch self {
        case .registry(let diagnostic): diagnostic.severity == .error
        case .module(let diagnostic): diagnostic.severity == .error
        case .service, .pluginChangedSinceUnloaded: true
        }
    }

    public var description: String {
        switch self {
        case .registry(let diagnostic): diagnostic.description
        case .module(let diagnostic): diagnostic.description
        case .service(let error): error.description
        case .pluginChangedSinceUnloaded(let path):
            "plugin \(path) changed on disk since it was unloaded, but a Swift plugin stays mapped, so this process can only run the build it loaded first: it was not loaded again; restart the process to run the new build"
        }
    }
}
