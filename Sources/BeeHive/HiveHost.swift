import BeeHiveLocks
import BeeHiveModules
import BeeHiveRegistry
import Foundation
import Logging

/// Runs a modular app for the life of a Linux process: BeeHive's `BHAppDelegate`.
///
/// It registers what discovery found, checks that every annotation is usable, starts the modules (setUp,
/// init, splash, async inits), turns signals into module events (SIGHUP: reload, SIGUSR1/2: user events)
/// and, on SIGTERM or SIGINT, sends `willTerminate` and tears the modules down in reverse order.
///
/// Use `runUntilTerminated()` in a plain executable. In a server, run the host in a swift-service-lifecycle
/// `ServiceGroup` with `HiveService(host.serve)` from the `BeeHiveServiceLifecycle` product (see
/// `serve(untilShutdown:)`), which is linked into the app so that the app's own copy of ServiceLifecycle waits
/// for the graceful shutdown.
public final class HiveHost: Sendable {
    /// What `start()` does when annotations cannot be used (see `Hive.validateAnnotations()`), or plugin folders
    /// or files are refused (`HiveDiagnostic.pluginRefused`).
    public enum StartupCheck: Sendable, Hashable {
        /// Fail with `HiveError.invalidAnnotations`, listing every problem: the default, so that a misspelt
        /// type name or a plugin left out is found at the first run rather than when someone misses it.
        case failOnProblems
        /// Log every problem as an error and start without those annotations and plugins.
        case logProblems
    }

    private enum Phase {
        case idle
        /// The callers that arrived while the start ran, each given its outcome when it ends.
        case starting(waiters: [CheckedContinuation<Result<Void, HiveError>?, Never>])
        case started
    }

    public let hive: Hive
    public let startupCheck: StartupCheck
    let logger: Logger
    /// The variables `start()` reads (`BEEHIVE_PLUGIN_PATH`, and `XDG_CACHE_HOME` and `HOME` for the index
    /// cache): the process's, or a test's.
    private let environment: [String: String]?
    private let phase = Locked(Phase.idle)

    public convenience init(
        hive: Hive = .shared, startupCheck: StartupCheck = .failOnProblems,
        logger: Logger = Logger(label: "beehive.host", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(hive: hive, startupCheck: startupCheck, logger: logger, environment: nil)
    }

    package init(hive: Hive, startupCheck: StartupCheck, logger: Logger, environment: [String: String]?) {
        self.hive = hive
        self.startupCheck = startupCheck
        self.logger = logger
        self.environment = environment
    }

    /// Adds the plugin folders of `BEEHIVE_PLUGIN_PATH` (see `Hive.addPluginDirectories(fromEnvironment:cache:trust:)`),
    /// registers what discovery found, checks it, and launches every module; returns once async inits and
    /// splash are done. Calling it again after it succeeded does nothing; a call made while another caller's
    /// start runs waits for that start and returns or throws as it does (so a server that calls it too accepts
    /// connections only once the modules are up). After a failure, the next call tries again (fix the problem
    /// first: register the missing module, load the plugin...).
    ///
    /// A folder of `BEEHIVE_PLUGIN_PATH` that does not exist is logged as a warning and skipped. Refused plugin
    /// folders and files (see `HiveDiagnostic.pluginRefused`) count as problems, like unusable annotations.
    ///
    /// - Throws: `HiveError.invalidAnnotations` listing every unusable annotation and every refused plugin
    ///   folder or file (unless `startupCheck` is `.logProblems`); `HiveError.modules` when the modules cannot start; `HiveError.twoSwiftRuntimes`
    ///   when a `--static-swift-stdlib` executable links the dynamic core.
    public func start() async throws(HiveError) {
        // Before the first await: with two runtimes, the first suspension crashes.
        if let executable = SwiftRuntime.executableWithSecondRuntime { throw .twoSwiftRuntimes(executable: executable) }
        enum Turn { case run, wait, done }
        while true {
            let turn = phase.withLock { phase -> Turn in
                switch phase {
                case .idle:
                    phase = .starting(waiters: [])
                    return .run
                case .starting: return .wait
                case .started: return .done
                }
            }
            switch turn {
            case .done: return
            case .run: return try await runStart().get()
            case .wait:
                if let outcome = await outcomeOfTheStartUnderWay() { return try outcome.get() }
            }
        }
    }

    private func runStart() async -> Result<Void, HiveError> {
        let outcome: Result<Void, HiveError>
        do throws(HiveError) {
            try await launch()
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        let waiters = phase.withLock { phase in
            guard case .starting(let waiters) = phase else { return [CheckedContinuation<Result<Void, HiveError>?, Never>]() }
            if case .success = outcome { phase = .started } else { phase = .idle }
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
        return outcome
    }

    /// nil when no start is under way any more by the time this caller would be listed.
    private func outcomeOfTheStartUnderWay() async -> Result<Void, HiveError>? {
        await withCheckedContinuation { continuation in
            let listed = phase.withLock { phase in
                guard case .starting(var waiters) = phase else { return false }
                waiters.append(continuation)
                phase = .starting(waiters: waiters)
                return true
            }
            if !listed { continuation.resume(returning: nil) }
        }
    }

    private func launch() async throws(HiveError) {
        if !SectionReader.isDiscoveryEnabled {
            logger.notice("discovery is off (BEEHIVE_DISCOVERY=0): annotations are not read; only modules, services and routes registered in code run")
        }
        // Plugins that carry modules load here, before the modules start; the others on first use.
        let variables = environment ?? ProcessInfo.processInfo.environment
        let cache = PluginIndexCache.standard(environment: variables)
        if cache == nil, variables[Hive.pluginPathVariable]?.isEmpty == false {
            logger.notice("the plugin index cache is off: neither XDG_CACHE_HOME nor HOME is an absolute path, so every start reads every plugin file; set XDG_CACHE_HOME or HOME to keep it")
        }
        let pluginDiagnostics = hive.addPluginDirectories(fromEnvironment: variables, cache: cache)
        for warning in pluginDiagnostics where !warning.isError { logger.warning("\(warning)") }
        let refused = pluginDiagnostics.filter { if case .pluginRefused = $0 { true } else { false } }
        let diagnostics = hive.refresh()
        let problems = refused + hive.validateAnnotations()
        logger.info("starting modules", metadata: [
            "annotations": "\(hive.registry.records.count)", "diagnostics": "\(diagnostics.count)",
            "problems": "\(problems.count)",
        ])
        if !problems.isEmpty {
            for problem in problems { logger.error("\(problem)") }
            if startupCheck == .failOnProblems { throw .invalidAnnotations(problems) }
        }
        do {
            if !hive.modules.isStarted { try hive.modules.start() }
            try await hive.modules.waitForLaunch()
        } catch {
            throw .modules(error)
        }
        logger.info("modules started", metadata: ["count": "\(hive.modules.modules.count)"])
    }

    /// Sends `willTerminate` (with `signal` as its custom parameter, if any), then tears the modules down in
    /// reverse order (tearDown). Does nothing if the modules never started or were stopped already.
    public func stop(after signal: ProcessSignal? = nil) throws(HiveError) {
        let modules = hive.modules
        guard modules.isStarted && !modules.isStopped else { return }
        logger.info("stopping modules")
        do {
            try modules.trigger(.willTerminate, customParameter: signal)
            try modules.stop()
        } catch .stopped {
            return
        } catch {
            throw .modules(error)
        }
    }

    /// Arms the signals, starts, runs `whenStarted` (print a ready line there: the signals are armed by
    /// then), then runs until SIGTERM or SIGINT, which give `willTerminate` and tearDown; returns after them.
    ///
    /// A SIGTERM or SIGINT that arrives while the modules launch cancels the launch (an async init under way
    /// is cancelled; a synchronous hook is waited for, so no module gets `willTerminate` while its setUp
    /// runs), then every module that was set up gets `willTerminate` and is torn down, in reverse order.
    /// When `start()` or `whenStarted` fails, the modules already set up are torn down before the error is
    /// thrown.
    public func runUntilTerminated(whenStarted: @Sendable () async throws -> Void = {}) async throws {
        enum Step: Sendable {
            case started((any Error)?)
            case signal(ProcessSignal?)
        }
        let termination = TerminationSignals()
        let events = ProcessEventSource(manager: hive.modules, signals: [.hangUp, .user1, .user2], logger: logger)
        events.start()
        defer {
            events.cancel()
            termination.cancel()
        }
        let outcome = await withTaskGroup(of: Step.self) { group -> Result<Void, any Error> in
            group.addTask {
                do {
                    try await self.start()
                    return .started(nil)
                } catch {
                    return .started(error)
                }
            }
            group.addTask {
                var signals = termination.received.makeAsyncIterator()
                return .signal(await signals.next())
            }
            switch await group.next() {
            case .signal(let signal):
                logger.info("terminating during the launch", metadata: ["signal": "\(signal.map(\.description) ?? "none")"])
                let stopped = await shutdownResult(after: signal)
                // The launch ends once cancelled; one that had not reached the modules yet is stopped after it.
                _ = await group.next()
                guard case .success = stopped else { return stopped }
                return await shutdownResult(after: signal)
            case .started(let error?):
                group.cancelAll()
                try? await shutdown()
                return .failure(error)
            case .started(nil), nil:
                break
            }
            do {
                try await whenStarted()
            } catch {
                group.cancelAll()
                try? await shutdown()
                return .failure(error)
            }
            var signal: ProcessSignal?
            if case .signal(let received) = await group.next() { signal = received }
            logger.info("terminating", metadata: ["signal": "\(signal.map(\.description) ?? "none")"])
            return await shutdownResult(after: signal)
        }
        try outcome.get()
    }

    private func shutdownResult(after signal: ProcessSignal?) async -> Result<Void, any Error> {
        do {
            try await shutdown(after: signal)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Starts, serves SIGHUP, SIGUSR1 and SIGUSR2 as module events until `waitForShutdown` returns or
    /// throws (pass swift-service-lifecycle's `gracefulShutdown`), then stops the modules either way.
    public func run(untilShutdown waitForShutdown: () async throws -> Void) async throws {
        let signals = ProcessEventSource(manager: hive.modules, signals: [.hangUp, .user1, .user2], logger: logger)
        signals.start()
        defer { signals.cancel() }
        do {
            try await start()
            try await waitForShutdown()
        } catch {
            logger.info("shutdown wait ended", metadata: ["error": "\(error)"])
            try await shutdown()
            throw error
        }
        try await shutdown()
    }
}
