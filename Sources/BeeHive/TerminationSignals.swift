import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveModules
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT, armed when made and reported as a stream: the host decides when to act on them, so a
/// signal that arrives while modules launch ends the run once the launch is over, never in the middle of a
/// module's setUp.
final class TerminationSignals: Sendable {
    let received: AsyncStream<ProcessSignal>
    private let continuation: AsyncStream<ProcessSignal>.Continuation
    private let sources = Locked<[any DispatchSourceSignal]>([])
    private let queue = DispatchQueue(label: "beehive.host.termination")

    /// Returns once every source is armed, so no signal sent after it is lost.
    init(_ signals: [ProcessSignal] = [.terminate, .interrupt]) {
        (received, continuation) = AsyncStream<ProcessSignal>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let armed = DispatchGroup()
        sources.withLock { sources in
            for signal in signals {
                Self.ignoreDefaultAction(of: signal.number)
                let source = DispatchSource.makeSignalSource(signal: signal.number, queue: queue)
                source.setEventHandler { [continuation] in continuation.yield(signal) }
                armed.enter()
                source.setRegistrationHandler { armed.leave() }
                source.resume()
                sources.append(source)
            }
        }
        _ = armed.wait(timeout: .now() + 10)
    }

    deinit {
        cancel()
    }

    func cancel() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources = []
        }
        continuation.finish()
    }

    /// As `ProcessEventSource` does: a signal still at its default action (terminate) is set to ignored, so it
    /// cannot kill the process before the source sees it; a handler already in place is left alone.
    private static func ignoreDefaultAction(of number: Int32) {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return }
        let isDefault = current.sa_flags & SA_SIGINFO == 0 && current.__sigaction_handler.sa_handler == nil
        if isDefault { _ = Glibc.signal(number, SIG_IGN) }
    }
}
