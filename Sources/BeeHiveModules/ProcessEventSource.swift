import BeeHiveLocks
import Dispatch
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Turns the process's signals into module events: the Linux counterpart of UIApplication's lifecycle.
///
/// - SIGTERM, SIGINT: `willTerminate` (the signal is the custom parameter), then `stop()` (tearDown in
///   reverse order), then `onTermination`, which exits the process by default.
/// - SIGHUP: `reload`. SIGUSR1, SIGUSR2: `userSignal1`, `userSignal2`.
///
/// The signals' default action is set to ignored and dispatch sources read them on one serial queue, so
/// hooks run on an ordinary thread rather than in a signal handler. Signal dispositions are process-wide:
/// use one started source per process.
public final class ProcessEventSource: Sendable {
    /// Exits with status 0 once the modules are torn down: a graceful shutdown.
    public static let exitProcess: @Sendable (ProcessSignal) -> Void = { _ in exit(EXIT_SUCCESS) }

    public let signals: [ProcessSignal]

    private struct State {
        var sources: [any DispatchSourceSignal] = []
    }

    private let manager: ModuleManager
    private let logger: Logger
    private let onTermination: @Sendable (ProcessSignal) -> Void
    private let queue = DispatchQueue(label: "beehive.modules.signals")
    private let state = Locked(State())

    public init(
        manager: ModuleManager,
        signals: [ProcessSignal] = ProcessSignal.allCases,
        logger: Logger = Logger(label: "beehive.modules.signals", factory: { _ in SwiftLogNoOpLogHandler() }),
        onTermination: @escaping @Sendable (ProcessSignal) -> Void = ProcessEventSource.exitProcess
    ) {
        self.manager = manager
        self.signals = signals
        self.logger = logger
        self.onTermination = onTermination
    }

    deinit {
        cancel()
    }

    public var isStarted: Bool {
        state.withLock { !$0.sources.isEmpty }
    }

    /// Starts listening, and returns once every signal source is armed. Calling it again while started
    /// does nothing.
    public func start() {
        let armed = DispatchGroup()
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for signal in signals {
                Self.ignoreDefaultAction(of: signal.number)
                let source = DispatchSource.makeSignalSource(signal: signal.number, queue: queue)
                source.setEventHandler { [weak self] in self?.handle(signal) }
                armed.enter()
                source.setRegistrationHandler { armed.leave() }
                source.resume()
                state.sources.append(source)
            }
        }
        // Sources are armed asynchronously; a signal sent before that would be lost.
        if armed.wait(timeout: .now() + 10) == .timedOut {
            logger.error("signal sources were not armed within 10 s; early signals may be lost")
        }
        logger.debug("listening for \(signals.map(\.description).joined(separator: ", "))")
    }

    /// Stops turning signals into events. The signals stay ignored: libdispatch keeps the handler it
    /// installed for the life of the process, and putting back the default action would kill the process
    /// on the next SIGTERM instead of letting a later source see it.
    public func cancel() {
        state.withLock { state in
            for source in state.sources { source.cancel() }
            state.sources = []
        }
    }

    /// Sets a signal whose action is still the default (terminate) to ignored, so that it cannot kill the
    /// process before the source is armed. A handler already in place (the app's, or libdispatch's from an
    /// earlier source) is left alone: replacing it would lose the signal.
    private static func ignoreDefaultAction(of number: Int32) {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return }
        let isDefault = current.sa_flags & SA_SIGINFO == 0 && current.__sigaction_handler.sa_handler == nil
        if isDefault { _ = Glibc.signal(number, SIG_IGN) }
    }

    private func handle(_ signal: ProcessSignal) {
        logger.info("received \(signal)")
        guard signal.event == .willTerminate else {
            do {
                try manager.trigger(signal.event, customParameter: signal)
            } catch {
                logger.error("\(signal.event) after \(signal) failed: \(error)")
            }
            return
        }
        // In a task, so that the hooks of asynchronous modules are awaited (the synchronous ones run as well).
        Task { [manager, logger, onTermination] in
            do {
                try await manager.terminate(customParameter: signal)
            } catch {
                logger.error("willTerminate or tearDown after \(signal) failed: \(error)")
            }
            onTermination(signal)
        }
    }
}
