@_spi(BeeHiveInternals) import BeeHiveRegistry

/// One registration, as `ServiceManager.registrations` lists it.
public struct ServiceRegistration: Sendable, Hashable, CustomStringConvertible {
    public enum Status: String, Sendable, Hashable {
        /// Lookups of the service use this registration.
        case active
        /// Another registration of the same service is used instead: a later one under
        /// `DuplicatePolicy.override`, or an earlier one naming the same implementation and scope.
        case shadowed
        /// Registrations of the service disagree under `DuplicatePolicy.strict`; lookups fail until all but one
        /// are removed.
        case conflicting
    }

    /// The service's type name, such as `App.HomeService`.
    public let service: String
    /// The service name the registration is for, if any.
    public let name: String?
    /// The implementation's type name, or `factory` for a factory closure.
    public let implementation: String
    public let scope: ServiceScope
    public let source: ServiceSource
    public let status: Status

    /// `implementation` of a registration made with a factory closure, and with an async one.
    package static let factoryImplementation = "factory"
    package static let asyncFactoryImplementation = "async factory"

    package init(
        service: String, name: String?, implementation: String, scope: ServiceScope, source: ServiceSource,
        status: Status
    ) {
        self.service = service
        self.name = name
        self.implementation = implementation
        self.scope = scope
        self.source = source
        self.status = status
    }

    public var description: String {
        let named = name.map { " named \"\($0)\"" } ?? ""
        return "\(service)\(named) -> \(implementation) [\(scope.rawValue), \(status.rawValue)] from \(source)"
    }
}
