@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Why a service could not be registered, found or created. The message names the service and implementation
/// involved and says what to do.
public struct ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// No registration for the service, or for the service under `name` when the lookup gave one.
        case notRegistered(service: String, name: String? = nil)
        /// The implementation's type name does not resolve to a type in this process.
        case implementationNotFound(service: String, implementation: String)
        /// The implementation type exists but the manager cannot create it: it does not conform to
        /// `ServiceImplementation`.
        case notConstructible(service: String, implementation: String)
        /// The created instance is not of the service's type.
        case doesNotConform(service: String, implementation: String)
        /// Several registrations disagree under `DuplicatePolicy.strict`; `sources` lists them all.
        case duplicate(service: String, sources: [ServiceSource])
        /// The service needs itself, through the chain given (first and last elements are the same service).
        case cycle(chain: [String])
        /// The factory or initializer asked for an argument the lookup did not pass.
        case missingArgument(service: String, argument: ServiceArgument)
        /// The argument passed is not of the type the factory or initializer asked for.
        case argumentTypeMismatch(service: String, argument: ServiceArgument, expected: String, actual: String)
        /// The service has weak scope, which only classes can have, and its implementation is not a class.
        case weakScopeNeedsClass(service: String, implementation: String)
        /// The factory or initializer threw an error of its own; `reason` is that error's description.
        case creationFailed(service: String, implementation: String, reason: String)
        /// A service configuration file could not be read or has a bad entry.
        case invalidConfiguration(source: String, reason: String)
        /// The service named by a configuration file or annotation (first at `source`) is not a type of this
        /// process: a misspelt or unlinked protocol, which no lookup in code can ever reach.
        case unknownService(service: String, source: ServiceSource)
        /// A plugin of a plugin folder declares the service, but could not be loaded at its first use; the
        /// error names the plugin file and says why.
        case pluginUnavailable(DeferredPluginError)
    }

    public let kind: Kind
    /// The lookups under way when it happened, outermost first; the last one is the one that failed.
    /// Empty outside a lookup.
    public let resolutionPath: [String]

    package init(_ kind: Kind, resolutionPath: [String] = []) {
        self.kind = kind
        self.resolutionPath = resolutionPath
    }

    public var message: String {
        switch kind {
        case .notRegistered(let service, nil):
            "service \(service) is not registered: register it in code, annotate an implementation with "
                + "BeeHiveService, or list it in a service configuration file"
        case .notRegistered(let service, let name?):
            "service \(service) named \"\(name)\" is not registered: register it under that name, or register the "
                + "service with named scope to serve every name"
        case .implementationNotFound(let service, let implementation):
            "implementation type '\(implementation)' of service \(service) is not found in the process: check the "
                + "name and that the object holding it is loaded (only top-level classes resolve by 'Module.Type'; "
                + "structs, enums and nested types need their mangled name)"
        case .notConstructible(let service, let implementation):
            "implementation type '\(implementation)' of service \(service) cannot be created by the manager: make "
                + "it conform to ServiceImplementation or SimpleServiceImplementation"
        case .doesNotConform(let service, let implementation):
            "implementation '\(implementation)' does not conform to service \(service): declare the conformance "
                + "or fix the registration"
        case .duplicate(let service, let sources):
            "service \(service) is registered more than once ("
                + sources.map(\.description).joined(separator: "; ")
                + "): remove all but one, or choose DuplicatePolicy.override"
        case .cycle(let chain):
            "dependency cycle: \(chain.joined(separator: " -> ")): break it, for example by resolving one of "
                + "them later instead of in a factory or initializer"
        case .missingArgument(let service, let argument):
            "service \(service) needs argument \(argument): pass it in the lookup's ServiceArguments"
        case .argumentTypeMismatch(let service, let argument, let expected, let actual):
            "service \(service) needs argument \(argument) of type \(expected), but the lookup passed \(actual)"
        case .weakScopeNeedsClass(let service, let implementation):
            "service \(service) has weak scope, but its implementation \(implementation) is not a class: use "
                + "transient or singleton scope, or a class"
        case .creationFailed(let service, let implementation, let reason):
            "creating service \(service) (implementation \(implementation)) failed: \(reason)"
        case .invalidConfiguration(let source, let reason):
            "service configuration \(source): \(reason)"
        case .unknownService(let service, let source):
            "service \(service), registered from \(source), is not a type of this process: check the protocol's "
                + "spelling and that its module is linked (use 'Module.Protocol')"
        case .pluginUnavailable(let error):
            error.description
        }
    }

    public var description: String {
        guard resolutionPath.count > 1 else { return message }
        return "\(message) (while resolving \(resolutionPath.joined(separator: " -> ")))"
    }
}
