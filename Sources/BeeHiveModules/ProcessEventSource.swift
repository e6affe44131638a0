import Dispatch
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Turns the process's signals into module events: the Linux counterpart of UIApplication's lifecycle.
///
/// - SIGTERM, SIGINT: `willTerminate` (the signal is the custom parameter), then `stop()` (tearDown in
///   reverse order), then `onTermination`, which exits the process by default.
/// - SIGHUP: `reload`. SIGUSR1, SIGUSR2: `userSignal1`, `userSignal2`.
///
/// While started, the signals are ignored by the default action and read by dispatch sources on one
/// serial queue, so hooks run on an ordinary thread rather than in a signal handler. Use one source per
/// process: signal dispositions are process-wide.
public final class ProcessEventSource: Sendable {
    /// Exits with status 0 once the modules are torn down: a graceful shutdown.
    public static let exitProcess: @Sendable (ProcessSignal) -> Void = { _ in exit(EXIT_SUCCESS) }

    public let signals: [ProcessSignal]

    private struct State {
        var sources: [any DispatchSourceSignal] = []
        var previousHandlers: [Int32: __sighandler_t?] = [:]
    }

    private let manager: ModuleManager
    private let logger: Logger
    private let onTermination: @Sendable (ProcessSignal) -> Void
    private let queue = DispatchQueue(label: "beehive.modules.signals")
    private let state = Mutex(State())

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

    /// Starts listening. Calling it again while started does nothing.
    public func start() {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for signal in signals {
                // Ignored, so that the default action (terminate) does not run before the source sees it.
                state.previousHandlers[signal.number] = Glibc.signal(signal.number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signal.number, queue: queue)
                source.setEventHandler { [weak self] in self?.handle(signal) }
                source.resume()
                state.sources.append(source)
            }
        }
        logger.debug("listening for \(signals.map(\.description).joined(separator: ", "))")
    }

    /// Stops listening and gives the signals back their previous handlers.
    public func cancel() {
        state.withLock { state in
            for source in state.sources { source.cancel() }
            state.sources = []
            for (number, handler) in state.previousHandlers { _ = Glibc.signal(number, handler) }
            state.previousHandlers = [:]
        }
    }

    private func handle(_ signal: ProcessSignal) {
        logger.info("received \(signal)")
        do {
            try manager.trigger(signal.event, customParameter: signal)
        } catch {
            logger.error("\(signal.event) after \(signal) failed: \(error)")
        }
        guard signal.event == .willTerminate else { return }
        do {
            try manager.stop()
        } catch {
            logger.error("tearDown after \(signal) failed: \(error)")
        }
        onTermination(signal)
    }
}
