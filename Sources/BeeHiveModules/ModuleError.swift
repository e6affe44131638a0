@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Why the module manager refused something. Each message names the module, file or record involved.
public enum ModuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A custom event value below `CustomEvent.minimumValue`.
    case invalidCustomEvent(Int)
    /// Modules that depend on each other in a circle; the first name is repeated at the end.
    case dependencyCycle([String])
    case missingDependency(module: String, dependency: String)
    /// A configured or annotated name that is no type of this process.
    case unresolvedModule(name: String, source: ModuleSource)
    /// A configured or annotated type that does not conform to `Module`.
    case notAModule(name: String, source: ModuleSource)
    case invalidConfigurationFile(path: String, reason: String)
    case hookFailed(HookFailure)
    case notRegistered(module: String)
    case alreadyStarted
    case stopped
    case notStarted
    case unknownEnvironment(String)
    case memoryPressureUnavailable(reason: String)

    public var description: String {
        switch self {
        case .invalidCustomEvent(let value):
            "custom event \(value) is below \(CustomEvent.minimumValue): values 0-999 are reserved for system events; number custom events from 1000"
        case .dependencyCycle(let cycle):
            "module dependency cycle: \(cycle.joined(separator: " -> ")); remove one of these dependencies"
        case .missingDependency(let module, let dependency):
            "module \(module) depends on \(dependency), which is not registered; register \(dependency) or remove the dependency"
        case .unresolvedModule(let name, let source):
            "module type '\(name)' from \(source) is not found in this process; use the fully qualified name of a top-level class (Module.Type) and make sure its object is linked"
        case .notAModule(let name, let source):
            "type '\(name)' from \(source) does not conform to Module; declare it as 'final class \(name.split(separator: ".").last ?? ""): Module'"
        case .invalidConfigurationFile(let path, let reason):
            "module configuration file \(path): \(reason)"
        case .hookFailed(let failure):
            failure.description
        case .notRegistered(let module):
            "module \(module) is not registered; register it before using it"
        case .alreadyStarted:
            "the module manager was already started; start() runs once, later registrations catch up by themselves"
        case .stopped:
            "the module manager was stopped; create a new manager to start modules again"
        case .notStarted:
            "the module manager has not been started; call start() first"
        case .unknownEnvironment(let value):
            "unknown environment '\(value)'; use dev, test, stage or prod"
        case .memoryPressureUnavailable(let reason):
            "memory pressure cannot be watched: \(reason)"
        }
    }
}
