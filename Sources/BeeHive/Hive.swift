import BeeHiveLocks
import BeeHiveModules
import BeeHiveRegistry
import BeeHiveRouter
import BeeHiveServices
import Logging

/// The hub of a modular app (BeeHive's `BeeHive` object): the annotation registry and the managers it feeds.
///
/// Data flows one way: `refresh()` takes what discovery found in the loaded objects' sections from the
/// registry and hands it to the service manager, the router, the mediator and the module manager, in that
/// order, so that modules starting up can already look up services and routes.
public final class Hive: Sendable {
    /// The hive of this process, fed by the objects loaded in it. Made on first use, as `bootstrap(_:)` says
    /// or with defaults.
    public static let shared: Hive = bootstrapping.withLock { state in
        state.isShared = true
        return state.make?() ?? Hive()
    }

    private struct Bootstrap {
        var make: (@Sendable () -> Hive)?
        var isShared = false
    }

    private static let bootstrapping = Locked(Bootstrap())

    /// Chooses how `Hive.shared` is made (its logger, the module manager's configuration with the profiler
    /// on, a duplicate policy...), so that modules, handlers and plugins that reach for `Hive.shared` find the
    /// app's hive. Call it once, before anything touches `Hive.shared`; `make` must not touch it either.
    public static func bootstrap(_ make: @escaping @Sendable () -> Hive) throws(HiveError) {
        try bootstrapping.withLock { state throws(HiveError) in
            guard !state.isShared else { throw .alreadyBootstrapped }
            state.make = make
        }
    }

    public let registry: AnnotationRegistry
    public let modules: ModuleManager
    public let services: ServiceManager
    public let router: Router
    public let mediator: Mediator

    private let logger: Logger
    private let state = Locked(State())
    /// Serialises deliveries, so that managers see objects come and go in the order they did.
    private let delivery = Locked(Delivered())

    private struct State {
        var plugins: [String: Plugin] = [:]
        var diagnostics: [HiveDiagnostic] = []
    }

    /// What the managers have been given so far.
    private struct Delivered {
        var objects: [UInt64: ObjectAnnotations] = [:]
        var registryDiagnostics = 0
    }

    public init(
        registry: AnnotationRegistry = .shared,
        modules: ModuleManager = ModuleManager(),
        services: ServiceManager = ServiceManager(),
        router: Router = Router(),
        mediator: Mediator = Mediator(),
        logger: Logger = Logger(label: "beehive", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.registry = registry
        self.modules = modules
        self.services = services
        self.router = router
        self.mediator = mediator
        self.logger = logger
    }

    /// Takes in the annotations of objects loaded or unloaded since the last call and hands them to the
    /// managers. The first call also takes what the constructor found before `main`. Cheap when nothing changed.
    ///
    /// The managers get the difference between the registry's objects and what they were given before, so
    /// it does not matter who else refreshes the registry. Hooks run by this call must not call it again.
    @discardableResult
    public func refresh() -> [HiveDiagnostic] {
        registry.refresh()
        return deliverChanges()
    }

    /// Every diagnostic reported through this hive so far.
    public var diagnostics: [HiveDiagnostic] {
        state.withLock { $0.diagnostics }
    }

    /// Resolves every registered service once and reports those that are missing or broken.
    public func validateServices() -> [HiveDiagnostic] {
        let found = services.validate().map(HiveDiagnostic.service)
        record(found)
        return found
    }

    /// Loads a plugin and registers what it carries: its modules catch up on setUp, init and splash if the
    /// modules have started. The plugin must link the dynamic `BeeHive` library (see the README).
    @discardableResult
    public func loadPlugin(atPath path: String) throws(HiveError) -> [HiveDiagnostic] {
        let plugin: Plugin
        do {
            plugin = try Plugin.load(atPath: path)
        } catch {
            throw .plugin(error)
        }
        state.withLock { $0.plugins[path] = plugin }
        logger.info("loaded plugin", metadata: ["path": "\(path)"])
        registry.refresh()
        registry.reinstateObjects(atPath: path)
        return deliverChanges()
    }

    /// Retires what the plugin registered (its modules get tearDown and unmount, its services and routes go
    /// away), then lets the loader unmap it.
    @discardableResult
    public func unloadPlugin(atPath path: String) throws(HiveError) -> [HiveDiagnostic] {
        guard let plugin = state.withLock({ $0.plugins.removeValue(forKey: path) }) else {
            throw .pluginNotLoaded(path: path)
        }
        registry.retireObjects(atPath: path)
        let diagnostics = deliverChanges()
        do {
            try plugin.unload()
        } catch {
            throw .plugin(error)
        }
        logger.info("unloaded plugin", metadata: ["path": "\(path)"])
        return diagnostics + refresh()
    }

    /// Opens a URL: routes it, then tells the started modules through their `openURL` hook (the URL is the
    /// event's custom parameter).
    @discardableResult
    public func open(_ url: String, parameters: [String: any Sendable] = [:]) throws(HiveError) -> RouteResult {
        let result: RouteResult
        do {
            result = try router.route(url, parameters: parameters)
        } catch {
            throw .routing(error)
        }
        if modules.isStarted {
            do {
                try modules.trigger(.openURL, customParameter: url)
            } catch {
                throw .modules(error)
            }
        }
        return result
    }

    private func deliverChanges() -> [HiveDiagnostic] {
        delivery.withLock { delivered in
            let current = registry.objects
            let registryDiagnostics = registry.diagnostics
            var update = RegistryUpdate()
            let currentIDs = Set(current.map(\.object.id))
            for (id, gone) in delivered.objects.sorted(by: { $0.key < $1.key }) where !currentIDs.contains(id) {
                delivered.objects[id] = nil
                update.unloadedObjects.append(gone.object)
                update.removed += gone.records
            }
            for object in current where delivered.objects[object.object.id] == nil {
                delivered.objects[object.object.id] = object
                update.loadedObjects.append(object.object)
                update.added += object.records
            }
            update.diagnostics = Array(registryDiagnostics.dropFirst(delivered.registryDiagnostics))
            delivered.registryDiagnostics = registryDiagnostics.count
            return deliver(update)
        }
    }

    private func deliver(_ update: RegistryUpdate) -> [HiveDiagnostic] {
        guard !update.isEmpty else { return [] }
        var found = update.diagnostics.map(HiveDiagnostic.registry)
        services.apply(update)
        found += router.apply(update).map(HiveDiagnostic.registry)
        found += mediator.apply(update).map(HiveDiagnostic.registry)
        do {
            found += try modules.apply(update).map(HiveDiagnostic.module)
        } catch {
            found.append(.module(ModuleDiagnostic(.rejectedRecord(error))))
        }
        record(found)
        return found
    }

    private func record(_ found: [HiveDiagnostic]) {
        guard !found.isEmpty else { return }
        for diagnostic in found {
            if diagnostic.isError {
                logger.error("\(diagnostic)")
            } else {
                logger.warning("\(diagnostic)")
            }
        }
        state.withLock { $0.diagnostics += found }
    }
}
