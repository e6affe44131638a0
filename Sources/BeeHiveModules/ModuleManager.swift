import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Dispatch
import Logging
import Synchronization

/// Registers modules from code, configuration files and annotations, puts them in one order, drives their
/// lifecycle and delivers events to them (BeeHive's `BHModuleManager`).
///
///     let manager = ModuleManager()
///     try manager.register(NetworkModule.self, level: .basic)
///     try manager.registerModules(fromConfigurationFileAt: "/etc/shop/modules.plist")
///     manager.apply(AnnotationRegistry.shared.snapshot())
///     try manager.start()                 // setUp, init, and splash once every init is done
///     try await manager.waitForLaunch()   // async inits included
///     try manager.trigger(.reload)
///
/// Every method is safe to call from any thread, and from inside a hook.
public final class ModuleManager: Sendable {
    enum Phase {
        case idle, running, stopped
    }

    /// The registered modules in order, and the handlers of each custom event, as dispatches read them.
    ///
    /// `targets` are unretained references to `entries`: a dispatch holds the snapshot, so they stay alive,
    /// and calling through them costs no reference counting per module.
    struct Snapshot: Sendable {
        var entries: [ModuleEntry] = []
        var targets: [Unmanaged<ModuleEntry>] = []
        var names: [String] = []
        var handlers: [CustomEvent: HandlerList] = [:]
    }

    struct HandlerList: Sendable {
        var handlers: [CustomHandler] = []
        var targets: [Unmanaged<CustomHandler>] = []
        var names: [String] = []
    }

    struct State {
        var phase = Phase.idle
        var environment: ModuleEnvironment
        var entries: [ObjectIdentifier: ModuleEntry] = [:]
        var entriesByName: [String: ModuleEntry] = [:]
        var handlers: [ObjectIdentifier: [CustomEvent: [CustomHandler]]] = [:]
        /// Rebuilt on the first dispatch after a change.
        var snapshot: Snapshot?
        var outstandingLaunches = 0
        var launchWaiters: [CheckedContinuation<Void, Never>] = []
        var launchFailure: ModuleError?
        /// Launches running in a task, which `stop()` and `shutdown()` cancel.
        var activeLaunches: [ObjectIdentifier: LaunchBatch] = [:]
        /// The first failure of a module whose failure behaviour is `.stopsApp`.
        var failureStoppingApp: HookFailure?
        var failureWaiters: [CheckedContinuation<HookFailure?, Never>] = []
    }

    public let config: ConfigStore
    public let launchOptions: LaunchOptions
    package let failurePolicy: FailurePolicy
    /// How long each launch hook may run, unless the module says otherwise; nil for no limit.
    package let launchTimeLimit: Duration?
    /// How long each shutdown hook may run, unless the module says otherwise; nil for no limit.
    package let shutdownTimeLimit: Duration?
    public let profiler: TimeProfiler
    /// nil when the configuration sets no threshold.
    public let watchdog: Watchdog?

    let state: Locked<State>
    let log: DiagnosticLog
    let logger: Logger
    /// The hub this manager belongs to (a `Hive`), held weakly since the hub holds the manager, so that hooks
    /// reach its services, router and mediator through their context.
    package let hub = Locked(WeakHub())
    /// Which record became which registration: the one ledger, used by `apply(_:)` and by the hub that feeds
    /// this manager, so that feeding it both ways registers nothing twice.
    package let ledger = RecordLedger<ModuleManager>()
    let asyncQueue = DispatchQueue(label: "beehive.modules.async-init", attributes: .concurrent)
    /// `State.environment` again, as its index in `ModuleEnvironment.allCases`: every hook's context reads it,
    /// and the inits of a launch would otherwise contend for the manager's lock.
    private let environmentIndex: Atomic<UInt8>

    public init(
        configuration: Configuration = Configuration(),
        config: ConfigStore = ConfigStore(),
        logger: Logger = Logger(label: "beehive.modules", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.config = config
        self.logger = logger
        launchOptions = configuration.launchOptions
        failurePolicy = configuration.failurePolicy
        launchTimeLimit = configuration.launchTimeLimit
        shutdownTimeLimit = configuration.shutdownTimeLimit
        profiler = TimeProfiler(isEnabled: configuration.isProfilingEnabled)
        let log = DiagnosticLog(limit: configuration.diagnosticLimit, logger: logger, forward: configuration.onDiagnostic)
        self.log = log
        watchdog = configuration.watchdogThreshold.map { threshold in
            Watchdog(threshold: threshold, reportLimit: configuration.watchdogReportLimit) { report in
                log.report(ModuleDiagnostic(.hookBlocked(report)))
            }
        }
        var environment = configuration.environment ?? .dev
        if configuration.environment == nil, let value = launchOptions.environment[ModuleEnvironment.variableName] {
            do throws(ModuleError) {
                environment = try ModuleEnvironment.fromVariable(in: launchOptions.environment) ?? .dev
            } catch {
                log.report(ModuleDiagnostic(.invalidEnvironment(variable: ModuleEnvironment.variableName, value: value)))
            }
        }
        state = Locked(State(environment: environment))
        environmentIndex = Atomic(Self.index(of: environment))
    }

    /// The environment hooks see; set it in code to override `BEEHIVE_ENV`.
    public var environment: ModuleEnvironment {
        get { ModuleEnvironment.allCases[Int(environmentIndex.load(ordering: .relaxed))] }
        set {
            state.withLock { state in
                state.environment = newValue
                environmentIndex.store(Self.index(of: newValue), ordering: .relaxed)
            }
        }
    }

    private static func index(of environment: ModuleEnvironment) -> UInt8 {
        UInt8(ModuleEnvironment.allCases.firstIndex(of: environment) ?? 0)
    }

    /// The diagnostics so far, in the order reported: the newest `Configuration.diagnosticLimit` (all are
    /// logged and passed to `onDiagnostic`).
    public var diagnostics: [ModuleDiagnostic] {
        log.diagnostics
    }

    /// How many diagnostics `diagnostics` no longer holds because of its limit.
    public var droppedDiagnostics: Int {
        log.dropped
    }

    /// The registered modules, in the order they are set up and notified.
    public var modules: [ModuleDescriptor] {
        state.withLock { Self.snapshot(of: &$0).entries.map(\.descriptor) }
    }

    /// The registered instance of `type`, if any.
    public func module<M: Module>(_ type: M.Type) -> M? {
        state.withLock { $0.entries[ObjectIdentifier(type)]?.module as? M }
    }

    /// True once `start()` ran, also after `stop()`.
    public var isStarted: Bool {
        state.withLock { $0.phase != .idle }
    }

    /// True once `stop()` ran: events are refused from then on.
    public var isStopped: Bool {
        state.withLock { $0.phase == .stopped }
    }

    static func snapshot(of state: inout State) -> Snapshot {
        if let snapshot = state.snapshot { return snapshot }
        let entries = Array(state.entries.values)
        let ordered = ModuleOrder.arrangedIndices(entries.map(\.descriptor)).order.map { entries[$0] }
        var snapshot = Snapshot()
        snapshot.entries = ordered
        snapshot.targets = ordered.map { Unmanaged.passUnretained($0) }
        snapshot.names = ordered.map(\.name)
        for entry in ordered {
            for (event, handlers) in state.handlers[ObjectIdentifier(entry)] ?? [:] {
                var list = snapshot.handlers[event] ?? HandlerList()
                list.handlers += handlers
                list.targets += handlers.map { Unmanaged.passUnretained($0) }
                list.names += handlers.map(\.module)
                snapshot.handlers[event] = list
            }
        }
        state.snapshot = snapshot
        return snapshot
    }
}

/// A weak reference to the hub a manager belongs to.
package struct WeakHub {
    package weak var object: AnyObject?

    package init(_ object: AnyObject? = nil) {
        self.object = object
    }
}
