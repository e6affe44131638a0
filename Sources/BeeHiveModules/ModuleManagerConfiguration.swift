extension ModuleManager {
    /// How a manager runs; every property has a default.
    public struct Configuration: Sendable {
        /// The environment; nil reads `BEEHIVE_ENV` from the launch options' environment, else `dev`.
        public var environment: ModuleEnvironment?
        /// What a throwing hook does to the rest of its dispatch. Default: `.continue`.
        public var failurePolicy: FailurePolicy
        /// Report hooks that block longer than this; nil (the default) turns the watchdog off.
        public var watchdogThreshold: Duration?
        /// How long each launch hook (setUp, init, splash) of a module may run; 30 s by default, nil for no
        /// limit. A module overrides it with `hookTimeLimit`.
        public var launchTimeLimit: Duration?
        /// How long each shutdown hook (willTerminate, tearDown) of a module may run; 30 s by default.
        public var shutdownTimeLimit: Duration?
        /// Record the time of every hook. Off by default.
        public var isProfilingEnabled: Bool
        public var launchOptions: LaunchOptions
        /// How many diagnostics `ModuleManager.diagnostics` keeps, the newest; the older are counted in
        /// `droppedDiagnostics`. 1000 by default.
        public var diagnosticLimit: Int
        /// How many reports `Watchdog.reports` keeps, the newest; the older are counted in `droppedReports`.
        /// 1000 by default.
        public var watchdogReportLimit: Int
        /// Called with every diagnostic (duplicates, failing hooks, watchdog reports) as it happens, on the
        /// thread that found it.
        public var onDiagnostic: (@Sendable (ModuleDiagnostic) -> Void)?

        public init(
            environment: ModuleEnvironment? = nil,
            failurePolicy: FailurePolicy = .continue,
            watchdogThreshold: Duration? = nil,
            launchTimeLimit: Duration? = .seconds(30),
            shutdownTimeLimit: Duration? = .seconds(30),
            isProfilingEnabled: Bool = false,
            launchOptions: LaunchOptions = .current,
            diagnosticLimit: Int = 1000,
            watchdogReportLimit: Int = 1000,
            onDiagnostic: (@Sendable (ModuleDiagnostic) -> Void)? = nil
        ) {
            self.environment = environment
            self.failurePolicy = failurePolicy
            self.watchdogThreshold = watchdogThreshold
            self.launchTimeLimit = launchTimeLimit
            self.shutdownTimeLimit = shutdownTimeLimit
            self.isProfilingEnabled = isProfilingEnabled
            self.launchOptions = launchOptions
            self.diagnosticLimit = diagnosticLimit
            self.watchdogReportLimit = watchdogReportLimit
            self.onDiagnostic = onDiagnostic
        }
    }
}
