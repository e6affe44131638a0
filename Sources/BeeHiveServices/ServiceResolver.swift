/// What a factory or initializer resolves its dependencies with (constructor injection).
///
/// It carries the resolution chain under way, so a dependency cycle is reported with its chain spelled out
/// instead of recursing forever. Use it only while the factory runs.
public struct ServiceResolver: Sendable {
    let manager: ServiceManager
    let context: ResolutionContext

    /// The service, or the error that says what is missing or broken.
    public func resolve<Service>(_ service: Service.Type, name: String? = nil) throws(ServiceError) -> Service {
        try manager.resolve(service, name: name, arguments: .none, context: context)
    }

    public func resolve<Service>(
        _ service: Service.Type, name: String? = nil, arguments: ServiceArguments
    ) throws(ServiceError) -> Service {
        try manager.resolve(service, name: name, arguments: arguments, context: context)
    }

    /// The service, or nil after logging why not.
    public func createService<Service>(_ service: Service.Type, name: String? = nil) -> Service? {
        createService(service, name: name, arguments: .none)
    }

    public func createService<Service>(
        _ service: Service.Type, name: String? = nil, arguments: ServiceArguments
    ) -> Service? {
        do {
            return try resolve(service, name: name, arguments: arguments)
        } catch {
            manager.log(error)
            return nil
        }
    }

    public func canCreateService<Service>(_ service: Service.Type, name: String? = nil) -> Bool {
        manager.canCreateService(service, name: name)
    }
}
