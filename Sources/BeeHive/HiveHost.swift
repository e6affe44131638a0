import BeeHiveLocks
import BeeHiveModules
import Logging
import ServiceLifecycle

/// Runs a modular app for the life of a Linux process: BeeHive's `BHAppDelegate`.
///
/// It registers what discovery found, starts the modules (setUp, init, splash, async inits), turns signals
/// into module events (SIGHUP: reload, SIGUSR1/2: user events) and, on SIGTERM or SIGINT, sends
/// `willTerminate` and tears the modules down in reverse order.
///
/// Use `runUntilTerminated()` in a plain executable, or add the host to a swift-service-lifecycle
/// `ServiceGroup`, whose graceful shutdown (SIGTERM) then tears the modules down.
public final class HiveHost: Service, Sendable {
    public let hive: Hive
    private let logger: Logger
    private let state = Locked(State())

    private struct State {
        var started = false
        var stopped = false
    }

    public init(hive: Hive = .shared, logger: Logger = Logger(label: "beehive.host", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.hive = hive
        self.logger = logger
    }

    /// Registers what discovery found and launches every module; returns once async inits and splash are done.
    public func start() async throws(HiveError) {
        guard state.withLock({ state in
            defer { state.started = true }
            return !state.started
        }) else { return }
        let diagnostics = hive.refresh()
        logger.info("starting modules", metadata: [
            "modules": "\(hive.registry.records.count) annotations", "diagnostics": "\(diagnostics.count)",
        ])
        do {
            try hive.modules.start()
            try await hive.modules.waitForLaunch()
        } catch {
            throw .modules(error)
        }
        logger.info("modules started", metadata: ["count": "\(hive.modules.modules.count)"])
    }

    /// Sends `willTerminate`, then tears the modules down in reverse order (tearDown). Safe to call twice.
    public func stop() throws(HiveError) {
        guard state.withLock({ state in
            defer { state.stopped = true }
            return state.started && !state.stopped
        }) else { return }
        logger.info("stopping modules")
        do {
            try hive.modules.trigger(.willTerminate)
            try hive.modules.stop()
        } catch {
            throw .modules(error)
        }
    }

    /// Starts, then runs until SIGTERM or SIGINT, which give `willTerminate` and tearDown; returns after them.
    public func runUntilTerminated() async throws(HiveError) {
        try await start()
        let termination = AsyncStream<ProcessSignal>.makeStream()
        let signals = ProcessEventSource(manager: hive.modules, logger: logger) { signal in
            termination.continuation.yield(signal)
            termination.continuation.finish()
        }
        signals.start()
        defer { signals.cancel() }
        for await signal in termination.stream {
            logger.info("terminating", metadata: ["signal": "\(signal)"])
        }
        state.withLock { $0.stopped = true }
    }

    /// The `Service` entry point: starts, serves SIGHUP/SIGUSR1/SIGUSR2 as module events until the service
    /// group shuts down gracefully (or the task is cancelled), then stops the modules.
    public func run() async throws {
        try await start()
        let signals = ProcessEventSource(manager: hive.modules, signals: [.hangUp, .user1, .user2], logger: logger)
        signals.start()
        defer { signals.cancel() }
        do {
            try await gracefulShutdown()
        } catch is CancellationError {
            logger.info("cancelled; stopping modules")
        }
        try stop()
    }
}
