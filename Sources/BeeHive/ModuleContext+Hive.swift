@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRouter
@_spi(BeeHiveInternals) import BeeHiveServices

extension ModuleContext {
    /// The hive whose module manager runs this hook; nil for a manager used without a hive.
    public var hive: Hive? {
        manager.hub.withLock { $0.object as? Hive }
    }

    /// The hive's service manager, to look up or register services from a hook.
    public var services: ServiceManager? { hive?.services }

    /// The hive's router, to add routes from a hook.
    public var router: Router? { hive?.router }

    /// The hive's mediator, to register targets from a hook.
    public var mediator: Mediator? { hive?.mediator }
}
