import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveRouter
@_spi(BeeHiveInternals) import BeeHiveServices
import Logging

/// The hub of a modular app (BeeHive's `BeeHive` object): the annotation registry and the managers it feeds.
///
/// Data flows one way: `refresh()` takes what discovery found in the loaded objects' sections from the
/// registry and hands each record to the manager that consumes it. The hive alone keeps which record became
/// which registration. Changes apply in a safe order: services first, then routes and mediator targets, then
/// modules, so that a module's setUp can use what its own object registered; when objects go, their modules
/// get tearDown and unmount first, while their targets, routes and services are still there.
///
/// Module hooks run with no lock held, and may call back into the hive (refresh, load or unload a plugin)
/// from any thread: see `refresh()`.
public final class Hive: Sendable {
    /// The hive of this process, fed by the objects loaded in it. Made on first use, as `bootstrap(_:)` says
    /// or with defaults.
    public static let shared: Hive = bootstrapping.makeShared()

    private static let bootstrapping = HiveBootstrap()

    /// Chooses how `Hive.shared` is made (its logger, the module manager's configuration with the profiler
    /// on, a duplicate policy...), so that modules, handlers and plugins that reach for `Hive.shared` find the
    /// app's hive. Call it once, before anything touches `Hive.shared`; `make` must not touch it either.
    ///
    /// - Throws: `HiveError.alreadyBootstrapped` when `Hive.shared` is already in use.
    public static func bootstrap(_ make: @escaping @Sendable () -> Hive) throws(HiveError) {
        try bootstrapping.bootstrap(make)
    }

    public let registry: AnnotationRegistry
    public let modules: ModuleManager
    public let services: ServiceManager
    public let router: Router
    public let mediator: Mediator

    let logger: Logger
    private let state: Locked<State>
    let deliveries = DeliveryQueue()
    /// The plugin folders added, and what their plugins declare (Hive+PluginDirectories.swift).
    let pluginDirectories = PluginDirectories()
    /// The one owner of what this hive has loaded: plugins, their counts and phases, and route placeholders.
    let pluginLifecycle: PluginLifecycle
    // Which record became which registration: each manager's own ledger, which its `apply(_:)` uses too, so that
    // a manager fed by the hive and by hand registers nothing twice.
    private var serviceRecords: RecordLedger<ServiceManager> { services.ledger }
    private var routeRecords: RecordLedger<Router> { router.ledger }
    private var targetRecords: RecordLedger<Mediator> { mediator.ledger }
    private var moduleRecords: RecordLedger<ModuleManager> { modules.ledger }

    private struct State {
        var diagnostics: BoundedHistory<HiveDiagnostic>
        /// The objects the managers have been given, and the sequence number of the next registry diagnostic.
        var delivered = ObjectTable<ObjectAnnotations>()
        var registryCursor = 0
    }

    /// `diagnosticLimit` is how many diagnostics `diagnostics` keeps (the oldest go first, and are counted in
    /// `droppedDiagnostics`); every one is logged regardless.
    public init(
        registry: AnnotationRegistry = .shared,
        modules: ModuleManager = ModuleManager(),
        services: ServiceManager = ServiceManager(),
        router: Router = Router(),
        mediator: Mediator = Mediator(),
        logger: Logger = Logger(label: "beehive", factory: { _ in SwiftLogNoOpLogHandler() }),
        diagnosticLimit: Int = 1000
    ) {
        self.registry = registry
        self.modules = modules
        self.services = services
        self.router = router
        self.mediator = mediator
        self.logger = logger
        state = Locked(State(diagnostics: BoundedHistory(limit: diagnosticLimit)))
        pluginLifecycle = PluginLifecycle(registry: registry, directories: pluginDirectories)
        modules.hub.withLock { $0 = WeakHub(self) }
    }

    /// Takes in the annotations of objects loaded or unloaded since the last call and hands them to the
    /// managers. The first call also takes what the constructor found before `main`. Cheap when nothing changed.
    ///
    /// The managers get the difference between the registry's objects and what they were given before, so
    /// it does not matter who else refreshes the registry.
    ///
    /// Called from a hook that this hive is running (a module's setUp calling back), it returns at once and
    /// the work is done right after that hook, in order; it then returns no diagnostics (they still reach
    /// `diagnostics` and the logger). Called from another thread while a delivery runs, it waits for it.
    @discardableResult
    public func refresh() -> [HiveDiagnostic] {
        registry.refresh()
        return (try? deliver()) ?? []
    }

    /// The diagnostics reported through this hive, oldest first: what the registry found wrong with objects
    /// and records, records the managers refused, modules waiting for a dependency, failed service
    /// validations, changed plugins. The last `diagnosticLimit` are kept.
    public var diagnostics: [HiveDiagnostic] {
        state.withLock { $0.diagnostics.entries }
    }

    /// How many diagnostics `diagnostics` no longer holds because of its limit, with registry diagnostics the
    /// registry's own limit let go before this hive read them.
    public var droppedDiagnostics: Int {
        state.withLock { $0.diagnostics.dropped }
    }

    /// Resolves every registered service once and reports those that are missing or broken.
    public func validateServices() -> [HiveDiagnostic] {
        let found = services.validate().map(HiveDiagnostic.service)
        record(found)
        return found
    }

    /// Every annotation of the loaded objects that is not in use, and why, naming its object file and record:
    /// modules and targets whose type does not resolve or conform (refused when delivered), modules still
    /// waiting for a dependency, and, checked now because they are resolved at first use, route handlers whose
    /// type does not resolve or conform and annotated services whose protocol or implementation type does not
    /// resolve, or whose implementation is no `ServiceImplementation`. Creates nothing.
    /// `HiveHost.start()` runs it.
    public func validateAnnotations() -> [HiveDiagnostic] {
        var found = serviceRecords.problems.map { HiveDiagnostic.registry($0.diagnostic) }
        // Registrations are checked in no order and only those with problems put in record order.
        var serviceProblems: [(origin: RecordOrigin, diagnostics: [HiveDiagnostic])] = []
        let serviceRegistrations = serviceRecords.unorderedRegistrations
        for (record, token) in zip(serviceRegistrations.records, serviceRegistrations.tokens) {
            var diagnostics: [HiveDiagnostic] = []
            for error in services.problems(of: token) {
                let kind: RegistryDiagnostic.Kind =
                    switch error.kind {
                    case .unknownService(let service, _): .unresolvedType(name: service)
                    case .notConstructible(_, let implementation):
                        .nonConformingType(name: implementation, expected: "ServiceImplementation")
                    case .implementationNotFound(_, let implementation): .unresolvedType(name: implementation)
                    default: .malformedRecord(reason: error.description)
                    }
                diagnostics.append(
                    .registry(
                        RegistryDiagnostic(
                            kind, objectPath: record.origin.objectPath, section: record.origin.section, record: record.text)))
            }
            if !diagnostics.isEmpty { serviceProblems.append((record.origin, diagnostics)) }
        }
        // Sorting allocates even an empty array's storage, and builds the metadata of its element type (a
        // tuple) at run time: only problems are sorted.
        if !serviceProblems.isEmpty {
            found += serviceProblems.sorted { RecordLedger<ServiceManager>.inRecordOrder($0.origin, $1.origin) }.flatMap(\.diagnostics)
        }
        found += routeRecords.problems.map { HiveDiagnostic.registry($0.diagnostic) }
        // Route handlers are resolved at their first match; resolving them here reports them at start.
        let handlerProblems = routeRecords.unorderedRegistrations.records.compactMap { record in
            Router.handlerProblem(of: record).map { (origin: record.origin, diagnostic: $0) }
        }
        if !handlerProblems.isEmpty {
            found += handlerProblems.sorted { RecordLedger<Router>.inRecordOrder($0.origin, $1.origin) }.map { .registry($0.diagnostic) }
        }
        found += targetRecords.problems.map { HiveDiagnostic.registry($0.diagnostic) }
        found += moduleRecords.problems.map { HiveDiagnostic.module($0.diagnostic) }
        return found
    }

    /// Loads a plugin and registers what it carries: its modules catch up on setUp, init and splash if the
    /// modules have started. The plugin must link the dynamic `BeeHive` library (see the README).
    ///
    /// A plugin is known by the loaded object, not by the spelling of its path: loading it again (by any
    /// path) counts one more load and registers nothing new. A path starting with `$ORIGIN` is relative to the
    /// running executable's folder, as in a RUNPATH, however the program was started. Called from a hook, it loads the library at
    /// once and registers its annotations right after the hook (see `refresh()`).
    ///
    /// - Throws: `HiveError.plugin` with the `PluginError` (empty path, missing file, directory, not ELF, or the
    ///   loader's refusal); `HiveError.pluginChangedSinceUnloaded` for a Swift plugin unloaded earlier whose file
    ///   changed since: it is still mapped, so loading it would bring back the old build, and nothing is registered.
    @discardableResult
    public func loadPlugin(atPath path: String) throws(HiveError) -> [HiveDiagnostic] {
        try load(atPath: path).diagnostics
    }

    /// `loadPlugin(atPath:)`, returning which life of the plugin the load counts for as well.
    func load(atPath path: String) throws(HiveError) -> (load: PluginLifecycle.Load, diagnostics: [HiveDiagnostic]) {
        let path = ExecutableOrigin.resolve(path)
        let plugin: Plugin
        do {
            plugin = try Plugin.load(atPath: path)
        } catch {
            throw .plugin(error)
        }
        switch pluginLifecycle.countLoad(of: plugin) {
        case .changedSinceRetired:
            try? plugin.unload()
            record([.pluginChangedSinceUnloaded(path: plugin.objectPath)])
            throw .pluginChangedSinceUnloaded(path: plugin.objectPath)
        case .again(let load):
            // The loader counted this load as well; one handle per plugin is enough.
            try? plugin.unload()
            logger.debug("plugin loaded again", metadata: ["path": "\(path)"])
            pluginLifecycle.waitUntilDelivered(load, insideHook: deliveries.isDeliveringOnCurrentThread)
            return (load, [])
        case .first(let load):
            logger.info("loaded plugin", metadata: ["path": "\(path)", "object": "\(plugin.objectPath)"])
            HiveObserver.pluginLoaded()
            pluginLifecycle.paused(at: .loadCounted, plugin.path)
            let found = (try? deliver()) ?? []
            pluginLifecycle.delivered(load)
            return (load, found)
        }
    }

    /// Counts one load of the plugin down; at the last, retires what it registered (its modules get tearDown
    /// and unmount, then its targets, routes and services go away) and lets the loader unmap it. `path` may
    /// be any spelling of the plugin's path (a symlink, a relative path). A plugin of a plugin folder that the
    /// folder loaded is deferred again afterwards: the next use of something it declares loads it anew.
    ///
    /// Called from a hook, the retirement happens right after the hook (see `refresh()`).
    /// - Throws: `HiveError.pluginNotLoaded` when no plugin loaded through this hive is at `path`.
    @discardableResult
    public func unloadPlugin(atPath path: String) throws(HiveError) -> [HiveDiagnostic] {
        let path = ExecutableOrigin.resolve(path)
        guard let identity = Plugin.loadedIdentity(atPath: path) else { throw .pluginNotLoaded(path: path) }
        guard let leaving = try pluginLifecycle.countUnload(of: identity, path: path) else { return [] }
        let plugin = leaving.plugin
        pluginLifecycle.paused(at: .unloadCounted, plugin.path)
        return try deliver { [self] in
            var failure: HiveError?
            do throws(PluginError) {
                try plugin.unload()
                logger.info("unloaded plugin", metadata: ["path": "\(plugin.path)"])
            } catch {
                failure = .plugin(error)
            }
            registry.refresh()
            pluginLifecycle.paused(at: .unloadDelivered, plugin.path)
            if pluginLifecycle.finishUnload(leaving) {
                logger.info("plugin unloaded; deferred again", metadata: ["path": "\(leaving.folderPath ?? plugin.path)"])
            }
            return failure.map { .failure($0) } ?? .success([])
        }
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

    /// Hands the registry's changes to the managers, then runs `after` (unmapping a plugin once its modules
    /// are torn down), then hands over what `after` changed. Returns nil from inside a delivery.
    private func deliver(
        then after: (@Sendable () -> Result<[HiveDiagnostic], HiveError>)? = nil
    ) throws(HiveError) -> [HiveDiagnostic] {
        let result = deliveries.perform { [self] in
            var found = synchronize()
            guard let after else { return .success(found) }
            switch after() {
            case .success(let more): found += more
            case .failure(let error): return .failure(error)
            }
            found += synchronize()
            return .success(found)
        }
        return try result?.get() ?? []
    }

    /// One step of delivery: what changed in the registry since the managers were last given its objects.
    private func synchronize() -> [HiveDiagnostic] {
        let current = registry.objects
        // Deliveries run one at a time, so the cursor cannot move between this read and its update below.
        let registryDiagnostics = registry.diagnostics(from: state.withLock { $0.registryCursor })
        let change = state.withLock { state in
            var removed: [AnnotationRecord] = []
            var added: [AnnotationRecord] = []
            var currentObjects = ObjectTable<ObjectAnnotations>()
            for object in current { currentObjects[object.object.id] = object }
            for (id, gone) in zip(state.delivered.ids, state.delivered.values) where !currentObjects.contains(id: id) {
                state.delivered[id] = nil
                removed += gone.records
            }
            for object in current where state.delivered[object.object.id] == nil {
                state.delivered[object.object.id] = object
                added += object.records
            }
            state.registryCursor = registryDiagnostics.next
            state.diagnostics.countDropped(registryDiagnostics.missed)
            return (removed: removed, added: added, diagnostics: registryDiagnostics.diagnostics)
        }
        var found = change.diagnostics.map(HiveDiagnostic.registry)
        // Leaving: modules first, while what they use is still registered.
        found += moduleRecords.unregister(change.removed, from: modules).map(HiveDiagnostic.module)
        found += targetRecords.unregister(change.removed, from: mediator).map(HiveDiagnostic.registry)
        found += routeRecords.unregister(change.removed, from: router).map(HiveDiagnostic.registry)
        found += serviceRecords.unregister(change.removed, from: services).map(HiveDiagnostic.registry)
        // Arriving: modules last, so that their setUp finds their services, routes and targets. Modules still
        // waiting for a dependency are offered again.
        found += serviceRecords.register(change.added, to: services).map(HiveDiagnostic.registry)
        found += routeRecords.register(change.added, to: router).map(HiveDiagnostic.registry)
        found += targetRecords.register(change.added, to: mediator).map(HiveDiagnostic.registry)
        found += moduleRecords.register(change.added, to: modules).map(HiveDiagnostic.module)
        record(found)
        return found
    }

    func record(_ found: [HiveDiagnostic]) {
        guard !found.isEmpty else { return }
        for diagnostic in found {
            if diagnostic.isError {
                logger.error("\(diagnostic)")
            } else {
                logger.warning("\(diagnostic)")
            }
        }
        state.withLock { $0.diagnostics.append(contentsOf: found) }
    }
}
