import BeeHiveLocks
import BeeHiveModules
import Logging

/// Runs a modular app for the life of a Linux process: BeeHive's `BHAppDelegate`.
///
/// It registers what discovery found, starts the modules (setUp, init, splash, async inits), turns signals
/// into module events (SIGHUP: reload, SIGUSR1/2: user events) and, on SIGTERM or SIGINT, sends
/// `willTerminate` and tears the modules down in reverse order.
///
/// Use `runUntilTerminated()` in a plain executable. In a server, run the host in a swift-service-lifecycle
/// `ServiceGroup` through `run(untilShutdown:)`:
///
///     struct ModulesService: Service {
///         let host: HiveHost
///         func run() async throws { try await host.run(untilShutdown: gracefulShutdown) }
///     }
///
/// The adapter lives in the app because the app's copy of ServiceLifecycle must be the one that waits for
/// the graceful shutdown: a copy linked into `libBeeHive.so` would be a second one that never hears it.
public final class HiveHost: Sendable {
    public let hive: Hive
    let logger: Logger
    private let started = Locked(false)

    public init(hive: Hive = .shared, logger: Logger = Logger(label: "beehive.host", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.hive = hive
        self.logger = logger
    }

    /// Registers what discovery found and launches every module; returns once async inits and splash are done.
    /// Calling it again does nothing.
    public func start() async throws(HiveError) {
        guard started.withLock({ started in
            defer { started = true }
            return !started
        }) else { return }
        let diagnostics = hive.refresh()
        logger.info("starting modules", metadata: [
            "annotations": "\(hive.registry.records.count)", "diagnostics": "\(diagnostics.count)",
        ])
        do {
            try hive.modules.start()
            try await hive.modules.waitForLaunch()
        } catch {
            throw .modules(error)
        }
        logger.info("modules started", metadata: ["count": "\(hive.modules.modules.count)"])
    }

    /// Sends `willTerminate`, then tears the modules down in reverse order (tearDown). Does nothing if the
    /// modules never started or were stopped already (by a signal, say).
    public func stop() throws(HiveError) {
        let modules = hive.modules
        guard modules.isStarted && !modules.isStopped else { return }
        logger.info("stopping modules")
        do {
            try modules.trigger(.willTerminate)
            try modules.stop()
        } catch .stopped {
            return
        } catch {
            throw .modules(error)
        }
    }

    /// Starts, then runs until SIGTERM or SIGINT, which give `willTerminate` and tearDown; returns after them.
    /// Signals are handled from before the modules start, so a SIGTERM during startup ends the run cleanly.
    public func runUntilTerminated() async throws(HiveError) {
        let termination = AsyncStream<ProcessSignal>.makeStream()
        let signals = ProcessEventSource(manager: hive.modules, logger: logger) { signal in
            termination.continuation.yield(signal)
            termination.continuation.finish()
        }
        signals.start()
        defer { signals.cancel() }
        try await start()
        for await signal in termination.stream {
            logger.info("terminating", metadata: ["signal": "\(signal)"])
        }
        try await shutdown()
    }

    /// Starts, serves SIGHUP, SIGUSR1 and SIGUSR2 as module events until `waitForShutdown` returns or
    /// throws (pass swift-service-lifecycle's `gracefulShutdown`), then stops the modules either way.
    public func run(untilShutdown waitForShutdown: () async throws -> Void) async throws {
        try await start()
        let signals = ProcessEventSource(manager: hive.modules, signals: [.hangUp, .user1, .user2], logger: logger)
        signals.start()
        defer { signals.cancel() }
        do {
            try await waitForShutdown()
        } catch {
            logger.info("shutdown wait ended", metadata: ["error": "\(error)"])
            try await shutdown()
            throw error
        }
        try await shutdown()
    }
}
