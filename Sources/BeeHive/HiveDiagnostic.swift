import BeeHiveModules
import BeeHiveRegistry
import BeeHiveServices

/// Anything a layer reported while the hive took in annotations: the registry's findings about objects and
/// records, the module manager's, the router's, and services that do not resolve.
public enum HiveDiagnostic: Sendable, CustomStringConvertible {
    case registry(RegistryDiagnostic)
    case module(ModuleDiagnostic)
    case service(ServiceError)

    public var isError: Bool {
        switch self {
        case .registry(let diagnostic): diagnostic.severity == .error
        case .module(let diagnostic): diagnostic.severity == .error
        case .service: true
        }
    }

    public var description: String {
        switch self {
        case .registry(let diagnostic): diagnostic.description
        case .module(let diagnostic): diagnostic.description
        case .service(let error): error.description
        }
    }
}
