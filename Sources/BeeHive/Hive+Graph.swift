@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveRouter
@_spi(BeeHiveInternals) import BeeHiveServices

extension Hive {
    /// What this hive has registered now, as the graph `beehive graph` draws from files: the modules in the
    /// order the module manager sets them up (with the dependencies their types declare in code as well as
    /// annotated ones), each service in use to its implementation, each route to its handler in the order URLs
    /// meet them, and each mediator target to its type. Registrations from code and configuration files are
    /// there too; what the plugins of a folder declare appears once they are loaded.
    ///
    ///     print(Hive.shared.graph().dot)     // dot -Tsvg draws it
    public func graph() -> HiveGraph {
        HiveGraph(
            modules: modules.modules.map {
                HiveGraph.Module(
                    typeName: $0.name, level: $0.level, priority: $0.priority, isAsync: $0.isAsync, dependencies: $0.dependencies)
            },
            services: serviceRegistrations.map {
                HiveGraph.Service(
                    protocolName: $0.service, name: $0.name, implementation: Self.implementation(of: $0), scope: $0.scope)
            },
            routes: router.allRoutes.map {
                HiveGraph.Route(
                    scheme: $0.scheme, pattern: $0.pattern.text, priority: $0.priority,
                    // Closures have no type name: where each was registered tells them apart.
                    handler: $0.handler == RouteDescriptor.closureHandler ? "\($0.handler) at \($0.origin)" : $0.handler)
            },
            targets: mediator.targetTypes.map { HiveGraph.Target(name: $0.name, typeName: $0.typeName) })
    }

    /// The registrations in use, async factories included, by service and name, then registration order. A
    /// shadowed registration is never used, so it would only clutter the picture.
    private var serviceRegistrations: [ServiceRegistration] {
        let all = services.registrations.filter { $0.status != .shadowed } + services.asyncFactoryRegistrations
        return all.enumerated().sorted { ($0.element.service, $0.element.name ?? "", $0.offset) < ($1.element.service, $1.element.name ?? "", $1.offset) }
            .map(\.element)
    }

    /// The implementation's type, or for a factory closure where it was registered, so that each factory is a
    /// node of its own.
    private static func implementation(of registration: ServiceRegistration) -> String {
        switch registration.implementation {
        case ServiceRegistration.factoryImplementation, ServiceRegistration.asyncFactoryImplementation:
            "\(registration.implementation) at \(registration.source)"
        default: registration.implementation
        }
    }
}
